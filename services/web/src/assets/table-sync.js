// The part of an offline table that does not depend on the game: every tap an event made on
// the tablet (its own id, its table time taken at the tap), decided by the game's rules, kept
// in IndexedDB (table-queue.js) and only then shown as kept; a queue that sends the events in
// order and forgets one only when ledgerd stored it (or says it had it already); the view
// fetched again when the stream moves; the table clock carried by the monotonic clock. The
// Friedrich table page (table.js, rules in table-rules.js) and the Andes recording mode
// (andes-table.js, rules in andes-rules.js) both run on it.
//
// `TableSync.attach(app, options)` works on the page's `app` object (its view, rows, recorded,
// anchor, online… fields, which the page draws from). Options:
//   key    the stream's key in the tablet's storage (`hall-1`, `andes/m1`)
//   base   the page's address, under which `/view`, `/events` and `/live` are served
//   rules  {TIMED, decide(state, event), evolve(state, event), span(state, event), lastAtMs(state)}:
//          `span` is how many versions the event moves the stream on (an Andes move is followed
//          by what the ledger derives from it)
//   startsAtZero(event, local)  whether this tap starts the table clock at 0
//   render(), renderSync(), showNotice(text), t(id, args)  the page's drawing and words
"use strict";
(function () {
  const SEND_AT_MOST = 100;          // events per request (ledgerd takes up to 256)
  const RETRY_MS = [500, 1000, 2000, 4000, 8000];
  const SEND_TIMEOUT_MS = 10000;
  const ANCHOR_EVERY_MS = 5000;
  // A view whose table time is ahead of the tablet's by more than this moves the tablet's
  // clock forward (another device recorded later times); it never moves back.
  const ADOPT_AHEAD_MS = 1000;
  // How many tap-to-display times `app.metrics` keeps: the last ones, however long the day.
  const METRICS_KEPT = 1000;

  function note(list, value) {
    list.push(value);
    if (list.length > METRICS_KEPT) { list.splice(0, list.length - METRICS_KEPT); }
  }

  function attach(app, options) {
    const rules = options.rules;
    const key = options.key;
    Object.assign(app, {
      view: null, rows: [], recorded: [], anchor: null,
      online: null, sending: false, retry: 0, retryTimer: null, conflict: 0,
      metrics: { tapToDisplay: [] }
    });

    // ---- time ------------------------------------------------------------------------------
    function lastAtMs() {
      let last = app.view ? rules.lastAtMs(app.view.rules) : 0;
      app.recorded.concat(waiting()).forEach(function (row) {
        if (typeof row.event.at_ms === "number") { last = Math.max(last, row.event.at_ms); }
      });
      return last;
    }
    // The table time now (or at the monotonic instant `at`, e.g. a tap's `timeStamp`): the
    // anchor carried on by the monotonic clock, never before the last table time this stream
    // recorded.
    function tableNow(at) {
      if (!app.anchor) { return lastAtMs(); }
      const instant = typeof at === "number" ? at : performance.now();
      return Math.max(lastAtMs(), Math.floor(app.anchor.table_ms + (instant - app.anchor.perf)));
    }
    function setAnchor(tableMs) {
      app.anchor = { table_ms: tableMs, perf: performance.now() };
      return TableQueue.saveAnchor(key, tableMs);
    }

    // ---- the stream as the tablet knows it ----------------------------------------------------
    function waiting() { return app.rows.filter(function (row) { return row.status === "waiting"; }); }
    function refusedRows() { return app.rows.filter(function (row) { return row.status === "refused"; }); }

    // The rules' state and version after the view and `rows`.
    function fold(rows) {
      let state = app.view.rules;
      let version = app.view.version;
      rows.forEach(function (row) {
        version += rules.span(state, row.event);
        state = rules.evolve(state, row.event);
      });
      return { rules: state, version: version };
    }
    // After the view, the stored taps and the waiting ones. A redraw asks for it many times and
    // an outage's worth of taps makes each fold long, so the last fold is kept until the view
    // or the rows folded change (rows are replaced, never edited, once folded).
    let folded = null;
    function local() {
      const rows = app.recorded.concat(waiting());
      const same = folded && folded.view === app.view && folded.rows.length === rows.length &&
        folded.rows.every(function (row, idx) { return row === rows[idx] && row.event === folded.events[idx]; });
      if (!same) {
        folded = { view: app.view, rows: rows, events: rows.map(function (row) { return row.event; }), value: fold(rows) };
      }
      return folded.value;
    }

    function uuid() {
      if (globalThis.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
      const b = crypto.getRandomValues(new Uint8Array(16));
      b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
      const h = Array.from(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
      return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
    }

    // One action of the players: decided here, shown, kept on the tablet, then sent. Resolves
    // to the kept row, or null when the rules refused it or the tablet could not keep it.
    // `forgetting`: kept rows that leave the tablet in the same write (the refused taps a jury
    // call carries), so that a crash keeps either both or neither.
    // `extra`: fields kept with the row (`group`: the taps of one action, taken back together).
    function act(event, domEvent, forgetting, extra) {
      if (!app.mayRecord || !app.view) { return Promise.resolve(null); }
      const tappedAt = domEvent && domEvent.timeStamp ? domEvent.timeStamp : performance.now();
      if (rules.TIMED.indexOf(event.type) >= 0) {
        // The tap that starts the stream's first game may start its table clock at 0.
        if (event.type === "game_started" && waiting().length === 0 && options.startsAtZero(event, local())) { setAnchor(0); }
        // The time of the tap itself, not of this handler: a busy page may run it later.
        event.at_ms = tableNow(tappedAt);
      }
      const now = local();
      const refusal = rules.decide(now.rules, event);
      if (refusal) {
        options.showNotice(options.refusalText(refusal));
        return Promise.resolve(null);
      }
      options.showNotice("");
      // Its `n`, the key on the tablet, is given by the write (TableQueue.add).
      const row = {
        game: key, n: null, event_id: uuid(), expected_version: now.version,
        event: event, tapped_wall_ms: Date.now(), status: "waiting", refusal: null, kept: false
      };
      if (extra) { Object.assign(row, extra); }
      app.rows.push(row);
      options.render();
      requestAnimationFrame(function () {
        note(app.metrics.tapToDisplay, performance.now() - tappedAt);
      });
      const gone = (forgetting || []).map(function (r) { return r.n; });
      return TableQueue.add(row, gone).then(function () {
        // Kept on the tablet: from now on it survives a closed tab, and the queue may send it.
        row.kept = true;
        TableQueue.saveAnchor(key, tableNow());
        if (gone.length > 0) {
          app.rows = app.rows.filter(function (r) { return gone.indexOf(r.n) < 0; });
          options.render();
        } else {
          options.renderSync();
        }
        send();
        return row;
      }, function (error) {
        // Not kept, so never sent: off the page, and the players are told to do it again.
        console.error("the tablet did not keep a tap", error);
        app.rows = app.rows.filter(function (r) { return r !== row; });
        options.showNotice(options.t("sync-not-kept"));
        return redecide().then(options.render, options.render).then(function () { return null; });
      });
    }

    // ---- the queue ---------------------------------------------------------------------------
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

    // Sends the waiting taps, oldest first, until none is left or the ledger cannot be
    // reached. One sender per stream across the tablet's tabs (a Web Lock), so two tabs never race.
    function send() {
      if (app.sending || !app.view || waiting().length === 0) { return Promise.resolve(); }
      app.sending = true;
      options.renderSync();
      const run = function () { return sendAll().finally(function () { app.sending = false; options.renderSync(); }); };
      if (navigator.locks && navigator.locks.request) {
        return navigator.locks.request("ledger-table-send-" + key, run);
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
        // From here the batch may reach the ledger: none of it can be taken back any more.
        inFlight = new Set(batch.map(function (row) { return row.event_id; }));
        try {
          const response = await withTimeout(fetch(options.base + "/events", {
            method: "POST",
            headers: { "Content-Type": "application/json", "Accept": "application/json" },
            credentials: "same-origin",
            body: JSON.stringify({ events: batch.map(function (row) {
              return { event_id: row.event_id, expected_version: row.expected_version, event: row.event };
            }) })
          }), SEND_TIMEOUT_MS);
          if (response.status === 401 || response.status === 403) {
            inFlight = new Set();
            setOnline(true);
            options.showNotice(options.t("sync-signin"));
            return;
          }
          if (!response.ok) { throw new Error("HTTP " + response.status); }
          answer = await response.json();
        } catch (error) {
          inFlight = new Set();
          setOnline(false);
          schedule();
          return;
        }
        inFlight = new Set();
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
          await TableQueue.remove(key, done.map(function (row) { return row.n; }));
        }
        if (refusal) {
          if (refusal.result.refusal === "stale_version") {
            // Another device appended meanwhile: the queue is decided again on the new state.
            await refresh();
          } else {
            refusal.row.status = "refused";
            // The ledger's message id and arguments, worded by the page's catalogue; its sentence
            // in the page's language (`text`) when the catalogue lacks the id.
            const result = refusal.result;
            refusal.row.refusal = { kind: result.refusal, message: result.message, id: result.id || null,
              args: result.args || {}, text: result.text || null };
            if (!result.id) {
              const mirrored = rules.decide(stateBefore(refusal.row), refusal.row.event);
              if (mirrored && mirrored.message === result.message) { refusal.row.refusal = mirrored; }
            }
            await TableQueue.put([refusal.row]);
            await redecide();
          }
        }
        options.render();
        if (done.length === 0 && !refusal) { return; }
      }
      // Everything is in: the view catches up with what was stored.
      await refresh();
    }

    function stateBefore(target) {
      const rows = app.recorded.concat(waiting());
      const at = rows.indexOf(target);
      return fold(at < 0 ? rows : rows.slice(0, at)).rules;
    }

    // The waiting taps decided again, in order, on the current state: the ones the rules still
    // take get the version they now follow; the others are refused, kept, and shown with why.
    async function redecide() {
      const after = fold(app.recorded);
      let state = after.rules;
      let version = after.version;
      const changed = [];
      waiting().forEach(function (row) {
        const refusal = rules.decide(state, row.event);
        if (refusal) {
          row.status = "refused";
          row.refusal = refusal;
          changed.push(row);
          return;
        }
        if (row.expected_version !== version) { row.expected_version = version; changed.push(row); }
        version += rules.span(state, row.event);
        state = rules.evolve(state, row.event);
      });
      // A tap whose first write is under way has no `n` yet: that write keeps it as it is now.
      const kept = changed.filter(function (row) { return row.n !== null; });
      if (kept.length > 0) { await TableQueue.put(kept); }
    }

    // Taken back while the queue's write of it was still under way elsewhere: never again.
    const takenBack = new Set();
    let inFlight = new Set();
    // Takes back the newest waiting action (every tap of its group: a whole deal) while no
    // part of it is on its way to the ledger: forgotten on the tablet, never sent. Resolves
    // to whether it was taken back.
    async function takeBack() {
      const rows = waiting();
      const last = rows[rows.length - 1];
      if (!last) { return false; }
      const group = rows.filter(function (row) { return last.group ? row.group === last.group : row === last; });
      if (group.some(function (row) { return !row.kept || inFlight.has(row.event_id); })) { return false; }
      group.forEach(function (row) { takenBack.add(row.event_id); });
      await TableQueue.remove(key, group.map(function (row) { return row.n; }));
      app.rows = app.rows.filter(function (row) { return group.indexOf(row) < 0; });
      await redecide();
      options.render();
      return true;
    }

    async function reloadRows() {
      const rows = (await TableQueue.list(key)).filter(function (row) { return !takenBack.has(row.event_id); });
      // The tablet's rows as stored, and this tab's taps whose write has not finished yet.
      const stored = new Set(rows.map(function (row) { return row.n; }));
      const pending = app.rows.filter(function (row) { return !row.kept && !stored.has(row.n); });
      rows.forEach(function (row) { row.kept = true; });
      app.rows = rows.concat(pending);
    }

    // ---- the view ----------------------------------------------------------------------------
    async function refresh() {
      let view;
      try {
        const response = await withTimeout(fetch(options.base + "/view", {
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
        await TableQueue.remove(key, held.map(function (row) { return row.n; }));
      }
      if (fresh) {
        await TableQueue.saveView(key, view);
        // Events of other devices: the waiting taps are decided again on top of them.
        const mine = new Set(app.rows.concat(app.recorded).map(function (row) { return row.event_id; }));
        const base = before ? before.version : view.version;
        const others = view.event_ids.slice(base).filter(function (id) { return !mine.has(id); }).length;
        const first = waiting()[0];
        if (first && first.expected_version !== fold(app.recorded).version) {
          app.conflict = others;
        }
        if (app.anchor === null || view.table_now_ms > tableNow() + ADOPT_AHEAD_MS) {
          await setAnchor(Math.max(view.table_now_ms, lastAtMs()));
        }
      }
      await redecide();
      options.render();
      follow();
    }

    // ---- the live feed -----------------------------------------------------------------------
    let source = null;
    function follow() {
      if (source || !app.view) { return; }
      source = new EventSource(options.base + "/live?from=" + (app.view.position + 1));
      source.addEventListener("version", function (e) {
        if (Number(e.data) > app.view.version) {
          refresh().then(function () { send(); });
        }
      });
      source.onopen = function () { setOnline(true); send(); };
      source.onerror = function () {
        if (source.readyState === EventSource.CLOSED) { source = null; setTimeout(follow, 2000); }
      };
    }

    function setOnline(online) {
      if (app.online !== online) { app.online = online; options.renderSync(); }
    }

    // ---- start -------------------------------------------------------------------------------
    // The kept view and queue first (the page runs with no network), then ledgerd; a stream
    // this tablet never saw needs ledgerd once (the status line says so meanwhile). Once
    // running, the page is marked ready (`data-ready`) and the queue sends what it keeps.
    async function start() {
      if ("serviceWorker" in navigator) {
        navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
      }
      const kept = await TableQueue.loadView(key);
      const anchor = await TableQueue.loadAnchor(key);
      await reloadRows();
      if (anchor) {
        // The table clock went on while the page was closed, by the tablet's wall clock.
        app.anchor = { table_ms: anchor.table_ms + Math.max(0, Date.now() - anchor.wall_ms), perf: performance.now() };
      }
      if (kept) { await adopt(kept.view, false); }
      while (!(await refresh()) && !app.view) {
        const line = document.getElementById("sync");
        line.textContent = options.t("table-never-seen");
        line.dataset.state = "unknown";
        await new Promise(function (resolve) { setTimeout(resolve, 3000); });
      }
      setInterval(function () { if (app.anchor) { TableQueue.saveAnchor(key, tableNow()); } }, ANCHOR_EVERY_MS);
      setInterval(function () { if (waiting().length > 0) { send(); } }, 5000);
      window.addEventListener("online", function () { app.retry = 0; send(); refresh(); });
      window.addEventListener("offline", function () { setOnline(false); });
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "visible") { send(); }
      });
      app.section.dataset.ready = "true";
      send();
    }

    return {
      waiting: waiting, refusedRows: refusedRows, local: local, tableNow: tableNow, setAnchor: setAnchor,
      act: act, send: send, refresh: refresh, start: start, takeBack: takeBack
    };
  }

  globalThis.TableSync = { attach: attach };
})();

// What both table pages draw alike: elements, their words (Fluent catalogues fetched from
// ledgerd and kept by the service worker), the notice line, the status line of the queue, an
// event in one line, and the language switch that redraws the page without reloading it.
(function () {
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

  // The catalogues `files` in `app.lang`: {load(lang), t(id, args)}.
  function words(app, files) {
    function load(lang) {
      if (app.bundles[lang]) { return Promise.resolve(app.bundles[lang]); }
      const texts = files.map(function (file) {
        return fetch("/assets/i18n/" + lang + "/" + file).then(function (r) {
          if (!r.ok) { throw new Error(file + ": " + r.status); }
          return r.text();
        });
      });
      return Promise.all(texts).then(function (all) {
        const bundle = new FluentBundle.FluentBundle(lang, { useIsolating: false });
        all.forEach(function (text) { bundle.addResource(new FluentBundle.FluentResource(text)); });
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
    return { load: load, t: t };
  }

  function notice(app) {
    return function (text) {
      app.notice = text;
      const line = byId("notice");
      line.textContent = text;
      line.hidden = !text;
    };
  }

  // The queue's standing in the `#sync` line (its state, waiting and refused counts in data-).
  function statusLine(app, t) {
    return function () {
      const line = byId("sync");
      if (!line || !app.view) { return; }
      const n = app.rows.filter(function (row) { return row.status === "waiting"; }).length;
      const refused = app.rows.filter(function (row) { return row.status === "refused"; }).length;
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
      // Of those, the ones IndexedDB has confirmed: they survive a closed tab from now on.
      line.dataset.kept = String(app.rows.filter(function (row) { return row.status === "waiting" && row.kept; }).length);
      line.dataset.refused = String(refused);
      app.section.dataset.version = String(app.view.version);
      app.section.dataset.online = String(app.online);
    };
  }

  // What a page that could not start says (the tablet's storage or the words unreadable): the
  // catalogue's sentence, else the one ledgerd served the page with (`data-start-failed`).
  function startFailed(t, showNotice) {
    return function (error) {
      console.error("the table page did not start", error);
      const served = document.querySelector("[data-start-failed]");
      const text = t("table-start-failed");
      showNotice(text === "table-start-failed" && served ? served.dataset.startFailed : text);
    };
  }

  function eventLine(event) {
    const fields = Object.keys(event).filter(function (k) { return k !== "type"; }).map(function (k) {
      return k + "=" + JSON.stringify(event[k]);
    });
    return event.type + (fields.length ? " " + fields.join(" ") : "");
  }

  // The header's language link: the other catalogues loaded, the cookie set, `redraw()` run.
  function languageSwitch(app, words, redraw) {
    return function (event) {
      event.preventDefault();
      const link = event.currentTarget;
      const to = link.dataset.lang;
      words.load(to).then(function () {
        document.cookie = "ledger_lang=" + to + "; path=/; max-age=31536000; samesite=lax";
        const from = app.lang;
        app.lang = to;
        document.documentElement.lang = to;
        link.dataset.lang = from;
        link.setAttribute("hreflang", from);
        link.href = "/lang?to=" + from;
        link.textContent = words.t("lang-other");
        // The header the server wrote: who is signed in, the sign-in link.
        document.querySelectorAll("header [data-t]").forEach(function (el) { el.textContent = words.t(el.dataset.t); });
        redraw();
      });
    };
  }

  // The `#refused` box: the taps the ledger (or the rules, on a state another device moved on)
  // refused, kept on the tablet with why, until they are handed to the jury — in a jury call
  // of their own that goes through the queue like any tap, kept by the write that forgets
  // them — or exported as JSON Lines. `stream` names the stream in the export (`game/hall-1`,
  // `andes/m1`).
  function refusedBox(app, sync, options) {
    const t = options.t;
    function handToJury() {
      // Those kept on the tablet (a tap refused while its first write is under way waits).
      const rows = sync.refusedRows().filter(function (row) { return row.kept; });
      if (rows.length === 0) { return; }
      const actions = rows.map(function (row) {
        const what = options.describe ? options.describe(row.event) : eventLine(row.event);
        return what + " [" + row.event_id + "] (" + options.refusalText(row.refusal) + ")";
      }).join("; ");
      let reason = t("refused-jury-text", { actor: app.actor || "?", actions: actions });
      if (reason.length > 2000) { reason = reason.slice(0, 1999) + "…"; }
      // Forgotten in the write that keeps the call that carries them.
      sync.act({ type: "jury_called", reason: reason }, null, rows);
    }
    function exportRefused() {
      const rows = sync.refusedRows();
      const blob = new Blob([rows.map(function (row) {
        return JSON.stringify({ stream: options.stream, event_id: row.event_id, event: row.event,
          refusal: row.refusal, tapped_wall_ms: row.tapped_wall_ms });
      }).join("\n") + "\n"], { type: "application/jsonl" });
      const link = el("a", { href: URL.createObjectURL(blob), download: options.stream.replace("/", "-") + "-refused.jsonl" });
      document.body.appendChild(link);
      link.click();
      link.remove();
    }
    return function () {
      const box = byId("refused");
      const rows = sync.refusedRows();
      box.hidden = rows.length === 0;
      box.replaceChildren();
      if (rows.length === 0) { return; }
      box.appendChild(el("h2", { text: t("refused-title") }));
      box.appendChild(el("ul", { id: "refused-list" }, rows.map(function (row) {
        return el("li", { dataset: { eventId: row.event_id } }, [
          options.describe ? el("span", { "class": "what", text: options.describe(row.event) }) : el("code", { text: eventLine(row.event) }),
          document.createTextNode(" — "),
          el("span", { "class": "reason", text: options.refusalText(row.refusal) })
        ]);
      })));
      if (app.mayRecord) {
        box.appendChild(el("button", { type: "button", id: "hand-to-jury", text: t("refused-hand-to-jury"),
          on: { click: handToJury } }));
      }
      box.appendChild(el("button", { type: "button", id: "export-refused", text: t("refused-export"),
        on: { click: exportRefused } }));
    };
  }

  // The taps waiting on this tablet (`#waiting`, newest first) and the stream's last events
  // as ledgerd last sent them (`#events`). `options` (the Friedrich table's): `describe(event)`
  // words an event as a sentence (else the one-line notation), `takeBack()` takes the newest
  // waiting action back (a button on it), `correct(recent)` gives a recorded event's "ask the
  // jury to correct this" handler, or null where there is none.
  function eventLists(app, sync, t, options) {
    const opts = options || {};
    const line = function (event) {
      return opts.describe ? el("span", { "class": "what", text: opts.describe(event) }) : el("code", { text: eventLine(event) });
    };
    return function () {
      const waiting = sync.waiting();
      const waitingList = byId("waiting");
      const waitingTitle = byId("waiting-title");
      waitingTitle.textContent = t("table-waiting-events");
      // The newest action: one tap, or every tap of its group (a deal).
      const newest = waiting[waiting.length - 1];
      const items = waiting.slice().reverse().slice(0, 12).map(function (row) {
        const children = [line(row.event)];
        if (opts.takeBack && row === newest) {
          children.push(document.createTextNode(" "));
          children.push(el("button", { type: "button", "class": "take-back", id: "take-back", text: t("table-take-back"),
            on: { click: opts.takeBack } }));
        }
        const grouped = newest && newest.group && row.group === newest.group;
        return el("li", { "class": grouped ? "newest" : null, dataset: { eventId: row.event_id } }, children);
      });
      waitingList.replaceChildren.apply(waitingList, items);
      waitingList.hidden = waitingTitle.hidden = waiting.length === 0;
      const events = byId("events");
      byId("events-title").textContent = t("table-last-events");
      byId("events-title").hidden = app.view.recent.length === 0 && app.recorded.length + waiting.length === 0;
      events.replaceChildren.apply(events, app.view.recent.map(function (r) {
        // Without `describe` (the Andes table), the notation and who recorded it, as before.
        const children = r.event && opts.describe ? [line(r.event)]
          : [el("code", { text: r.text }), document.createTextNode(" "), el("span", { "class": "muted", text: r.actor })];
        const correct = opts.correct && r.event ? opts.correct(r) : null;
        if (correct) {
          children.push(document.createTextNode(" "));
          children.push(el("button", { type: "button", "class": "correct", id: "correct-" + r.seq, text: t("table-correct"),
            title: t("table-correct-title"), on: { click: correct } }));
        }
        return el("li", { value: String(r.seq), dataset: { seq: String(r.seq) } }, children);
      }));
    };
  }

  globalThis.TablePage = {
    el: el, byId: byId, words: words, notice: notice, statusLine: statusLine, startFailed: startFailed, eventLine: eventLine,
    languageSwitch: languageSwitch, refusedBox: refusedBox, eventLists: eventLists
  };
})();
