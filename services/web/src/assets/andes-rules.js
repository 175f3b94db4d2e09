// The Andes laws on the recording tablet: `ledger::andes` (board.rs, piece.rs, notation.rs,
// position.rs, clock.rs, state.rs) mirrored in plain JavaScript, because the tablet decides
// every tap with no network and these machines build no WebAssembly. The state is the ledger's
// `AndesState` exactly as serde writes it (the view sends it so), every refusal names the
// article of the Andes laws with the ledger's own sentence, and a move's derived events
// (piece_attacked, piece_captured, game_ended) are predicted as the ledger appends them. A
// differential test in Chromium holds the two to the same answers, step by step.
"use strict";
(function () {
  const SIDE = 7;
  const KINDS = ["persona", "estatal_left", "militar", "estatal_right"];   // digits 0–3 (6.6.1)
  const LETTERS = { persona: "a", estatal_left: "b", militar: "c", estatal_right: "d" };
  const SIERRA = ["c3", "d2", "d4", "e3", "c2", "c4", "e2", "e4"];
  const JUNGLE = ["b2", "b4", "c1", "c5", "e1", "e5", "f2", "f4", "b3", "d1", "d5", "f3"];
  const COAST = ["a3", "d0", "d6", "g3"];
  const ISLANDS = ["a0", "a6", "g0", "g6"];
  const CENTRE = "d3";
  const ORTHOGONAL = [[1, 0], [-1, 0], [0, 1], [0, -1]];
  const DIRECTIONS = {
    persona: [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]],
    militar: [[1, 0], [-1, 0], [0, 1], [0, -1]],
    estatal_left: [[1, 1], [-1, -1]],
    estatal_right: [[1, -1], [-1, 1]]
  };
  const DESCRIBE = {
    persona: "a persona moves one square in any direction",
    militar: "a militar moves at most 2 squares along a row or column",
    estatal_left: "an estatal-left moves at most 2 squares along an a0–g6 diagonal",
    estatal_right: "an estatal-right moves at most 2 squares along an a6–g0 diagonal"
  };
  const RECORDED = ["game_started", "move_played", "flag_fell", "resigned"];
  const TIMED = ["game_started", "move_played", "flag_fell", "resigned"];

  // ---- board (board.rs) ------------------------------------------------------------------
  function name(row, col) { return String.fromCharCode(97 + row) + col; }
  function rowOf(square) { return square.charCodeAt(0) - 97; }
  function colOf(square) { return square.charCodeAt(1) - 48; }
  function offset(square, dRow, dCol) {
    const row = rowOf(square) + dRow, col = colOf(square) + dCol;
    return row >= 0 && row < SIDE && col >= 0 && col < SIDE ? name(row, col) : null;
  }
  function allSquares() {
    const out = [];
    for (let row = 0; row < SIDE; row += 1) { for (let col = 0; col < SIDE; col += 1) { out.push(name(row, col)); } }
    return out;
  }
  function lunaName(square) {
    return String.fromCharCode(65 + SIDE - 1 - rowOf(square)) + (SIDE - 1 - colOf(square));
  }
  function nameFor(square, side) { return side === "luna" ? lunaName(square) : square; }
  function isCorner(square) {
    const r = rowOf(square), c = colOf(square);
    return (r === 0 || r === SIDE - 1) && (c === 0 || c === SIDE - 1);
  }
  function colour(square) {
    return (rowOf(square) + colOf(square)) % 2 === 1 || isCorner(square) ? "dark" : "light";
  }
  function isBorder(square) {
    const r = rowOf(square), c = colOf(square);
    return r === 0 || r === SIDE - 1 || c === 0 || c === SIDE - 1;
  }
  function region(square) {
    if (square === CENTRE) { return "centre"; }
    if (SIERRA.indexOf(square) >= 0) { return "sierra"; }
    if (JUNGLE.indexOf(square) >= 0) { return "jungle"; }
    if (COAST.indexOf(square) >= 0) { return "coast"; }
    if (ISLANDS.indexOf(square) >= 0) { return "island"; }
    return "ocean";
  }
  function isContinent(square) { return ["centre", "sierra", "jungle", "coast"].indexOf(region(square)) >= 0; }
  function other(side) { return side === "sol" ? "luna" : "sol"; }
  function index(side) { return side === "sol" ? 0 : 1; }
  // The square a text names from either side, and whose coordinates it used (2.4).
  function parseSquare(text) {
    if (text.length !== 2) { return null; }
    const escala = text.charCodeAt(1) - 48;
    if (escala < 0 || escala > 6) { return null; }
    const marca = text.charCodeAt(0);
    if (marca >= 97 && marca <= 103) { return { square: name(marca - 97, escala), side: "sol" }; }
    if (marca >= 65 && marca <= 71) { return { square: name(SIDE - 1 - (marca - 65), SIDE - 1 - escala), side: "luna" }; }
    return null;
  }

  // ---- refusals (rejection.rs) -------------------------------------------------------------
  // `id` and `args` word it in the page's language (andes-rules.ftl); `message` is the
  // ledger's own sentence, `article 3.4: …`.
  function refusal(kind, article, reason, id, args) {
    return { kind: kind, article: article, message: "article " + article + ": " + reason, id: id,
      args: Object.assign({ article: article }, args || {}) };
  }
  function precondition(article, reason, id, args) { return refusal("precondition", article, reason, id, args); }
  function malformed(article, reason, id, args) { return refusal("malformed", article, reason, id, args); }
  function pieceText(piece) { return piece.side + "'s " + piece.kind; }

  // ---- notation (notation.rs) --------------------------------------------------------------
  // A move's text parsed: {move: {kind, square} | {kind, from, to}, coordinates} or {error}.
  function parseMove(text) {
    const shape = function () {
      return malformed("6.6", "`" + text + "` is not a move: write the piece's digit and a square to place (`0d3`), or a digit and two squares to move (`2c3c5`)",
        "law-notation-shape", { text: text });
    };
    if (!/^[\x00-\x7f]*$/.test(text) || !(text.length === 3 || text.length === 5)) { return { error: shape() }; }
    const digit = text.charCodeAt(0) - 48;
    if (!(digit >= 0 && digit <= 3)) {
      return { error: malformed("6.6.1", "`" + text + "` does not start with a piece digit: 0 persona, 1 estatal-left, 2 militar, 3 estatal-right",
        "law-notation-digit", { text: text }) };
    }
    const kind = KINDS[digit];
    const squareError = function (part) {
      return { error: malformed("6.6.1", "`" + text + "`: `" + part + "` is not a square: a marca a–g (Sol) or A–G (Luna) then an escala 0–6",
        "law-notation-square", { text: text, part: part }) };
    };
    const first = parseSquare(text.slice(1, 3));
    if (!first) { return squareError(text.slice(1, 3)); }
    if (text.length === 3) { return { move: { kind: kind, square: first.square }, coordinates: first.side }; }
    const second = parseSquare(text.slice(3, 5));
    if (!second) { return squareError(text.slice(3, 5)); }
    if (first.side !== second.side) {
      return { error: malformed("6.6.1", "`" + text + "` mixes Sol's lowercase and Luna's uppercase marcas: write both squares from one side",
        "law-notation-mixed", { text: text }) };
    }
    if (first.square === second.square) {
      return { error: malformed("6.6.2", "`" + text + "` moves a piece to the square it stands on", "law-notation-same", { text: text }) };
    }
    return { move: { kind: kind, from: first.square, to: second.square }, coordinates: first.side };
  }
  function notation(move, coordinates) {
    const digit = String(KINDS.indexOf(move.kind));
    if (move.square) { return digit + nameFor(move.square, coordinates); }
    return digit + nameFor(move.from, coordinates) + nameFor(move.to, coordinates);
  }
  function destination(move) { return move.square || move.to; }

  // The position notation from one side (6.5): rows from the writer's top left.
  function positionNotation(position, side) {
    const rows = [];
    for (let line = 0; line < SIDE; line += 1) {
      let text = "", free = 0;
      for (let column = 0; column < SIDE; column += 1) {
        const square = side === "sol" ? name(SIDE - 1 - line, SIDE - 1 - column) : name(line, column);
        const piece = position.pieces[square];
        if (piece) {
          if (free > 0) { text += free; free = 0; }
          const letter = LETTERS[piece.kind];
          text += piece.side === "sol" ? letter : letter.toUpperCase();
        } else { free += 1; }
      }
      if (free > 0) { text += free; }
      rows.push(text);
    }
    return rows.join("/");
  }

  // ---- pieces (piece.rs) ---------------------------------------------------------------------
  function article(kind) {
    return kind === "persona" ? "3.3.1" : kind === "militar" ? "3.3.2" : "3.3.3";
  }
  function range(kind) { return kind === "persona" ? 1 : 2; }
  function path(kind, from, to) {
    const dRow = rowOf(to) - rowOf(from), dCol = colOf(to) - colOf(from);
    const steps = Math.max(Math.abs(dRow), Math.abs(dCol));
    if (steps === 0 || (dRow !== 0 && dCol !== 0 && Math.abs(dRow) !== Math.abs(dCol))) { return null; }
    const unit = [Math.sign(dRow), Math.sign(dCol)];
    const along = DIRECTIONS[kind].some(function (d) { return d[0] === unit[0] && d[1] === unit[1]; });
    return along && steps <= range(kind) ? { unit: unit, steps: steps } : null;
  }

  // ---- one game's position (position.rs) -----------------------------------------------------
  function newPosition() {
    return { pieces: {}, reserve: [7, 7], attacked: [0, 0], captured: [0, 0], entered: [false, false], to_move: "sol", moves: 0 };
  }
  function centreOccupied(position) { return !!position.pieces[CENTRE]; }
  function centreOccupiedAfter(position, move) {
    if (move.square) { return move.square === CENTRE || centreOccupied(position); }
    return move.to === CENTRE || (centreOccupied(position) && move.from !== CENTRE);
  }
  function onContinent(position, side) {
    return Object.keys(position.pieces).filter(function (s) {
      return position.pieces[s].side === side && isContinent(s);
    }).length;
  }

  function checkPlacement(position, side, kind, square) {
    if (position.reserve[index(side)] === 0) {
      return precondition("2.2", side + " has no piece off the board to place", "law-reserve-empty", { side: side });
    }
    if (position.moves === 0) {
      if (kind !== "persona") {
        return precondition("3.4", "sol's first move places a persona, not a " + kind, "law-first-persona", { kind: kind });
      }
      if (!isContinent(square)) {
        return precondition("3.4", "sol's first move places a persona on the continent, and " + square + " is " + region(square),
          "law-first-continent", { square: square, region: region(square) });
      }
      return null;
    }
    if (!isBorder(square)) {
      return precondition("3.5", "a new piece is placed on a border square (marcas a and g, escalas 0 and 6), and " + square + " is not one",
        "law-place-border", { square: square });
    }
    const piece = position.pieces[square];
    if (piece) {
      return precondition(piece.side === side ? "3.1" : "3.5", "a new piece is placed on a free square, and " + square + " holds " + pieceText(piece),
        "law-place-free", { square: square, owner: piece.side, kind: piece.kind });
    }
    if (colour(square) === "light" && kind !== "persona") {
      return precondition("3.6", square + " is a light border square: only a persona is placed there, not a " + kind,
        "law-place-light", { square: square, kind: kind });
    }
    return null;
  }

  // Refusal, or {attacked: [square, piece] | null}.
  function checkShift(position, side, kind, from, to) {
    const piece = position.pieces[from];
    if (!piece) { return { refusal: precondition("3.3", "there is no piece on " + from + " to move", "law-no-piece", { square: from }) }; }
    if (piece.side !== side) {
      return { refusal: precondition("1.1", from + " holds " + pieceText(piece) + ": " + side + " moves only " + side + "'s pieces",
        "law-not-yours", { square: from, owner: piece.side, kind: piece.kind, side: side }) };
    }
    if (piece.kind !== kind) {
      return { refusal: precondition("3.2", "the piece on " + from + " is a " + piece.kind + ", not a " + kind + ": a piece keeps its type",
        "law-keeps-type", { square: from, kind: piece.kind, claimed: kind }) };
    }
    const trip = path(kind, from, to);
    if (!trip) {
      return { refusal: precondition(article(kind), DESCRIBE[kind] + "; " + from + " to " + to + " is not such a move",
        "law-path", { kind: kind, piece: kind, from: from, to: to }) };
    }
    for (let step = 1; step < trip.steps; step += 1) {
      const between = offset(from, trip.unit[0] * step, trip.unit[1] * step);
      const blocker = between && position.pieces[between];
      if (blocker) {
        return { refusal: precondition(article(kind), "pieces move over free squares and do not jump: " + between + ", between " + from + " and " + to + ", holds " + pieceText(blocker),
          "law-jump", { between: between, from: from, to: to, owner: blocker.side, kind: blocker.kind }) };
      }
    }
    const target = position.pieces[to];
    if (!target) { return { attacked: null }; }
    if (target.side === side) {
      return { refusal: precondition("3.1", to + " holds " + pieceText(target) + ": a piece never moves onto its own colour",
        "law-own-colour", { square: to, kind: target.kind }) };
    }
    if (centreOccupiedAfter(position, { kind: kind, from: from, to: to })) {
      const holder = position.pieces[CENTRE] || target;
      return { refusal: precondition("4.3", to + " holds " + pieceText(target) + ", and a piece is attacked only while the centre d3 is empty; it holds " + pieceText(holder),
        "law-attack-centre", { square: to, owner: target.side, kind: target.kind, holder_owner: holder.side, holder_kind: holder.kind }) };
    }
    return { attacked: [to, target] };
  }

  function squareOrder(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

  // The opposing pieces flanked by the landing piece and another of the mover's (3.7.1).
  function captures(position, side, move) {
    const landing = destination(move);
    const vacated = move.square ? null : move.from;
    const mine = function (square) {
      if (square === landing) { return true; }
      const p = position.pieces[square];
      return square !== vacated && !!p && p.side === side;
    };
    const out = [];
    ORTHOGONAL.forEach(function (d) {
      const middle = offset(landing, d[0], d[1]);
      const beyond = offset(landing, 2 * d[0], 2 * d[1]);
      if (!middle || !beyond) { return; }
      const target = position.pieces[middle];
      if (target && target.side !== side && mine(beyond)) { out.push([middle, target]); }
    });
    out.sort(function (a, b) { return squareOrder(a[0], b[0]); });
    return out;
  }

  // Position.check: {refusal} or {played: {side, move, attacked, captured}}.
  function check(position, move) {
    const side = position.to_move;
    let attacked = null;
    if (move.square) {
      const refused = checkPlacement(position, side, move.kind, move.square);
      if (refused) { return { refusal: refused }; }
    } else {
      const shift = checkShift(position, side, move.kind, move.from, move.to);
      if (shift.refusal) { return shift; }
      attacked = shift.attacked;
    }
    const captured = centreOccupiedAfter(position, move) ? captures(position, side, move) : [];
    return { played: { side: side, move: move, attacked: attacked, captured: captured } };
  }

  function sortedPieces(pieces) {
    const out = {};
    Object.keys(pieces).sort(squareOrder).forEach(function (s) { out[s] = { side: pieces[s].side, kind: pieces[s].kind }; });
    return out;
  }

  function apply(position, played) {
    const i = index(played.side);
    const next = {
      pieces: Object.assign({}, position.pieces), reserve: position.reserve.slice(), attacked: position.attacked.slice(),
      captured: position.captured.slice(), entered: position.entered.slice(), to_move: position.to_move, moves: position.moves
    };
    const move = played.move;
    let landed;
    if (move.square) {
      next.reserve[i] = Math.max(0, next.reserve[i] - 1);
      next.pieces[move.square] = { side: played.side, kind: move.kind };
      landed = move.square;
    } else {
      delete next.pieces[move.from];
      next.pieces[move.to] = { side: played.side, kind: move.kind };
      landed = move.to;
    }
    if (played.attacked) { next.attacked[i] += 1; }
    played.captured.forEach(function (c) {
      delete next.pieces[c[0]];
      next.reserve[i] += 1;
      next.captured[i] += 1;
    });
    if (isContinent(landed)) { next.entered[i] = true; }
    next.moves += 1;
    next.to_move = other(played.side);
    next.pieces = sortedPieces(next.pieces);
    return next;
  }

  // Every move of a piece on the board the side to move may make.
  function shifts(position) {
    const side = position.to_move;
    const moves = [];
    Object.keys(position.pieces).sort(squareOrder).forEach(function (from) {
      const piece = position.pieces[from];
      if (piece.side !== side) { return; }
      DIRECTIONS[piece.kind].forEach(function (d) {
        for (let step = 1; step <= range(piece.kind); step += 1) {
          const to = offset(from, d[0] * step, d[1] * step);
          if (!to) { break; }
          const move = { kind: piece.kind, from: from, to: to };
          const target = position.pieces[to];
          if (!target) { moves.push(move); continue; }
          if (target.side !== side && !centreOccupiedAfter(position, move)) { moves.push(move); }
          break;
        }
      });
    });
    return moves;
  }
  function hasLegalMove(position) { return position.reserve[index(position.to_move)] > 0 || shifts(position).length > 0; }

  function endAfter(position, played) {
    const opponent = other(played.side);
    const struck = !!played.attacked || played.captured.length > 0;
    if (struck && position.entered[index(opponent)] && onContinent(position, opponent) === 0) {
      return ["continent_emptied", opponent];
    }
    if (!hasLegalMove(position)) { return ["no_legal_move", position.to_move]; }
    return null;
  }

  // ---- clocks (clock.rs) ---------------------------------------------------------------------
  function showing(clocks, side, at) {
    return Math.max(0, clocks.remaining_ms[index(side)] - Math.max(0, at - clocks.turn_began_at_ms));
  }
  function deadline(clocks, side) { return clocks.turn_began_at_ms + clocks.remaining_ms[index(side)]; }
  function checkInTime(clocks, side, at, what) {
    const end = deadline(clocks, side);
    if (at >= end) {
      return precondition("8.3", side + "'s time ran out at " + end + " ms, and " + what + " comes at " + at + " ms: record flag_fell instead",
        "law-time-ran-out", { side: side });
    }
    return null;
  }
  function press(clocks, side, at) {
    const remaining = clocks.remaining_ms.slice();
    remaining[index(side)] = showing(clocks, side, at);
    return { remaining_ms: remaining, turn_began_at_ms: at };
  }

  // ---- the stream (state.rs) -----------------------------------------------------------------
  function consequences(position, played) {
    const out = [];
    if (played.attacked) {
      out.push({ Attacked: { square: played.attacked[0], owner: played.attacked[1].side, kind: played.attacked[1].kind } });
    }
    played.captured.forEach(function (c) { out.push({ Captured: { square: c[0], owner: c[1].side, kind: c[1].kind } }); });
    const end = endAfter(position, played);
    if (end) { out.push({ Ended: { reason: end[0], side: end[1] } }); }
    return out;
  }
  function consequenceEvent(c) {
    if (c.Attacked) { return { type: "piece_attacked", square: c.Attacked.square, owner: c.Attacked.owner, kind: c.Attacked.kind }; }
    if (c.Captured) { return { type: "piece_captured", square: c.Captured.square, owner: c.Captured.owner, kind: c.Captured.kind }; }
    return { type: "game_ended", reason: c.Ended.reason, side: c.Ended.side };
  }
  function consequenceArticle(c) {
    if (c.Attacked) { return "4.3.2"; }
    if (c.Captured) { return "4.3.1"; }
    return c.Ended.reason === "continent_emptied" ? "1.6" : "1.3";
  }
  function consequenceText(c) {
    if (c.Attacked) { return "piece_attacked " + c.Attacked.square + " (" + c.Attacked.owner + "'s " + c.Attacked.kind + ")"; }
    if (c.Captured) { return "piece_captured " + c.Captured.square + " (" + c.Captured.owner + "'s " + c.Captured.kind + ")"; }
    return "game_ended " + c.Ended.reason + " (" + c.Ended.side + ")";
  }
  function sameEvent(a, b) {
    const keys = Object.keys(a).concat(Object.keys(b));
    return keys.every(function (k) { return a[k] === b[k]; });
  }

  function initial() { return { setup: null, game: null, last_at_ms: null }; }
  function isOver(state) {
    const g = state.game;
    return !!g && g.number === 2 && !!g.ended && g.pending.length === 0;
  }
  function atMs(event) { return TIMED.indexOf(event.type) >= 0 ? event.at_ms : undefined; }

  // The game in progress, or why there is none.
  function playing(state, event) {
    const game = state.game;
    if (!game) {
      return { refusal: precondition("8.3", "no game has started: game_started comes before " + event.type, "law-no-game", { type: event.type }) };
    }
    if (game.ended) {
      return { refusal: precondition("1.7", "game " + game.number + " is over (" + game.ended[0] + ", " + game.ended[1] + "): " + event.type + " belongs to no game; game_started " + (game.number + 1) + " comes next",
        "law-game-over", { game: game.number, reason: game.ended[0], side: game.ended[1], next: game.number + 1 }) };
    }
    return { game: game };
  }

  function checkShape(event) {
    if (event.type === "match_created") {
      for (const seat of ["first_sol", "first_luna"]) {
        const player = String(event[seat] || "");
        const chars = Array.from(player).length;
        if (chars === 0 || chars > 64 || /[\u0000-\u001f\u007f-\u009f]/.test(player)) {
          return malformed("1.1", seat + " must name a player in 1–64 printable characters", "law-player", { seat: seat });
        }
      }
      if (event.first_sol === event.first_luna) {
        return malformed("1.1", "a game is played between two adversaries, and `" + event.first_sol + "` cannot face itself", "law-adversaries", {});
      }
      if (event.clock_ms === 0) { return malformed("6.2", "each player's time (clock_ms) must be more than 0 ms", "law-clock", {}); }
      return null;
    }
    if (event.type === "game_started" && !(event.game >= 1 && event.game <= 2)) {
      return malformed("8.3", "a match has games 1 and 2, not game " + event.game, "law-game-number", { game: event.game });
    }
    if (event.type === "move_played") { return parseMove(event.notation).error || null; }
    return null;
  }

  // `decide`: the refusal of `event` given `state`, or null when the laws accept it. A
  // `jury_called` (the tablet hands refused taps to the jury in one) needs only the match
  // (`Rules::decide_jury`); it changes nothing the laws fold, and its reason is the tablet's own.
  function decide(state, event) {
    if (event.type === "jury_called") {
      return state.setup ? null : { kind: "precondition", article: null, id: "law-jury-no-match", args: {},
        message: "the match has not been created: match_created comes before jury_called" };
    }
    const shape = checkShape(event);
    if (shape) { return shape; }
    if (event.type === "match_created") {
      return state.setup ? precondition("8.3", "the match was already created: one stream holds one match", "law-match-exists", {}) : null;
    }
    if (!state.setup) {
      return precondition("8.3", "match_created comes first: " + event.type + " needs a match", "law-no-match", { type: event.type });
    }
    const game = state.game;
    if (game && game.pending.length > 0) {
      const next = game.pending[0];
      if (sameEvent(event, consequenceEvent(next))) { return null; }
      return precondition(consequenceArticle(next), "the move " + (game.last_move || "") + " is complete only once its consequences are recorded (4.2): " + consequenceText(next) + " comes next, not " + event.type,
        "law-pending", { move: game.last_move || "", type: event.type });
    }
    if (isOver(state)) {
      return precondition("9.3", "the match is over: both games have ended, and " + event.type + " has no place", "law-match-over", { type: event.type });
    }
    const at = atMs(event);
    if (at !== undefined && state.last_at_ms !== null && at < state.last_at_ms) {
      return precondition("6.2", "at_ms " + at + " goes back in time: the table clock already read " + state.last_at_ms,
        "law-time-back", { at: at, last: state.last_at_ms });
    }
    switch (event.type) {
      case "game_started": {
        let expected;
        if (!game) { expected = 1; }
        else if (game.ended) { expected = game.number + 1; }
        else {
          return precondition("8.3", "game " + game.number + " is still being played: game " + event.game + " cannot start",
            "law-game-running", { current: game.number, game: event.game });
        }
        if (event.game !== expected) {
          return precondition("8.3", "game " + event.game + " cannot start: game " + expected + " comes next",
            "law-game-next", { game: event.game, expected: expected });
        }
        return null;
      }
      case "move_played": {
        const now = playing(state, event);
        if (now.refusal) { return now.refusal; }
        const side = now.game.position.to_move;
        const late = checkInTime(now.game.clocks, side, event.at_ms, "the move `" + event.notation + "`");
        if (late) { return late; }
        return check(now.game.position, parseMove(event.notation).move).refusal || null;
      }
      case "piece_attacked": case "piece_captured": case "game_ended": {
        const articles = { piece_attacked: "4.3.2", piece_captured: "4.3.1", game_ended: "1.6" };
        return precondition(articles[event.type], event.type + " is derived by the ledger from the move that causes it, and no move is waiting for it",
          "law-derived", { type: event.type });
      }
      case "flag_fell": {
        const now = playing(state, event);
        if (now.refusal) { return now.refusal; }
        const toMove = now.game.position.to_move;
        if (event.side !== toMove) {
          return precondition("6.2", "only the clock of the side to move runs: it is " + toMove + "'s move, so " + event.side + "'s flag cannot fall",
            "law-flag-not-running", { to_move: toMove, side: event.side });
        }
        const left = showing(now.game.clocks, event.side, event.at_ms);
        if (left > 0) {
          return precondition("6.2", event.side + "'s flag has not fallen: " + left + " ms are left at " + event.at_ms + " ms (it falls at " + deadline(now.game.clocks, event.side) + " ms)",
            "law-flag-standing", { side: event.side, left: left });
        }
        return null;
      }
      case "resigned": {
        const now = playing(state, event);
        if (now.refusal) { return now.refusal; }
        const toMove = now.game.position.to_move;
        if (event.side !== toMove) {
          return precondition("5.3", "a player resigns during his own move: it is " + toMove + "'s move, not " + event.side + "'s",
            "law-resign-own-move", { to_move: toMove, side: event.side });
        }
        return checkInTime(now.game.clocks, event.side, event.at_ms, "the resignation");
      }
      default:
        return malformed("8.3", event.type + " is not an Andes event", "law-unknown", { type: event.type });
    }
  }

  // The state in serde's field order, so that it reads as the ledger writes it.
  function canonical(state) {
    const g = state.game;
    return {
      setup: state.setup ? { first_sol: state.setup.first_sol, first_luna: state.setup.first_luna, clock_ms: state.setup.clock_ms } : null,
      game: g ? {
        number: g.number,
        position: {
          pieces: sortedPieces(g.position.pieces), reserve: g.position.reserve.slice(), attacked: g.position.attacked.slice(),
          captured: g.position.captured.slice(), entered: g.position.entered.slice(), to_move: g.position.to_move, moves: g.position.moves
        },
        clocks: { remaining_ms: g.clocks.remaining_ms.slice(), turn_began_at_ms: g.clocks.turn_began_at_ms },
        last_move: g.last_move,
        pending: g.pending.map(function (c) { return JSON.parse(JSON.stringify(c)); }),
        ended: g.ended ? g.ended.slice() : null
      } : null,
      last_at_ms: state.last_at_ms
    };
  }

  // `evolve`: applies an event `decide` accepted; a new state, the old one untouched.
  function evolve(state, event) {
    const next = canonical(state);
    const at = atMs(event);
    if (at !== undefined) { next.last_at_ms = at; }
    const game = next.game;
    switch (event.type) {
      case "match_created":
        next.setup = { first_sol: event.first_sol, first_luna: event.first_luna, clock_ms: event.clock_ms };
        break;
      case "game_started": {
        const clock = next.setup ? next.setup.clock_ms : 0;
        next.game = { number: event.game, position: newPosition(), clocks: { remaining_ms: [clock, clock], turn_began_at_ms: event.at_ms },
          last_move: null, pending: [], ended: null };
        break;
      }
      case "move_played": {
        const parsed = parseMove(event.notation);
        if (!game || !parsed.move) { break; }
        const checked = check(game.position, parsed.move);
        if (!checked.played) { break; }
        game.clocks = press(game.clocks, checked.played.side, event.at_ms);
        game.position = apply(game.position, checked.played);
        game.last_move = notation(parsed.move, "sol");
        game.pending = consequences(game.position, checked.played);
        break;
      }
      case "piece_attacked": case "piece_captured": case "game_ended":
        if (game && game.pending.length > 0) {
          const done = game.pending.shift();
          if (done.Ended) { game.ended = [done.Ended.reason, done.Ended.side]; }
        }
        break;
      case "flag_fell": case "resigned":
        if (game) {
          game.clocks = press(game.clocks, event.side, event.at_ms);
          game.ended = [event.type, event.side];
        }
        break;
    }
    return next;
  }

  // The events the ledger appends right after `event` (a move's attack, captures, end).
  function derived(state, event) {
    if (event.type !== "move_played" || decide(state, event)) { return []; }
    const next = evolve(state, event);
    return next.game ? next.game.pending.map(consequenceEvent) : [];
  }

  // `event` and what the ledger derives from it, applied: the state the stream then has, and
  // how many versions it moved on.
  function record(state, event) {
    const events = [event].concat(derived(state, event));
    let next = state;
    events.forEach(function (e) { next = evolve(next, e); });
    return { state: next, events: events };
  }

  // Points of a side in one game (5.1): 3 per own piece on the board, 2 per opposing piece
  // attacked, 1 per piece in reserve.
  function points(position, side) {
    const onBoard = Object.keys(position.pieces).filter(function (s) { return position.pieces[s].side === side; }).length;
    return 3 * onBoard + 2 * position.attacked[index(side)] + position.reserve[index(side)];
  }

  // The winner of an ended game and what decided it, as replay/src/andes/score.rs reckons it:
  // the opponent of a fallen flag or a resignation (5.1, 5.3); else more points (5.1), then
  // more pieces on the board (5.2), then Luna (9.2: a game may not end level). Null while the
  // game runs.
  function winner(game) {
    if (!game || !game.ended) { return null; }
    const reason = game.ended[0], side = game.ended[1];
    if (reason === "flag_fell" || reason === "resigned") { return { side: other(side), decided_by: reason }; }
    const sol = points(game.position, "sol"), luna = points(game.position, "luna");
    if (sol !== luna) { return { side: sol > luna ? "sol" : "luna", decided_by: "points" }; }
    const count = function (s) {
      return Object.keys(game.position.pieces).filter(function (sq) { return game.position.pieces[sq].side === s; }).length;
    };
    const solOn = count("sol"), lunaOn = count("luna");
    if (solOn !== lunaOn) { return { side: solOn > lunaOn ? "sol" : "luna", decided_by: "pieces_on_board" }; }
    return { side: "luna", decided_by: "luna" };
  }

  // What the side to move may do with a tap: the legal destinations of a piece on `from`, or
  // of a reserve piece of `kind` (null from).
  function targets(state, kind, from, at) {
    const game = state.game;
    if (!game || game.ended) { return []; }
    return allSquares().filter(function (to) {
      if (from === to) { return false; }
      const mv = from ? notation({ kind: kind, from: from, to: to }, "sol") : notation({ kind: kind, square: to }, "sol");
      return !decide(state, { type: "move_played", notation: mv, at_ms: at });
    });
  }

  globalThis.AndesRules = {
    KINDS: KINDS, RECORDED: RECORDED, TIMED: TIMED, CENTRE: CENTRE,
    initial: initial, decide: decide, evolve: evolve, derived: derived, record: record,
    parseMove: parseMove, notation: notation, positionNotation: positionNotation, points: points, winner: winner,
    showing: showing, deadline: deadline, targets: targets, hasLegalMove: hasLegalMove, isOver: isOver,
    squares: allSquares, colour: colour, region: region, isBorder: isBorder, isContinent: isContinent,
    nameFor: nameFor, other: other, index: index, name: name,
    // The adapter the queue (table-sync.js) runs the laws through: each recorded event is
    // followed by what the ledger derives from it, so it moves the stream on by that many.
    sync: {
      TIMED: TIMED,
      decide: decide,
      evolve: function (state, event) { return record(state, event).state; },
      span: function (state, event) { return record(state, event).events.length; },
      lastAtMs: function (state) { return state.last_at_ms || 0; }
    }
  };
})();
