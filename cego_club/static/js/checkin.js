// The check-in desk: after a click the page comes back at the player's row (the server's
// redirect carries "#entry-<id>"); the search stays focused without jumping to the top, so
// the next arrival is typed at once. Without this script the anchor and the sticky search
// bar do the same, only the focus may be lost. The browser's own scroll to the fragment
// moves the focus to the page (the row cannot take it), so the search is focused again
// once the page has loaded.
(function () {
  "use strict";
  var search = document.getElementById("checkin-q");
  if (!search) return;
  var row = location.hash && document.getElementById(location.hash.slice(1));
  if (!row) return;
  function ready() {
    row.scrollIntoView({ block: "center" });
    search.focus({ preventScroll: true });
  }
  ready();
  window.addEventListener("load", function () {
    window.setTimeout(ready, 0);
  });
})();
