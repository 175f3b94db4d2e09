// The table page: the game runs on the tablet. Every tap is an event made here — its own id,
// its table time taken at the tap — decided by the game's rules (table-rules.js, the ledger's
// rules mirrored), kept in IndexedDB (table-queue.js) and only then shown as kept. A queue sends
// the events in order and forgets one only when ledgerd stored it (or says it had it already).
// The chess clock, the stops and the stopwatch run from the tablet's monotonic clock; nothing
// waits on the network, and the page never reloads itself.
"use strict";
(function () {
  const SEND_AT_MOST = 100;          // events per request (ledgerd takes up to 256)
  const RETRY_MS = [500, 1000, 2000, 4000, 8000];
  const SEND_TIMEOUT_MS = 10000;
  const ANCHOR_EVERY_MS = 5000;
  // A view whose table time is ahead of the tablet's by more than this moves the tablet's
  // clock forward (another device recorded later times); it never moves back.
  const ADOPT_AHEAD_MS = 1000;

  const app = {
    game: null, section: null, mayRecord: false, actor: null,
    lang: "en", bundles: {},
    view: null,          // the last TableView from ledgerd (or kept in IndexedDB)
    rows: [],            // the queue: waiting and refused taps, oldest first
    recorded: [],        // taps ledgerd stored that the view does not show yet
    nextN: 1,
    anchor: null,        // {table_ms, perf}: table time = table_ms + (performance.now() - perf)
    online: null, sending: false, retry: 0, retryTimer: null,
    conflict: 0, notice: "", entriesKey: "",
    metrics: { tapToDisplay: [] }
  };
  globalThis.tableApp = app;

  // ---- words -------------------------------------------------------------------------------
  function loadBundle(lang) {
    if (app.bundles[lang]) { return Promise.resolve(app.bundles[lang]); }
    const files = ["pages.ftl", "rules.ftl"].map(function (file) {
      return fetch("/assets/i18n/" + lang + "/" + file).then(function (r) {
        if (!r.ok) { throw new Error(file + ": " + r.status); }
        return r.text();
      });
    });
    return Promise.all(files).then(function (texts) {
      const bundle = new FluentBundle.FluentBundle(lang, { useIsolating: false });
      texts.forEach(function (text) { bundle.addResource(new FluentBundle.FluentResource(text)); });
      app.bundles[lang] = bundle;
      return bundle;
    });
  }
  function t(id, args) {
    const bundle = app.bundles[app.lang];
    const message = bundle && bundle.getMessage(id);
    if (!message || !message.value) { return id; }
    return bundle.formatPattern(message.value, args || {});
  }
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
    return t("refusal-by-ledger", { message: refusal.message });
  }

  // ---- time --------------------------------------------------------------------------------
  function hms(ms) {
    const s = Math.floor(Math.max(0, ms) / 1000);
    const m = Math.floor(s / 60) % 60, h = Math.floor(s / 3600);
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (s % 60 < 10 ? "0" : "") + (s % 60);
  }
  function lastAtMs() {
    let last = (app.view && app.view.rules && app.view.rules.last_at_ms) || 0;
    app.recorded.concat(waiting()).forEach(function (row) {
      if (typeof row.event.at_ms === "number") { last = Math.max(last, row.event.at_ms); }
    });
    return last;
  }
  // The table time now: the anchor carried on by the monotonic clock, never before the last
  // table time this game recorded.
  function tableNow() {
    if (!app.anchor) { return lastAtMs(); }
    return Math.max(lastAtMs(), Math.floor(app.anchor.table_ms + (performance.now() - app.anchor.perf)));
  }
  function setAnchor(tableMs) {
    app.anchor = { table_ms: tableMs, perf: performance.now() };
    return TableQueue.saveAnchor(app.game, tableMs);
  }

  // ---- the game as the tablet knows it -----------------------------------------------------
  function waiting() { return app.rows.filter(function (row) { return row.status === "waiting"; }); }
  function refusedRows() { return app.rows.filter(function (row) { return row.status === "refused"; }); }

  // The rules' state and version after the view, the stored taps and the waiting ones.
  function local() {
    let rules = app.view.rules;
    let version = app.view.version;
    app.recorded.concat(waiting()).forEach(function (row) {
      rules = TableRules.evolve(rules, row.event);
      version += 1;
    });
    return { rules: rules, version: version };
  }

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

  // ---- taps ----------------------------------------------------------------------------------
  function uuid() {
    if (globalThis.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  // One action of the players: decided here, shown, kept on the tablet, then sent. Resolves to
  // the kept row, or null when the rules refused it.
  function act(event, domEvent) {
    if (!app.mayRecord || !app.view) { return Promise.resolve(null); }
    const tappedAt = domEvent && domEvent.timeStamp ? domEvent.timeStamp : performance.now();
    if (TableRules.TIMED.indexOf(event.type) >= 0) {
      // A game started here starts its table clock at 0.
      if (event.type === "game_started" && app.view.version === 0 && waiting().length === 0) {
        setAnchor(0);
      }
      event.at_ms = tableNow();
    }
    const now = local();
    const refusal = TableRules.decide(now.rules, event);
    if (refusal) {
      showNotice(refusalText(refusal));
      return Promise.resolve(null);
    }
    showNotice("");
    const row = {
      game: app.game, n: app.nextN++, event_id: uuid(), expected_version: now.version,
      event: event, tapped_wall_ms: Date.now(), status: "waiting", refusal: null, kept: false
    };
    app.rows.push(row);
    render();
    requestAnimationFrame(function () {
      app.metrics.tapToDisplay.push(performance.now() - tappedAt);
    });
    return TableQueue.put([row]).then(function () {
      // Kept on the tablet: from now on it survives a closed tab, and the queue may send it.
      row.kept = true;
      TableQueue.saveAnchor(app.game, tableNow());
      renderSync();
      send();
      return row;
    }, function (error) {
      showNotice("IndexedDB: " + error);
      return null;
    });
  }

  // ---- the queue -----------------------------------------------------------------------------
  function schedule() {
    if (app.retryTimer) { return; }
    const wait = RETRY_MS[Math.min(app.retry, RETRY_MS.length - 1)];
    app.retry += 1;
    app.retryTimer = setTimeout(function () { app.retryTimer = null; send(); }, wait);
  }

  function withTimeout(promise, ms) {
    return new Promise(function (resolve, reject) {
      const timer = setTimeout(function () { reject(new Error("no answer")); }, ms);
      promise.then(function (v) { clearTimeout(timer); resolve(v); }, function (e) { clearTimeout(timer); reject(e); });
    });
  }

  // Sends the waiting taps, oldest first, until none is left or the ledger cannot be reached.
  // One sender per game across the tablet's tabs (a Web Lock), so two tabs never race.
  function send() {
    if (app.sending || !app.view || waiting().length === 0) { return Promise.resolve(); }
    app.sending = true;
    renderSync();
    const run = function () { return sendAll().finally(function () { app.sending = false; renderSync(); }); };
    if (navigator.locks && navigator.locks.request) {
      return navigator.locks.request("ledger-table-send-" + app.game, run);
    }
    return run();
  }

  async function sendAll() {
    // Another tab may have sent some: start from what the tablet keeps.
    await reloadRows();
    while (waiting().length > 0) {
      const batch = waiting().filter(function (row) { return row.kept; }).slice(0, SEND_AT_MOST);
      if (batch.length === 0) { return; }
      let answer;
      try {
        const response = await withTimeout(fetch("/table/" + encodeURIComponent(app.game) + "/events", {
          method: "POST",
          headers: { "Content-Type": "application/json", "Accept": "application/json" },
          credentials: "same-origin",
          body: JSON.stringify({ events: batch.map(function (row) {
            return { event_id: row.event_id, expected_version: row.expected_version, event: row.event };
          }) })
        }), SEND_TIMEOUT_MS);
        if (response.status === 401 || response.status === 403) {
          setOnline(true);
          showNotice(t("sync-signin"));
          return;
        }
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        answer = await response.json();
      } catch (error) {
        setOnline(false);
        schedule();
        return;
      }
      setOnline(true);
      app.retry = 0;
      const done = [];
      let refusal = null;
      answer.results.forEach(function (result) {
        const row = batch.find(function (r) { return r.event_id === result.event_id; });
        if (!row) { return; }
        if (result.status === "stored" || result.status === "duplicate") {
          done.push(row);
        } else {
          refusal = { row: row, result: result };
        }
      });
      // Stored: out of the queue (the view will show them; until then they count as recorded).
      if (done.length > 0) {
        done.forEach(function (row) { app.recorded.push(row); });
        app.rows = app.rows.filter(function (row) { return done.indexOf(row) < 0; });
        await TableQueue.remove(app.game, done.map(function (row) { return row.n; }));
      }
      if (refusal) {
        if (refusal.result.refusal === "stale_version") {
          // Another device appended meanwhile: the queue is decided again on the new state.
          await refresh();
        } else {
          refusal.row.status = "refused";
          refusal.row.refusal = { kind: refusal.result.refusal, message: refusal.result.message };
          // Worded in the page's language when the mirrored rules give the same sentence.
          const mirrored = TableRules.decide(stateBefore(refusal.row), refusal.row.event);
          if (mirrored && mirrored.message === refusal.result.message) { refusal.row.refusal = mirrored; }
          await TableQueue.put([refusal.row]);
          await redecide();
        }
      }
      render();
      if (done.length === 0 && !refusal) { return; }
    }
    // Everything is in: the view catches up with what was stored.
    await refresh();
  }

  function stateBefore(target) {
    let rules = app.view.rules;
    const rows = app.recorded.concat(waiting());
    for (let i = 0; i < rows.length && rows[i] !== target; i += 1) { rules = TableRules.evolve(rules, rows[i].event); }
    return rules;
  }

  // The waiting taps decided again, in order, on the current state: the ones the rules still
  // take get the version they now follow; the others are refused, kept, and shown with why.
  async function redecide() {
    let rules = app.view.rules;
    let version = app.view.version;
    app.recorded.forEach(function (row) { rules = TableRules.evolve(rules, row.event); version += 1; });
    const changed = [];
    waiting().forEach(function (row) {
      const refusal = TableRules.decide(rules, row.event);
      if (refusal) {
        row.status = "refused";
        row.refusal = refusal;
        changed.push(row);
        return;
      }
      if (row.expected_version !== version) { row.expected_version = version; changed.push(row); }
      rules = TableRules.evolve(rules, row.event);
      version += 1;
    });
    if (changed.length > 0) { await TableQueue.put(changed); }
  }

  async function reloadRows() {
    const rows = await TableQueue.list(app.game);
    // The tablet's rows as stored, and this tab's taps whose write has not finished yet.
    const stored = new Set(rows.map(function (row) { return row.n; }));
    const pending = app.rows.filter(function (row) { return !row.kept && !stored.has(row.n); });
    rows.forEach(function (row) { row.kept = true; });
    app.rows = rows.concat(pending);
    app.nextN = app.rows.reduce(function (max, row) { return Math.max(max, row.n + 1); }, app.nextN);
  }

  // ---- the view ------------------------------------------------------------------------------
  async function refresh() {
    let view;
    try {
      const response = await withTimeout(fetch("/table/" + encodeURIComponent(app.game) + "/view", {
        headers: { "Accept": "application/json" }, credentials: "same-origin"
      }), SEND_TIMEOUT_MS);
      if (!response.ok) { throw new Error("HTTP " + response.status); }
      view = await response.json();
    } catch (error) {
      setOnline(false);
      return false;
    }
    setOnline(true);
    await adopt(view, true);
    return true;
  }

  // A view from ledgerd (`fresh`) or from the tablet's storage.
  async function adopt(view, fresh) {
    const before = app.view;
    app.view = view;
    app.mayRecord = view.may_record;
    app.actor = view.actor;
    const stored = new Set(view.event_ids);
    // Taps the view holds are done: an acknowledgement that was lost, or the sender's.
    const held = app.rows.filter(function (row) { return stored.has(row.event_id); });
    app.recorded = app.recorded.filter(function (row) { return !stored.has(row.event_id); });
    if (held.length > 0) {
      app.rows = app.rows.filter(function (row) { return held.indexOf(row) < 0; });
      await TableQueue.remove(app.game, held.map(function (row) { return row.n; }));
    }
    if (fresh) {
      await TableQueue.saveView(app.game, view);
      // Events of other devices: the waiting taps are decided again on top of them.
      const mine = new Set(app.rows.concat(app.recorded).map(function (row) { return row.event_id; }));
      const base = before ? before.version : view.version;
      const others = view.event_ids.slice(base).filter(function (id) { return !mine.has(id); }).length;
      const first = waiting()[0];
      if (first && first.expected_version !== view.version + app.recorded.length) {
        app.conflict = others;
      }
      if (app.anchor === null || view.table_now_ms > tableNow() + ADOPT_AHEAD_MS) {
        await setAnchor(Math.max(view.table_now_ms, lastAtMs()));
      }
    }
    await redecide();
    render();
    follow();
  }

  // ---- the live feed -------------------------------------------------------------------------
  let source = null;
  function follow() {
    if (source || !app.view) { return; }
    source = new EventSource("/table/" + encodeURIComponent(app.game) + "/live?from=" + (app.view.position + 1));
    source.addEventListener("version", function (e) {
      if (Number(e.data) > local().version - waiting().length || Number(e.data) > app.view.version) {
        refresh().then(function () { send(); });
      }
    });
    source.onopen = function () { setOnline(true); send(); };
    source.onerror = function () {
      if (source.readyState === EventSource.CLOSED) { source = null; setTimeout(follow, 2000); }
    };
  }

  function setOnline(online) {
    if (app.online !== online) { app.online = online; renderSync(); }
  }

  // ---- drawing -------------------------------------------------------------------------------
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      const value = attrs[key];
      if (value === null || value === undefined || value === false) { return; }
      if (key === "text") { node.textContent = value; }
      else if (key === "on") { Object.keys(value).forEach(function (ev) { node.addEventListener(ev, value[ev]); }); }
      else if (key === "dataset") { Object.keys(value).forEach(function (k) { node.dataset[k] = value[k]; }); }
      else { node.setAttribute(key, value === true ? "" : value); }
    });
    (children || []).forEach(function (child) { if (child) { node.appendChild(child); } });
    return node;
  }
  function byId(id) { return document.getElementById(id); }
  function showNotice(text) {
    app.notice = text;
    const notice = byId("notice");
    notice.textContent = text;
    notice.hidden = !text;
  }

  function renderSync() {
    const line = byId("sync");
    if (!line || !app.view) { return; }
    const n = waiting().length;
    const refused = refusedRows().length;
    let text;
    let state;
    if (n === 0) {
      text = t("sync-all-recorded");
      state = "recorded";
    } else {
      text = t("sync-waiting", { count: n });
      state = "waiting";
      if (app.online === false) { text += " · " + t("sync-offline"); state = "offline"; }
      else if (app.sending) { text += " · " + t("sync-sending"); }
    }
    if (refused > 0) { text += " · " + t("sync-refused", { count: refused }); }
    line.textContent = text;
    line.dataset.state = state;
    line.dataset.waiting = String(n);
    line.dataset.refused = String(refused);
    app.section.dataset.version = String(app.view.version);
    app.section.dataset.online = String(app.online);
  }

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

  function renderRefused() {
    const box = byId("refused");
    const rows = refusedRows();
    box.hidden = rows.length === 0;
    box.replaceChildren();
    if (rows.length === 0) { return; }
    box.appendChild(el("h2", { text: t("refused-title") }));
    const list = el("ul", { id: "refused-list" });
    rows.forEach(function (row) {
      list.appendChild(el("li", { dataset: { eventId: row.event_id } }, [
        el("code", { text: eventLine(row.event) }), document.createTextNode(" — "),
        el("span", { "class": "reason", text: refusalText(row.refusal) })
      ]));
    });
    box.appendChild(list);
    if (app.mayRecord) {
      box.appendChild(el("button", { type: "button", id: "hand-to-jury", text: t("refused-hand-to-jury"),
        on: { click: handToJury } }));
    }
    box.appendChild(el("button", { type: "button", id: "export-refused", text: t("refused-export"),
      on: { click: exportRefused } }));
  }

  function eventLine(event) {
    const fields = Object.keys(event).filter(function (k) { return k !== "type"; }).map(function (k) {
      return k + "=" + JSON.stringify(event[k]);
    });
    return event.type + (fields.length ? " " + fields.join(" ") : "");
  }

  // The refused actions, in a jury call of their own: the jury sees them in the log, and the
  // tablet forgets them only once the call is stored (it goes through the queue like any tap).
  function handToJury() {
    const rows = refusedRows();
    if (rows.length === 0) { return; }
    const actions = rows.map(function (row) {
      return eventLine(row.event) + " [" + row.event_id + "] (" + refusalText(row.refusal) + ")";
    }).join("; ");
    let reason = t("refused-jury-text", { actor: app.actor || "?", actions: actions });
    if (reason.length > 2000) { reason = reason.slice(0, 1999) + "…"; }
    // Forgotten only once the call that carries them is kept on the tablet.
    act({ type: "jury_called", reason: reason }, null).then(function (call) {
      if (!call) { return; }
      const ns = rows.map(function (row) { return row.n; });
      app.rows = app.rows.filter(function (row) { return ns.indexOf(row.n) < 0; });
      return TableQueue.remove(app.game, ns).then(render);
    });
  }

  function exportRefused() {
    const rows = refusedRows();
    const blob = new Blob([rows.map(function (row) {
      return JSON.stringify({ stream: "game/" + app.game, event_id: row.event_id, event: row.event,
        refusal: row.refusal, tapped_wall_ms: row.tapped_wall_ms });
    }).join("\n") + "\n"], { type: "application/jsonl" });
    const link = el("a", { href: URL.createObjectURL(blob), download: app.game + "-refused.jsonl" });
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

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
    const mine = app.recorded.concat(waiting());
    const waitingList = byId("waiting");
    const waitingTitle = byId("waiting-title");
    waitingTitle.textContent = t("table-waiting-events");
    waitingList.replaceChildren.apply(waitingList, waiting().slice().reverse().slice(0, 12).map(function (row) {
      return el("li", { dataset: { eventId: row.event_id } }, [el("code", { text: eventLine(row.event) })]);
    }));
    waitingList.hidden = waitingTitle.hidden = waiting().length === 0;
    const events = byId("events");
    byId("events-title").textContent = t("table-last-events");
    byId("events-title").hidden = app.view.recent.length === 0 && mine.length === 0;
    events.replaceChildren.apply(events, app.view.recent.map(function (r) {
      return el("li", { value: String(r.seq) }, [el("code", { text: r.text }), document.createTextNode(" "),
        el("span", { "class": "muted", text: r.actor })]);
    }));
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

  // ---- language ------------------------------------------------------------------------------
  function switchLanguage(event) {
    event.preventDefault();
    const to = event.currentTarget.dataset.lang;
    loadBundle(to).then(function () {
      document.cookie = "ledger_lang=" + to + "; path=/; max-age=31536000; samesite=lax";
      const from = app.lang;
      app.lang = to;
      document.documentElement.lang = to;
      const link = event.target.closest("a");
      link.dataset.lang = from;
      link.setAttribute("hreflang", from);
      link.href = "/lang?to=" + from;
      link.textContent = t("lang-other");
      app.entriesKey = "";
      render();
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
    if (link) { link.addEventListener("click", switchLanguage); }
    await loadBundle(app.lang);
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
    }
    const kept = await TableQueue.loadView(app.game);
    const anchor = await TableQueue.loadAnchor(app.game);
    await reloadRows();
    if (anchor) {
      // The table clock went on while the page was closed, by the tablet's wall clock.
      app.anchor = { table_ms: anchor.table_ms + Math.max(0, Date.now() - anchor.wall_ms), perf: performance.now() };
    }
    if (kept) { await adopt(kept.view, false); }
    // A game this tablet never saw needs ledgerd once.
    while (!(await refresh()) && !app.view) {
      byId("sync").textContent = t("table-never-seen");
      byId("sync").dataset.state = "unknown";
      await new Promise(function (resolve) { setTimeout(resolve, 3000); });
    }
    setInterval(tick, 200);
    setInterval(function () { if (app.anchor) { TableQueue.saveAnchor(app.game, tableNow()); } }, ANCHOR_EVERY_MS);
    setInterval(function () { if (waiting().length > 0) { send(); } }, 5000);
    window.addEventListener("online", function () { app.retry = 0; send(); refresh(); });
    window.addEventListener("offline", function () { setOnline(false); });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { send(); }
    });
    app.section.dataset.ready = "true";
    send();
  }
  document.addEventListener("DOMContentLoaded", function () {
    start().catch(function (error) { showNotice(String(error)); });
  });
})();
