// A player's own page (/me/<tournament>/<code>): asks for its live part every few seconds and
// swaps it in when the ledger moved on (204: nothing new). The status line's sentences come
// from the page, in its language.
"use strict";
(function () {
  function follow(section) {
    var status = document.getElementById("live-status");
    function say(name, time) {
      if (!status) { return; }
      var text = status.dataset[name + "Text"] || "";
      status.textContent = time === undefined ? text : text.replace("{time}", time);
    }
    var every = Number(section.dataset.every) || 3000;
    function ask() {
      fetch(section.dataset.view + "?at=" + encodeURIComponent(section.dataset.at), { cache: "no-store" })
        .then(function (answer) {
          if (answer.status === 204) { say("live"); return null; }
          if (!answer.ok) { throw new Error(String(answer.status)); }
          section.dataset.at = answer.headers.get("x-ledger-at") || section.dataset.at;
          return answer.text();
        })
        .then(function (html) {
          if (html === null) { return; }
          section.innerHTML = html;
          section.dataset.updated = String(Date.now());
          say("updated", new Date().toLocaleTimeString(document.documentElement.lang || undefined));
        })
        .catch(function () { say("reconnecting"); })
        .then(function () { setTimeout(ask, every); });
    }
    setTimeout(ask, every);
  }
  document.addEventListener("DOMContentLoaded", function () {
    var section = document.querySelector("section[data-view]");
    if (section) { follow(section); }
  });
})();
