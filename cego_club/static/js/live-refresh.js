// Live regions: every [data-live-url] element replaces its content with a fresh copy
// fetched from that URL every data-live-seconds seconds. No flicker (one innerHTML swap),
// no library; it waits while the tab is hidden or the user works inside the region, and
// marks the region data-stale when the network is gone (the old standings stay visible).
(function () {
  "use strict";
  document.querySelectorAll("[data-live-url]").forEach(function (region) {
    var seconds = Math.max(5, parseInt(region.dataset.liveSeconds || "20", 10));
    function schedule() { window.setTimeout(tick, seconds * 1000); }
    function busy() {
      var active = document.activeElement;
      return document.hidden || (active && active !== document.body && region.contains(active));
    }
    function tick() {
      if (busy()) { schedule(); return; }
      fetch(region.dataset.liveUrl, { credentials: "same-origin", cache: "no-store" })
        .then(function (response) {
          if (!response.ok) { throw new Error(response.status); }
          return response.text();
        })
        .then(function (html) {
          var scrolled = Array.prototype.map.call(
            region.querySelectorAll(".table-container"), function (el) { return el.scrollLeft; });
          region.innerHTML = html;
          region.querySelectorAll(".table-container").forEach(function (el, i) {
            if (scrolled[i]) { el.scrollLeft = scrolled[i]; }
          });
          region.removeAttribute("data-stale");
        })
        .catch(function () { region.setAttribute("data-stale", ""); })
        .then(schedule);
    }
    schedule();
  });
})();
