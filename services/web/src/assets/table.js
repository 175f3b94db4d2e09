// The table page: the game runs on the tablet. Every tap is an event made here — its own id,
// its table time taken at the tap — decided by the game's rules (table-rules.js, the ledger's
// rules mirrored), kept in IndexedDB and sent in order by the queue of table-sync.js.
// The chess clock, the stops and the stopwatch run from the tablet's monotonic clock; nothing
// waits on the network, and the page never reloads itself.
"use strict";
(function () {
  // The queue's fields (view, rows, recorded, anchor, online, sending…) are set by
  // TableSync.attach: `view` is the last TableView from ledgerd (or kept in IndexedDB), `rows`
  // the waiting and refused taps, `recorded` the taps ledgerd stored that the view does not
  // show yet, `anchor` {table_ms, perf}: table time = table_ms + (performance.now() - perf).
  const app = {
    game: null, section: null, mayRecord: false, actor: null,
    lang: "en", bundles: {}, notice: "", entriesKey: ""
  };
  globalThis.tableApp = app;
  let sync = null;
  function waiting() { return sync.waiting(); }
  function local() { return sync.local(); }
  function tableNow() { return sync.tableNow(); }
  function act(event, domEvent) { return sync.act(event, domEvent); }

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
  // A refusal in the page's language: the rules' own message id, else the ledger's sentence.
  function refusalText(refusal) {
    if (refusal.id) {
      const text = t(refusal.id, refusal.args);
      if (text !== refusal.id) { return text; }
    }
    if (refusal.kind === "stale_version") { return t("refusal-stale"); }
    if (refusal.kind === "exhausted") { return t("refusal-exhausted"); }
    return t("refusal-by-ledger", { message: refusal.message });
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
    const title = byId("title");
    let phase;
    if (!rules.started) { phase = t("table-phase-not-started"); }
    else if (rules.ended) { phase = t("table-phase-ended", { turn: rules.ended[1], outcome: named("outcome", rules.ended[0]) }); }
    else { phase = t("table-phase-turn", { turn: rules.turn }); }
    const ruleset = rules.ruleset || app.view.ruleset;
    title.textContent = t("table-title", { game: app.game }) + " ";
    title.appendChild(el("span", { "class": "muted", id: "phase",
      text: (ruleset ? named("ruleset", ruleset) : t("table-no-ruleset")) + " · " + phase }));
    renderSync();
    if (app.conflict > 0) {
      showNotice(t("sync-conflict", { count: app.conflict }));
      app.conflict = 0;
    }
    renderRefused();
    renderClock(rules);
    renderEntries(rules);
    renderLists();
  }

  // Set once the queue is attached (start).
  let renderRefused = function () {};
  let eventLists = function () {};

  function button(id, label, onClick, attrs) {
    const options = Object.assign({ type: "button", id: id, on: { click: onClick } }, attrs || {});
    return el("button", options, [document.createTextNode(label)]);
  }

  // The chess clock: two large buttons, the stops the rules allow, the stopwatch.
  function renderClock(rules) {
    const area = byId("clock-area");
    area.replaceChildren();
    if (!rules.started) { return; }
    const clock = clockNow();
    const at = tableNow();
    const grid = el("div", { "class": "chess-clock", id: "chess-clock" });
    ["prussia", "attackers"].forEach(function (side) {
      const running = rules.clock_running === side;
      const event = running ? { type: "clock_pressed", at_ms: at } : { type: "clock_started", side: side, at_ms: at };
      const allowed = app.mayRecord && !TableRules.decide(rules, event);
      const view = clock[side];
      const children = [
        el("span", { "class": "name", text: named("side", side) }),
        el("span", { "class": "clock", id: "clock-" + side, dataset: { side: side } }, [document.createTextNode(hms(view.remaining_ms))])
      ];
      if (view.ran_out) { children.push(el("span", { "class": "flag", text: t("table-time-ran-out") })); }
      children.push(el("span", { "class": "hint",
        text: running ? t("table-tap-hand-over") : (allowed ? t("table-tap-start") : "") }));
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
    if (app.mayRecord) {
      const stops = el("div", { "class": "stops", id: "stops" });
      TableRules.STOP_REASONS.forEach(function (reason) {
        if (TableRules.decide(rules, { type: "clock_stopped", reason: reason, at_ms: at })) { return; }
        stops.appendChild(button("stop-" + reason, t("table-stop", { reason: named("stop", reason) }), function (e) {
          act({ type: "clock_stopped", reason: reason }, e);
        }, { "class": "stop stop-" + reason }));
      });
      if (stops.children.length) { area.appendChild(stops); }
    }
    if (clock.stopped_for) {
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

  function select(name, id, label, options) {
    return el("label", {}, [document.createTextNode(label + " "), el("select", { name: name, id: id },
      options.map(function (o) { return el("option", { value: o[0], text: o[1] }); }))]);
  }
  function number(name, label, min, max, value) {
    return el("label", {}, [document.createTextNode(label + " "), el("input", {
      type: "number", inputmode: "numeric", name: name, id: "f-" + name, min: String(min),
      max: max === null ? null : String(max), value: value === null ? null : String(value), required: true
    })]);
  }
  // A form whose submit makes one event from its fields (`build` reads them).
  function form(action, fields, label, build, wide) {
    const node = el("form", { "class": "act" + (wide ? " wide" : ""), dataset: { action: action } },
      fields.concat([el("button", { type: "submit", id: "do-" + action, text: label })]));
    node.addEventListener("submit", function (e) {
      e.preventDefault();
      const data = new FormData(node);
      let event;
      try { event = build(data); } catch (error) { showNotice(error.message); return; }
      act(event, e);
    });
    return el("div", { "class": "entry" }, [node]);
  }
  function whole(data, name, label) {
    const text = String(data.get(name) || "").trim();
    if (!/^-?\d+$/.test(text)) { throw new Error(t("table-not-a-number", { field: label })); }
    return Number(text);
  }

  // The entry forms the rules allow now; redrawn only when that set changes, so that a form
  // being filled in keeps what was typed.
  function renderEntries(rules) {
    const box = byId("entries");
    if (!app.mayRecord) { box.replaceChildren(); return; }
    const at = tableNow();
    const ok = function (event) { return !TableRules.decide(rules, event); };
    const nations = TableRules.NATIONS;
    const forms = [];
    const key = [];
    if (!rules.started) {
      const fields = [];
      if (!rules.scheduled) {
        fields.push(select("ruleset", "f-ruleset", t("table-ruleset"),
          TableRules.RULESETS.map(function (r) { return [r, named("ruleset", r)]; })));
      }
      forms.push(form("game_started", fields, t("table-start-game"), function (data) {
        const event = { type: "game_started" };
        if (data.get("ruleset")) { event.ruleset = data.get("ruleset"); }
        return event;
      }, true));
      key.push("start");
    }
    const next = rules.turn + 1;
    if (rules.started && ok({ type: "turn_started", turn: next, at_ms: at })) {
      forms.push(form("turn_started", [], t("table-start-turn", { turn: next }), function () {
        return { type: "turn_started", turn: local().rules.turn + 1 };
      }, true));
      key.push("turn" + next);
    }
    const stageNations = nations.filter(function (n) { return ok({ type: "action_stage_started", nation: n, at_ms: at }); });
    if (stageNations.length) {
      forms.push(form("action_stage_started", [select("nation", "f-stage-nation", t("table-nation"),
        stageNations.map(function (n) { return [n, named("nation", n)]; }))], t("table-start-stage"), function (data) {
        return { type: "action_stage_started", nation: data.get("nation") };
      }));
      key.push("stage:" + stageNations.join(","));
    }
    if (rules.action_stage) {
      const open = rules.action_stage;
      forms.push(form("action_stage_ended", [], t("table-end-stage", { nation: named("nation", open) }), function () {
        return { type: "action_stage_ended", nation: open };
      }));
      key.push("end-stage:" + open);
    }
    if (ok({ type: "retreat_started", length: 1, at_ms: at })) {
      forms.push(form("retreat_started", [number("length", t("table-retreat-length"), 0, null, 1)], t("table-start-retreat"), function (data) {
        return { type: "retreat_started", length: whole(data, "length", t("table-retreat-length")) };
      }));
      key.push("retreat");
    }
    if (ok({ type: "retreat_ended", at_ms: at })) {
      forms.push(form("retreat_ended", [], t("table-end-retreat"), function () { return { type: "retreat_ended" }; }));
      key.push("end-retreat");
    }
    const dealt = nations.filter(function (n) { return ok({ type: "tc_dealt", nation: n, count: 0 }); });
    if (dealt.length) {
      forms.push(form("tc_dealt", [select("nation", "f-tc-nation", t("table-nation"),
        dealt.map(function (n) { return [n, named("nation", n)]; })), number("count", t("table-cards"), 0, null, null)],
        t("table-record-tc"), function (data) {
          return { type: "tc_dealt", nation: data.get("nation"), count: whole(data, "count", t("table-cards")) };
        }));
      key.push("tc:" + dealt.join(","));
    }
    const drops = nations.filter(function (n) {
      return ok({ type: "nation_dropped_out", nation: n, objectives_held: 0, objectives_total: 10 });
    });
    if (drops.length) {
      forms.push(form("nation_dropped_out", [select("nation", "f-drop-nation", t("table-nation"),
        drops.map(function (n) { return [n, named("nation", n)]; })),
        number("objectives_held", t("table-objectives-held"), 0, null, null),
        number("objectives_total", t("table-objectives-of"), 1, null, null)], t("table-record-drop"), function (data) {
          return { type: "nation_dropped_out", nation: data.get("nation"),
            objectives_held: whole(data, "objectives_held", t("table-objectives-held")),
            objectives_total: whole(data, "objectives_total", t("table-objectives-of")) };
        }));
      key.push("drop:" + drops.join(","));
    }
    const switches = TableRules.ROLES.filter(function (r) {
      return ok({ type: "imperial_army_switched", to: r, objectives_held: 0, objectives_total: 5 });
    });
    if (switches.length) {
      forms.push(form("imperial_army_switched", [select("to", "f-ia-to", t("table-switch-to"),
        switches.map(function (r) { return [r, named("role", r)]; })),
        number("objectives_held", t("table-objectives-held"), 0, null, null),
        number("objectives_total", t("table-objectives-of"), 1, null, 5)], t("table-switch-ia"), function (data) {
          return { type: "imperial_army_switched", to: data.get("to"),
            objectives_held: whole(data, "objectives_held", t("table-objectives-held")),
            objectives_total: whole(data, "objectives_total", t("table-objectives-of")) };
        }));
      key.push("ia:" + switches.join(","));
    }
    if (ok({ type: "offensive_launched", set_aside_tc: 13 })) {
      forms.push(form("offensive_launched", [number("set_aside_tc", t("table-set-aside"), 1, null, null)],
        t("table-launch-offensive"), function (data) {
          return { type: "offensive_launched", set_aside_tc: whole(data, "set_aside_tc", t("table-set-aside")) };
        }));
      key.push("offensive");
    }
    if (ok({ type: "austria_claimed_objectives", count: 4 })) {
      forms.push(form("austria_claimed_objectives", [number("count", t("table-austria-claims"), 0, null, 4)],
        t("table-record-claim"), function (data) {
          return { type: "austria_claimed_objectives", count: whole(data, "count", t("table-austria-claims")) };
        }));
      key.push("claim");
    }
    if (ok({ type: "set_aside_tc_picked_up" })) {
      forms.push(form("set_aside_tc_picked_up", [], t("table-pick-up"), function () { return { type: "set_aside_tc_picked_up" }; }));
      key.push("pickup");
    }
    if (ok({ type: "offensive_called_off", bohemian_held_by_prussia: 0 })) {
      forms.push(form("offensive_called_off", [number("bohemian_held_by_prussia", t("table-bohemian"), 0, 14, null)],
        t("table-call-off"), function (data) {
          return { type: "offensive_called_off",
            bohemian_held_by_prussia: whole(data, "bohemian_held_by_prussia", t("table-bohemian")) };
        }));
      key.push("calloff");
    }
    if (rules.started && !rules.ended && rules.turn >= 1) {
      forms.push(gameEndForm(rules));
      key.push("end:" + JSON.stringify(rules.out) + JSON.stringify(rules.offensive));
    }
    if (rules.started && ok({ type: "jury_called", reason: "x" })) {
      forms.push(form("jury_called", [el("label", {}, [document.createTextNode(t("table-reason") + " "),
        el("input", { name: "reason", id: "f-jury-reason", maxlength: "2000", required: true })])],
        t("table-call-jury"), function (data) { return { type: "jury_called", reason: String(data.get("reason")) }; }));
      key.push("jury");
    }
    const signature = app.lang + "|" + key.join("|");
    if (signature === app.entriesKey) { return; }
    app.entriesKey = signature;
    box.replaceChildren.apply(box, forms);
  }

  function gameEndForm(rules) {
    const active = rules.offensive && typeof rules.offensive === "object" && "Active" in rules.offensive;
    const outcomes = TableRules.OUTCOMES.filter(function (o) { return active || o !== "prussian_offensive_victory"; });
    const attacking = TableRules.NATIONS.filter(function (n) {
      return n !== "prussia" && n !== "hanover" && !(n in rules.out);
    });
    const winners = el("div", { "class": "winners" }, [document.createTextNode(t("table-winners") + " ")].concat(
      ["prussia"].concat(attacking).map(function (n) {
        return el("label", { "class": "check" }, [el("input", { type: "checkbox", name: "winners", value: n }),
          document.createTextNode(named("nation", n))]);
      })));
    const objectives = attacking.map(function (n) {
      return el("fieldset", { "class": "objectives" }, [el("legend", { text: named("nation", n) }),
        el("input", { type: "number", inputmode: "numeric", name: "held." + n, min: "0", required: true,
          "aria-label": named("nation", n) + " " + t("table-objectives-held") }),
        document.createTextNode(" " + t("table-objectives-of") + " "),
        el("input", { type: "number", inputmode: "numeric", name: "total." + n, min: "1", required: true,
          "aria-label": named("nation", n) + " " + t("table-objectives-of") })]);
    });
    const fields = [select("outcome", "f-outcome", t("table-outcome"),
      outcomes.map(function (o) { return [o, named("outcome", o)]; })), winners].concat(objectives);
    if (active) { fields.push(number("bohemian_held_by_prussia", t("table-bohemian"), 0, 14, null)); }
    return form("game_ended", fields, t("table-end-game"), function (data) {
      const event = { type: "game_ended", outcome: data.get("outcome"), winners: data.getAll("winners"), objectives: {} };
      attacking.forEach(function (n) {
        event.objectives[n] = [whole(data, "held." + n, named("nation", n)), whole(data, "total." + n, named("nation", n))];
      });
      if (active) { event.bohemian_held_by_prussia = whole(data, "bohemian_held_by_prussia", t("table-bohemian")); }
      return event;
    }, true);
  }

  function renderLists() {
    const sheet = byId("sheet");
    const sheetTitle = byId("sheet-title");
    sheetTitle.textContent = t("table-score-sheet");
    sheet.textContent = app.view.sheet ? app.view.sheet.trimEnd() : "";
    sheet.hidden = sheetTitle.hidden = !app.view.sheet;
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
      t: t, refusalText: refusalText, stream: "game/" + app.game
    });
    eventLists = TablePage.eventLists(app, sync, t);
    await sync.start();
    setInterval(tick, 200);
  }
  document.addEventListener("DOMContentLoaded", function () {
    start().catch(TablePage.startFailed(t, showNotice));
  });
})();
