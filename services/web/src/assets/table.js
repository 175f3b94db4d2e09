// The table page: the game runs on the tablet. Every tap is an event made here — its own id,
// its table time taken at the tap — decided by the game's rules (table-rules.js, the ledger's
// rules mirrored), kept in IndexedDB and sent in order by the queue of table-sync.js.
// The chess clock, the stops and the stopwatch run from the tablet's monotonic clock; nothing
// waits on the network, and the page never reloads itself.
//
// A turn is a few taps: "Start turn N", then "Deal the standard cards" (each nation's deal as
// the ledger's view gives it, `standard_deal`; a nation a Card of Fate lowers is changed in its
// field first). What happens now and then (a drop-out, the Imperial Army's switch, the
// offensive, the end) is one entry opened from a row of buttons, its totals prefilled from
// the view (`objectives_totals`); while an entry is open the clock is drawn compact, so the
// whole entry fits the tablet's screen.
"use strict";
(function () {
  // The queue's fields (view, rows, recorded, anchor, online, sending…) are set by
  // TableSync.attach: `view` is the last TableView from ledgerd (or kept in IndexedDB), `rows`
  // the waiting and refused taps, `recorded` the taps ledgerd stored that the view does not
  // show yet, `anchor` {table_ms, perf}: table time = table_ms + (performance.now() - perf).
  // `open` is the entry open ("drop", "switch", "stage", "offensive", "end", "jury", or
  // "correct:<seq>"), null when none is.
  const app = {
    game: null, section: null, mayRecord: false, actor: null,
    lang: "en", bundles: {}, notice: "", entriesKey: "", open: null
  };
  globalThis.tableApp = app;
  let sync = null;
  function waiting() { return sync.waiting(); }
  function local() { return sync.local(); }
  function tableNow() { return sync.tableNow(); }
  function act(event, domEvent, forgetting, extra) { return sync.act(event, domEvent, forgetting, extra); }

  // ---- words -------------------------------------------------------------------------------
  const words = TablePage.words(app, ["pages.ftl", "rules.ftl"]);
  const t = words.t;
  // A name from the rules' catalogue (`nation-russia`), else the name itself, readable.
  function named(kind, value) {
    if (value === null || value === undefined) { return ""; }
    const id = kind + "-" + value;
    const text = t(id);
    return text === id ? String(value).replace(/_/g, " ") : text;
  }
  // A decimal the ledger wrote (`12.1`) as the reader writes it (`12,1` in Spanish).
  function decimal(text) {
    return app.lang === "es" ? String(text).replace(".", ",") : String(text);
  }
  // The names a refusal's arguments carry as the ledger spells them (`imperial_army`,
  // `tc_dealt`), in the reader's words.
  const ARG_NAMES = {
    nation: "nation", acting: "nation", role: "role", side: "side", outcome: "outcome",
    ruleset: "ruleset", given: "ruleset", scheduled: "ruleset", type: "table-event-name"
  };
  // A player the tournament knows by no pseudonym, numbered by the ledger (`player 3`,
  // `stand-in 2`, `stand-in 2 #2`), in the page's language; a pseudonym as it is.
  function alias(text) {
    const m = /^(player|stand-in) (\d+)( #\d+)?$/.exec(text || "");
    if (!m) { return text || ""; }
    return t(m[1] === "player" ? "alias-player" : "alias-stand-in", { n: Number(m[2]) }) + (m[3] || "");
  }
  function wordedArgs(args) {
    const out = {};
    Object.keys(args || {}).forEach(function (key) {
      const value = args[key];
      if (key === "winners" && typeof value === "string") {
        out[key] = value.split(", ").filter(Boolean).map(function (n) { return named("nation", n); }).join(", ");
      } else if (ARG_NAMES[key] && typeof value === "string") {
        out[key] = named(ARG_NAMES[key], value);
      } else {
        out[key] = value;
      }
    });
    return out;
  }
  // A refusal in the page's language: the rules' own message id, else the ledger's sentence.
  function refusalText(refusal) {
    if (refusal.id) {
      const text = t(refusal.id, wordedArgs(refusal.args));
      if (text !== refusal.id) { return text; }
    }
    if (refusal.kind === "stale_version") { return t("refusal-stale"); }
    if (refusal.kind === "exhausted") { return t("refusal-exhausted"); }
    if (refusal.text) { return refusal.text; }
    return t("refusal-by-ledger", { message: refusal.message });
  }
  // An event as a sentence in the page's language.
  function describe(event) {
    const a = {};
    Object.keys(event).forEach(function (key) { a[key] = event[key]; });
    if (event.nation) { a.nation = named("nation", event.nation); }
    if (event.side) { a.side = named("side", event.side); }
    if (event.type === "clock_stopped") { a.reason = named("stop", event.reason); }
    if (event.to) { a.to = named("role", event.to); }
    if (event.ruleset) { a.ruleset = named("ruleset", event.ruleset); }
    if (event.outcome) { a.outcome = named("outcome", event.outcome); }
    if (typeof event.at_ms === "number") { a.time = hms(event.at_ms); }
    if (event.winners) { a.winners = event.winners.map(function (n) { return named("nation", n); }).join(", "); }
    if (event.objectives) {
      a.objectives = Object.keys(event.objectives).map(function (n) {
        return t("table-event-objectives-of", { nation: named("nation", n), held: event.objectives[n][0], total: event.objectives[n][1] });
      }).join(", ");
    }
    const id = "table-event-" + event.type;
    const text = t(id, a);
    return text === id ? t("table-event-unknown") : text;
  }

  // ---- time --------------------------------------------------------------------------------
  function hms(ms) {
    const s = Math.floor(Math.max(0, ms) / 1000);
    const m = Math.floor(s / 60) % 60, h = Math.floor(s / 3600);
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (s % 60 < 10 ? "0" : "") + (s % 60);
  }
  // ---- the game as the tablet knows it -----------------------------------------------------
  // The clock: the view's, as of its last event, run on through the tablet's own events.
  function clockNow() {
    const view = app.view;
    const rules = local().rules;
    if (!rules.started) { return null; }
    const base = view.clock || {
      ms_per_side: view.ms_per_side, at_ms: null, running: null, stopped_for: null,
      prussia: { remaining_ms: view.ms_per_side, on_stopwatch: false },
      attackers: { remaining_ms: view.ms_per_side, on_stopwatch: false }
    };
    const events = app.recorded.concat(waiting()).map(function (row) { return row.event; });
    return TableRules.clock(base, events, tableNow());
  }

  // ---- drawing -------------------------------------------------------------------------------
  const el = TablePage.el, byId = TablePage.byId;
  const showNotice = TablePage.notice(app);
  const renderSync = TablePage.statusLine(app, t);

  function render() {
    if (!app.view) { return; }
    const now = local();
    const rules = now.rules;
    renderHead(rules);
    renderSync();
    if (app.conflict > 0) {
      showNotice(t("sync-conflict", { count: app.conflict }));
      app.conflict = 0;
    }
    renderRefused();
    renderEntries(rules);
    renderClock(rules);
    renderLists();
  }

  // Which table this is and who plays which role, the ruleset and where the game stands.
  function renderHead(rules) {
    let phase;
    if (!rules.started) { phase = t("table-phase-not-started"); }
    else if (rules.ended) { phase = t("table-phase-ended", { turn: rules.ended[1], outcome: named("outcome", rules.ended[0]) }); }
    else { phase = t("table-phase-turn", { turn: rules.turn }); }
    const ruleset = rules.ruleset || app.view.ruleset;
    const seating = app.view.seating;
    const title = byId("title");
    title.textContent = (seating
      ? t(seating.stage === "final" ? "table-at-final" : "table-at", { table: seating.table, round: seating.round })
      : t("table-title", { game: app.game })) + " ";
    title.appendChild(el("span", { "class": "muted", id: "phase",
      text: (ruleset ? named("ruleset", ruleset) : t("table-no-ruleset")) + " · " + phase }));
    const line = byId("seating");
    if (!seating) { line.hidden = true; return; }
    line.hidden = false;
    line.replaceChildren.apply(line, TableRules.ROLES.map(function (role) {
      return el("span", { "class": "seat", dataset: { role: role } }, [
        el("b", { text: named("role", role) }), document.createTextNode(" " + alias(seating.players[role]))]);
    }).concat([el("span", { "class": "muted", text: t("table-title", { game: app.game }) })]));
  }

  // Set once the queue is attached (start).
  let renderRefused = function () {};
  let eventLists = function () {};

  function button(id, label, onClick, attrs) {
    const options = Object.assign({ type: "button", id: id, on: { click: onClick } }, attrs || {});
    return el("button", options, [document.createTextNode(label)]);
  }

  // The chess clock: two large buttons (compact while an entry is open), the stops the
  // rules allow, the stopwatch. An ended game's clock offers nothing.
  function renderClock(rules) {
    const area = byId("clock-area");
    area.replaceChildren();
    // Compact while an entry is open, and once the game has ended (nothing to press).
    area.classList.toggle("compact", app.open !== null || !!rules.ended);
    if (!rules.started) { return; }
    const clock = clockNow();
    const at = tableNow();
    const grid = el("div", { "class": "chess-clock", id: "chess-clock" });
    ["prussia", "attackers"].forEach(function (side) {
      const running = !rules.ended && rules.clock_running === side;
      const event = running ? { type: "clock_pressed", at_ms: at } : { type: "clock_started", side: side, at_ms: at };
      const allowed = app.mayRecord && !rules.ended && !TableRules.decide(rules, event);
      const view = clock[side];
      const children = [
        el("span", { "class": "name", text: named("side", side) }),
        el("span", { "class": "clock", id: "clock-" + side, dataset: { side: side } }, [document.createTextNode(hms(view.remaining_ms))])
      ];
      if (view.ran_out) { children.push(el("span", { "class": "flag", text: t("table-time-ran-out") })); }
      let hint = "";
      if (allowed) { hint = running ? t("table-tap-hand-over") : t("table-tap-start"); }
      children.push(el("span", { "class": "hint", text: hint }));
      grid.appendChild(el("button", {
        type: "button", "class": "side " + side + (running ? " running" : ""), id: "press-" + side,
        disabled: !allowed, dataset: { side: side },
        on: { click: function (e) {
          const now = local().rules;
          act(now.clock_running === side ? { type: "clock_pressed" } : { type: "clock_started", side: side }, e);
        } }
      }, children));
    });
    area.appendChild(grid);
    if (app.mayRecord && !rules.ended) {
      const stops = el("div", { "class": "stops", id: "stops" });
      TableRules.STOP_REASONS.forEach(function (reason) {
        if (TableRules.decide(rules, { type: "clock_stopped", reason: reason, at_ms: at })) { return; }
        stops.appendChild(button("stop-" + reason, t("table-stop", { reason: named("stop", reason) }), function (e) {
          act({ type: "clock_stopped", reason: reason }, e);
        }, { "class": "stop stop-" + reason }));
      });
      if (stops.children.length) { area.appendChild(stops); }
    }
    if (clock.stopped_for && !rules.ended) {
      area.appendChild(el("p", { "class": "stopped", id: "stopped",
        text: t("table-clock-stopped", { reason: named("stop", clock.stopped_for) }) }));
    }
    renderStopwatch(area, rules, clock);
  }

  // The stopwatch of the open action stage, when its side's time is used up: the view's own
  // figures while no tap of the tablet touched it, else the nation's allowance counted down
  // from the stage's start (a transfer from the player's first nation shows once the ledger
  // has the events: docs/DECISIONS.md).
  function renderStopwatch(area, rules, clock) {
    if (!rules.action_stage) { return; }
    const nation = rules.action_stage;
    const fromView = app.view.clock && app.view.clock.stopwatch && app.view.clock.stopwatch.find(function (w) {
      return w.nation === nation;
    });
    let left, allowance;
    const local = app.recorded.concat(waiting()).some(function (row) { return row.event.type.indexOf("action_stage") === 0 || row.event.type.indexOf("clock_") === 0; });
    if (fromView && !local) {
      const runs = clock.running === fromView.side;
      const since = runs && app.view.clock.at_ms !== null ? tableNow() - app.view.clock.at_ms : 0;
      left = fromView.left_ms - since;
      allowance = fromView.allowance_ms + fromView.transferred_ms;
    } else {
      const started = app.recorded.concat(waiting()).filter(function (row) {
        return row.event.type === "action_stage_started" && row.event.nation === nation;
      }).pop();
      const side = TableRules.sideOf(nation);
      if (!started || !(clock[side].remaining_ms <= 0)) { return; }
      allowance = app.view.allowances[nation] || 0;
      left = allowance - (clock.running === side ? tableNow() - started.event.at_ms : 0);
    }
    let text = t("table-stopwatch", { who: named("nation", nation), left: hms(left), allowance: hms(allowance) });
    if (left < 0) { text += ", " + t("table-stopwatch-over", { over: hms(-left) }); }
    area.appendChild(el("p", { "class": "stopwatch", id: "stopwatch", text: text }));
  }

  // ---- fields --------------------------------------------------------------------------------
  // Every field's id is its entry's and its own (`f-drop-objectives_held`): no two forms share one.
  function select(entry, name, label, options, value) {
    return el("label", {}, [document.createTextNode(label + " "), el("select", { name: name, id: "f-" + entry + "-" + name },
      options.map(function (o) { return el("option", { value: o[0], text: o[1], selected: o[0] === value }); }))]);
  }
  function number(entry, name, label, min, max, value) {
    return el("label", {}, [document.createTextNode(label + " "), el("input", {
      type: "number", inputmode: "numeric", name: name, id: "f-" + entry + "-" + name, min: String(min),
      max: max === null ? null : String(max), value: value === null || value === undefined ? null : String(value), required: true
    })]);
  }
  function whole(text, label) {
    const trimmed = String(text === null || text === undefined ? "" : text).trim();
    if (!/^-?\d+$/.test(trimmed)) { throw new Error(t("table-not-a-number", { field: label })); }
    return Number(trimmed);
  }
  // A form whose submit makes its events from its fields (`build` reads them and returns one
  // event or a list); the events are decided together before any is kept, so a form records
  // all of them or none, with the first refusal as a sentence.
  function form(action, fields, label, build, options) {
    const opts = options || {};
    const node = el("form", { "class": "act" + (opts.wide ? " wide" : ""), id: "form-" + action, dataset: { action: action } },
      fields.concat([el("button", { type: "submit", id: "do-" + action, "class": opts.primary ? "primary" : null, text: label })]));
    node.addEventListener("submit", function (e) {
      e.preventDefault();
      const data = new FormData(node);
      let built;
      try { built = build(data); } catch (error) { showNotice(error.message); return; }
      record(Array.isArray(built) ? built : [built], e, opts.after);
    });
    return node;
  }
  // Records `events` as one action of the table: refused whole on the tablet if any one is,
  // else each kept and queued in order, as one group that a "take back" takes back whole.
  function record(events, domEvent, after) {
    if (events.length === 0) { return; }
    let state = local().rules;
    const at = tableNow();
    for (let i = 0; i < events.length; i += 1) {
      const probe = Object.assign({}, events[i]);
      if (TableRules.TIMED.indexOf(probe.type) >= 0) { probe.at_ms = at; }
      const refusal = TableRules.decide(state, probe);
      if (refusal) { showNotice(refusalText(refusal)); return; }
      state = TableRules.evolve(state, probe);
    }
    const group = events.length > 1 ? "g" + Date.now() + "-" + Math.random().toString(16).slice(2) : null;
    events.forEach(function (event) { act(event, domEvent, null, group ? { group: group } : null); });
    if (after) { after(); }
  }
  function closeEntry() { app.open = null; app.entriesKey = ""; render(); }

  // ---- this turn -----------------------------------------------------------------------------
  // The turn's deal: each nation still in the game that the rules let be dealt, with what is
  // left of its standard deal this turn.
  function dealLeft(rules) {
    const standard = app.view.standard_deal || {};
    const dealt = rules.dealt || {};
    return TableRules.NATIONS.filter(function (n) {
      return !(n in (rules.out || {})) && standard[n] !== undefined;
    }).map(function (n) {
      return [n, Math.max(0, standard[n] - (dealt[n] || 0)), standard[n]];
    });
  }

  function turnPanel(rules, ok, key) {
    const panel = el("div", { "class": "turn-panel", id: "turn-panel" });
    const at = tableNow();
    if (!rules.started) {
      const fields = [];
      if (!rules.scheduled) {
        fields.push(select("start", "ruleset", t("table-ruleset"),
          TableRules.RULESETS.map(function (r) { return [r, named("ruleset", r)]; })));
      }
      panel.appendChild(form("game_started", fields, t("table-start-game"), function (data) {
        const event = { type: "game_started" };
        if (data.get("ruleset")) { event.ruleset = data.get("ruleset"); }
        return event;
      }, { wide: true, primary: true }));
      key.push("start");
      return panel;
    }
    if (rules.ended) { return null; }
    const next = rules.turn + 1;
    const left = rules.turn >= 1 ? dealLeft(rules).filter(function (d) { return d[1] > 0; }) : [];
    const dealing = left.length > 0 && ok({ type: "tc_dealt", nation: left[0][0], count: 1 });
    // The next turn comes after this turn's deal: the deal is the turn's first button while
    // it is to be done, the next turn's once it is.
    let nextTurn = null;
    if (ok({ type: "turn_started", turn: next, at_ms: at })) {
      nextTurn = button("do-turn_started", t("table-start-turn", { turn: next }), function (e) {
        record([{ type: "turn_started", turn: local().rules.turn + 1 }], e);
      }, { "class": dealing ? "next-turn" : "primary next-turn" });
      key.push("turn" + next + dealing);
    }
    if (dealing) {
      const fields = el("div", { "class": "deal-nations" }, left.map(function (d) {
        return el("label", { "class": "deal-nation" }, [document.createTextNode(named("nation", d[0]) + " "),
          // No `max`: the rules refuse a count above a deal with their own sentence.
          el("input", { type: "number", inputmode: "numeric", min: "0", name: d[0], id: "deal-" + d[0],
            value: String(d[1]), dataset: { standard: String(d[1]) },
            on: { input: function (e) {
              const changed = e.target.value !== e.target.dataset.standard;
              e.target.classList.toggle("differs", changed);
              const any = Array.prototype.some.call(document.querySelectorAll(".deal-nation input"), function (i) {
                return i.value !== i.dataset.standard;
              });
              byId("do-deal").textContent = any ? t("table-deal-changed") : t("table-deal", { turn: local().rules.turn });
            } } })]);
      }));
      const deal = form("deal", [el("p", { "class": "legend", text: t("table-deal-legend") }), fields],
        t("table-deal", { turn: rules.turn }), function (data) {
          return left.map(function (d) {
            return { type: "tc_dealt", nation: d[0], count: whole(data.get(d[0]), named("nation", d[0])) };
          }).filter(function (e) { return e.count !== 0; });
        }, { primary: true });
      panel.appendChild(deal);
      key.push("deal" + rules.turn + ":" + left.map(function (d) { return d.join("="); }).join(","));
    } else if (rules.turn >= 1) {
      panel.appendChild(el("p", { "class": "dealt", id: "dealt", text: t("table-dealt-all", { turn: rules.turn }) }));
      key.push("dealt" + rules.turn);
    }
    if (nextTurn) {
      if (dealing) { panel.appendChild(nextTurn); } else { panel.insertBefore(nextTurn, panel.firstChild); }
    }
    return panel;
  }

  // Each attacking nation's objectives total to prefill: the view's (the ledger's default, or
  // what the game last reported), then what this tablet's own taps reported since (the
  // Imperial Army's switch).
  function objectivesTotals() {
    const totals = Object.assign({}, app.view.objectives_totals || {});
    app.recorded.concat(waiting()).forEach(function (row) {
      if (row.event.type === "imperial_army_switched") { totals.imperial_army = row.event.objectives_total; }
    });
    return totals;
  }

  // ---- the entries opened now and then -------------------------------------------------------
  // Each: whether the rules allow it now, and its form.
  function entries(rules, ok) {
    const at = tableNow();
    const nations = TableRules.NATIONS;
    const totals = objectivesTotals();
    const list = [];
    const stageNations = nations.filter(function (n) { return ok({ type: "action_stage_started", nation: n, at_ms: at }); });
    const stageOpen = rules.action_stage;
    const retreat = ok({ type: "retreat_started", length: 1, at_ms: at });
    const retreatEnd = ok({ type: "retreat_ended", at_ms: at });
    if (stageNations.length || stageOpen || retreat || retreatEnd) {
      list.push({ kind: "stage", label: t("table-more-stage"), key: stageNations.join(",") + stageOpen + retreat + retreatEnd, draw: function () {
        const forms = [];
        if (stageNations.length) {
          forms.push(form("action_stage_started", [select("stage", "nation", t("table-nation"),
            stageNations.map(function (n) { return [n, named("nation", n)]; }))], t("table-start-stage"), function (data) {
            return { type: "action_stage_started", nation: data.get("nation") };
          }));
        }
        if (stageOpen) {
          forms.push(form("action_stage_ended", [], t("table-end-stage", { nation: named("nation", stageOpen) }), function () {
            return { type: "action_stage_ended", nation: stageOpen };
          }));
        }
        if (retreat) {
          forms.push(form("retreat_started", [number("retreat", "length", t("table-retreat-length"), 0, null, 1)], t("table-start-retreat"), function (data) {
            return { type: "retreat_started", length: whole(data.get("length"), t("table-retreat-length")) };
          }));
        }
        if (retreatEnd) {
          forms.push(form("retreat_ended", [], t("table-end-retreat"), function () { return { type: "retreat_ended" }; }));
        }
        return forms;
      } });
    }
    const drops = nations.filter(function (n) {
      return ok({ type: "nation_dropped_out", nation: n, objectives_held: 0, objectives_total: 10 });
    });
    if (drops.length) {
      list.push({ kind: "drop", label: t("table-more-drop"), key: drops.join(","), draw: function () {
        const nationField = select("drop", "nation", t("table-nation"), drops.map(function (n) { return [n, named("nation", n)]; }));
        const totalField = number("drop", "objectives_total", t("table-objectives-of"), 1, null, totals[drops[0]]);
        nationField.querySelector("select").addEventListener("change", function (e) {
          const total = totals[e.target.value];
          if (total !== undefined) { totalField.querySelector("input").value = String(total); }
        });
        return [form("nation_dropped_out", [nationField,
          number("drop", "objectives_held", t("table-objectives-held"), 0, null, null), totalField],
          t("table-record-drop"), function (data) {
            return { type: "nation_dropped_out", nation: data.get("nation"),
              objectives_held: whole(data.get("objectives_held"), t("table-objectives-held")),
              objectives_total: whole(data.get("objectives_total"), t("table-objectives-of")) };
          }, { after: closeEntry })];
      } });
    }
    const switches = TableRules.ROLES.filter(function (r) {
      return ok({ type: "imperial_army_switched", to: r, objectives_held: 0, objectives_total: 5 });
    });
    if (switches.length) {
      list.push({ kind: "switch", label: t("table-more-switch"), key: switches.join(","), draw: function () {
        return [form("imperial_army_switched", [select("switch", "to", t("table-switch-to"),
          switches.map(function (r) { return [r, named("role", r)]; })),
          number("switch", "objectives_held", t("table-objectives-held"), 0, null, null),
          number("switch", "objectives_total", t("table-objectives-of"), 1, null, totals.imperial_army)], t("table-switch-ia"), function (data) {
            return { type: "imperial_army_switched", to: data.get("to"),
              objectives_held: whole(data.get("objectives_held"), t("table-objectives-held")),
              objectives_total: whole(data.get("objectives_total"), t("table-objectives-of")) };
          }, { after: closeEntry })];
      } });
    }
    const launch = ok({ type: "offensive_launched", set_aside_tc: 13 });
    const claim = ok({ type: "austria_claimed_objectives", count: 4 });
    const pickUp = ok({ type: "set_aside_tc_picked_up" });
    const callOff = ok({ type: "offensive_called_off", bohemian_held_by_prussia: 0 });
    if (launch || claim || pickUp || callOff) {
      list.push({ kind: "offensive", label: t("table-more-offensive"), key: [launch, claim, pickUp, callOff].join(","), draw: function () {
        const forms = [];
        if (launch) {
          forms.push(form("offensive_launched", [number("offensive", "set_aside_tc", t("table-set-aside"), 1, null, null)],
            t("table-launch-offensive"), function (data) {
              return { type: "offensive_launched", set_aside_tc: whole(data.get("set_aside_tc"), t("table-set-aside")) };
            }));
        }
        if (claim) {
          forms.push(form("austria_claimed_objectives", [number("claim", "count", t("table-austria-claims"), 0, null, 4)],
            t("table-record-claim"), function (data) {
              return { type: "austria_claimed_objectives", count: whole(data.get("count"), t("table-austria-claims")) };
            }));
        }
        if (pickUp) {
          forms.push(form("set_aside_tc_picked_up", [], t("table-pick-up"), function () { return { type: "set_aside_tc_picked_up" }; }));
        }
        if (callOff) {
          forms.push(form("offensive_called_off", [number("calloff", "bohemian_held_by_prussia", t("table-bohemian"), 0, 14, null)],
            t("table-call-off"), function (data) {
              return { type: "offensive_called_off",
                bohemian_held_by_prussia: whole(data.get("bohemian_held_by_prussia"), t("table-bohemian")) };
            }));
        }
        return forms;
      } });
    }
    if (rules.started && !rules.ended && rules.turn >= 1) {
      list.push({ kind: "end", label: t("table-more-end"), key: JSON.stringify(rules.out) + JSON.stringify(rules.offensive),
        draw: function () { return [gameEndForm(rules)]; } });
    }
    if (rules.started && ok({ type: "jury_called", reason: "x" })) {
      list.push({ kind: "jury", label: t("table-more-jury"), key: "", draw: function () {
        return [form("jury_called", [el("label", {}, [document.createTextNode(t("table-reason") + " "),
          el("input", { name: "reason", id: "f-jury-reason", maxlength: "2000", required: true })])],
          t("table-call-jury"), function (data) { return { type: "jury_called", reason: String(data.get("reason")) }; },
          { after: closeEntry })];
      } });
    }
    return list;
  }

  // The entry that asks the jury to correct a recorded event: a jury call whose reason says,
  // in the table's language, which event (its seq and a sentence of it) and what the table
  // says it should be.
  function correctionForm(seq) {
    const recent = (app.view.recent || []).find(function (r) { return r.seq === seq; });
    if (!recent) { return null; }
    const said = describe(recent.event);
    return [el("p", { "class": "correcting", id: "correcting", text: t("table-correcting", { seq: String(seq), event: said }) }),
      form("correction", [el("label", {}, [document.createTextNode(t("table-correct-should") + " "),
        el("input", { name: "should", id: "f-correction-should", maxlength: "1500", required: true })])],
        t("table-correct-send"), function (data) {
          const should = String(data.get("should") || "").trim();
          if (!should) { throw new Error(t("table-correct-empty")); }
          let reason = t("table-correction-reason", { seq: String(seq), event: said, should: should });
          if (reason.length > 2000) { reason = reason.slice(0, 1999) + "…"; }
          return { type: "jury_called", reason: reason };
        }, { after: closeEntry })];
  }

  // The turn's panel, the buttons that open the other entries, and the entry open; redrawn
  // only when what they offer changes, so that a form being filled in keeps what was typed.
  function renderEntries(rules) {
    const box = byId("entries");
    if (!app.mayRecord) { box.replaceChildren(); return; }
    const at = tableNow();
    const ok = function (event) {
      const probe = Object.assign({}, event);
      if (TableRules.TIMED.indexOf(probe.type) >= 0 && probe.at_ms === undefined) { probe.at_ms = at; }
      return !TableRules.decide(rules, probe);
    };
    const key = [];
    const children = [];
    const panel = turnPanel(rules, ok, key);
    if (panel && panel.children.length) { children.push(panel); }
    const list = rules.started ? entries(rules, ok) : [];
    const correcting = app.open && app.open.indexOf("correct:") === 0 ? Number(app.open.slice(8)) : null;
    if (app.open && correcting === null && !list.some(function (e) { return e.kind === app.open; })) { app.open = null; }
    if (list.length) {
      children.push(el("div", { "class": "more", id: "more" }, list.map(function (entry) {
        const open = app.open === entry.kind;
        return button("open-" + entry.kind, entry.label, function () {
          app.open = open ? null : entry.kind;
          app.entriesKey = "";
          render();
        }, { "class": "open-entry" + (open ? " open" : ""), "aria-expanded": open ? "true" : "false" });
      })));
    }
    let opened = null;
    if (correcting !== null) {
      opened = correctionForm(correcting);
      if (!opened) { app.open = null; }
    } else if (app.open) {
      opened = list.find(function (e) { return e.kind === app.open; }).draw();
    }
    if (opened) {
      children.push(el("div", { "class": "entry", id: "entry", dataset: { entry: app.open } },
        opened.concat([button("close-entry", t("table-close"), closeEntry, { "class": "close" })])));
    }
    list.forEach(function (e) { key.push(e.kind + ":" + e.key); });
    const signature = app.lang + "|" + app.open + "|" + key.join("|");
    if (signature === app.entriesKey) { return; }
    app.entriesKey = signature;
    box.replaceChildren.apply(box, children);
    // The entry's first empty field takes the keyboard: the table types, no tap to find it.
    const first = Array.prototype.find.call(box.querySelectorAll("#entry input"), function (input) {
      return input.type !== "checkbox" && input.value === "";
    });
    if (first) { first.focus({ preventScroll: true }); }
  }

  // The end of the game: the outcome (Prussia its only winner after a Prussian one), each
  // attacking nation still in the game with its objectives, totals prefilled.
  function gameEndForm(rules) {
    const active = rules.offensive && typeof rules.offensive === "object" && "Active" in rules.offensive;
    const outcomes = TableRules.OUTCOMES.filter(function (o) { return active || o !== "prussian_offensive_victory"; });
    const attacking = TableRules.NATIONS.filter(function (n) {
      return n !== "prussia" && n !== "hanover" && !(n in rules.out);
    });
    const totals = objectivesTotals();
    const winners = el("div", { "class": "winners", id: "end-winners", hidden: true }, [document.createTextNode(t("table-winners") + " ")].concat(
      attacking.map(function (n) {
        return el("label", { "class": "check" }, [el("input", { type: "checkbox", name: "winners", value: n, id: "f-end-winner-" + n }),
          document.createTextNode(named("nation", n))]);
      })));
    const outcome = select("end", "outcome", t("table-outcome"), outcomes.map(function (o) { return [o, named("outcome", o)]; }));
    outcome.querySelector("select").addEventListener("change", function (e) {
      winners.hidden = e.target.value !== "allied_victory";
    });
    const objectives = el("div", { "class": "end-objectives" }, attacking.map(function (n) {
      return el("fieldset", { "class": "objectives" }, [el("legend", { text: named("nation", n) }),
        el("input", { type: "number", inputmode: "numeric", name: "held." + n, id: "f-end-held-" + n, min: "0", required: true,
          "aria-label": named("nation", n) + " " + t("table-objectives-held") }),
        document.createTextNode(" " + t("table-objectives-of") + " "),
        el("input", { type: "number", inputmode: "numeric", name: "total." + n, id: "f-end-total-" + n, min: "1", required: true,
          value: totals[n] === undefined ? null : String(totals[n]),
          "aria-label": named("nation", n) + " " + t("table-objectives-of") })]);
    }));
    const fields = [outcome, winners, objectives];
    if (active) { fields.push(number("end", "bohemian_held_by_prussia", t("table-bohemian"), 0, 14, null)); }
    return form("game_ended", fields, t("table-end-game"), function (data) {
      const chosen = data.get("outcome");
      const event = { type: "game_ended", outcome: chosen,
        winners: chosen === "allied_victory" ? data.getAll("winners") : ["prussia"], objectives: {} };
      attacking.forEach(function (n) {
        event.objectives[n] = [whole(data.get("held." + n), named("nation", n)), whole(data.get("total." + n), named("nation", n))];
      });
      if (active) { event.bohemian_held_by_prussia = whole(data.get("bohemian_held_by_prussia"), t("table-bohemian")); }
      return event;
    }, { wide: true, after: closeEntry });
  }

  // ---- what the table reads ------------------------------------------------------------------
  // The score sheet in the reader's words: each role's score (pending until the end), each
  // nation with its controller, how its score was fixed and the score.
  function renderSheet() {
    const sheet = byId("sheet");
    const title = byId("sheet-title");
    const scores = app.view.scores;
    title.textContent = t("table-score-sheet");
    sheet.hidden = title.hidden = !scores;
    if (!scores) { sheet.replaceChildren(); return; }
    const seating = app.view.seating;
    const pending = t("table-score-pending");
    const roles = el("table", { "class": "sheet-roles" }, scores.roles.map(function (line) {
      const player = seating && alias(seating.players[line.role]);
      return el("tr", { dataset: { role: line.role } }, [
        el("th", { text: named("role", line.role) + (player ? " (" + player + ")" : "") }),
        el("td", { "class": "num", text: line.score === null ? pending : decimal(line.score) })]);
    }));
    const nations = el("ul", { "class": "sheet-nations" }, scores.nations.map(function (line) {
      let detail;
      if (line.score === null) { detail = t("table-score-in-game"); }
      else if (line.nation === "prussia") { detail = t(line.won ? "table-score-won" : "table-score-lost", { score: decimal(line.score) }); }
      else if (line.won) { detail = t("table-score-won", { score: decimal(line.score) }); }
      else if (line.dropped_out_in !== null) {
        detail = t("table-score-out", { turn: line.dropped_out_in, held: line.objectives ? line.objectives[0] : 0,
          total: line.objectives ? line.objectives[1] : 0, score: decimal(line.score) });
      } else {
        detail = t("table-score-held", { held: line.objectives ? line.objectives[0] : 0,
          total: line.objectives ? line.objectives[1] : 0, score: decimal(line.score) });
      }
      return el("li", { dataset: { nation: line.nation, score: line.score === null ? "" : line.score } }, [
        el("b", { text: named("nation", line.nation) }),
        document.createTextNode(" (" + named("role", line.controller) + "): " + detail)]);
    }));
    const head = el("p", { "class": "muted", text: scores.outcome
      ? t("table-score-ended", { turn: scores.turns, outcome: named("outcome", scores.outcome) })
      : t("table-score-running", { turn: scores.turns }) });
    sheet.replaceChildren(head, roles, nations);
  }

  function renderLists() {
    renderSheet();
    eventLists();
  }

  // Between taps only the clocks move.
  function tick() {
    if (!app.view || !local().rules.started) { return; }
    const clock = clockNow();
    ["prussia", "attackers"].forEach(function (side) {
      const node = byId("clock-" + side);
      if (node) { node.textContent = hms(clock[side].remaining_ms); }
    });
    const stopwatch = byId("stopwatch");
    if (stopwatch) { renderClock(local().rules); }
  }

  // The newest waiting action (a whole deal at once) taken back before it reaches the ledger.
  function takeBack() {
    sync.takeBack().then(function (taken) {
      showNotice(t(taken ? "table-taken-back" : "table-take-back-too-late"));
    });
  }

  // ---- start ---------------------------------------------------------------------------------
  async function start() {
    app.section = byId("table");
    if (!app.section) { return; }
    // The game from the address: the page may be a kept copy of another game's page.
    app.game = decodeURIComponent(location.pathname.split("/")[2] || app.section.dataset.game);
    app.section.dataset.game = app.game;
    app.lang = document.documentElement.lang || "en";
    const link = byId("lang-switch");
    if (link) {
      link.addEventListener("click", TablePage.languageSwitch(app, words, function () { app.entriesKey = ""; render(); }));
    }
    await words.load(app.lang);
    sync = TableSync.attach(app, {
      key: app.game, base: "/table/" + encodeURIComponent(app.game), rules: TableRules.sync,
      // A game started here starts its table clock at 0.
      startsAtZero: function (event) { return event.type === "game_started" && app.view.version === 0; },
      render: render, renderSync: renderSync, showNotice: showNotice, refusalText: refusalText, t: t
    });
    renderRefused = TablePage.refusedBox(app, sync, {
      t: t, refusalText: refusalText, stream: "game/" + app.game, describe: describe
    });
    eventLists = TablePage.eventLists(app, sync, t, {
      describe: describe,
      takeBack: takeBack,
      // A recorded event of play the table may ask the jury to correct.
      correct: function (recent) {
        if (!app.mayRecord || /^(jury_|event_voided|fate_horizon)/.test(recent.event.type)) { return null; }
        return function () { app.open = "correct:" + recent.seq; app.entriesKey = ""; render(); };
      }
    });
    await sync.start();
    setInterval(tick, 200);
  }
  document.addEventListener("DOMContentLoaded", function () {
    start().catch(TablePage.startFailed(t, showNotice));
  });
})();
