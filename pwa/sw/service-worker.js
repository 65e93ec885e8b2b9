// The service worker: Workbox precaches every file of the build and serves it, so the app
// opens and runs with no network. Three plugins add to Workbox's precache:
//  - page copies: a file the page has already downloaded (it sits in the browser's HTTP cache)
//    is taken from there when its bytes hash to the build's revision, so a first visit
//    downloads no file twice;
//  - progress: the bytes received for each file are posted to the app's windows, and a failed
//    download too, with its cause ("network", "server" with the HTTP status, "storage") so
//    the page can say it in the app's words;
//  - stall: a download that receives nothing for STALL_MS is aborted, so a dead connection
//    fails the install (and the page tries again) instead of hanging it.
// An install that fails keeps the files already in the cache: the next attempt (the page
// registers again when the network returns) fetches only the others.
// Bundled by the build (build/service-worker.mjs), which fills in self.__WB_MANIFEST (each
// file's URL and the SHA-256 of its bytes as revision) and CACHE_ID.
import { clientsClaim, setCacheNameDetails } from "workbox-core";
import { cleanupOutdatedCaches, PrecacheController, PrecacheRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";

const STALL_MS = 30000;
const PROGRESS_EVERY_MS = 250;
const REVISION_PARAM = "__WB_REVISION__";
// The page is loaded at the folder's URL; the precache holds it as index.html.
const ALIASES = { "index.html": "./" };

setCacheNameDetails({ prefix: CACHE_ID });

async function tell(message) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of windows) client.postMessage(message);
}

/** Why a download failed, for the page: {cause, status}. */
function causeOf(error) {
  const status = error?.details?.status;  // Workbox's bad-precaching-response
  if (status) return { cause: "server", status };
  if (error?.name === "QuotaExceededError") return { cause: "storage" };
  return { cause: "network" };            // a failed fetch, a dead connection, a broken body
}

function failed(url, error) {
  return { type: "precache-failed", url, message: String(error?.message || error), ...causeOf(error) };
}

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The file's own URL and its revision, from Workbox's cache key (URL?__WB_REVISION__=rev). */
function splitKey(cacheKey) {
  const url = new URL(cacheKey);
  const revision = url.searchParams.get(REVISION_PARAM);
  url.searchParams.delete(REVISION_PARAM);
  return { url: url.href, revision };
}

const pageCopies = {
  // Asked before each file is fetched during the install; a miss in the precache may be
  // answered from the HTTP cache (never from the network), but only with the right bytes.
  async cachedResponseWillBeUsed({ cacheName, request, cachedResponse, event }) {
    if (cachedResponse || event?.type !== "install") return cachedResponse;
    const { url, revision } = splitKey(request.url);
    if (!revision) return null;
    const scope = self.registration.scope;
    const alias = ALIASES[url.slice(scope.length)];
    for (const candidate of alias ? [url, new URL(alias, scope).href] : [url]) {
      let copy;
      try {
        copy = await fetch(candidate, { cache: "only-if-cached", mode: "same-origin" });
      } catch {
        continue;
      }
      if (copy.status !== 200) continue;
      const body = await copy.arrayBuffer();
      if (await sha256(body) !== revision) continue;
      const response = new Response(body, { status: 200, headers: copy.headers });
      await (await caches.open(cacheName)).put(request, response.clone());
      tell({ type: "precache-progress", url, bytes: body.byteLength, done: true, reused: true });
      return response;
    }
    return null;
  },
};

const stallTimers = new Map();

function armStall(url, abort) {
  clearTimeout(stallTimers.get(url));
  stallTimers.set(url, setTimeout(() => abort.abort(new DOMException(`no data for ${STALL_MS / 1000} s`, "TimeoutError")), STALL_MS));
}

function disarmStall(url) {
  clearTimeout(stallTimers.get(url));
  stallTimers.delete(url);
}

const aborts = new Map();

const progress = {
  requestWillFetch({ request }) {
    const abort = new AbortController();
    aborts.set(request.url, abort);
    armStall(request.url, abort);
    return new Request(request, { signal: abort.signal });
  },
  fetchDidSucceed({ request, response }) {
    const { url } = request;
    const abort = aborts.get(url);
    aborts.delete(url);
    if (!response.body || !abort) {
      disarmStall(url);
      return response;
    }
    armStall(url, abort);
    let bytes = 0;
    let told = 0;
    const counted = response.body.pipeThrough(new TransformStream({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        armStall(url, abort);
        if (Date.now() - told >= PROGRESS_EVERY_MS) {
          told = Date.now();
          tell({ type: "precache-progress", url, bytes });
        }
        controller.enqueue(chunk);
      },
      flush() {
        disarmStall(url);
        tell({ type: "precache-progress", url, bytes, done: true });
      },
    }));
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  },
  fetchDidFail({ request, error }) {
    disarmStall(request.url);
    aborts.delete(request.url);
    tell(failed(request.url, error));
  },
};

const precache = new PrecacheController({ plugins: [pageCopies, progress] });
precache.addToCacheList(self.__WB_MANIFEST);

self.addEventListener("install", (event) => {
  precache.install(event).catch((error) => tell(failed(undefined, error)));
});
self.addEventListener("activate", (event) => {
  precache.activate(event);
});
registerRoute(new PrecacheRoute(precache));
cleanupOutdatedCaches();
clientsClaim();

// The app's "Reload now" (workbox-window's messageSkipWaiting) takes a waiting update.
self.addEventListener("message", (event) => {
  if (event.data?.type === "SKIP_WAITING") self.skipWaiting();
});
