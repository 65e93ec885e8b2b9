// The status line, always visible: network, sync (records waiting, last successful sync,
// rejected records), whether the Python engine is ready and whether the app is kept offline
// (with the download's progress, and a note saying what to do when it stopped).
import { engineState } from "../engine.js";
import { mib, offline, retry } from "../offline.js";
import { syncState } from "../sync.js";
import { app } from "../state.js";
import { timeOfDay } from "../clock.js";
import { pushState } from "../push.js";

export function renderStatus() {
  const net = document.getElementById("net");
  const sync = document.getElementById("sync");
  const py = document.getElementById("python");
  // The link's name is what it shows; the longer words are its description.
  const syncSaid = document.getElementById("sync-said");
  const online = navigator.onLine && syncState.online;
  const s = app.session;
  // "live": changes arrive over the push stream; "polling": the stream is down, the app asks.
  const push = online && s && !s.standalone && pushState.mode !== "off" ? ` · ${pushState.mode}` : "";
  net.textContent = online ? `Online${push}` : "Offline";
  net.dataset.push = pushState.mode;
  net.className = `pill ${online ? "ok" : "off"}`;

  if (!s || s.standalone) {
    sync.textContent = s ? "Not syncing (standalone)" : "Not joined";
    syncSaid.textContent = "Open sync details.";
    sync.removeAttribute("title");
    sync.className = "pill";
  } else {
    const parts = [];
    const said = [];
    const elsewhere = syncState.elsewhere || [];
    parts.push(syncState.waiting == null ? "Counting…" : syncState.waiting ? `${syncState.waiting} waiting`
      : elsewhere.length ? "0 waiting here" : "All sent");
    said.push(syncState.waiting ? `${syncState.waiting} records waiting to be sent`
      : elsewhere.length ? "No records of this event waiting" : "All records sent");
    parts.push(syncState.last_ok_ms ? timeOfDay(syncState.last_ok_ms) : "never synced");
    said.push(syncState.last_ok_ms ? `last sync at ${timeOfDay(syncState.last_ok_ms)}` : "never synced");
    for (const e of elsewhere) {
      parts.push(`${e.count} waiting for event ${e.name}`);
      said.push(`${e.count} record${e.count === 1 ? "" : "s"} waiting for event ${e.name}, sent when this phone joins it again`);
    }
    if (syncState.revoked) {
      parts.unshift("Not allowed: join again");
      said.unshift("The event no longer accepts this phone; join again");
    }
    if (syncState.rejected.length) {
      parts.push(`${syncState.rejected.length} rejected`);
      said.push(`${syncState.rejected.length} refused by the server`);
    }
    sync.textContent = parts.join(" · ");
    syncSaid.textContent = `${said.join("; ")}. Open sync details.`;
    sync.title = said.join("; ");
    sync.className = `pill ${syncState.rejected.length || syncState.revoked ? "bad" : syncState.waiting || syncState.elsewhere?.length ? "off" : "ok"}`;
  }
  sync.dataset.waiting = String(syncState.waiting);

  py.textContent = engineState.ready ? "Engine ready" : engineState.failed ? "Engine failed"
    : online ? "Engine loading · server answers" : "Engine loading";
  py.className = `pill ${engineState.ready ? "ok" : engineState.failed ? "bad" : "off"}`;
  renderOffline();
}

const OFFLINE_PILL = {
  checking: () => "Offline copy: checking",
  downloading: () => `Offline copy ${mib(offline.done)} of ${mib(offline.total)}`,
  paused: () => `Offline copy paused at ${mib(offline.done)} of ${mib(offline.total)}`,
  failed: () => "Offline copy stopped",
  ready: () => "Ready offline",
  unavailable: () => "Not kept offline",
};

function offlineNote() {
  const held = `this phone holds ${mib(offline.done)} of the app's ${mib(offline.total)}`;
  switch (offline.phase) {
    case "paused":
      return `No network: ${held}. The download goes on by itself when the network returns; keep the app open. `
        + "Until then, look-ups wait for it.";
    case "failed":
      return `The download of the offline copy stopped (${offline.reason}); ${held}. It tries again at `
        + `${new Date(offline.retryAt).toLocaleTimeString()}, keeping what it has.`;
    case "unavailable":
      return `This app cannot be kept for offline use here: ${offline.reason}. It works while the phone is online.`;
    default:
      return null;
  }
}

function renderOffline() {
  const pill = document.getElementById("offline");
  const note = document.getElementById("offline-note");
  const text = OFFLINE_PILL[offline.phase]?.() ?? null;
  pill.hidden = text == null;
  pill.textContent = text ?? "";
  pill.dataset.phase = offline.phase;
  pill.className = `pill ${offline.phase === "ready" ? "ok" : ["failed", "unavailable"].includes(offline.phase) ? "bad" : "off"}`;
  const said = offlineNote();
  note.hidden = said == null;
  document.getElementById("offline-note-text").textContent = said ?? "";
  const again = document.getElementById("offline-retry");
  again.hidden = offline.phase !== "failed";
  again.onclick = retry;
}
