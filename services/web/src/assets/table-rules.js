// The game stream's rules as the table sees them, for a tablet with no network: which events
// the ledger would accept next, and why not. A mirror of ledger/src/rules/game.rs (decide,
// evolve), ledger/src/event/shape.rs (the stateless checks) and the parts of
// ledger/src/rules/mod.rs (`Folded::decide`) and ledger/src/event/json.rs (parsing the
// canonical JSON) that the table's events go through, in the same order, so that the first
// refusal is the one the ledger reports, with the same kind and the same English sentence.
// A differential test drives this file and the Rust rules with the same random streams.
//
// Events are canonical JSON objects ({"type":"clock_pressed","at_ms":1234}). The state is the
// serde_json form of `GameState`, keys in the struct's order, so JSON.stringify of what
// `evolve` returns is the text the ledger's state serializes to.
//
// Only the events a table records are decided here (TABLE_EVENTS); any other event is refused
// with `refusal-not-at-the-table` (the ledger would decide it, or call it another stream's).
"use strict";
(function () {
  // --- vocabulary (ledger/src/names.rs), in declaration order, which is also Ord ---
  var NATIONS = ["prussia", "hanover", "russia", "sweden", "austria", "imperial_army", "france"];
  var ROLES = ["frederick", "elisabeth", "maria_theresa", "pompadour"];
  var RULESETS = ["wm2015", "cafe2019", "cafe2023"];
  var SIDES = ["prussia", "attackers"];
  var STOP_REASONS = ["combat", "jury", "discussion", "break", "turn_end"];
  var OUTCOMES = ["prussian_defensive_victory", "prussian_offensive_victory", "allied_victory"];
  var ATTACKING = ["russia", "sweden", "austria", "imperial_army", "france"];

  function isAttacking(nation) { return nation !== "prussia" && nation !== "hanover"; }
  function canDropOut(nation) { return nation === "russia" || nation === "sweden" || nation === "france"; }
  function isCafe(ruleset) { return ruleset === "cafe2019" || ruleset === "cafe2023"; }
  function isPrussian(outcome) { return outcome !== "allied_victory"; }
  function otherSide(side) { return side === "prussia" ? "attackers" : "prussia"; }
  // The side of the chess clock a nation's time runs on (replay/src/clock.rs, side_of).
  function sideOf(nation) { return isAttacking(nation) ? "attackers" : "prussia"; }

  // Bohemia has 14 objectives; names and free text are bounded (ledger/src/event/shape.rs).
  var BOHEMIAN_OBJECTIVES = 14;
  var MAX_TEXT_CHARS = 2000;
  var MAX_TC_PER_DEAL = 7;
  // A game has at most 23 turns (Frederick's maximum, 23/2 = 11.5 points), and the card set
  // aside for the offensive is picked up from turn 3 on (ledger/src/rules/game.rs).
  var MAX_TURNS = 23;
  var SET_ASIDE_EARLIEST_TURN = 3;
  var MAX_NAME_CHARS = 200;

  // --- the events (ledger/src/event/mod.rs): fields in declaration order ---
  // A type is u32, u64, i32, string, an enum (its list of names), ["vec", type],
  // ["objectives"] (BTreeMap<Nation, (i32, i32)>); `opt` marks an Option.
  function f(name, type, opt) { return { name: name, type: type, opt: !!opt }; }
  var TABLE_EVENTS = {
    game_started: [f("at_ms", "u64"), f("ruleset", RULESETS, true), f("tournament", "string", true)],
    turn_started: [f("turn", "u32"), f("at_ms", "u64", true)],
    tc_dealt: [f("nation", NATIONS), f("count", "i32")],
    clock_started: [f("side", SIDES), f("at_ms", "u64")],
    clock_pressed: [f("at_ms", "u64")],
    clock_stopped: [f("reason", STOP_REASONS), f("at_ms", "u64")],
    action_stage_started: [f("nation", NATIONS), f("at_ms", "u64")],
    action_stage_ended: [f("nation", NATIONS), f("at_ms", "u64")],
    retreat_started: [f("length", "u32"), f("at_ms", "u64")],
    retreat_ended: [f("at_ms", "u64")],
    nation_dropped_out: [f("nation", NATIONS), f("objectives_held", "i32"), f("objectives_total", "i32"),
      f("turn", "u32", true)],
    imperial_army_switched: [f("to", ROLES), f("objectives_held", "i32"), f("objectives_total", "i32"),
      f("turn", "u32", true)],
    offensive_launched: [f("set_aside_tc", "i32"), f("turn", "u32", true)],
    austria_claimed_objectives: [f("count", "i32")],
    set_aside_tc_picked_up: [],
    offensive_called_off: [f("bohemian_held_by_prussia", "i32"), f("turn", "u32", true)],
    game_ended: [f("outcome", OUTCOMES), f("winners", ["vec", NATIONS]), f("objectives", ["objectives"]),
      f("bohemian_held_by_prussia", "i32", true)],
    jury_called: [f("reason", "string")]
  };

  // Event::at_ms: the events that carry the table's clock reading (turn_started's is optional).
  var TIMED = ["game_started", "turn_started", "clock_started", "clock_pressed", "clock_stopped",
    "action_stage_started", "action_stage_ended", "retreat_started", "retreat_ended"];

  function present(v) { return v !== undefined && v !== null; }
  function atMs(event) { return TIMED.indexOf(event.type) >= 0 && present(event.at_ms) ? event.at_ms : null; }
  // Event::corrected_turn
  function correctedTurn(event) {
    switch (event.type) {
      case "nation_dropped_out": case "imperial_army_switched":
      case "offensive_launched": case "offensive_called_off":
        return present(event.turn) ? event.turn : null;
      default:
        return null;
    }
  }

  // --- the English sentences, as Rust formats them; the ids are those of i18n/*/rules.ftl ---
  var EN = {
    "refusal-unreadable": function (a) { return a.detail; },
    "refusal-not-at-the-table": function (a) { return a.type + " is not recorded at the table"; },
    // shape.rs
    "refusal-control-character": function (a) {
      return a.field + " must not contain control characters: found U+" + a.code + " at character " + a.position;
    },
    "refusal-too-long": function (a) {
      return a.field + " is " + a.length + " characters long; at most " + a.max + " are allowed";
    },
    "refusal-blank": function (a) { return a.field + " must not be blank"; },
    "refusal-turn-zero": function () { return "turns start at 1"; },
    "refusal-tc-count-negative": function (a) { return "tc_dealt count must not be negative, got " + a.count; },
    "refusal-tc-turn-above-deal": function (a) {
      return a.nation + " was dealt " + a.before + " tactical cards in turn " + a.turn + " already; " + a.count +
        " more is more than a deal: at most " + a.max + " a turn";
    },
    "refusal-tc-count-above-deal": function (a) {
      return "tc_dealt count " + a.count + " is more than a nation is dealt in one turn: at most " + a.max;
    },
    "refusal-objectives-total": function (a) { return "objectives total must be more than 0, got " + a.total; },
    "refusal-objectives-held": function (a) {
      return "objectives held must be between 0 and the total " + a.total + ", got " + a.held;
    },
    "refusal-nation-objectives-total": function (a) {
      return a.nation + ": objectives total must be more than 0, got " + a.total;
    },
    "refusal-nation-objectives-held": function (a) {
      return a.nation + ": objectives held must be between 0 and the total " + a.total + ", got " + a.held;
    },
    "refusal-set-aside-tc-below-one": function (a) {
      return "set_aside_tc is the value of a tactical card, at least 1, got " + a.value;
    },
    "refusal-austria-count-negative": function (a) {
      return "austria_claimed_objectives count must not be negative, got " + a.count;
    },
    "refusal-bohemian-range": function (a) {
      return "bohemian_held_by_prussia must be between 0 and " + a.max + ", got " + a.held;
    },
    "refusal-objectives-not-attacking": function (a) {
      return "objectives are reported for attacking nations only, not " + a.nation;
    },
    "refusal-winner-twice": function (a) { return a.nation + " is listed twice among the winners"; },
    // game.rs
    "refusal-not-started": function (a) { return "the game has not started: game_started comes before " + a.type; },
    "refusal-already-started": function () { return "the game has already started"; },
    "refusal-game-over": function (a) {
      return "the game ended in turn " + a.turn + " (" + a.outcome + "); only the jury may record events now, not " +
        a.type;
    },
    "refusal-turn-ahead": function (a) {
      return a.type + " is recorded for turn " + a.turn + ", but the game is in turn " + a.current;
    },
    "refusal-time-goes-back": function (a) {
      return "at_ms " + a.at_ms + " goes back in time: the table clock already read " + a.last_at_ms;
    },
    "refusal-ruleset-differs": function (a) {
      return "game_started names ruleset " + a.given + ", but the tournament plays " + a.scheduled;
    },
    "refusal-ruleset-missing": function () {
      return "this game is not scheduled in any tournament: name its ruleset in game_started";
    },
    "refusal-turn-repeats": function (a) {
      return "turn_started " + a.turn + " repeats a turn: turn " + a.next + " comes next";
    },
    "refusal-turn-skips": function (a) {
      return "turn_started " + a.turn + " skips a turn: turn " + a.next + " comes next";
    },
    "refusal-turn-past-last": function (a) {
      return "turn_started " + a.turn + " is past the last turn: a game has at most " + a.max +
        " turns (Frederick's maximum of 23/2 = 11.5 points)";
    },
    "refusal-no-turn-yet": function () { return "no turn has started yet: turn_started 1 comes first"; },
    "refusal-nation-out": function (a) { return a.nation + " already dropped out in turn " + a.turn; },
    "refusal-clock-already-runs": function (a) { return "the clock already runs for " + a.side; },
    "refusal-no-clock-to-press": function () { return "no clock is running to press"; },
    "refusal-no-clock-to-stop": function () { return "no clock is running to stop"; },
    "refusal-stage-open": function (a) { return "the action stage of " + a.nation + " has not ended"; },
    "refusal-stage-other-acting": function (a) {
      return "the action stage of " + a.nation + " was not started: " + a.acting + " is acting";
    },
    "refusal-stage-not-started": function (a) { return "the action stage of " + a.nation + " was not started"; },
    "refusal-retreat-open": function () { return "a retreat is already under way"; },
    "refusal-no-retreat": function () { return "no retreat was started"; },
    "refusal-cannot-drop-out": function (a) {
      return a.nation + " cannot drop out: only russia, sweden and france leave by a Card of Fate";
    },
    "refusal-imperial-army-role": function (a) {
      return "the imperial army can pass only to elisabeth or pompadour, not " + a.role;
    },
    "refusal-imperial-army-already": function (a) { return "the imperial army is already controlled by " + a.role; },
    "refusal-offensive-already-launched": function (a) {
      return "the prussian offensive was already launched in turn " + a.turn;
    },
    "refusal-set-aside-tc-too-low": function (a) {
      return a.ruleset + ": the tactical card set aside for the offensive must be worth at least " + a.min +
        ", got " + a.value;
    },
    "refusal-claim-no-offensive": function () {
      return "austria can claim objectives only during a prussian offensive, and none was launched";
    },
    "refusal-claim-offensive-called-off": function (a) {
      return "austria can claim objectives only during a prussian offensive, and it was called off in turn " + a.turn;
    },
    "refusal-pick-up-no-offensive": function () {
      return "the set-aside tactical card can be picked up only during a prussian offensive, and none was launched";
    },
    "refusal-pick-up-offensive-called-off": function (a) {
      return "the set-aside tactical card can be picked up only during a prussian offensive, and it was called off in turn " +
        a.turn;
    },
    "refusal-call-off-no-offensive": function () {
      return "the offensive can be called off only during a prussian offensive, and none was launched";
    },
    "refusal-call-off-offensive-called-off": function (a) {
      return "the offensive can be called off only during a prussian offensive, and it was called off in turn " + a.turn;
    },
    "refusal-austria-already-claimed": function () { return "austria already claimed her objectives"; },
    "refusal-austria-claims-four": function (a) {
      return a.ruleset + ": austria claims exactly " + a.expected + " objectives, got " + a.count;
    },
    "refusal-set-aside-already-picked-up": function () { return "the set-aside tactical card was already picked up"; },
    "refusal-set-aside-too-early": function (a) {
      return "the set-aside tactical card can be picked up from turn " + a.earliest + " on, and the game is in turn " +
        a.turn;
    },
    "refusal-call-off-before-launch": function (a) {
      return "the offensive cannot be called off in turn " + a.turn + ": it was launched in turn " + a.launched_in;
    },
    "refusal-prussian-winners": function (a) {
      return "a " + a.outcome + " has prussia as its only winner, not [" + a.winners + "]";
    },
    "refusal-allied-no-winner": function () { return "an allied_victory needs at least one attacking winner"; },
    "refusal-winner-not-attacking": function (a) { return a.nation + " cannot win an allied_victory"; },
    "refusal-winner-out": function (a) { return "winner: " + a.nation + " already dropped out in turn " + a.turn; },
    "refusal-objectives-missing": function (a) {
      return "game_ended must report the objectives of " + a.nation + ", still in the game";
    },
    "refusal-objectives-fixed": function (a) {
      return a.nation + " dropped out in turn " + a.turn + ": its objectives were fixed then";
    },
    "refusal-bohemian-missing": function () {
      return "the prussian offensive is still active: game_ended must give bohemian_held_by_prussia";
    },
    "refusal-bohemian-not-active": function () {
      return "bohemian_held_by_prussia is reported only while the prussian offensive is active";
    },
    "refusal-offensive-victory-not-active": function () {
      return "a prussian_offensive_victory needs an active prussian offensive";
    },
    "refusal-offensive-victory-bohemian": function (a) {
      return "a prussian_offensive_victory means prussia holds all " + a.max + " bohemian objectives, got " + a.held;
    }
  };

  // A refusal: thrown inside, returned by `decide`.
  function Refusal(kind, id, args) {
    this.kind = kind;
    this.id = id;
    this.args = args || {};
    this.message = EN[id](this.args);
  }
  function malformed(id, args) { return new Refusal("malformed", id, args); }
  function precondition(id, args) { return new Refusal("precondition", id, args); }

  // --- parsing (ledger/src/event/json.rs and serde's derived Deserialize) ---
  // Events from the Rust side always parse; these refusals are for a tablet's own mistakes and
  // word serde's errors as serde_json does for the common cases.

  // serde's `Unexpected` as serde_json's Value shows it (`null` is serde's unit value).
  function unexpected(v) {
    if (v === null) { return "unit value"; }
    if (typeof v === "boolean") { return "boolean `" + v + "`"; }
    if (typeof v === "number") {
      if (Number.isInteger(v)) { return "integer `" + v + "`"; }
      var text = String(v);
      return "floating point `" + (/[.eEn]/.test(text) ? text : text + ".0") + "`";
    }
    if (typeof v === "string") { return "string " + JSON.stringify(v); }
    if (Array.isArray(v)) { return "sequence"; }
    return "map";
  }
  // serde's OneOf: `a`, `a` or `b`, one of `a`, `b`, `c`.
  function oneOf(names) {
    var quoted = names.map(function (n) { return "`" + n + "`"; });
    if (quoted.length === 1) { return quoted[0]; }
    if (quoted.length === 2) { return quoted[0] + " or " + quoted[1]; }
    return "one of " + quoted.join(", ");
  }
  function invalidType(v, expected) { return "invalid type: " + unexpected(v) + ", expected " + expected; }

  var INT_RANGE = {
    u32: [0, 4294967295],
    i32: [-2147483648, 2147483647],
    u64: [0, Number.MAX_SAFE_INTEGER]
  };

  // The serde error for `v` as `type`, or null when it reads.
  function readError(type, v) {
    if (typeof type === "string" && INT_RANGE[type]) {
      if (typeof v !== "number" || !Number.isInteger(v)) { return invalidType(v, type); }
      var range = INT_RANGE[type];
      if (v < range[0] || v > range[1]) { return "invalid value: integer `" + v + "`, expected " + type; }
      return null;
    }
    if (type === "string") { return typeof v === "string" ? null : invalidType(v, "a string"); }
    if (Array.isArray(type) && type[0] === "vec") {
      if (!Array.isArray(v)) { return invalidType(v, "a sequence"); }
      for (var i = 0; i < v.length; i++) {
        var err = readError(type[1], v[i]);
        if (err) { return err; }
      }
      return null;
    }
    if (Array.isArray(type) && type[0] === "objectives") {
      if (typeof v !== "object" || v === null || Array.isArray(v)) { return invalidType(v, "a map"); }
      var keys = Object.keys(v);
      for (var k = 0; k < keys.length; k++) {
        var keyErr = readError(NATIONS, keys[k]);
        if (keyErr) { return keyErr; }
        var pair = v[keys[k]];
        if (!Array.isArray(pair)) { return invalidType(pair, "a tuple of size 2"); }
        for (var j = 0; j < Math.min(pair.length, 2); j++) {
          var numErr = readError("i32", pair[j]);
          if (numErr) { return numErr; }
        }
        if (pair.length < 2) { return "invalid length " + pair.length + ", expected a tuple of size 2"; }
        if (pair.length > 2) { return "invalid length " + pair.length + ", expected fewer elements in array"; }
      }
      return null;
    }
    // A unit-only enum: its snake_case names.
    if (typeof v !== "string") { return invalidType(v, "string or map"); }
    if (type.indexOf(v) < 0) { return "unknown variant `" + v + "`, expected " + oneOf(type); }
    return null;
  }

  // from_canonical_json for the table's events; null when it reads.
  function unreadable(event) {
    if (typeof event !== "object" || event === null || Array.isArray(event)) {
      return malformed("refusal-unreadable", { detail: "an event must be a JSON object" });
    }
    if (!("type" in event)) { return malformed("refusal-unreadable", { detail: "missing field `type`" }); }
    if (typeof event.type !== "string") {
      return malformed("refusal-unreadable", { detail: "`type` must be a string" });
    }
    var fields = TABLE_EVENTS[event.type];
    // An Andes game_started names its `game`, an Andes game_ended its `reason`.
    var andes = (event.type === "game_started" && "game" in event) || (event.type === "game_ended" && "reason" in event);
    if (!fields || andes || !Object.prototype.hasOwnProperty.call(TABLE_EVENTS, event.type)) {
      return malformed("refusal-not-at-the-table", { type: event.type });
    }
    var fail = function (text) {
      // json.rs reads an error that starts like serde's unknown variant of the event's own
      // type as an unknown event type, and words every other "unknown variant" as a value.
      if (text.indexOf("unknown variant `" + event.type + "`") === 0) {
        return malformed("refusal-unreadable", { detail: "unknown event type `" + event.type + "`" });
      }
      return malformed("refusal-unreadable", { detail: event.type + ": " + text.split("unknown variant").join("unknown value") });
    };
    var names = fields.map(function (field) { return field.name; });
    // serde reads the fields in the JSON's order, after json.rs took `type` out of it with
    // serde_json's `remove`, a swap_remove under preserve_order: the last field takes its place.
    var keys = Object.keys(event);
    var typeAt = keys.indexOf("type");
    var lastKey = keys.pop();
    if (typeAt < keys.length) { keys[typeAt] = lastKey; }
    for (var i = 0; i < keys.length; i++) {
      var at = names.indexOf(keys[i]);
      if (at < 0) {
        return fail("unknown field `" + keys[i] + "`, " + (names.length ? "expected " + oneOf(names) : "there are no fields"));
      }
      var field = fields[at], value = event[keys[i]];
      if (field.opt && value === null) { continue; }
      var err = readError(field.type, value);
      if (err) { return fail(err); }
    }
    for (var m = 0; m < fields.length; m++) {
      if (!fields[m].opt && !(fields[m].name in event)) { return fail("missing field `" + fields[m].name + "`"); }
    }
    return null;
  }

  // --- the stateless checks (ledger/src/event/shape.rs) ---

  // Rust's char::is_control (general category Cc) and char::is_whitespace (White_Space).
  function isControl(cp) { return cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f); }
  function isWhitespace(cp) {
    return (cp >= 0x09 && cp <= 0x0d) || cp === 0x20 || cp === 0x85 || cp === 0xa0 || cp === 0x1680 ||
      (cp >= 0x2000 && cp <= 0x200a) || cp === 0x2028 || cp === 0x2029 || cp === 0x202f || cp === 0x205f ||
      cp === 0x3000;
  }

  // check_string: counted in characters (code points), as Rust counts chars.
  function checkString(name, value, maxChars, required, lines) {
    var nChars = 0, blank = true;
    for (var i = 0; i < value.length;) {
      var cp = value.codePointAt(i);
      i += cp > 0xffff ? 2 : 1;
      nChars += 1;
      if (isControl(cp) && !(lines && cp === 0x0a)) {
        var hex = cp.toString(16).toUpperCase();
        while (hex.length < 4) { hex = "0" + hex; }
        throw malformed("refusal-control-character", { field: name, code: hex, position: nChars });
      }
      if (!isWhitespace(cp)) { blank = false; }
    }
    if (nChars > maxChars) { throw malformed("refusal-too-long", { field: name, length: nChars, max: maxChars }); }
    if (required && blank) { throw malformed("refusal-blank", { field: name }); }
  }

  function checkObjectives(nation, held, total) {
    if (total <= 0) {
      throw nation === null ? malformed("refusal-objectives-total", { total: total })
        : malformed("refusal-nation-objectives-total", { nation: nation, total: total });
    }
    if (held < 0 || held > total) {
      throw nation === null ? malformed("refusal-objectives-held", { held: held, total: total })
        : malformed("refusal-nation-objectives-held", { nation: nation, held: held, total: total });
    }
  }

  function checkBohemian(held) {
    if (held < 0 || held > BOHEMIAN_OBJECTIVES) {
      throw malformed("refusal-bohemian-range", { held: held, max: BOHEMIAN_OBJECTIVES });
    }
  }

  function checkShape(e) {
    // each_string
    if (e.type === "game_started" && present(e.tournament)) {
      checkString("game_started.tournament", e.tournament, MAX_NAME_CHARS, false, false);
    }
    if (e.type === "jury_called") { checkString("jury_called.reason", e.reason, MAX_TEXT_CHARS, true, true); }
    if (correctedTurn(e) === 0) { throw malformed("refusal-turn-zero", {}); }
    switch (e.type) {
      case "tc_dealt":
        if (e.count < 0) { throw malformed("refusal-tc-count-negative", { count: e.count }); }
        if (e.count > MAX_TC_PER_DEAL) {
          throw malformed("refusal-tc-count-above-deal", { count: e.count, max: MAX_TC_PER_DEAL });
        }
        break;
      case "nation_dropped_out": case "imperial_army_switched":
        checkObjectives(null, e.objectives_held, e.objectives_total);
        break;
      case "offensive_launched":
        if (e.set_aside_tc < 1) { throw malformed("refusal-set-aside-tc-below-one", { value: e.set_aside_tc }); }
        break;
      case "austria_claimed_objectives":
        if (e.count < 0) { throw malformed("refusal-austria-count-negative", { count: e.count }); }
        break;
      case "offensive_called_off":
        checkBohemian(e.bohemian_held_by_prussia);
        break;
      case "game_ended":
        // A BTreeMap: in the nations' order, whatever the JSON's.
        NATIONS.forEach(function (nation) {
          if (!Object.prototype.hasOwnProperty.call(e.objectives, nation)) { return; }
          if (!isAttacking(nation)) { throw malformed("refusal-objectives-not-attacking", { nation: nation }); }
          checkObjectives(nation, e.objectives[nation][0], e.objectives[nation][1]);
        });
        var seen = [];
        e.winners.forEach(function (winner) {
          if (seen.indexOf(winner) >= 0) { throw malformed("refusal-winner-twice", { nation: winner }); }
          seen.push(winner);
        });
        if (present(e.bohemian_held_by_prussia)) { checkBohemian(e.bohemian_held_by_prussia); }
        break;
    }
  }

  // --- the rules (ledger/src/rules/game.rs) ---

  function outTurn(state, nation) {
    return state.out && Object.prototype.hasOwnProperty.call(state.out, nation) ? state.out[nation] : null;
  }
  function offensiveOf(state) {
    var o = state.offensive;
    if (o && typeof o === "object" && o.Active) { return { kind: "Active", launched_in: o.Active.launched_in }; }
    if (o && typeof o === "object" && o.CalledOff) {
      return { kind: "CalledOff", launched_in: o.CalledOff.launched_in, called_off_in: o.CalledOff.called_off_in };
    }
    return { kind: "NotLaunched" };
  }

  function startedBefore(state, e) {
    if (!state.started) { throw precondition("refusal-not-started", { type: e.type }); }
  }
  function decidePhase(state, e) {
    var isStart = e.type === "game_started";
    if (!isStart) { startedBefore(state, e); }
    if (state.started && isStart) { throw precondition("refusal-already-started", {}); }
    if (state.ended) {
      throw precondition("refusal-game-over", { turn: state.ended[1], outcome: state.ended[0], type: e.type });
    }
  }
  function inTurn(state) {
    if (state.turn === 0) { throw precondition("refusal-no-turn-yet", {}); }
  }
  function inGame(state, nation) {
    var turn = outTurn(state, nation);
    if (turn !== null) { throw precondition("refusal-nation-out", { nation: nation, turn: turn }); }
  }
  // offensive_active: `what` names the refusal ids of one action.
  function offensiveActive(state, what) {
    var o = offensiveOf(state);
    if (o.kind === "NotLaunched") { throw precondition("refusal-" + what + "-no-offensive", {}); }
    if (o.kind === "CalledOff") {
      throw precondition("refusal-" + what + "-offensive-called-off", { turn: o.called_off_in });
    }
  }

  function decideGame(state, e) {
    decidePhase(state, e);
    var turn = correctedTurn(e);
    if (turn !== null && turn > state.turn) {
      throw precondition("refusal-turn-ahead", { type: e.type, turn: turn, current: state.turn });
    }
    var at = atMs(e), last = present(state.last_at_ms) ? state.last_at_ms : null;
    if (at !== null && last !== null && at < last) {
      throw precondition("refusal-time-goes-back", { at_ms: at, last_at_ms: last });
    }
    var o;
    switch (e.type) {
      case "game_started":
        var given = present(e.ruleset) ? e.ruleset : null, scheduled = present(state.scheduled) ? state.scheduled : null;
        if (given !== null && scheduled !== null && given !== scheduled) {
          throw precondition("refusal-ruleset-differs", { given: given, scheduled: scheduled });
        }
        if (given === null && scheduled === null) { throw precondition("refusal-ruleset-missing", {}); }
        return;
      case "turn_started":
        if (e.turn > MAX_TURNS) { throw precondition("refusal-turn-past-last", { turn: e.turn, max: MAX_TURNS }); }
        var next = state.turn + 1;
        if (e.turn !== next) {
          throw precondition(e.turn <= state.turn ? "refusal-turn-repeats" : "refusal-turn-skips",
            { turn: e.turn, next: next });
        }
        return;
      case "tc_dealt":
        inTurn(state);
        inGame(state, e.nation);
        var before = state.dealt && present(state.dealt[e.nation]) ? state.dealt[e.nation] : 0;
        if (before + e.count > MAX_TC_PER_DEAL) {
          throw precondition("refusal-tc-turn-above-deal",
            { nation: e.nation, before: before, turn: state.turn, count: e.count, max: MAX_TC_PER_DEAL });
        }
        return;
      case "clock_started":
        if (present(state.clock_running)) { throw precondition("refusal-clock-already-runs", { side: state.clock_running }); }
        return;
      case "clock_pressed":
        if (!present(state.clock_running)) { throw precondition("refusal-no-clock-to-press", {}); }
        return;
      case "clock_stopped":
        if (!present(state.clock_running)) { throw precondition("refusal-no-clock-to-stop", {}); }
        return;
      case "action_stage_started":
        inTurn(state);
        inGame(state, e.nation);
        if (present(state.action_stage)) { throw precondition("refusal-stage-open", { nation: state.action_stage }); }
        return;
      case "action_stage_ended":
        if (!present(state.action_stage)) { throw precondition("refusal-stage-not-started", { nation: e.nation }); }
        if (state.action_stage !== e.nation) {
          throw precondition("refusal-stage-other-acting", { nation: e.nation, acting: state.action_stage });
        }
        return;
      case "retreat_started":
        if (state.retreat_open) { throw precondition("refusal-retreat-open", {}); }
        return;
      case "retreat_ended":
        if (!state.retreat_open) { throw precondition("refusal-no-retreat", {}); }
        return;
      case "nation_dropped_out":
        inTurn(state);
        if (!canDropOut(e.nation)) { throw precondition("refusal-cannot-drop-out", { nation: e.nation }); }
        inGame(state, e.nation);
        return;
      case "imperial_army_switched":
        inTurn(state);
        if (e.to !== "elisabeth" && e.to !== "pompadour") { throw malformed("refusal-imperial-army-role", { role: e.to }); }
        if (e.to === state.imperial_army) { throw precondition("refusal-imperial-army-already", { role: e.to }); }
        return;
      case "offensive_launched":
        inTurn(state);
        o = offensiveOf(state);
        if (o.kind !== "NotLaunched") { throw precondition("refusal-offensive-already-launched", { turn: o.launched_in }); }
        if (state.ruleset === "cafe2019" && e.set_aside_tc < 10) {
          throw precondition("refusal-set-aside-tc-too-low", { ruleset: "cafe2019", min: 10, value: e.set_aside_tc });
        }
        return;
      case "austria_claimed_objectives":
        offensiveActive(state, "claim");
        if (state.austria_claimed) { throw precondition("refusal-austria-already-claimed", {}); }
        if (present(state.ruleset) && isCafe(state.ruleset) && e.count !== 4) {
          throw precondition("refusal-austria-claims-four", { ruleset: state.ruleset, expected: 4, count: e.count });
        }
        return;
      case "set_aside_tc_picked_up":
        offensiveActive(state, "pick-up");
        if (state.set_aside_picked_up) { throw precondition("refusal-set-aside-already-picked-up", {}); }
        if (state.turn < SET_ASIDE_EARLIEST_TURN) {
          throw precondition("refusal-set-aside-too-early", { earliest: SET_ASIDE_EARLIEST_TURN, turn: state.turn });
        }
        return;
      case "offensive_called_off":
        offensiveActive(state, "call-off");
        o = offensiveOf(state);
        if (turn !== null && o.kind === "Active" && turn < o.launched_in) {
          throw precondition("refusal-call-off-before-launch", { turn: turn, launched_in: o.launched_in });
        }
        return;
      case "game_ended":
        inTurn(state);
        decideEnd(state, e);
        return;
    }
  }

  function decideEnd(state, e) {
    var outcome = e.outcome, winners = e.winners;
    var bohemian = present(e.bohemian_held_by_prussia) ? e.bohemian_held_by_prussia : null;
    if (isPrussian(outcome)) {
      if (!(winners.length === 1 && winners[0] === "prussia")) {
        throw precondition("refusal-prussian-winners", { outcome: outcome, winners: winners.join(", ") });
      }
    } else {
      if (winners.length === 0) { throw precondition("refusal-allied-no-winner", {}); }
      winners.forEach(function (winner) {
        if (!isAttacking(winner)) { throw precondition("refusal-winner-not-attacking", { nation: winner }); }
        var turn = outTurn(state, winner);
        if (turn !== null) { throw precondition("refusal-winner-out", { nation: winner, turn: turn }); }
      });
    }
    ATTACKING.forEach(function (nation) {
      var turn = outTurn(state, nation);
      var reported = Object.prototype.hasOwnProperty.call(e.objectives, nation);
      if (turn === null && !reported) { throw precondition("refusal-objectives-missing", { nation: nation }); }
      if (turn !== null && reported) { throw precondition("refusal-objectives-fixed", { nation: nation, turn: turn }); }
    });
    var active = offensiveOf(state).kind === "Active";
    if (active && bohemian === null) { throw precondition("refusal-bohemian-missing", {}); }
    if (!active && bohemian !== null) { throw precondition("refusal-bohemian-not-active", {}); }
    if (outcome === "prussian_offensive_victory" && !active) {
      throw precondition("refusal-offensive-victory-not-active", {});
    }
    if (active && outcome === "prussian_offensive_victory" && bohemian !== BOHEMIAN_OBJECTIVES) {
      throw precondition("refusal-offensive-victory-bohemian", { max: BOHEMIAN_OBJECTIVES, held: bohemian });
    }
  }

  // Folded::decide for a game stream: the event reads, its shape, its family, then the rules
  // (or, for the jury's call, only that the game has started: GameState::decide_jury).
  function decide(state, event) {
    var refusal = unreadable(event);
    try {
      if (refusal) { throw refusal; }
      checkShape(event);
      if (event.type === "jury_called") {
        startedBefore(state, event);
      } else {
        decideGame(state, event);
      }
      return null;
    } catch (thrown) {
      if (!(thrown instanceof Refusal)) { throw thrown; }
      return { kind: thrown.kind, id: thrown.id, args: thrown.args, message: thrown.message };
    }
  }

  // --- the state (GameState, serialized by serde_json: keys in the struct's order) ---

  function initial(scheduledRuleset) {
    return {
      scheduled: present(scheduledRuleset) ? scheduledRuleset : null,
      ruleset: null,
      started: false,
      ended: null,
      turn: 0,
      last_at_ms: null,
      out: {},
      imperial_army: "maria_theresa",
      offensive: "NotLaunched",
      set_aside_picked_up: false,
      austria_claimed: false,
      clock_running: null,
      action_stage: null,
      retreat_open: false,
      fate_horizon: null,
      dealt: {}
    };
  }

  // A BTreeMap<Nation, _> (`out`, `dealt`): keys in the nations' order.
  function sortedOut(out) {
    var sorted = {};
    NATIONS.forEach(function (nation) {
      if (out && Object.prototype.hasOwnProperty.call(out, nation)) { sorted[nation] = out[nation]; }
    });
    return sorted;
  }
  function offensiveJson(o) {
    if (o.kind === "Active") { return { Active: { launched_in: o.launched_in } }; }
    if (o.kind === "CalledOff") { return { CalledOff: { launched_in: o.launched_in, called_off_in: o.called_off_in } }; }
    return "NotLaunched";
  }
  function orNull(v) { return present(v) ? v : null; }
  function copy(s) {
    return {
      scheduled: orNull(s.scheduled),
      ruleset: orNull(s.ruleset),
      started: !!s.started,
      ended: s.ended ? [s.ended[0], s.ended[1]] : null,
      turn: s.turn,
      last_at_ms: orNull(s.last_at_ms),
      out: sortedOut(s.out),
      imperial_army: s.imperial_army,
      offensive: offensiveJson(offensiveOf(s)),
      set_aside_picked_up: !!s.set_aside_picked_up,
      austria_claimed: !!s.austria_claimed,
      clock_running: orNull(s.clock_running),
      action_stage: orNull(s.action_stage),
      retreat_open: !!s.retreat_open,
      fate_horizon: orNull(s.fate_horizon),
      dealt: sortedOut(s.dealt || {})
    };
  }

  // GameState::evolve (jury_called leaves the rules as they are: Folded::evolve).
  function evolve(state, event) {
    var s = copy(state);
    if (event.type === "jury_called" || !Object.prototype.hasOwnProperty.call(TABLE_EVENTS, event.type)) { return s; }
    var at = atMs(event);
    if (at !== null) { s.last_at_ms = at; }
    var turn = present(event.turn) ? event.turn : s.turn;
    switch (event.type) {
      case "game_started":
        s.started = true;
        s.ruleset = present(event.ruleset) ? event.ruleset : s.scheduled;
        break;
      case "turn_started": s.turn = event.turn; s.dealt = {}; break;
      case "tc_dealt":
        s.dealt[event.nation] = (present(s.dealt[event.nation]) ? s.dealt[event.nation] : 0) + event.count;
        s.dealt = sortedOut(s.dealt);
        break;
      case "clock_started": s.clock_running = event.side; break;
      case "clock_pressed": s.clock_running = s.clock_running === null ? null : otherSide(s.clock_running); break;
      case "clock_stopped": s.clock_running = null; break;
      case "action_stage_started": s.action_stage = event.nation; break;
      case "action_stage_ended": s.action_stage = null; break;
      case "retreat_started": s.retreat_open = true; break;
      case "retreat_ended": s.retreat_open = false; break;
      case "nation_dropped_out":
        s.out[event.nation] = turn;
        s.out = sortedOut(s.out);
        break;
      case "imperial_army_switched": s.imperial_army = event.to; break;
      case "offensive_launched": s.offensive = { Active: { launched_in: turn } }; break;
      case "austria_claimed_objectives": s.austria_claimed = true; break;
      case "set_aside_tc_picked_up": s.set_aside_picked_up = true; break;
      case "offensive_called_off":
        var o = offensiveOf(s);
        if (o.kind === "Active") { s.offensive = { CalledOff: { launched_in: o.launched_in, called_off_in: turn } }; }
        break;
      case "game_ended": s.ended = [event.outcome, s.turn]; break;
    }
    return s;
  }

  // --- the chess clock for display (replay/src/clock.rs, "Time charged") ---
  // `base` is the server's clock as of the last recorded event; `events` the timed events
  // recorded since, in order; `nowMs` the table time to show. The running side loses the time
  // between readings; after game_ended no clock runs and nothing is carried forward.
  function clock(base, events, nowMs) {
    var ms = base.ms_per_side;
    // The time used: the server's `used_ms` when the base has it (ClockView does), else what
    // `remaining_ms` and `on_stopwatch` tell (once out of time, at least all of it).
    var usedOf = function (side) {
      if (side && present(side.used_ms)) { return side.used_ms; }
      var remaining = side && present(side.remaining_ms) ? side.remaining_ms : ms;
      return side && side.on_stopwatch ? Math.max(ms, ms - remaining) : ms - remaining;
    };
    var used = { prussia: usedOf(base.prussia), attackers: usedOf(base.attackers) };
    var last = present(base.at_ms) ? base.at_ms : null;
    var running = orNull(base.running), stoppedFor = orNull(base.stopped_for), ended = !!base.game_ended;
    function advance(at) {
      var elapsed = last === null ? 0 : Math.max(0, at - last);
      last = last === null ? at : Math.max(last, at);
      if (elapsed > 0 && running !== null) { used[running] += elapsed; }
    }
    (events || []).forEach(function (event) {
      if (ended) { return; }
      var at = atMs(event);
      if (at !== null) { advance(at); }
      switch (event.type) {
        case "clock_started": running = event.side; stoppedFor = null; break;
        case "clock_pressed": running = running === null ? null : otherSide(running); stoppedFor = null; break;
        case "clock_stopped": running = null; stoppedFor = event.reason; break;
        case "game_ended": running = null; stoppedFor = null; ended = true; break;
      }
    });
    var now = typeof nowMs === "number" ? nowMs : last;
    if (typeof nowMs === "number" && !ended && last !== null) { advance(nowMs); }
    var view = function (side) {
      return { remaining_ms: Math.max(0, ms - used[side]), ran_out: used[side] >= ms };
    };
    return { at_ms: now, running: running, stopped_for: stoppedFor, prussia: view("prussia"), attackers: view("attackers") };
  }

  var TableRules = {
    decide: decide,
    evolve: evolve,
    initial: initial,
    clock: clock,
    sideOf: sideOf,
    isAttacking: isAttacking,
    canDropOut: canDropOut,
    TIMED: TIMED.slice(),
    TABLE_EVENTS: Object.keys(TABLE_EVENTS),
    NATIONS: NATIONS.slice(),
    ROLES: ROLES.slice(),
    RULESETS: RULESETS.slice(),
    SIDES: SIDES.slice(),
    STOP_REASONS: STOP_REASONS.slice(),
    OUTCOMES: OUTCOMES.slice(),
    MESSAGE_IDS: Object.keys(EN),
    // The adapter the queue (table-sync.js) runs these rules through: a Friedrich event is
    // one version of its stream, nothing is derived from it.
    sync: {
      TIMED: TIMED.slice(),
      decide: decide,
      evolve: evolve,
      span: function () { return 1; },
      lastAtMs: function (state) { return (state && state.last_at_ms) || 0; }
    }
  };
  globalThis.TableRules = TableRules;
  if (typeof module !== "undefined" && module.exports) { module.exports = TableRules; }
})();
