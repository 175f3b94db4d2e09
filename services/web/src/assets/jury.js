// The jury's viewer: the slider goes to an event; arrow keys step.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var jury = document.getElementById("jury");
  var slider = document.getElementById("slider");
  if (!jury || !slider) { return; }
  function go(seq) {
    location.href = "/jury/" + encodeURIComponent(jury.dataset.game) + "?at=" + seq;
  }
  slider.addEventListener("input", function () {
    document.getElementById("slider-at").textContent = slider.value + " / " + jury.dataset.last;
  });
  slider.addEventListener("change", function () { go(slider.value); });
  document.addEventListener("keydown", function (e) {
    if (e.target.tagName === "INPUT") { return; }
    var at = Number(jury.dataset.at);
    if (e.key === "ArrowLeft" && at > 1) { go(at - 1); }
    if (e.key === "ArrowRight" && at < Number(jury.dataset.last)) { go(at + 1); }
  });
  var current = document.querySelector(".timeline .current");
  if (current) { current.scrollIntoView({ block: "center" }); }
});

// The ruling form: choosing an event to correct fills in what the desk proposes (the events to
// void, what to record instead, one JSON line each), to edit; what the jury typed is kept.
document.addEventListener("DOMContentLoaded", function () {
  var pick = document.getElementById("rule-void");
  var voids = document.getElementById("rule-voids");
  var corrected = document.getElementById("rule-corrected");
  if (!pick || !voids || !corrected) { return; }
  var filled = { voids: voids.value, corrected: corrected.value };
  pick.addEventListener("change", function () {
    var option = pick.options[pick.selectedIndex];
    if (voids.value === filled.voids) {
      voids.value = option.dataset.voids || "";
      filled.voids = voids.value;
    }
    if (corrected.value === filled.corrected) {
      corrected.value = option.dataset.json || "";
      filled.corrected = corrected.value;
    }
  });
});
