// The round clock: counts down to the server-given end time. The page's own "now" from the
// server corrects a wrong device clock; no network needed once the page is loaded. Pages that
// refresh a part holding a clock call window.cegoRoundClocks() after the swap.
(function () {
  "use strict";
  function start() {
    document.querySelectorAll("[data-round-clock]").forEach(function (clock) {
      if (clock.dataset.started) return;
      clock.dataset.started = "1";
      var ends = Date.parse(clock.dataset.endsAt);
      var skew = Date.parse(clock.dataset.now) - Date.now();
      if (isNaN(skew)) skew = 0;
      var out = clock.querySelector(".clock-left");
      if (ends <= Date.parse(clock.dataset.now)) clock.dataset.wasOver = "1";
      function pad(n) { return n < 10 ? "0" + n : String(n); }
      function tick() {
        if (!clock.isConnected) return;  // replaced by a refresh: its successor ticks
        var left = Math.round((ends - (Date.now() + skew)) / 1000);
        if (left <= 0) {
          out.textContent = clock.dataset.over;
          clock.classList.add("over");
          // the organiser's round page reloads once at the end to list unfinished tables
          if (clock.dataset.reloadWhenOver !== undefined && !clock.dataset.wasOver) {
            window.location.reload();
          }
          return;
        }
        var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
        out.textContent = (h ? h + ":" + pad(m) : String(m)) + ":" + pad(s);
        setTimeout(tick, 1000 - (Date.now() % 1000));
      }
      tick();
    });
  }
  window.cegoRoundClocks = start;
  start();
})();
