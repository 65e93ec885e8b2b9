// The status line, always visible: network, sync (records waiting, last successful sync,
// rejected records), whether the Python engine is ready and whether the app is kept offline
// (with the download's progress, and a note saying what to do when it stopped: in the app's
// words, the browser's own error text only under "Technical details").
import { engineState } from "../engine.js";
import { mib, offline, retry } from "../offline.js";
import { syncState } from "../sync.js";
import { app } from "../state.js";
import { timeOfDay } from "../clock.js";
import { pushState } from "../push.js";
import { t, tn } from "../i18n.js";
import { h } from "../dom.js";
import { afterPress } from "../press.js";

/** Draw the status line, once a tap under way is over (press.js): a pill's text that wraps
 * on a narrow phone makes the line taller and moves the screen under the finger. */
export function renderStatus() {
  afterPress(drawStatus);
}

function drawStatus() {
  const net = document.getElementById("net");
  const sync = document.getElementById("sync");
  const py = document.getElementById("python");
  // The link's name is what it shows; the longer words are its description.
  const syncSaid = document.getElementById("sync-said");
  const online = navigator.onLine && syncState.online;
  const s = app.session;
  // "live": changes arrive over the push stream; "polling": the stream is down, the app asks.
  const push = online && s && !s.standalone && pushState.mode !== "off" ? pushState.mode : null;
  net.textContent = !online ? t("Offline") : push === "live" ? t("Online · live")
    : push === "polling" ? t("Online · polling") : t("Online");
  net.dataset.push = pushState.mode;
  net.className = `pill ${online ? "ok" : "off"}`;

  if (!s || s.standalone) {
    sync.textContent = s ? t("Not syncing (standalone)") : t("Not joined");
    syncSaid.textContent = t("Open sync details.");
    sync.removeAttribute("title");
    sync.className = "pill";
  } else {
    const parts = [];
    const said = [];
    const elsewhere = syncState.elsewhere || [];
    parts.push(syncState.waiting == null ? t("Counting…") : syncState.waiting ? t("{count} waiting", { count: syncState.waiting })
      : elsewhere.length ? t("0 waiting here") : t("All sent"));
    said.push(syncState.waiting ? tn("{count} record waiting to be sent", "{count} records waiting to be sent", syncState.waiting)
      : elsewhere.length ? t("No records of this event waiting") : t("All records sent"));
    parts.push(syncState.last_ok_ms ? timeOfDay(syncState.last_ok_ms) : t("never synced"));
    said.push(syncState.last_ok_ms ? t("last sync at {time}", { time: timeOfDay(syncState.last_ok_ms) }) : t("never synced"));
    for (const e of elsewhere) {
      parts.push(t("{count} waiting for event {event}", { count: e.count, event: e.name }));
      said.push(tn("{count} record waiting for event {event}, sent when this phone joins it again",
        "{count} records waiting for event {event}, sent when this phone joins it again", e.count, { event: e.name }));
    }
    if (syncState.revoked) {
      parts.unshift(t("Not allowed: join again"));
      said.unshift(t("The event no longer accepts this phone; join again"));
    }
    if (syncState.rejected.length) {
      parts.push(t("{count} rejected", { count: syncState.rejected.length }));
      said.push(t("{count} refused by the server", { count: syncState.rejected.length }));
    }
    sync.textContent = parts.join(" · ");
    syncSaid.textContent = t("{details}. Open sync details.", { details: said.join("; ") });
    sync.title = said.join("; ");
    sync.className = `pill ${syncState.rejected.length || syncState.revoked ? "bad" : syncState.waiting || syncState.elsewhere?.length ? "off" : "ok"}`;
  }
  sync.dataset.waiting = String(syncState.waiting);

  py.textContent = engineState.ready ? t("Engine ready") : engineState.failed ? t("Engine failed")
    : online ? t("Engine loading · server answers") : t("Engine loading");
  py.className = `pill ${engineState.ready ? "ok" : engineState.failed ? "bad" : "off"}`;
  renderOffline();
}

const OFFLINE_PILL = {
  checking: () => t("Offline copy: checking"),
  downloading: () => t("Offline copy {done} of {total}", { done: mib(offline.done), total: mib(offline.total) }),
  paused: () => t("Offline copy paused at {done} of {total}", { done: mib(offline.done), total: mib(offline.total) }),
  failed: () => t("Offline copy stopped"),
  ready: () => t("Ready offline"),
  unavailable: () => t("Not kept offline"),
};

function offlineNote() {
  const sizes = { done: mib(offline.done), total: mib(offline.total) };
  switch (offline.phase) {
    case "paused":
      if (offline.cause === "offline" || !navigator.onLine) {
        return t("No network: this phone holds {done} of the app's {total}. The download goes on by itself when the network returns; keep the app open. Until then, look-ups wait for it.", sizes);
      }
      return t("The download was interrupted; it goes on by itself when the network is back. This phone holds {done} of the app's {total}; keep the app open.", sizes);
    case "failed":
      return t("The download of the offline copy stopped ({reason}); this phone holds {done} of the app's {total}. It tries again at {time}, keeping what it has.",
        { ...sizes, reason: offline.reason, time: timeOfDay(offline.retryAt) });
    case "unavailable":
      return t("This app cannot be kept for offline use here: {reason}. It works while the phone is online.", { reason: offline.reason });
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
  renderDetail(note, said != null && ["paused", "failed"].includes(offline.phase) ? offline.detail : null);
  const again = document.getElementById("offline-retry");
  again.hidden = offline.phase !== "failed";
  again.onclick = retry;
}

/** The browser's or service worker's own error text (English, technical), folded away under
 * the note; the note itself says it in the app's words. */
function renderDetail(note, detail) {
  let box = document.getElementById("offline-detail");
  if (!detail) {
    if (box) box.hidden = true;
    return;
  }
  if (!box) {
    box = h("details", { id: "offline-detail", class: "small" }, h("summary"), h("code", { lang: "en" }));
    note.querySelector("#offline-retry").before(box);
  }
  box.hidden = false;
  box.querySelector("summary").textContent = t("Technical details");
  box.querySelector("code").textContent = detail;
}
