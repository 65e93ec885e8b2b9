// What a screen says while it waits for the engine, and the mark on an answer the organiser's
// server gave (Python still loading on the phone).
import { h } from "../dom.js";
import { answeredBy, engineState } from "../engine.js";
import { mib, offline } from "../offline.js";
import { t } from "../i18n.js";

/** The line shown while a look-up waits: who is asked, or how long Python should take. */
export function waitingText() {
  if (engineState.ready) return t("Asking the engine…");
  if (navigator.onLine) return t("Asking the organiser's server (Python is still loading on this phone)…");
  if (engineState.started_ms != null) {
    const left = Math.max(1, Math.round((engineState.expected_ms - (performance.now() - engineState.started_ms)) / 1000));
    return t("No network: waiting for Python to start on this phone, about {seconds} s more.", { seconds: left });
  }
  return t("No network, and Python is not downloaded yet ({done} of {total}): look-ups work once the network returns.",
    { done: mib(offline.done), total: mib(offline.total) });
}

/** A note for an answer the server gave; null for the phone's own. */
export function answeredNote(answer) {
  if (answeredBy(answer) !== "server") return null;
  return h("p", { class: "small muted answered-by", "data-answered-by": "server" },
    t("Answered by the organiser's server (same rules engine): Python is still loading on this phone."));
}
