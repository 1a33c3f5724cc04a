// GPU Puzzles' service worker: keeps every file of the built site, so that
// after one visit the site opens and judges with the network gone (a
// workshop's Wi-Fi). scripts/post-build.mjs replaces the BUILD line below
// with this build's file list and a hash of their contents, so a new build
// is a new sw.js: the browser installs it, it keeps the new files under a
// cache of their own, and removes the old build's cache once it takes over.
//
// - The page (a navigation): from the network first, so an online visit
//   always gets the newest build; from the cache when the network fails or
//   is slower than NAVIGATION_TIMEOUT_MS. Any `?puzzle=` query is the same
//   page.
// - Every other file of the site: from the cache, else from the network.
//   Trunk names the page's files by their hash, and the judge's worker asks
//   for its files with the build's hash as a query (`?v=`), so a cached
//   file is never another build's.
// - The capstone's model (`models/`, 930 KB): not in the build's list, so a
//   first visit does not download it. The judge's worker fetches it when
//   "Generate" first opens, with `?v=` and the hash of its files; it is kept
//   then (by the worker, and here when this worker sees the fetch) in a
//   cache named by that hash, `gpu-puzzles-model-HASH`, served from offline
//   and kept across builds while they ship the same model.
// - Other origins and other methods: untouched.
const BUILD = { version: "unbuilt", files: [], model: "" };
const CACHE = `gpu-puzzles-${BUILD.version}`;
const MODEL_CACHE = `gpu-puzzles-model-${BUILD.model}`;
const NAVIGATION_TIMEOUT_MS = 4000;
const scoped = (file) => new URL(file, self.registration.scope).href;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(BUILD.files.map(scoped)))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("gpu-puzzles-") && k !== CACHE && k !== MODEL_CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** The page from the network, kept for offline visits; the kept one when the network fails or is slow. */
async function navigation(request) {
  const cache = await caches.open(CACHE);
  const page = scoped("./");
  const network = fetch(request).then((response) => {
    if (response.ok) cache.put(page, response.clone());
    return response;
  });
  const late = new Promise((resolve) => setTimeout(resolve, NAVIGATION_TIMEOUT_MS));
  try {
    const first = await Promise.race([network, late]);
    if (first) return first;
  } catch {
    // Offline: the kept page below.
  }
  const kept = await cache.match(page);
  return kept || network;
}

/** The model's files: the kept copy, else the network's, kept when it is this build's version. */
async function model(request) {
  const cache = await caches.open(MODEL_CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && new URL(request.url).search === `?v=${BUILD.model}`) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigation(request));
    return;
  }
  if (request.url.startsWith(scoped("./models/"))) {
    event.respondWith(model(request));
    return;
  }
  event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
});
