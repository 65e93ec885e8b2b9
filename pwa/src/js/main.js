// Boot: the screen comes first (shell, status, clock from kept data), then the service
// worker, the Python worker and the network, none of which the screen waits for.
import { Workbox } from "../vendor/workbox-window.mjs";
import { engineState, ready, startEngine } from "./engine.js";
import { app, appJSON, followEvent, saveSession, useRuleset } from "./state.js";
import * as store from "./store.js";
import { loadOffset } from "./servertime.js";
import { keepFresh, loadClock, refreshClock } from "./clockdata.js";
import { startSync, syncNow, syncState, stopSync } from "./sync.js";
import { api } from "./api.js";
import { route, render } from "./router.js";
import { renderStatus } from "./ui/status.js";

performance.mark("app-start");

function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) {
    startEngine();
    return;
  }
  // On a first visit the engine waits until the service worker controls the page, so the
  // runtime is downloaded once (by the precache) and the worker reads it from the cache.
  const hadController = Boolean(navigator.serviceWorker.controller);
  if (hadController) startEngine();
  else {
    navigator.serviceWorker.addEventListener("controllerchange", startEngine, { once: true });
    setTimeout(startEngine, 60000);
  }
  const wb = new Workbox("sw.js");
  wb.addEventListener("waiting", async () => {
    // Only a new version waiting behind the one running now is an update (not the first install).
    const reg = await navigator.serviceWorker.getRegistration();
    if (!reg?.waiting || !navigator.serviceWorker.controller) return;
    const banner = document.getElementById("update");
    banner.hidden = false;
    document.getElementById("update-btn").onclick = () => {
      wb.addEventListener("controlling", () => location.reload());
      wb.messageSkipWaiting();
    };
  });
  wb.register().catch(() => startEngine());
}

/** Load everything the current session needs from the device, then refresh from the network. */
export async function openSession(session) {
  stopSync();
  if (session) await saveSession(session);
  else app.session = null;
  app.detail = null;
  app.clock = null;
  renderStatus();
  if (!app.session) return;
  const slug = app.session.event.slug;
  await useRuleset(app.session.event.ruleset);
  app.detail = (await store.get(`detail:${slug}`)) ?? null;
  await loadClock();
  document.getElementById("event-name").textContent = app.session.event.name || app.ruleset.title;
  if (!app.session.standalone) {
    keepFresh();
    startSync(app.session);
    refreshDetail();
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
    await store.set(`detail:${s.event.slug}`, detail);
    // The organiser may have changed the event's stage or made this device head judge (or
    // scorekeeper) since it joined; screens that depend on the role are drawn again.
    const role = app.session.role;
    await followEvent(detail, detail.me?.role);
    if (app.session.role !== role && ["history", "join"].includes(route().screen)) render();
  } catch { /* kept copy stays */ }
}

async function boot() {
  renderStatus();
  engineState.onchange = renderStatus;
  ready.then(renderStatus, renderStatus);
  syncState.addEventListener("change", renderStatus);
  syncState.addEventListener("synced", () => { refreshClock(); refreshDetail(); });
  window.addEventListener("online", renderStatus);
  window.addEventListener("offline", renderStatus);

  const publicPage = location.hash.startsWith("#/event/");
  await loadOffset();
  app.rulesets = await appJSON("rules/index.json").catch(() => []);
  if (!publicPage) await openSession(await store.get("session"));
  window.addEventListener("hashchange", render);
  await render();
  // Python starts right after the first screen is up (the clock never waits for it). The
  // players' page needs neither Python nor the offline copy: a player's phone downloads only
  // the page and the clock, unless this device already has the judge app installed.
  if (!publicPage || navigator.serviceWorker?.controller) registerServiceWorker();
}

// For tests and integrations: the app state, and this event's records as stored on the device.
window.judgeApp = {
  app, openSession, syncNow, route, refreshClock,
  records: () => (app.session ? store.eventRecords(app.session.event.slug) : Promise.resolve([])),
};
boot();
