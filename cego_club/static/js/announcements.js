// The desk's announcements on the projector: one whose time is over before the next change
// (the board is cached until the tournament changes) is hidden here, by the server's clock
// (data-now, put in per request) rather than the device's. Checked every few seconds and
// after each refresh of the board; the projector's layout is then measured again.
(function () {
  "use strict";
  function check() {
    var hid = false;
    document.querySelectorAll("[data-announcements]").forEach(function (box) {
      var skew = Date.parse(box.dataset.now) - Date.now();
      if (isNaN(skew)) skew = 0;
      var shown = 0;
      box.querySelectorAll("[data-until]").forEach(function (item) {
        if (!item.hidden && Date.parse(item.dataset.until) <= Date.now() + skew) {
          item.hidden = true;
          hid = true;
        }
      });
      box.querySelectorAll(".announcement").forEach(function (item) { if (!item.hidden) shown++; });
      if (!shown && !box.hidden) { box.hidden = true; hid = true; }
    });
    if (hid) window.dispatchEvent(new Event("resize"));
  }
  check();
  window.setInterval(check, 5000);
})();
