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
