// The recording mode of an Andes match (`/andes/<match>/record`): the tablet of the recorder
// article 9.1 requires. A tap on a piece of the side to move (or on a piece type of its
// reserve: 0 persona, 1 estatal-left, 2 militar, 3 estatal-right), then a tap on a square, is a
// `move_played` in the laws' notation, decided here by the laws mirrored in andes-rules.js: an
// illegal move is refused on the tablet with its article and never leaves it. Both clocks count
// down on the tablet's monotonic clock, the mover's running; a fallen flag and a resignation
// end the game, so each asks for a second tap (confirm or cancel) before it is recorded. At a
// tablet's 1280x800 the board and, beside it, the clocks, the reserves, what the laws refused
// and the winner fit on one screen. Every accepted tap is kept in IndexedDB and sent by the
// queue of table-sync.js.
"use strict";
(function () {
  const app = {
    match: null, key: null, section: null, mayRecord: false, actor: null,
    lang: "en", bundles: {}, notice: "",
    side: "sol",          // whose side the board is seen from
    selected: null,       // {kind, from} (from null: a piece of the reserve)
    confirming: null,     // {type: "flag_fell"|"resigned", side}: the end asked for, unconfirmed
    flagDown: false
  };
  globalThis.andesApp = app;
  let sync = null;
  function waiting() { return sync.waiting(); }
  function local() { return sync.local(); }
  function tableNow() { return sync.tableNow(); }

  // ---- words -------------------------------------------------------------------------------
  const words = TablePage.words(app, ["pages.ftl", "andes-rules.ftl", "andes-table.ftl"]);
  const t = words.t;
  // Names of sides, piece types and endings in the page's language.
  function sideName(side) { return t("record-side-" + side); }
  function kindName(kind) { return t("record-kind-" + kind); }
  // A refusal in the page's language, naming its article: the laws' own message id (its
  // arguments worded too), else the ledger's sentence.
  function refusalText(refusal) {
    if (refusal.id) {
      const args = Object.assign({}, refusal.args);
      ["side", "owner", "to_move", "holder_owner"].forEach(function (k) { if (args[k]) { args[k] = sideName(args[k]); } });
      ["kind", "claimed", "holder_kind"].forEach(function (k) { if (args[k]) { args[k] = kindName(args[k]); } });
      if (args.region) { args.region = t("record-region-" + args.region); }
      if (args.reason) { args.reason = t("record-reason-" + args.reason); }
      ["square", "from", "to", "between"].forEach(function (k) {
        if (args[k]) { args[k] = AndesRules.nameFor(args[k], app.side); }
      });
      const text = t(refusal.id, args);
      if (text !== refusal.id) { return text; }
    }
    if (refusal.kind === "stale_version") { return t("refusal-stale"); }
    if (refusal.kind === "exhausted") { return t("refusal-exhausted"); }
    if (refusal.text) { return refusal.text; }
    return t("refusal-by-ledger", { message: refusal.message });
  }

  // An event of the match as a sentence in the page's language (record-event-* of
  // andes-table.ftl, as the jury's timeline words it): squares from the tablet's side.
  function hms(at) {
    const s = Math.floor(Math.max(0, at) / 1000);
    const m = Math.floor(s / 60) % 60, h = Math.floor(s / 3600);
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (s % 60 < 10 ? "0" : "") + (s % 60);
  }
  function describe(event) {
    const sq = function (square) { return AndesRules.nameFor(square, app.side); };
    const time = typeof event.at_ms === "number" ? hms(event.at_ms) : "";
    switch (event.type) {
      case "match_created":
        return t("record-event-match_created", { sol: event.first_sol, luna: event.first_luna,
          minutes: Math.floor(event.clock_ms / 60000) });
      case "game_started": return t("record-event-game_started", { game: event.game, time: time });
      case "move_played": {
        const parsed = AndesRules.parseMove(event.notation);
        if (parsed.move && parsed.move.square) {
          return t("record-event-placed", { kind: kindName(parsed.move.kind), square: sq(parsed.move.square), time: time });
        }
        if (parsed.move) {
          return t("record-event-moved", { kind: kindName(parsed.move.kind), from: sq(parsed.move.from),
            to: sq(parsed.move.to), time: time });
        }
        return t("record-event-move_played", { notation: event.notation, time: time });
      }
      case "piece_attacked":
      case "piece_captured":
        return t("record-event-" + event.type, { owner: sideName(event.owner), kind: kindName(event.kind),
          square: sq(event.square) });
      case "game_ended":
        return t("record-event-game_ended", { side: sideName(event.side), reason: t("record-reason-" + event.reason) });
      case "flag_fell":
      case "resigned":
        return t("record-event-" + event.type, { side: sideName(event.side), time: time });
      default: return t("table-event-unknown");
    }
  }

  function ms(msLeft) {
    const s = Math.floor(Math.max(0, msLeft) / 1000);
    const m = Math.floor(s / 60);
    return m + ":" + (s % 60 < 10 ? "0" : "") + (s % 60);
  }

  // ---- the match now -----------------------------------------------------------------------
  function game() { return local().rules.game; }
  function running() { const g = game(); return !!g && !g.ended; }
  // What each clock shows now: the mover's runs from the start of its turn.
  function clockShows(side) {
    const g = game();
    if (!g) { return local().rules.setup ? local().rules.setup.clock_ms : 0; }
    if (!g.ended && g.position.to_move === side) { return AndesRules.showing(g.clocks, side, tableNow()); }
    return g.clocks.remaining_ms[AndesRules.index(side)];
  }
  function player(side) {
    const rules = local().rules;
    if (!rules.setup) { return ""; }
    const number = rules.game ? rules.game.number : 1;
    const first = (number === 1) === (side === "sol");
    return first ? rules.setup.first_sol : rules.setup.first_luna;
  }

  // ---- taps --------------------------------------------------------------------------------
  function tapSquare(square, domEvent) {
    if (!app.mayRecord || !running()) { return; }
    const g = game();
    const mover = g.position.to_move;
    const piece = g.position.pieces[square];
    const selected = app.selected;
    if (selected && selected.from === square) { app.selected = null; showNotice(""); render(); return; }
    // One of the mover's pieces picks it (a reserve piece tapped onto it is a placement the
    // laws refuse, and say why).
    if (piece && piece.side === mover && (!selected || selected.from)) {
      app.selected = { kind: piece.kind, from: square };
      showNotice("");
      render();
      return;
    }
    if (!selected) {
      showNotice(t("record-pick-first", { side: sideName(mover) }));
      return;
    }
    const move = selected.from ? { kind: selected.kind, from: selected.from, to: square } : { kind: selected.kind, square: square };
    app.selected = null;
    sync.act({ type: "move_played", notation: AndesRules.notation(move, "sol") }, domEvent).then(function (row) {
      if (!row) { render(); }
    });
  }
  function tapReserve(kind) {
    if (!app.mayRecord || !running()) { return; }
    const same = app.selected && !app.selected.from && app.selected.kind === kind;
    app.selected = same ? null : { kind: kind, from: null };
    showNotice("");
    render();
  }
  function startGame(number, domEvent) {
    app.selected = null;
    app.confirming = null;
    sync.act({ type: "game_started", game: number }, domEvent);
  }
  // A flag fall or a resignation ends the game for good: the first tap asks, the second
  // (confirm) records it, cancel forgets it.
  function askToEnd(type, side) {
    app.selected = null;
    app.confirming = { type: type, side: side };
    showNotice("");
    render();
  }
  function confirmEnd(domEvent) {
    const ending = app.confirming;
    app.confirming = null;
    if (!ending) { return; }
    sync.act({ type: ending.type, side: ending.side }, domEvent).then(function (row) {
      if (!row) { render(); }
    });
  }
  function cancelEnd() {
    app.confirming = null;
    render();
  }

  // ---- drawing -----------------------------------------------------------------------------
  const el = TablePage.el, byId = TablePage.byId;
  const showNotice = TablePage.notice(app);
  const renderSync = TablePage.statusLine(app, t);

  function phase(rules) {
    const g = rules.game;
    if (!rules.setup) { return t("record-no-match"); }
    if (AndesRules.isOver(rules)) { return t("record-phase-over"); }
    if (!g) { return t("record-phase-not-started"); }
    if (g.ended) {
      return t("record-phase-ended", { game: g.number, reason: t("record-reason-" + g.ended[0]), side: sideName(g.ended[1]) });
    }
    return t("record-phase-turn", { game: g.number, side: sideName(g.position.to_move), moves: g.position.moves });
  }

  function render() {
    if (!app.view) { return; }
    const rules = local().rules;
    byId("title").textContent = t("record-title", { match: app.match }) + " ";
    byId("title").appendChild(el("span", { "class": "muted", id: "phase", text: phase(rules) }));
    renderSync();
    if (app.conflict > 0) {
      showNotice(t("sync-conflict", { count: app.conflict }));
      app.conflict = 0;
    }
    renderRefused();
    const area = byId("record-area");
    // The notice (a refused tap, a hint) moves beside the board, where the recorder looks.
    const side = el("div", { "class": "record-side", id: "record-side" }, [
      clocks(rules), result(rules), byId("notice"), reserves(rules), controls(rules)]);
    const left = el("div", { "class": "record-main" }, [board(rules), flip()]);
    area.replaceChildren(el("div", { "class": "record-layout" }, [left, side]));
    renderLists();
  }

  // Set once the queue is attached (start).
  let renderRefused = function () {};
  let renderLists = function () {};

  // Start, flag fall and resignation (each end confirmed by a second tap).
  function controls(rules) {
    const box = el("div", { "class": "record-controls", id: "record-controls" });
    const g = rules.game;
    const at = tableNow();
    // An end asked for while the mover was another, or the game is over meanwhile: forgotten.
    if (app.confirming && (!g || g.ended || g.position.to_move !== app.confirming.side || !app.mayRecord)) {
      app.confirming = null;
    }
    if (app.mayRecord && rules.setup && !AndesRules.isOver(rules) && (!g || g.ended)) {
      const next = g ? g.number + 1 : 1;
      if (!AndesRules.decide(rules, { type: "game_started", game: next, at_ms: at })) {
        box.appendChild(el("button", { type: "button", id: "start-game", "class": "primary", text: t("record-start-game", { game: next }),
          on: { click: function (e) { startGame(next, e); } } }));
      }
    }
    if (app.mayRecord && g && !g.ended) {
      const mover = g.position.to_move;
      app.flagDown = !AndesRules.decide(rules, { type: "flag_fell", side: mover, at_ms: at });
      if (app.confirming) {
        box.appendChild(confirmation(app.confirming));
        return box;
      }
      if (app.flagDown) {
        box.appendChild(el("button", { type: "button", id: "flag-fell", "class": "warn", text: t("record-flag-fell", { side: sideName(mover) }),
          on: { click: function () { askToEnd("flag_fell", mover); } } }));
      }
      box.appendChild(el("button", { type: "button", id: "resign", text: t("record-resign", { side: sideName(mover), player: player(mover) }),
        on: { click: function () { askToEnd("resigned", mover); } } }));
    }
    return box;
  }

  // The second tap of an end: what will be recorded, confirm or cancel.
  function confirmation(ending) {
    const name = sideName(ending.side);
    const question = ending.type === "flag_fell"
      ? t("record-confirm-flag", { side: name })
      : t("record-confirm-resign", { side: name, player: player(ending.side) });
    return el("div", { "class": "record-confirm", id: "confirm-end", role: "alertdialog", dataset: { type: ending.type, side: ending.side } }, [
      el("p", { text: question }),
      el("button", { type: "button", id: "confirm-end-yes", "class": "warn", text: t("record-confirm-yes"),
        on: { click: function (e) { confirmEnd(e); } } }),
      el("button", { type: "button", id: "confirm-end-no", text: t("record-confirm-no"), on: { click: cancelEnd } })
    ]);
  }

  // Whose side the board is seen from: under the board, away from the ends of a game.
  function flip() {
    const otherSide = AndesRules.other(app.side);
    return el("p", { "class": "record-flip" }, [el("button", { type: "button", id: "flip", text: t("record-flip", { side: sideName(otherSide) }),
      on: { click: function () { app.side = otherSide; render(); } } })]);
  }

  // The winner of the game that ended (the tablet's laws reckon it at once), and of the match
  // once the ledger holds both games' ends (its match sheet sums points and bonuses).
  function result(rules) {
    const box = el("div", { "class": "record-result", id: "record-result", role: "status" });
    const g = rules.game;
    const won = AndesRules.winner(g);
    if (!won) { box.hidden = true; return box; }
    box.appendChild(el("p", { id: "game-winner", dataset: { side: won.side }, text: t("record-game-won", {
      game: g.number, player: player(won.side), side: sideName(won.side), how: t("record-won-by-" + won.decided_by) }) }));
    if (AndesRules.isOver(rules)) {
      const sheet = app.view && app.view.result;
      const line = el("p", { id: "match-winner" });
      if (sheet && sheet.status === "complete" && waiting().length === 0) {
        const total = function (who) {
          const row = sheet.players.filter(function (p) { return p.player === who; })[0];
          return row ? Number(row.total).toLocaleString(app.lang) : "?";
        };
        if (sheet.winner) {
          const loser = sheet.players.filter(function (p) { return p.player !== sheet.winner; })[0];
          line.textContent = t("record-match-won", { player: sheet.winner, won: total(sheet.winner),
            lost: loser ? total(loser.player) : "?" });
          line.dataset.winner = sheet.winner;
        } else {
          line.textContent = t("record-match-drawn", { points: total(sheet.players[0].player) });
          line.dataset.winner = "";
        }
      } else {
        line.textContent = t("record-match-pending");
      }
      box.appendChild(line);
    }
    return box;
  }

  function clocks(rules) {
    const g = rules.game;
    const row = el("div", { "class": "andes-clocks", id: "andes-clocks" });
    ["sol", "luna"].forEach(function (side) {
      const on = !!g && !g.ended && g.position.to_move === side;
      const points = g ? AndesRules.points(g.position, side) : null;
      row.appendChild(el("div", { "class": "andes-clock " + side + (on ? " running" : ""), dataset: { side: side } }, [
        el("span", { "class": "name", text: sideName(side) + (player(side) ? " · " + player(side) : "") }),
        el("span", { "class": "clock", id: "clock-" + side, text: ms(clockShows(side)) }),
        points === null ? null : el("span", { "class": "points", id: "points-" + side, text: t("record-points", { points: points }) })
      ]));
    });
    return row;
  }

  // The board from `app.side`: rows and columns as that side names them (2.4).
  function board(rules) {
    const g = rules.game;
    const pieces = g ? g.position.pieces : {};
    const at = tableNow();
    const selected = app.selected;
    const targets = selected && g ? AndesRules.targets(rules, selected.kind, selected.from, at) : [];
    const table = el("table", { "class": "andes-board record-board", id: "record-board", dataset: { side: app.side } });
    const body = el("tbody");
    for (let line = 0; line < 7; line += 1) {
      const tr = el("tr");
      let marca = "";
      for (let column = 0; column < 7; column += 1) {
        const square = app.side === "sol" ? AndesRules.name(6 - line, 6 - column) : AndesRules.name(line, column);
        marca = AndesRules.nameFor(square, app.side)[0];
        const classes = [AndesRules.colour(square)];
        if (square === AndesRules.CENTRE) { classes.push("centre"); }
        else if (AndesRules.isContinent(square)) { classes.push("continent"); }
        if (AndesRules.isBorder(square)) { classes.push("border"); }
        if (selected && selected.from === square) { classes.push("selected"); }
        if (targets.indexOf(square) >= 0) { classes.push("target"); }
        const piece = pieces[square];
        const letter = piece ? (piece.side === "sol" ? "abcd" : "ABCD")[AndesRules.KINDS.indexOf(piece.kind)] : "";
        const label = AndesRules.nameFor(square, app.side) + (piece ? " " + sideName(piece.side) + " " + kindName(piece.kind) : "");
        tr.appendChild(el("td", { "class": classes.join(" ") }, [el("button", {
          type: "button", "class": "square", "aria-label": label, title: label,
          dataset: { square: square, owner: piece ? piece.side : null, kind: piece ? piece.kind : null },
          on: { click: function (e) { tapSquare(square, e); } }
        }, piece ? [el("span", { "class": "piece " + piece.side, text: letter })] : [])]));
      }
      tr.insertBefore(el("th", { text: marca }), tr.firstChild);
      body.appendChild(tr);
    }
    const head = el("tr", {}, [el("th")]);
    for (let column = 0; column < 7; column += 1) {
      const square = app.side === "sol" ? AndesRules.name(6, 6 - column) : AndesRules.name(0, column);
      head.appendChild(el("th", { text: AndesRules.nameFor(square, app.side)[1] }));
    }
    table.appendChild(el("thead", {}, [head]));
    table.appendChild(body);
    return table;
  }

  // Each side's reserve; the mover's piece types are buttons (6.6.1: 0–3).
  function reserves(rules) {
    const g = rules.game;
    const box = el("div", { "class": "record-reserves", id: "record-reserves" });
    if (!g) { return box; }
    ["sol", "luna"].forEach(function (side) {
      const count = g.position.reserve[AndesRules.index(side)];
      const mover = !g.ended && g.position.to_move === side && app.mayRecord;
      const row = el("p", { "class": "reserve " + side, dataset: { side: side } }, [
        el("span", { text: t("record-reserve", { side: sideName(side), count: count }) + " " })]);
      if (mover && count > 0) {
        AndesRules.KINDS.forEach(function (kind, digit) {
          const chosen = app.selected && !app.selected.from && app.selected.kind === kind;
          row.appendChild(el("button", { type: "button", id: "reserve-" + digit, "class": "reserve-kind" + (chosen ? " selected" : ""),
            "aria-pressed": chosen ? "true" : "false", text: digit + " " + kindName(kind),
            on: { click: function () { tapReserve(kind); } } }));
        });
      }
      box.appendChild(row);
    });
    if (app.selected) {
      const s = app.selected;
      box.appendChild(el("p", { "class": "hint", id: "selection", text: s.from
        ? t("record-selected-piece", { kind: kindName(s.kind), square: AndesRules.nameFor(s.from, app.side) })
        : t("record-selected-reserve", { kind: kindName(s.kind) }) }));
    }
    return box;
  }

  // Between taps only the clocks move; the flag button appears when the mover's time is up.
  function tick() {
    if (!app.view || !running()) { return; }
    ["sol", "luna"].forEach(function (side) {
      const node = byId("clock-" + side);
      if (node) { node.textContent = ms(clockShows(side)); }
    });
    const g = game();
    const down = !AndesRules.decide(local().rules, { type: "flag_fell", side: g.position.to_move, at_ms: tableNow() });
    if (down !== app.flagDown) { render(); }
  }

  // ---- start -------------------------------------------------------------------------------
  async function start() {
    app.section = byId("andes-record");
    if (!app.section) { return; }
    // The match from the address: the page may be a kept copy of another match's page.
    app.match = decodeURIComponent(location.pathname.split("/")[2] || app.section.dataset.match);
    app.section.dataset.match = app.match;
    app.key = "andes/" + app.match;
    app.lang = document.documentElement.lang || "en";
    const link = byId("lang-switch");
    if (link) { link.addEventListener("click", TablePage.languageSwitch(app, words, render)); }
    await words.load(app.lang);
    sync = TableSync.attach(app, {
      key: app.key, base: "/andes/" + encodeURIComponent(app.match) + "/record", rules: AndesRules.sync,
      // Game 1 started here starts the match's table clock at 0.
      startsAtZero: function (event, now) { return event.type === "game_started" && now.rules.last_at_ms === null; },
      render: render, renderSync: renderSync, showNotice: showNotice, refusalText: refusalText, t: t
    });
    renderRefused = TablePage.refusedBox(app, sync, {
      t: t, refusalText: refusalText, stream: app.key, describe: describe
    });
    renderLists = TablePage.eventLists(app, sync, t, { describe: describe });
    await sync.start();
    setInterval(tick, 200);
  }
  document.addEventListener("DOMContentLoaded", function () {
    start().catch(TablePage.startFailed(t, showNotice));
  });
})();
