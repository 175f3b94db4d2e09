// The tablet's own storage (IndexedDB): every tap as an event waiting for the ledger, the
// last view of each game, and the table time anchor that carries the table clock across a
// reload, a closed tab or a restarted tablet. Writes are "strict": the browser has flushed
// them to disk when the promise resolves, so a tap shown as kept survives a power cut.
"use strict";
(function () {
  const DB_NAME = "ledger-table";
  const DB_VERSION = 1;
  let opened = null;

  function promised(request) {
    return new Promise(function (resolve, reject) {
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function open() {
    if (opened) { return opened; }
    opened = new Promise(function (resolve, reject) {
      const request = indexedDB.open(DB_NAME, DB_VERSION);
      request.onupgradeneeded = function () {
        const db = request.result;
        // One row per tap: {game, n, event_id, expected_version, event, tapped_wall_ms, status, refusal}.
        db.createObjectStore("queue", { keyPath: ["game", "n"] });
        // The last view of each game ledgerd sent: {game, view, saved_wall_ms}.
        db.createObjectStore("views", { keyPath: "game" });
        // The table clock: {game, table_ms, wall_ms}.
        db.createObjectStore("anchors", { keyPath: "game" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
    return opened;
  }

  // Runs `work(stores, tx)` in one transaction; resolves once it is committed (and, for writes,
  // flushed: durability "strict").
  function transact(names, mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        const options = mode === "readwrite" ? { durability: "strict" } : undefined;
        const tx = db.transaction(names, mode, options);
        const stores = {};
        names.forEach(function (name) { stores[name] = tx.objectStore(name); });
        let result;
        Promise.resolve(work(stores, tx)).then(function (value) { result = value; }, reject);
        tx.oncomplete = function () { resolve(result); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error || new Error("the tablet's storage refused the write")); };
      });
    });
  }

  function range(game) {
    return IDBKeyRange.bound([game, 0], [game, Number.MAX_SAFE_INTEGER]);
  }

  globalThis.TableQueue = {
    // Every row of the game's queue, oldest first.
    list: function (game) {
      return transact(["queue"], "readonly", function (s) { return promised(s.queue.getAll(range(game))); });
    },
    // Keeps a new tap: its `n` is the game's last plus one, read in the same transaction as
    // the write, so two tabs of the table never give two taps one key. The rows numbered
    // `forgetting` go in that transaction too (a jury call and the refused taps it carries):
    // both or neither. Sets `row.n` when the write is under way.
    add: function (row, forgetting) {
      return transact(["queue"], "readwrite", function (s, tx) {
        return new Promise(function (resolve, reject) {
          const last = s.queue.openCursor(range(row.game), "prev");
          last.onerror = function () { reject(last.error); };
          last.onsuccess = function () {
            try {
              row.n = last.result ? last.result.value.n + 1 : 1;
              s.queue.add(row);
              (forgetting || []).forEach(function (n) { s.queue.delete([row.game, n]); });
              resolve(row.n);
            } catch (error) {
              // Nothing of it is kept: not the tap, and not the forgetting.
              row.n = null;
              tx.abort();
              reject(error);
            }
          };
        });
      });
    },
    // Keeps changes to rows the tablet keeps (same game and n). A row no longer there (sent
    // and forgotten by another tab, or never kept) stays gone.
    put: function (rows) {
      return transact(["queue"], "readwrite", function (s) {
        rows.forEach(function (row) {
          const there = s.queue.getKey([row.game, row.n]);
          there.onsuccess = function () { if (there.result !== undefined) { s.queue.put(row); } };
        });
      });
    },
    // Forgets rows the ledger has: by their n.
    remove: function (game, ns) {
      return transact(["queue"], "readwrite", function (s) {
        ns.forEach(function (n) { s.queue.delete([game, n]); });
      });
    },
    saveView: function (game, view) {
      return transact(["views"], "readwrite", function (s) {
        s.views.put({ game: game, view: view, saved_wall_ms: Date.now() });
      });
    },
    loadView: function (game) {
      return transact(["views"], "readonly", function (s) { return promised(s.views.get(game)); });
    },
    saveAnchor: function (game, tableMs) {
      return transact(["anchors"], "readwrite", function (s) {
        s.anchors.put({ game: game, table_ms: tableMs, wall_ms: Date.now() });
      });
    },
    loadAnchor: function (game) {
      return transact(["anchors"], "readonly", function (s) { return promised(s.anchors.get(game)); });
    }
  };
})();
