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

  function follow(section) {
    var status = document.getElementById("live-status");
    var source = new EventSource(section.dataset.live);
    source.addEventListener(section.dataset.event, function (e) {
      section.innerHTML = e.data;
      window.ledgerRebase();
      tick();
      section.dataset.updated = String(Date.now());
      if (status) { status.textContent = "live · updated " + new Date().toLocaleTimeString(); }
    });
    source.addEventListener("refused", function (e) {
      if (status) { status.textContent = e.data; }
    });
    source.onerror = function () {
      if (status) { status.textContent = "reconnecting…"; }
    };
    source.onopen = function () {
      if (status) { status.textContent = "live"; }
    };
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-live]").forEach(follow);
  });
})();
