// The desk's banner of open calls for the referee (tournaments/views/hall.py): fetched as
// soon as the page is there and again every data-calls-seconds seconds, so a table's call
// shows on every page of the tournament the organisers and referees have open. It is not
// replaced while someone types a note into it (the note would be lost).
(function () {
  "use strict";
  var region = document.getElementById("referee-calls");
  if (!region || !region.dataset.callsUrl) return;
  var seconds = Math.max(3, parseInt(region.dataset.callsSeconds || "10", 10));
  function busy() {
    var active = document.activeElement;
    if (active && active !== document.body && region.contains(active)) return true;
    return Array.prototype.some.call(region.querySelectorAll("input[type=text]"), function (input) {
      return input.value !== "";
    });
  }
  function schedule() { window.setTimeout(tick, seconds * 1000); }
  function tick() {
    if (busy()) { schedule(); return; }
    fetch(region.dataset.callsUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) { throw new Error(response.status); }
        return response.text();
      })
      .then(function (html) {
        if (!busy() && region.innerHTML !== html) { region.innerHTML = html; }
        region.removeAttribute("data-stale");
      })
      .catch(function () { region.setAttribute("data-stale", ""); })
      .then(schedule);
  }
  tick();
})();
