// Live pages: clocks tick between commits, and a section marked data-live follows the ledger
// through server-sent events (the board's HTML arrives rendered by the server).
"use strict";
(function () {
  function hms(ms) {
    var s = Math.floor(Math.max(0, ms) / 1000);
    var m = Math.floor(s / 60) % 60, h = Math.floor(s / 3600);
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (s % 60 < 10 ? "0" : "") + (s % 60);
  }
  // Every clock counts from what the server rendered, by the browser's monotonic clock.
  var base = performance.now();
  window.ledgerRebase = function () { base = performance.now(); };
  function tick() {
    var elapsed = performance.now() - base;
    document.querySelectorAll(".clock[data-running]").forEach(function (el) {
      el.textContent = hms(Number(el.dataset.ms) - elapsed);
    });
  }
  setInterval(tick, 250);

  // The status line carries its sentences in the page's language (data-*-text, from ledgerd).
  function follow(section) {
    var status = document.getElementById("live-status");
    function say(name, time) {
      if (!status) { return; }
      var text = status.dataset[name + "Text"] || "";
      status.textContent = time === undefined ? text : text.replace("{time}", time);
    }
    var source = new EventSource(section.dataset.live);
    source.addEventListener(section.dataset.event, function (e) {
      section.innerHTML = e.data;
      window.ledgerRebase();
      tick();
      section.dataset.updated = String(Date.now());
      say("updated", new Date().toLocaleTimeString(document.documentElement.lang || undefined));
    });
    source.addEventListener("refused", function (e) {
      // Already escaped HTML text, in the page's language.
      if (status) { status.innerHTML = e.data; }
    });
    source.onerror = function () { say("reconnecting"); };
    source.onopen = function () { say("live"); };
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-live]").forEach(follow);
  });
})();
