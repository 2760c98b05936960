// The press report's "Text kopieren": the text box as edited goes to the clipboard; without
// the clipboard API (plain http on the hall's network) the text is selected and copied the
// old way. The button shows only where a script runs.
(function () {
  "use strict";
  var button = document.getElementById("press-copy");
  var box = document.getElementById("press-text");
  var status = document.getElementById("press-status");
  if (!button || !box) { return; }
  button.hidden = false;
  function say(text) { if (status) { status.textContent = text; } }
  function fallback() {
    box.focus();
    box.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    say(done ? button.dataset.copied : button.dataset.failed);
  }
  button.addEventListener("click", function () {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(box.value).then(function () {
        say(button.dataset.copied);
      }, fallback);
    } else {
      fallback();
    }
  });
})();
