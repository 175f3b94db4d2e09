// The board on a projector (`/board/<t>?projector`): nobody scrolls a projector, so the
// standings page by themselves, a screenful at a time (the table's heading stays), back to the
// top after the last, every 8 seconds (or the board's `data-page-ms`). A live update redraws
// the board; the page being shown stays shown.
"use strict";
(function () {
  var page = 0;
  var last = performance.now();
  function box() { return document.querySelector(".board.projector .board-main"); }
  // One page: the visible height less the sticky heading, so no row is skipped.
  function step(main) {
    var head = main.querySelector("thead");
    return Math.max(1, main.clientHeight - (head ? head.offsetHeight : 0));
  }
  function show(main) { main.scrollTop = page * step(main); }
  function every() {
    var board = document.getElementById("board");
    var ms = board ? Number(board.dataset.pageMs) : 0;
    return ms > 0 ? ms : 8000;
  }
  function tick() {
    if (performance.now() - last < every()) { return; }
    last = performance.now();
    var main = box();
    if (!main) { return; }
    var pages = main.scrollHeight > main.clientHeight
      ? Math.ceil((main.scrollHeight - main.clientHeight) / step(main)) + 1 : 1;
    page = (page + 1) % pages;
    show(main);
  }
  document.addEventListener("DOMContentLoaded", function () {
    var board = document.getElementById("board");
    if (!board) { return; }
    new MutationObserver(function () { var main = box(); if (main) { show(main); } })
      .observe(board, { childList: true });
    setInterval(tick, 250);
  });
})();
