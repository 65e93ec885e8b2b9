// The offline copy: registers the service worker, follows its download and tells the truth
// about it. "Ready offline" comes from the page's own check, never from an event alone: the
// service worker is activated and the Cache Storage holds every file of precache.json under
// its revision. Until then `offline` carries the download's progress, and when the download
// stops (no network, a server error, a dead connection) it says why, in the app's words. A
// download the network interrupted goes on by itself: the page registers again as soon as
// the browser says it is online, and probes the server meanwhile (after 1 s, 2 s, 4 s, 8 s,
// then every 10 s), since a link that drops while the phone keeps its Wi-Fi fires no
// "online" event. A server error is tried again on a longer timer. Either way the service
// worker fetches only the files it does not hold yet.
//
// offline.phase: "off" (not started: the players' page) | "checking" | "downloading" |
//   "paused" (the network is gone or interrupted the download: it goes on by itself) |
//   "failed" (retrying at retryAt) | "ready" | "unavailable" (no service worker here: an
//   http:// address that is not this machine, or an old browser)
// offline.done, offline.total: bytes on the wire (the Brotli copies' sizes) of the files held
//   and of all; done never goes down while total stays (a file fetched again after an
//   interruption counts from where it had got to); offline.cause, why it paused or stopped:
//   "offline" (the browser has no network), "network" (downloads failed while it says it has),
//   "server" (an HTTP error), "storage" (no room), "other"; offline.reason: the same in the
//   language shown, always the app's own words (a function of t()); offline.detail: the
//   browser's or service worker's own error text, in English, for a "details" element and
//   the console only; a "change" event on every change.

import { decimal, t } from "./i18n.js";

const CHECK_EVERY_MS = 1000;
const RETRY_MS = [5000, 10000, 20000, 40000, 60000]; // after a server error
const PROBE_MS = [1000, 2000, 4000, 8000, 10000];       // while the network is interrupted
const PROBE_TIMEOUT_MS = 5000;
const PROBE = "sw.js"; // never precached, so a probe goes to the network even when controlled
const REVISION_PARAM = "__WB_REVISION__";
const LIST = "precache.json";

export const offline = Object.assign(new EventTarget(), { phase: "off", done: 0, total: null });
// The reason is read in the language shown at the time (a change of language draws the status
// line again): set it to () => t("…") for the app's own words.
let reasonSaid = null;
Object.defineProperty(offline, "reason", {
  enumerable: true,
  get: () => (typeof reasonSaid === "function" ? reasonSaid() : reasonSaid),
  set: (value) => { reasonSaid = value; },
});
offline.retryAt = null;
offline.cause = null;
offline.detail = null;

let list = null;          // precache.json: {cache, files: [{url, revision, bytes, wire}]}
const inFlight = new Map(); // absolute URL -> bytes received so far (service worker messages)
let failures = 0;
let probes = 0;           // probes since the download last moved
let retryTimer = null;
let highest = { total: null, done: 0 }; // the most shown of this total (never shown going down)
let checking = null;
let engineWithoutCopy = null; // startOffline's onUnavailable
const followed = new WeakSet();

function set(fields) {
  const before = JSON.stringify(offline);
  Object.assign(offline, fields);
  if (JSON.stringify(offline) !== before) offline.dispatchEvent(new Event("change"));
}

function scope(reg) {
  return reg?.scope ?? new URL("./", location.href).href;
}

/** Workbox's cache key of a precached file. */
function cacheKey(file, base) {
  const url = new URL(file.url, base);
  url.searchParams.set(REVISION_PARAM, file.revision);
  return url.href;
}

/** Compare the Cache Storage with precache.json; "ready" only when everything is there and
 * the service worker is activated. */
async function check() {
  if (!list || offline.phase === "unavailable") return;
  const reg = await navigator.serviceWorker.getRegistration();
  const base = scope(reg);
  const name = `${list.cache}-${base}`;
  const keys = new Set();
  if (await caches.has(name)) {
    for (const req of await (await caches.open(name)).keys()) keys.add(req.url);
  }
  let done = 0;
  let total = 0;
  let missing = 0;
  for (const file of list.files) {
    total += file.wire;
    const url = new URL(file.url, base).href;
    if (keys.has(cacheKey(file, base))) {
      done += file.wire;
      inFlight.delete(url);
    } else {
      missing += 1;
      done += Math.min(1, (inFlight.get(url) ?? 0) / file.bytes) * file.wire;
    }
  }
  const listHeld = [...keys].some((k) => new URL(k).pathname === new URL(LIST, base).pathname);
  if (!missing && listHeld && reg?.active?.state === "activated") {
    clearTimeout(retryTimer);
    set({ phase: "ready", done: total, total, reason: null, retryAt: null });
    return;
  }
  const phase = ["paused", "failed"].includes(offline.phase) ? offline.phase
    : navigator.onLine ? "downloading" : "paused";
  if (highest.total !== total) highest = { total, done: 0 };
  highest.done = Math.max(highest.done, Math.round(done));
  set({ phase, done: highest.done, total });
}

function checkSoon() {
  checking ??= check().finally(() => { checking = null; });
  return checking;
}

/** This browser keeps nothing offline here: say why, and start Python from the network. */
function unavailable(reason) {
  clearTimeout(retryTimer);
  set({ phase: "unavailable", reason, retryAt: null });
  engineWithoutCopy?.();
}

/** Registering failed: a browser that refuses service workers here (a private window,
 * storage turned off) will not change its mind; anything else is the network or the server. */
function registerFailed(err) {
  if (["SecurityError", "NotSupportedError"].includes(err?.name)) {
    const error = err.message || err.name;
    unavailable(() => t("this browser refuses it here ({error}); a private window does", { error }));
    return;
  }
  const detail = String(err?.message || err);
  // "A bad HTTP response code (404) was received when fetching the script."
  const status = /\bHTTP\b.*?\((\d{3})\)/.exec(detail)?.[1] ?? (err?.status >= 400 ? err.status : null);
  stopped(status ? { cause: "server", status, detail } : { cause: "network", detail });
}

const SAID = {
  network: () => t("the network interrupted it"),
  server: (status) => t("the server answered with an error ({status})", { status }),
  storage: () => t("this phone has no room left for it"),
  other: () => t("the download stopped"),
};

/** Why it stopped, from the service worker's or a browser's error: {cause, status, detail}. */
let lastFailure = null;

/** The download stopped (`why`: {cause, status, detail}, or null when only the service worker
 * going redundant says so): say why, in our words, and go on by itself. An interruption of
 * the network is probed for promptly (and the "online" event retries at once); a server error
 * is tried again on a timer. */
function stopped(why) {
  clearTimeout(retryTimer);
  const { cause = "other", status = null, detail = null } = why ?? lastFailure ?? {};
  lastFailure = null;
  if (detail) console.warn(`offline copy: ${detail}`);
  if (!navigator.onLine) {
    set({ phase: "paused", cause: "offline", reason: () => t("no network"), detail, retryAt: null });
    return;
  }
  if (cause === "network" || cause === "other") {
    const wait = PROBE_MS[Math.min(probes, PROBE_MS.length - 1)];
    set({ phase: "paused", cause, reason: () => SAID[cause](), detail, retryAt: Date.now() + wait });
    retryTimer = setTimeout(probe, wait);
    return;
  }
  const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
  failures += 1;
  set({ phase: "failed", cause, reason: () => SAID[cause](status), detail, retryAt: Date.now() + wait });
  retryTimer = setTimeout(retry, wait);
}

/** Is the server reachable again? A short request for a file that is never precached; when
 * it answers, register again; else probe again a little later. */
async function probe() {
  if (offline.phase !== "paused" && offline.phase !== "failed") return;
  probes += 1;
  try {
    await fetch(PROBE, { method: "HEAD", cache: "no-store", signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
  } catch {
    if (offline.phase !== "paused") return;
    const wait = PROBE_MS[Math.min(probes, PROBE_MS.length - 1)];
    set({ retryAt: Date.now() + wait });
    clearTimeout(retryTimer);
    retryTimer = setTimeout(probe, wait);
    return;
  }
  retry();
}

function follow(reg) {
  if (followed.has(reg)) return;
  followed.add(reg);
  const watch = (worker) => {
    if (!worker) return;
    worker.addEventListener("statechange", () => {
      if (worker.state === "redundant" && !reg.active) stopped(null);
      else checkSoon();
    });
  };
  watch(reg.installing);
  reg.addEventListener("updatefound", () => watch(reg.installing));
}

/** Register again: a registration whose install failed starts a new one, which fetches only
 * the files the cache does not hold. */
export async function retry() {
  if (offline.phase === "ready" || offline.phase === "unavailable") return;
  clearTimeout(retryTimer);
  lastFailure = null;
  if (navigator.onLine) set({ phase: "downloading", cause: null, reason: null, detail: null, retryAt: null });
  else set({ phase: "paused", cause: "offline", reason: () => t("no network"), retryAt: null });
  try {
    if (!list) list = await fetch(LIST).then((r) => r.json());
    const reg = await navigator.serviceWorker.register("sw.js");
    follow(reg);
    if (!reg.installing && !reg.waiting && !reg.active) await reg.update();
  } catch (err) {
    registerFailed(err);
  }
  checkSoon();
}

function onMessage({ data }) {
  if (data?.type === "precache-progress") {
    inFlight.set(data.url, data.bytes);
    probes = 0;
    failures = 0;
    if (offline.phase === "paused" || offline.phase === "failed") return;
    checkSoon();
  } else if (data?.type === "precache-failed") {
    // Kept for when the installing worker goes redundant (follow's statechange).
    const detail = data.url ? `${new URL(data.url).pathname}: ${data.message}` : data.message;
    if (!lastFailure || lastFailure.cause === "network" || data.cause !== "network") {
      lastFailure = { cause: data.cause || "other", status: data.status ?? null, detail };
    }
    // The worker may have gone redundant before this came: say the better reason now.
    if (["paused", "failed"].includes(offline.phase) && offline.cause !== "offline") stopped(lastFailure);
  }
}

/** Start keeping the app offline. `onControlled` runs once the service worker controls the
 * page (the Python runtime is then read from the cache, never downloaded twice);
 * `onUnavailable` when there is no service worker here. `onUpdate(apply)` when a new
 * version waits behind the one running (apply() switches and reloads). */
export async function startOffline({ onControlled, onUnavailable, onUpdate }) {
  engineWithoutCopy = onUnavailable;
  if (!("serviceWorker" in navigator) || !window.isSecureContext) {
    unavailable(() =>
      t("browsers keep apps offline only from https:// addresses; ask the organiser for the https:// one"));
    return;
  }
  set({ phase: "checking" });
  if (navigator.serviceWorker.controller) onControlled();
  else navigator.serviceWorker.addEventListener("controllerchange", onControlled, { once: true });
  navigator.serviceWorker.addEventListener("controllerchange", checkSoon);
  navigator.serviceWorker.addEventListener("message", onMessage);
  window.addEventListener("online", () => {
    failures = 0;
    probes = 0;
    if (offline.phase !== "ready") retry();
  });
  window.addEventListener("offline", () => {
    if (["downloading", "checking", "paused"].includes(offline.phase)) {
      clearTimeout(retryTimer);
      set({ phase: "paused", cause: "offline", reason: () => t("no network"), retryAt: null });
    }
  });
  setInterval(() => { if (offline.phase !== "ready") checkSoon(); }, CHECK_EVERY_MS);

  // workbox-window is loaded only now (the app calls this once its first screen is up).
  let Workbox;
  try {
    ({ Workbox } = await import("../vendor/workbox-window.mjs"));
  } catch (err) {
    registerFailed(err);
    await checkSoon();
    return;
  }
  const wb = new Workbox("sw.js");
  wb.addEventListener("waiting", async () => {
    // Only a new version waiting behind the one running now is an update (not the first install).
    const reg = await navigator.serviceWorker.getRegistration();
    if (!reg?.waiting || !navigator.serviceWorker.controller) return;
    onUpdate(() => {
      wb.addEventListener("controlling", () => location.reload());
      wb.messageSkipWaiting();
    });
  });
  try {
    list = await fetch(LIST).then((r) => r.json());
    follow(await wb.register());
  } catch (err) {
    registerFailed(err);
  }
  await checkSoon();
}

/** "1.2 MiB" (bytes shown to people; "?" while unknown). */
export function mib(bytes) {
  return bytes == null ? t("? MiB") : t("{size} MiB", { size: decimal(bytes / 1048576) });
}
