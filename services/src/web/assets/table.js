// The table page: every action posts once (a second tap while it is on its way does nothing;
// the ledger's event id makes a resent one harmless), with the table time filled in; a refusal
// shows the ledger's reason; success, or a change from another device, redraws the page.
"use strict";
(function () {
  var section, renderedAt, busy = false;
  function tableNow() {
    return Math.floor(Number(section.dataset.tableMs) + (performance.now() - renderedAt));
  }
  function show(id, text) {
    var el = document.getElementById(id);
    el.textContent = text;
    el.hidden = !text;
  }
  function submit(event) {
    event.preventDefault();
    var form = event.currentTarget;
    if (busy) { return; }
    busy = true;
    form.classList.add("busy");
    var data = new URLSearchParams(new FormData(form));
    data.set("e.at_ms", String(tableNow()));
    fetch(form.getAttribute("action"), {
      method: "POST",
      headers: { "Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded" },
      body: data.toString(),
      credentials: "same-origin"
    }).then(function (response) {
      return response.json();
    }).then(function (answer) {
      if (answer.ok) {
        show("error", "");
        location.replace(location.pathname);
      } else {
        busy = false;
        form.classList.remove("busy");
        show("error", answer.error);
      }
    }).catch(function (error) {
      busy = false;
      form.classList.remove("busy");
      show("error", "could not reach ledgerd: " + error + " — tap again to retry (it will not count twice)");
    });
  }
  function typing() {
    var el = document.activeElement;
    return el && (el.tagName === "INPUT" || el.tagName === "SELECT") && el.type !== "hidden";
  }
  document.addEventListener("DOMContentLoaded", function () {
    section = document.getElementById("table");
    if (!section) { return; }
    renderedAt = performance.now();
    document.querySelectorAll("form.act").forEach(function (form) {
      form.addEventListener("submit", submit);
    });
    // Another device recorded an event: redraw unless someone is typing here.
    var from = Number(section.dataset.position) + 1;
    var source = new EventSource(location.pathname + "/live?from=" + from);
    source.addEventListener("version", function (e) {
      if (Number(e.data) <= Number(section.dataset.version) || busy) { return; }
      if (typing()) {
        show("notice", "The game moved on (event " + e.data + "). Reload to see it.");
      } else {
        location.replace(location.pathname);
      }
    });
  });
})();
