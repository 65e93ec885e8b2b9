// The event's clock state: fetched from GET /api/events/<slug>/clock, kept on the device so
// the clock runs offline and after a reload, refreshed every few seconds while online.
// Standalone use keeps a round started on this device in the same shape.
import { api } from "./api.js";
import { app, followEvent } from "./state.js";
import * as store from "./store.js";
import { measureOffset, offsetInfo, serverNow } from "./servertime.js";
import { keepFirstClock } from "./first-clock.js";

// "change": the event's clock data changed (draw again); "tick": a time alert fires now (show
// the clock at this moment first, so the screen and the banner agree)
export const clockEvents = new EventTarget();
let timer = null;
let lastOffset = 0;

/** Keep app.clock on the device for event `slug` (IndexedDB), and its round's copy for the
 * first clock drawn as the page opens (first-clock.js). */
async function keepClock(slug) {
  keepFirstClock(slug, app.clock?.round, offsetInfo().offset_ms);
  await store.set(`clock:${slug}`, app.clock);
}

/** Load the kept clock of the current event (null when none). */
export async function loadClock() {
  const slug = app.session?.event?.slug;
  app.clock = slug ? (await store.get(`clock:${slug}`)) ?? null : null;
  keepFirstClock(slug, app.clock?.round, offsetInfo().offset_ms);
  return app.clock;
}

/** Fetch the clock now; also re-measures the server offset every few minutes.
 * Resolves to the clock, or the kept one when the server cannot be reached. */
export async function refreshClock(slug = app.session?.event?.slug) {
  if (!slug || app.session?.standalone) return app.clock;
  try {
    if (Date.now() - lastOffset > 300000) {
      await measureOffset(5);
      lastOffset = Date.now();
    }
    const clock = await api(`/api/events/${encodeURIComponent(slug)}/clock`, { timeoutMs: 8000 });
    if (slug === app.session?.event?.slug) {
      app.clock = { ...clock, news_ms: Date.now() };
      await keepClock(slug);
      // The organiser may have moved the event on (e.g. from Swiss rounds to the top cut).
      await followEvent(clock.event);
    }
    clockEvents.dispatchEvent(new Event("change"));
    return clock;
  } catch {
    return app.clock;
  }
}

/** Keep the clock fresh every `ms` milliseconds while the app is open (the fallback while
 * the push stream is down); `now`: also fetch it at once. */
export function keepFresh(ms = 10000, { now = true } = {}) {
  clearInterval(timer);
  if (now) refreshClock();
  timer = setInterval(() => { if (!document.hidden) refreshClock(); }, ms);
}

/** Stop polling the clock (the push stream says when it changes). */
export function stopPolling() {
  clearInterval(timer);
  timer = null;
}

/** The server's clock was heard from (a fetch, or the push stream, which would have said a
 * change): kept with the clock, so a reload knows how old the news is. */
export function clockNews(ms = Date.now()) {
  if (app.clock) app.clock.news_ms = ms;
}

/** Milliseconds since the last news from the server about the clock (null: never). */
export function clockNewsAge() {
  const at = app.clock?.news_ms ?? null;
  return at == null ? null : Date.now() - at;
}

/** Force the next refresh to re-measure the server offset. */
export function remeasureSoon() {
  lastOffset = 0;
}

/** Standalone: start a round of `minutes` on this device. */
export async function startLocalRound(minutes) {
  const now = serverNow();
  const number = (app.clock?.round?.number || 0) + 1;
  app.clock = {
    server_ms: now,
    event: app.session.event,
    round: { number, state: "running", round_minutes: minutes, started_ms: now, pauses: [], paused_ms: 0,
             end_ms: now + minutes * 60000, ended_ms: null },
    tables: [],
  };
  await keepClock(app.session.event.slug);
  clockEvents.dispatchEvent(new Event("change"));
}

/** Standalone: end the local round. */
export async function endLocalRound() {
  if (!app.clock?.round) return;
  app.clock.round = { ...app.clock.round, state: "ended", ended_ms: serverNow() };
  await keepClock(app.session.event.slug);
  clockEvents.dispatchEvent(new Event("change"));
}
