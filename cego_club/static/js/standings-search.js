// The ranking's search and the reader's own row, both in the browser: the standings page is
// one cached page for every spectator (docs/architecture/tournaments.md, "Caching by revision"), so
// nothing of one reader's goes to the server.
// - Typing a name (every word, umlauts spelt either way: "Muller", "Mueller" and "Müller"
//   find Müller) or a start number (the number exactly) hides the other rows.
// - A link to "#entry-<id>" (the phone's table page) marks that row and scrolls it into view.
// The live refresh (live-refresh.js) replaces the table: both are applied again after it.
(function () {
  "use strict";
  var form = document.querySelector("form[data-ranking-search]");
  if (!form) { return; }
  var area = document.querySelector(form.getAttribute("data-ranking-search"));
  if (!area) { return; }
  var input = form.querySelector("input[type=search]");
  var status = form.querySelector(".ranking-search-status");
  var myRowLink = form.querySelector(".my-row-link");

  function fold(text, short) {
    text = text.toLowerCase();
    text = short
      ? text.replace(/ä/g, "a").replace(/ö/g, "o").replace(/ü/g, "u")
      : text.replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue");
    return text.replace(/ß/g, "ss").normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  function rows() {
    return area.querySelectorAll("table.standings-table > tbody > tr");
  }

  function matcher(query) {
    var words = query.trim().split(/\s+/).filter(Boolean);
    if (!words.length) { return null; }
    if (words.length === 1 && /^\d+$/.test(words[0])) {
      var number = String(parseInt(words[0], 10));
      return function (row) {
        var cell = row.querySelector("td.col-number");
        return !!cell && cell.textContent.trim() === number;
      };
    }
    var long = words.map(function (w) { return fold(w, false); });
    var short = words.map(function (w) { return fold(w, true); });
    return function (row) {
      var player = row.querySelector(".player");
      if (!player) { return false; }
      var name = player.textContent;
      var nameLong = fold(name, false), nameShort = fold(name, true);
      return long.every(function (word, i) {
        return nameLong.indexOf(word) !== -1 || nameShort.indexOf(short[i]) !== -1;
      });
    };
  }

  function filter() {
    var matches = matcher(input.value);
    var all = rows(), shown = 0, total = 0;
    Array.prototype.forEach.call(all, function (row) {
      if (!row.querySelector("td.name")) { return; }  // "no results yet"
      total += 1;
      var on = !matches || matches(row);
      row.hidden = !on;
      if (on) { shown += 1; }
    });
    if (!matches) { status.textContent = ""; }
    else if (!shown) { status.textContent = form.getAttribute("data-none"); }
    else {
      status.textContent = form.getAttribute("data-found")
        .replace("{count}", shown).replace("{total}", total);
    }
  }

  function markedId() {
    var match = /^#(entry-\d+)$/.exec(window.location.hash);
    return match ? match[1] : null;
  }

  function mark(scroll) {
    var id = markedId();
    area.querySelectorAll("tr.mine").forEach(function (row) {
      row.classList.remove("mine");
      row.removeAttribute("aria-current");
    });
    var row = id && document.getElementById(id);
    myRowLink.hidden = !row;
    if (!row || !area.contains(row)) { return; }
    row.classList.add("mine");
    row.setAttribute("aria-current", "true");
    myRowLink.setAttribute("href", "#" + id);
    if (scroll) { row.scrollIntoView({ block: "center" }); }
  }

  form.hidden = false;
  input.addEventListener("input", filter);
  input.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && input.value) { input.value = ""; filter(); }
  });
  form.addEventListener("submit", function (event) {
    // Enter: to the first row found (and the phone's keyboard out of the way)
    event.preventDefault();
    var first = Array.prototype.find.call(rows(), function (row) { return !row.hidden; });
    if (first && input.value.trim()) { input.blur(); first.scrollIntoView({ block: "center" }); }
  });
  myRowLink.addEventListener("click", function (event) {
    // the own row even while the search hides it
    event.preventDefault();
    if (input.value) { input.value = ""; filter(); }
    mark(true);
  });
  window.addEventListener("hashchange", function () { mark(true); });
  // The live refresh swaps the area's content: search and mark again, without scrolling.
  new MutationObserver(function () { filter(); mark(false); })
    .observe(area, { childList: true });
  filter();
  mark(false);
  // The browser scrolls to the fragment's row itself, at the top edge, once the page has
  // loaded: put it in the middle after that, with the rows above it in sight too.
  function centre() { window.setTimeout(function () { mark(true); }, 0); }
  if (document.readyState === "complete") { centre(); }
  else { window.addEventListener("load", centre); }
})();
