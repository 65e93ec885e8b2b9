// The outbox sync: pushes waiting records and pulls every judge's records through
// POST /api/events/<slug>/sync. Runs on open, when the network returns, after each new
// record, and periodically; failures back off (2 s doubling to 2 min). A record leaves the
// outbox only once the server has answered for it, so a closed tab loses nothing and a
// re-send is harmless (the server answers "duplicate").
import { api, ApiError } from "./api.js";
import * as store from "./store.js";

const PERIOD_MS = 30000;
const BACKOFF_MIN_MS = 2000;
const BACKOFF_MAX_MS = 120000;
const BATCH = 500;

export const syncState = new EventTarget();
Object.assign(syncState, {
  online: navigator.onLine,
  waiting: null, // records of the joined event in the outbox (null until counted)
  elsewhere: [], // records of other events still in the outbox: [{slug, name, count}]
  last_ok_ms: null,
  error: null,
  running: false,
  rejected: [],
  revoked: false, // the server refused this phone's token (401)
});

let session = null;
let timer = null;
let failures = 0;
let inflight = null;
let again = false;
let epoch = 0; // moves when the cursor is reset: a run begun before then keeps no cursor

/** Pull event `slug` from the start again (e.g. this phone's role changed, so it may now be
 * sent records it was not before). A sync under way then stores no cursor of its own and
 * runs again. */
export async function resetCursor(slug) {
  epoch += 1;
  await store.set(`cursor:${slug}`, 0);
  if (session?.event.slug === slug && inflight) again = true;
}

function changed() {
  syncState.dispatchEvent(new Event("change"));
}

/** Start syncing for a joined session {token, device_id, judge_name, event: {slug, ...}}. */
export async function startSync(s) {
  session = s;
  syncState.last_ok_ms = (await store.get(`last_sync:${s.event.slug}`)) ?? null;
  await refreshCounts();
  syncNow();
}

/** Stop syncing (leaving an event or standalone use). */
export function stopSync() {
  session = null;
  clearTimeout(timer);
}

async function refreshCounts() {
  const box = await store.outbox(Infinity);
  const slug = session?.event.slug;
  syncState.waiting = session ? box.filter((r) => r.event === slug).length : box.length;
  const others = new Map();
  for (const r of box) if (r.event !== slug) others.set(r.event, (others.get(r.event) || 0) + 1);
  syncState.elsewhere = await Promise.all([...others].map(async ([other, count]) =>
    ({ slug: other, name: (await store.get(`event_name:${other}`)) || other, count })));
  if (session) {
    syncState.rejected = (await store.eventRecords(session.event.slug)).filter((r) => r.sync === "rejected");
  }
  changed();
}

function schedule(ms) {
  clearTimeout(timer);
  timer = setTimeout(syncNow, ms);
}

/** Push and pull now (coalesces with a run in progress: a call during a run, e.g. for a record
 * made meanwhile, runs once more right after it, rather than at the next period). Resolves
 * when done; never throws. */
export function syncNow() {
  if (!session) return Promise.resolve();
  if (inflight) {
    again = true;
    return inflight;
  }
  inflight = run().finally(() => {
    inflight = null;
    if (again) {
      again = false;
      syncNow();
    }
  });
  return inflight;
}

async function run() {
  const s = session;
  syncState.running = true;
  changed();
  try {
    const cursorKey = `cursor:${s.event.slug}`;
    const began = epoch;
    for (let round = 0; round < 20; round++) {
      // Only this event's records: another event's wait until this phone joins that event again.
      const batch = await store.outbox(BATCH, s.event.slug);
      const cursor = (await store.get(cursorKey)) ?? 0;
      const reply = await api(`/api/events/${encodeURIComponent(s.event.slug)}/sync`, {
        token: s.token,
        body: { device: s.device_id, cursor, records: batch },
        timeoutMs: 30000,
      });
      await store.applySync(reply.results || [], reply.records || []);
      if (epoch !== began) break; // the cursor was reset meanwhile: the next run starts from 0
      await store.set(cursorKey, reply.cursor);
      const more = batch.length === BATCH || ((reply.records || []).length > 0 && reply.cursor !== cursor);
      if (!more) break;
    }
    failures = 0;
    syncState.error = null;
    syncState.revoked = false;
    syncState.online = true;
    syncState.last_ok_ms = Date.now();
    await store.set(`last_sync:${s.event.slug}`, syncState.last_ok_ms);
    syncState.dispatchEvent(new Event("synced"));
    schedule(PERIOD_MS);
  } catch (err) {
    failures += 1;
    syncState.error = err instanceof ApiError ? err.message : String(err);
    if (err instanceof ApiError && err.code === "network") syncState.online = false;
    // 401: the organiser revoked this phone (or the event is gone); records stay in the outbox.
    syncState.revoked = err instanceof ApiError && err.status === 401;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (failures - 1));
    schedule(delay * (0.75 + Math.random() / 2));
  } finally {
    syncState.running = false;
    await refreshCounts();
  }
}

/** Record added: refresh the counts and push soon. */
export async function recordAdded() {
  await refreshCounts();
  if (session) syncNow();
}

window.addEventListener("online", () => { syncState.online = true; failures = 0; changed(); syncNow(); });
window.addEventListener("offline", () => { syncState.online = false; changed(); });
document.addEventListener("visibilitychange", () => { if (!document.hidden) syncNow(); });
