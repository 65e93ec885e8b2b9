// Boot: the screen comes first (shell, status, clock from kept data), then the service
// worker, the Python worker and the network, none of which the screen waits for.
import { engineState, ready, startEngine } from "./engine.js";
import { offline, startOffline } from "./offline.js";
import { app, followEvent, ruleData, saveSession, useRuleset } from "./state.js";
import * as store from "./store.js";
import { loadOffset } from "./servertime.js";
import { clockEvents, clockNews, keepFresh, loadClock, refreshClock, stopPolling } from "./clockdata.js";
import { openStream, pushState } from "./push.js";
import { callsState, fetchCalls, resetCalls } from "./calls.js";
import { alertLog, loadAlertSettings, redrawAlert, showSoundNote, startTimeAlerts } from "./ui/alerts.js";
import { draw as drawCalls, startCallsPanel } from "./ui/calls.js";
import { startSync, syncNow, syncState, stopSync } from "./sync.js";
import { api } from "./api.js";
import { preloadScreen, route, render } from "./router.js";
import { renderStatus } from "./ui/status.js";
import { startReviewBadge, updateReviewBadge } from "./ui/review-badge.js";
import { startLook } from "./theme.js";
import { keepClearOfNav } from "./bars.js";
import { keepFirstClock } from "./first-clock.js";
import { applyLanguage } from "./lang.js";
import { loadMessages, translatePage } from "./i18n.js";
import { afterPress, pressState } from "./press.js";

performance.mark("app-start");

/** Keep the app offline (service worker) and start Python once its runtime is cached. */
function registerServiceWorker() {
  startOffline({
    onControlled: startEngine,
    onUnavailable: startEngine,
    onUpdate(apply) {
      document.getElementById("update-btn").onclick = apply;
      // a banner put in above the screen waits for a tap under way (press.js)
      afterPress(() => { document.getElementById("update").hidden = false; });
    },
  });
  // A page the service worker does not control (a hard reload) starts Python once the
  // offline copy is checked complete.
  offline.addEventListener("change", () => { if (offline.phase === "ready") startEngine(); });
}

/** Load everything the current session needs from the device, then refresh from the network.
 * `stored`: the session was just read from the device (the boot), so it is not saved again. */
let stopStream = null;
let callsPoll = null;

/** Follow the event's push stream; while it is down, poll the clock and the calls every 10 s
 * (records sync on their own period). */
function startPush(slug) {
  stopStream?.();
  const poll = (on) => {
    clearInterval(callsPoll);
    if (on) {
      keepFresh(10000, { now: false });
      callsPoll = setInterval(() => { if (!document.hidden) fetchCalls(); }, 10000);
    } else stopPolling();
  };
  stopStream = openStream(slug, {
    // the clock, and the event with it: the organiser's changes (stage, a phone's role) count at once
    clock_version: () => { refreshClock(); refreshDetail(); },
    records_seq: () => syncNow(),
    calls_seq: () => fetchCalls(),
    review_seq: () => updateReviewBadge(),
  }, (mode) => { poll(mode === "polling"); renderStatus(); });
}

export async function openSession(session, { stored = false } = {}) {
  stopSync();
  stopStream?.();
  stopStream = null;
  clearInterval(callsPoll);
  resetCalls();
  if (session && !stored) await saveSession(session);
  else app.session = session ?? null;
  app.detail = null;
  app.clock = null;
  renderStatus();
  showSoundNote();
  if (!app.session) {
    keepFirstClock(null); // left the event: no clock to show as the page opens
    return;
  }
  const slug = app.session.event.slug;
  const [, detail] = await Promise.all([useRuleset(app.session.event.ruleset), store.get(`detail:${slug}`), loadClock()]);
  app.detail = detail ?? null;
  document.getElementById("event-name").textContent = app.session.event.name || app.ruleset.title;
  if (!app.session.standalone) {
    keepFresh();
    startSync(app.session);
    refreshDetail();
    startPush(slug);
    fetchCalls();
  }
  renderStatus();
}

/** Re-read the event's players and pairings (device token). */
export async function refreshDetail() {
  const s = app.session;
  if (!s || s.standalone) return;
  try {
    const detail = await api(`/api/events/${encodeURIComponent(s.event.slug)}`, { token: s.token });
    if (app.session?.event.slug !== s.event.slug) return;
    app.detail = detail;
    // the Clock screen draws its tables again now, with the pairings' names, rather than at the
    // clock's next news (its rows would change under a judge's finger then)
    clockEvents.dispatchEvent(new Event("change"));
    await store.set(`detail:${s.event.slug}`, detail);
    // The organiser may have changed the event's stage or made this device head judge (or
    // scorekeeper) since it joined; screens that depend on the role are drawn again.
    const role = app.session.role;
    await followEvent(detail, detail.me?.role);
    if (app.session.role !== role) {
      fetchCalls();
      drawCalls();
      if (["history", "review", "join"].includes(route().screen)) render();
      else updateReviewBadge();
    }
  } catch { /* kept copy stays */ }
}

/** Show the app in its language (lang.js): the catalog loaded, <html lang>, the page's fixed
 * words. A change of language (the Event screen) draws every screen again in it. */
async function showLanguage() {
  applyLanguage(await loadMessages());
  translatePage();
}

window.addEventListener("judge-language", async () => {
  // the control that changed the language is drawn again: focus goes back to its new copy
  const focused = document.activeElement?.id;
  // the rule texts in the new language too (they come with its catalog, i18n.js translatedRules)
  const [, rulesets] = await Promise.all([showLanguage(), ruleData("index").catch(() => app.rulesets),
    app.session ? useRuleset(app.session.event.ruleset) : null]);
  app.rulesets = rulesets;
  renderStatus();
  redrawAlert();
  drawCalls();
  await render();
  if (focused && document.activeElement === document.body) document.getElementById(focused)?.focus();
});

async function boot() {
  startLook();
  keepClearOfNav();
  renderStatus();
  engineState.onchange = renderStatus;
  offline.addEventListener("change", renderStatus);
  ready.then(renderStatus, renderStatus);
  syncState.addEventListener("change", renderStatus);
  // Any message of the push stream is news that the clock has not changed.
  pushState.addEventListener("message", () => clockNews());
  syncState.addEventListener("synced", () => { refreshClock(); refreshDetail(); });
  window.addEventListener("online", () => { renderStatus(); fetchCalls(); });
  window.addEventListener("offline", renderStatus);

  const publicPage = location.hash.startsWith("#/event/");
  preloadScreen();
  // The language's catalog first (it carries the rule data in that language), then the query
  // words every judge's screen reads, fetched while the session is read.
  const shownLanguage = showLanguage();
  if (!publicPage) ruleData("queries").catch(() => {});
  const kept = Promise.all([
    loadOffset(), ruleData("index").catch(() => []), publicPage ? null : store.get("session"),
    shownLanguage]);
  // A page the service worker controls has the Python runtime in the offline copy: Python's
  // worker, started by index.html as the page opened (on another core, while the page loads
  // its code and reads its kept data), is taken over now. On a first visit Python starts once
  // that copy is complete (registerServiceWorker).
  if (!publicPage && navigator.serviceWorker?.controller) startEngine();
  const [, rulesets, session] = await kept;
  app.rulesets = rulesets;
  if (!publicPage) await openSession(session, { stored: true });
  window.addEventListener("hashchange", render);
  startReviewBadge();
  if (!publicPage) {
    await loadAlertSettings();
    showSoundNote();
    startTimeAlerts();
    startCallsPanel();
    drawCalls();
  }
  await render();
  // The service worker is registered (and the offline copy checked) once the first screen is
  // up. The players' page needs neither Python nor the offline copy: a player's phone
  // downloads only the page and the clock, unless this device already has the judge app
  // installed.
  if (!publicPage || navigator.serviceWorker?.controller) registerServiceWorker();
}

// For tests and integrations: the app state, and this event's records as stored on the device.
window.judgeApp = {
  app, openSession, syncNow, route, refreshClock, calls: callsState, push: pushState, alerts: alertLog,
  records: () => (app.session ? store.eventRecords(app.session.event.slug) : Promise.resolve([])),
  // how many players of this event have a registered decklist on this phone (synced)
  decklists: () => (app.session ? store.decklistPlayers(app.session.event.slug) : Promise.resolve(0)),
  // a setting as kept on this device (undefined when none is kept), e.g. "alert_sound"
  setting: (key) => store.get(key),
  press: pressState,
};
boot();
