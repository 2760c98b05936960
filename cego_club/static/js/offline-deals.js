// Phones that lose the connection: a deal saved while the phone cannot reach the server
// stays on the phone (localStorage), is listed as "saved on this phone, not sent yet", and is
// sent when the connection is back, with the submission key it was entered with, so the
// server stores it once however often it arrives.
(function () {
  "use strict";
  var form = document.querySelector("form[data-offline-queue]");
  var box = document.getElementById("offline-queue");
  if (!form || !box || !window.fetch || !window.localStorage) { return; }
  var storeKey = "cego-unsent:" + form.getAttribute("data-offline-queue");
  var sending = false;

  function load() {
    try { return JSON.parse(window.localStorage.getItem(storeKey) || "[]"); } catch (e) { return []; }
  }
  function store(items) {
    if (items.length) { window.localStorage.setItem(storeKey, JSON.stringify(items)); }
    else { window.localStorage.removeItem(storeKey); }
  }
  function without(key) { store(load().filter(function (item) { return item.key !== key; })); }

  function render() {
    var items = load();
    var list = box.querySelector("ul");
    list.textContent = "";
    items.forEach(function (item) {
      var line = document.createElement("li");
      line.textContent = box.getAttribute("data-line").replace("{number}", item.number);
      list.appendChild(line);
    });
    box.hidden = items.length === 0;
  }

  // A version 4 UUID; crypto.randomUUID needs HTTPS, which the hall's network does not have.
  function newKey() {
    var b = window.crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function fieldsOf(theForm) {
    var pairs = [];
    new FormData(theForm).forEach(function (value, name) { pairs.push([name, String(value)]); });
    return pairs;
  }

  function post(url, pairs) {
    // redirect "manual": the server's redirect after storing (with its "saved" message) is
    // followed by the page itself, not swallowed by fetch.
    var options = {
      method: "POST", body: new URLSearchParams(pairs), credentials: "same-origin", redirect: "manual",
    };
    // A send that gets no answer (the laptop asleep mid-request, a Wi-Fi that holds the
    // connection open) is given up after a while, as if offline: the deal is kept on the phone
    // and sent again with the same key, which the server stores once. Without this, one hung
    // send kept the phone from ever sending its queue.
    var waitMs = Number(form.getAttribute("data-send-timeout-ms")) || 20000;
    if (window.AbortController) {
      var controller = new AbortController();
      options.signal = controller.signal;
      window.setTimeout(function () { controller.abort(); }, waitMs);
    }
    return window.fetch(url, options);
  }

  function stored(response) { return response.type === "opaqueredirect" || response.redirected; }
  // An answer, but from a server that could not store anything (the database down, a crash,
  // a proxy in between): the deal stays on the phone as if there were no answer.
  function serverTrouble(response) { return response.status >= 500; }

  // The server refused a deal (bad input, number taken): send the form natively so that the
  // player sees the server's answer next to the fields. Nothing was stored, so nothing twice.
  function showRefusal(pairs) {
    pairs.forEach(function (pair) {
      var field = form.querySelector("[name='" + pair[0] + "']");
      if (!field || field.type === "checkbox") { return; }
      field.value = pair[1];
    });
    form.querySelectorAll("input[type=checkbox]").forEach(function (box) {
      box.checked = pairs.some(function (pair) { return pair[0] === box.name; });
    });
    HTMLFormElement.prototype.submit.call(form);
  }

  function keepOnPhone(pairs) {
    var number = Number((pairs.filter(function (p) { return p[0] === "number"; })[0] || [])[1]);
    var key = (pairs.filter(function (p) { return p[0] === "submission_key"; })[0] || [])[1];
    var items = load();
    if (!items.some(function (item) { return item.key === key; })) {
      items.push({ key: key, number: number, url: form.action || window.location.href, fields: pairs });
      store(items);
    }
    render();
    // Ready for the next deal, with a fresh key.
    form.reset();
    var numberField = form.querySelector("[name=number]");
    var max = Number(numberField.getAttribute("max")) || number + 1;
    numberField.value = String(Math.min(number + 1, max));
    form.querySelector("[name=submission_key]").value = newKey();
    form.querySelectorAll("button[data-once]").forEach(function (b) { b.disabled = false; });
    form.querySelector("[name=contract]").dispatchEvent(new Event("change", { bubbles: true }));
    box.scrollIntoView({ block: "nearest" });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var pairs = fieldsOf(form);
    post(form.action || window.location.href, pairs).then(function (response) {
      if (stored(response)) { window.location.reload(); }
      else if (serverTrouble(response)) { keepOnPhone(pairs); }
      else { showRefusal(pairs); }
    }, function () {
      keepOnPhone(pairs);  // no answer at all: offline, or the laptop out of reach
    });
  });

  function flush() {
    var items = load();
    if (sending || !items.length) { return; }
    sending = true;
    var item = items[0];
    post(item.url, item.fields).then(function (response) {
      sending = false;
      if (serverTrouble(response)) { render(); return; }  // kept: try again later
      without(item.key);
      if (!stored(response)) { showRefusal(item.fields); return; }
      if (load().length) { flush(); } else { window.location.reload(); }
    }, function () {
      sending = false;  // still offline: try again later
      render();
    });
  }

  render();
  window.addEventListener("online", flush);
  window.setInterval(flush, 10000);
  flush();
})();
