// Projector: shows the standings screen by screen (every player in turn), data-page-seconds
// each. The live refresh replaces the board; the page shown carries on from where it was.
(function () {
  "use strict";
  var board = document.getElementById("projector-board");
  if (!board) { return; }
  var current = 1;
  function show() {
    var pages = board.querySelectorAll(".projector-page");
    if (!pages.length) { return; }
    if (current > pages.length) { current = 1; }
    pages.forEach(function (page, index) { page.hidden = index + 1 !== current; });
  }
  function tick() {
    var holder = board.querySelector(".projector-pages");
    var seconds = holder ? Math.max(3, parseInt(holder.dataset.pageSeconds || "12", 10)) : 12;
    window.setTimeout(function () { current += 1; show(); tick(); }, seconds * 1000);
  }
  // After each refresh the new board starts on page 1: put back the page being shown.
  new MutationObserver(show).observe(board, { childList: true });
  show();
  tick();
})();
