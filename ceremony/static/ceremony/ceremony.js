// The prize ceremony on the projector: the stage follows the desk (fetched every few
// seconds, so a phone used as the remote moves it too); where the page offers to steer
// (data-step-url: the desk's own browser), → / space / PageDown / a click go forwards and
// ← / PageUp back (a presenter's clicker sends those keys).
(function () {
  "use strict";
  var stage = document.getElementById("ceremony-stage");
  if (!stage) { return; }
  var seconds = parseFloat(stage.dataset.stageSeconds || "1.5");
  var busy = false;
  // Each look at the stage and each step gets the next number; an answer is shown only if
  // nothing was asked after it. A look set off before a step and answered after it holds the
  // stage as it was, and showed the hall the step before again.
  var asked = 0;
  function refresh() {
    var mine = ++asked;
    return fetch(stage.dataset.stageUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) { throw new Error(response.status); }
        return response.text();
      })
      .then(function (html) {
        if (mine !== asked) { return; }
        stage.innerHTML = html;
        stage.removeAttribute("data-stale");
      })
      .catch(function () { if (mine === asked) { stage.setAttribute("data-stale", ""); } });
  }
  function tick() {
    (document.hidden || busy ? Promise.resolve() : refresh()).then(function () {
      window.setTimeout(tick, seconds * 1000);
    });
  }
  window.setTimeout(tick, seconds * 1000);
  if (!stage.dataset.stepUrl) { return; }
  function step(direction) {
    if (busy) { return; }
    busy = true;
    asked += 1;  // a look already on its way shows the stage from before the step: dropped
    var body = new URLSearchParams({ direction: direction });
    fetch(stage.dataset.stepUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": stage.dataset.csrf, "X-Requested-With": "fetch" },
      body: body
    }).then(function () { busy = false; return refresh(); }, function () { busy = false; });
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.key === "ArrowRight" || event.key === " " || event.key === "PageDown") {
      event.preventDefault(); step("next");
    } else if (event.key === "ArrowLeft" || event.key === "PageUp") {
      event.preventDefault(); step("back");
    }
  });
  stage.addEventListener("click", function () { step("next"); });
})();
