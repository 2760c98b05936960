// The deal form: show only the fields the chosen contract uses, and never send twice.
(function () {
  "use strict";
  function setup(form) {
    var kindsNode = document.getElementById("contract-kinds");
    var kinds = kindsNode ? JSON.parse(kindsNode.textContent) : {};
    var contract = form.querySelector("[name=contract]");
    var declarer = form.querySelector("select[name=declarer]");
    var declarerLabel = form.querySelector("[data-declarer-label]");
    var number = form.querySelector("[name=number]");
    var preselected = false;
    // A Räuber's "declarer" is forehand, who announced it: say so and preselect forehand
    // (the player after the dealer; seat 1 deals deal 1). Labels only, never the submit.
    function raeuber(on) {
      if (!declarer) return;
      if (declarerLabel) {
        declarerLabel.textContent = (on ? declarer.dataset.raeuberLabel : declarer.dataset.label) + ":";
      }
      var size = parseInt(declarer.dataset.tableSize, 10);
      var deal = number ? parseInt(number.value, 10) : NaN;
      if (on && size && deal > 0 && (declarer.value === "" || preselected)) {
        declarer.value = String(deal % size);
        preselected = true;
      } else if (!on && preselected) {
        declarer.value = "";
        preselected = false;
      }
    }
    if (declarer) declarer.addEventListener("change", function () { preselected = false; });
    if (number) number.addEventListener("input", function () { update(); });
    function update() {
      var kind = kinds[contract.value] || "";
      form.querySelectorAll("[data-kinds]").forEach(function (group) {
        var show = group.getAttribute("data-kinds").split(" ").indexOf(kind) !== -1;
        group.hidden = !show;
      });
      raeuber(kind === "raeuber");
    }
    if (contract) {
      contract.addEventListener("change", update);
      update();
    }
    form.addEventListener("submit", function () {
      form.querySelectorAll("button[data-once]").forEach(function (button) {
        // Disabled after the browser has taken the form's values: a second tap does nothing.
        window.setTimeout(function () { button.disabled = true; }, 0);
      });
    });
  }
  document.querySelectorAll("form.deal-form").forEach(setup);
})();

// The card counter's "use as card points" button fills in the declarer's points.
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-take-points]");
  if (!button) { return; }
  var form = button.closest("form");
  var field = form && form.querySelector("[name=declarer_points]");
  if (field) {
    field.value = button.getAttribute("data-take-points");
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.dispatchEvent(new Event("change", { bubbles: true }));
    field.focus();
  }
});

// A wide sheet on a narrow screen says that it scrolls sideways.
(function () {
  "use strict";
  function mark() {
    document.querySelectorAll(".table-container").forEach(function (box) {
      var overflows = box.scrollWidth > box.clientWidth + 1;
      box.classList.toggle("overflows", overflows);
      var hint = box.previousElementSibling;
      if (hint && hint.hasAttribute("data-scroll-hint")) hint.hidden = !overflows;
    });
  }
  window.addEventListener("resize", mark);
  document.addEventListener("htmx:afterSwap", mark);
  mark();
})();

// Without a connection the preview cannot be computed (the engine is on the laptop): say so
// instead of leaving the old scores, or none, without a word.
(function () {
  "use strict";
  function offline() {
    var preview = document.getElementById("preview");
    if (!preview) return;
    var note = document.createElement("p");
    note.className = "muted offline-preview";
    note.textContent = preview.getAttribute("data-offline-text");
    preview.replaceChildren(note);
  }
  document.addEventListener("htmx:sendError", offline);
  document.addEventListener("htmx:responseError", function (event) {
    if (event.detail.xhr && event.detail.xhr.status >= 500) offline();
  });
})();
