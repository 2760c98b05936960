// The deal form: show only the fields the chosen contract uses, and never send twice.
(function () {
  "use strict";
  function setup(form) {
    var kindsNode = document.getElementById("contract-kinds");
    var kinds = kindsNode ? JSON.parse(kindsNode.textContent) : {};
    var contract = form.querySelector("[name=contract]");
    function update() {
      var kind = kinds[contract.value] || "";
      form.querySelectorAll("[data-kinds]").forEach(function (group) {
        var show = group.getAttribute("data-kinds").split(" ").indexOf(kind) !== -1;
        group.hidden = !show;
      });
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
