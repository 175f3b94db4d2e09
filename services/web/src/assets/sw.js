// The table's service worker: it keeps the table pages (a Friedrich game's `/table/<game>`, an
// Andes match's recording mode `/andes/<match>/record`), their scripts, styles and catalogues on
// the tablet, so that a table page once opened opens again, and runs, with no network.
// ledgerd serves this file with VERSION (a digest of every asset) and ASSETS filled in: a new
// ledgerd with other assets is a new worker, which replaces the old cache when it activates.
"use strict";
const VERSION = "__VERSION__";
const ASSETS = __ASSETS__;
const CACHE = "ledger-table-" + VERSION;
// A navigation waits this long for ledgerd before the kept page is shown: a hall's Wi-Fi that
// is up but carries nothing must not leave the table without its clock.
const NETWORK_WAIT_MS = 3000;
// The pages kept: each kind of table page is served from its own kept copies.
const TABLE_PAGES = [/^\/table\/[^/]+$/, /^\/andes\/[^/]+\/record$/];
function tablePageKind(pathname) {
  return TABLE_PAGES.find(function (pattern) { return pattern.test(pathname); }) || null;
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(ASSETS);
  }).then(function () {
    return self.skipWaiting();
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (key) {
      return key.indexOf("ledger-table-") === 0 && key !== CACHE;
    }).map(function (key) { return caches.delete(key); }));
  }).then(function () {
    return self.clients.claim();
  }));
});

self.addEventListener("fetch", function (event) {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
  if (url.pathname.indexOf("/assets/") === 0) {
    event.respondWith(caches.match(request, { ignoreSearch: true }).then(function (hit) {
      return hit || fetch(request);
    }));
  } else if (request.mode === "navigate" && tablePageKind(url.pathname)) {
    event.respondWith(tablePage(request, tablePageKind(url.pathname)));
  }
  // Everything else (the game's view, its live feed, the queue) goes to the network: the page
  // keeps what it needs in IndexedDB and knows when the network is gone.
});

function withTimeout(promise, ms) {
  return new Promise(function (resolve, reject) {
    const timer = setTimeout(function () { reject(new Error("no answer in " + ms + " ms")); }, ms);
    promise.then(function (value) { clearTimeout(timer); resolve(value); },
                 function (error) { clearTimeout(timer); reject(error); });
  });
}

// Network first, so the page is fresh when ledgerd answers; else the kept copy of this game's
// page, else of any table page of the same kind (the script reads the game from the address).
async function tablePage(request, kind) {
  const cache = await caches.open(CACHE);
  try {
    const response = await withTimeout(fetch(request), NETWORK_WAIT_MS);
    if (response.ok) { await cache.put(request, response.clone()); }
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreSearch: true });
    if (kept) { return kept; }
    const pages = (await cache.keys()).filter(function (key) {
      return kind.test(new URL(key.url).pathname);
    });
    if (pages.length > 0) { return cache.match(pages[0]); }
    throw error;
  }
}
