// Projector: lays every player of the board's one list out in as many columns as the screen
// holds with the names in full ("Müller, Hans", the club beside it where there is room; the
// first name cut to its initial only where the column is too narrow for it), as many rows as
// fit the screen's height, and shows the screens in turn, data-page-seconds each
// ("Seite 1/3" in the foot line). Nothing is cut off and nothing runs below the screen. The
// live refresh replaces the board: it is laid out again and stays on the screen it was on.
(function () {
  "use strict";
  var board = document.getElementById("projector-board");
  if (!board) { return; }
  var MAX_COLUMNS = 8;
  // A column count is fine when every last name fits (with the first name's initial, set at
  // least MIN_SCALE of the row's size; a very few, RARE_SHARE, at least RARE_SCALE) and at least
  // FULL_SHARE of the names fit in full. One double-barrelled name costs nobody a column.
  var FULL_SHARE = 0.5;
  var MIN_SCALE = 0.7;
  var RARE_SCALE = 0.55;
  var RARE_SHARE = 0.02;
  var current = 0;
  var pages = [];
  var rows = [];
  var head = null;

  function px(value) { return parseFloat(value) || 0; }

  function widths(table, selector) {
    // the width of each row's name cell content, on one line
    var range = document.createRange();
    return rows.map(function (row) {
      var cell = row.querySelector(selector);
      range.selectNodeContents(cell);
      return range.getBoundingClientRect().width;
    });
  }

  function measure(body) {
    var table = document.createElement("table");
    table.className = "projector-table measuring";
    table.appendChild(head.cloneNode(true));
    var tbody = document.createElement("tbody");
    rows.forEach(function (row) {
      row.classList.remove("short", "no-club", "scaled", "wrapped");
      row.style.removeProperty("--name-scale");
      tbody.appendChild(row);
    });
    table.appendChild(tbody);
    body.appendChild(table);
    var cell = rows[0].cells[1];
    var style = getComputedStyle(cell);
    var found = {
      rank: table.tHead.rows[0].cells[0].getBoundingClientRect().width,
      total: table.tHead.rows[0].cells[2].getBoundingClientRect().width,
      padding: px(style.paddingLeft) + px(style.paddingRight) + 2,
      row: Math.max.apply(null, rows.map(function (r) { return r.getBoundingClientRect().height; })),
      head: table.tHead.getBoundingClientRect().height,
      withClub: widths(table, "td.name"),
    };
    rows.forEach(function (row) { row.classList.add("no-club"); });
    found.full = widths(table, "td.name");
    rows.forEach(function (row) { row.classList.add("short"); });
    found.short = widths(table, "td.name");
    rows.forEach(function (row) { row.classList.remove("short", "no-club"); });
    body.removeChild(table);
    return found;
  }

  function choose(found, width, height, gap) {
    var count = rows.length;
    var perColumn = Math.max(1, Math.floor((height - found.head) / found.row));
    var needed = Math.ceil(count / perColumn);
    var columns = Math.min(needed, MAX_COLUMNS);
    var nameWidth = 0;
    for (; columns >= 1; columns -= 1) {
      var column = (width - (columns - 1) * gap) / columns;
      if (columns === 1) { column = Math.min(column, Math.max(width * 0.6, found.rank + found.total + Math.max.apply(null, found.withClub) + found.padding)); column = Math.min(column, width); }
      nameWidth = column - found.rank - found.total - found.padding;
      var inFull = found.full.filter(function (w) { return w <= nameWidth; }).length;
      var squeezed = found.short.filter(function (w) { return w * MIN_SCALE > nameWidth; });
      var shortFit = squeezed.length <= Math.max(2, RARE_SHARE * count)
        && squeezed.every(function (w) { return w * RARE_SCALE <= nameWidth; });
      if (columns === 1 || (shortFit && inFull >= FULL_SHARE * count)) {
        return { columns: columns, column: column, name: nameWidth, perColumn: columns >= needed ? Math.ceil(count / columns) : perColumn };
      }
    }
    return null;
  }

  function layout() {
    var body = board.querySelector(".projector-body");
    if (!body) { return; }
    var fresh = body.querySelector(":scope > table.projector-table");
    if (fresh) {  // a new board (page load or refresh): its one list
      head = fresh.tHead;
      rows = Array.prototype.slice.call(fresh.tBodies[0].rows);
      fresh.remove();
    }
    if (!rows.length) { return; }
    var old = body.querySelector(".projector-pages");
    if (old) { old.remove(); }
    var found = measure(body);
    var gap = window.innerWidth * 0.025;
    var plan = choose(found, body.clientWidth, body.clientHeight, gap);
    body.dataset.layout = plan.columns + "x" + plan.perColumn;  // what was chosen, for tests
    rows.forEach(function (row, index) {
      var name = plan.name;
      if (found.withClub[index] <= name) { return; }
      row.classList.add("no-club");
      if (found.full[index] <= name) { return; }
      row.classList.add("short");
      if (found.short[index] <= name) { return; }
      var scale = name / found.short[index];
      row.classList.add("scaled");
      row.style.setProperty("--name-scale", Math.max(RARE_SCALE, scale * 0.98).toFixed(3));
      if (scale < RARE_SCALE) { row.classList.add("wrapped"); }  // one column too narrow
    });
    var holder = document.createElement("div");
    holder.className = "projector-pages";
    var perPage = plan.perColumn * plan.columns;
    pages = [];
    for (var start = 0; start < rows.length; start += perPage) {
      var page = document.createElement("div");
      page.className = "projector-page";
      page.dataset.page = String(pages.length + 1);
      var grid = document.createElement("div");
      grid.className = "projector-columns";
      grid.style.gridTemplateColumns = "repeat(" + plan.columns + ", " + plan.column + "px)";
      grid.style.columnGap = gap + "px";
      var onPage = rows.slice(start, start + perPage);
      for (var c = 0; c < onPage.length; c += plan.perColumn) {
        var table = document.createElement("table");
        table.className = "projector-table";
        var heading = head.cloneNode(true);
        heading.rows[0].cells[0].style.width = found.rank + "px";
        heading.rows[0].cells[2].style.width = found.total + "px";
        table.appendChild(heading);
        var tbody = document.createElement("tbody");
        onPage.slice(c, c + plan.perColumn).forEach(function (row) { tbody.appendChild(row); });
        table.appendChild(tbody);
        grid.appendChild(table);
      }
      page.appendChild(grid);
      holder.appendChild(page);
      pages.push(page);
    }
    body.appendChild(holder);
    show();
  }

  function show() {
    if (!pages.length) { return; }
    if (current >= pages.length) { current = 0; }
    pages.forEach(function (page, index) { page.hidden = index !== current; });
    var more = board.querySelector(".projector-more");
    var body = board.querySelector(".projector-body");
    if (!more || !body) { return; }
    if (more.dataset.players === undefined) { more.dataset.players = more.textContent; }
    more.textContent = pages.length > 1
      ? body.dataset.pageText.replace("%(page)s", current + 1).replace("%(pages)s", pages.length)
        + " · " + more.dataset.players
      : more.dataset.players;
  }

  function tick() {
    var body = board.querySelector(".projector-body");
    var seconds = body ? Math.max(3, parseInt(body.dataset.pageSeconds || "12", 10)) : 12;
    window.setTimeout(function () { current += 1; show(); tick(); }, seconds * 1000);
  }

  // After each refresh: lay the new board out on the screen being shown, start its clock.
  new MutationObserver(function () {
    layout();
    if (window.cegoRoundClocks) { window.cegoRoundClocks(); }
  }).observe(board, { childList: true });
  var resizing = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizing);
    resizing = window.setTimeout(layout, 200);
  });
  layout();
  board.dataset.laidOut = "1";
  tick();
})();
