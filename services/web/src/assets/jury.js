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

// The ruling form: choosing an event to void fills the corrected event with it, to edit.
document.addEventListener("DOMContentLoaded", function () {
  var pick = document.getElementById("rule-void");
  var corrected = document.getElementById("rule-corrected");
  if (!pick || !corrected) { return; }
  var filled = corrected.value;
  pick.addEventListener("change", function () {
    var option = pick.options[pick.selectedIndex];
    if (corrected.value === filled) {
      corrected.value = option.dataset.json || "";
      filled = corrected.value;
    }
  });
});
