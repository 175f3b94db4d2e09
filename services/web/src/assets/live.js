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
    // A form being filled in (the jury's desk) is not replaced under the typing hand: the
    // newest content waits until the focus leaves the section.
    var waiting = null;
    function typing() {
      var active = document.activeElement;
      return active && section.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName);
    }
    function show(html) {
      section.innerHTML = html;
      window.ledgerRebase();
      tick();
      section.dataset.updated = String(Date.now());
      say("updated", new Date().toLocaleTimeString(document.documentElement.lang || undefined));
    }
    section.addEventListener("focusout", function () {
      setTimeout(function () {
        if (waiting !== null && !typing()) { var html = waiting; waiting = null; show(html); }
      }, 0);
    });
    source.addEventListener(section.dataset.event, function (e) {
      if (typing()) { waiting = e.data; return; }
      waiting = null;
      show(e.data);
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
