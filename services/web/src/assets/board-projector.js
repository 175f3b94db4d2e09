// The board on a projector (`/board/<t>?projector`): nobody scrolls a projector, so the
// standings page by themselves, a screenful at a time (the table's heading stays), back to the
// top after the last. A live update redraws the board; the page being shown stays shown.
"use strict";
(function () {
  var page = 0;
  function box() { return document.querySelector(".board.projector .board-main"); }
  // One page: the visible height less the sticky heading, so no row is skipped.
  function step(main) {
    var head = main.querySelector("thead");
    return Math.max(1, main.clientHeight - (head ? head.offsetHeight : 0));
  }
  function show(main) { main.scrollTop = page * step(main); }
  function turn() {
    var main = box();
    if (main) {
      var pages = Math.max(1, Math.ceil((main.scrollHeight - main.clientHeight) / step(main)) + 1);
      page = (page + 1) % pages;
      show(main);
    }
    var board = document.getElementById("board");
    var every = board && Number(board.dataset.pageMs) > 0 ? Number(board.dataset.pageMs) : 8000;
    setTimeout(turn, every);
  }
  document.addEventListener("DOMContentLoaded", function () {
    var board = document.getElementById("board");
    if (!board) { return; }
    new MutationObserver(function () { var main = box(); if (main) { show(main); } })
      .observe(board, { childList: true });
    var every = Number(board.dataset.pageMs) > 0 ? Number(board.dataset.pageMs) : 8000;
    setTimeout(turn, every);
  });
})();
