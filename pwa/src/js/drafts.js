// Drafts: what a judge has chosen on a screen and not yet recorded (a Time! walk's answers, a
// penalty card's choices), kept per screen and event in this tab's sessionStorage. Going Back
// and Forward, leaving the screen and coming back, or reloading the tab shows it again as it
// was; recording it or "Start over" clears it.
import { app } from "./state.js";

function key(screen) {
  const s = app.session;
  return `judge-draft:${screen}:${s?.standalone ? `standalone/${s.event?.ruleset}` : s?.event?.slug}`;
}

/** The draft kept for `screen` in the current event, or null. */
export function loadDraft(screen) {
  try {
    return JSON.parse(sessionStorage.getItem(key(screen)));
  } catch {
    return null;
  }
}

/** Keep `draft` (plain JSON data) for `screen` in the current event. */
export function saveDraft(screen, draft) {
  try {
    sessionStorage.setItem(key(screen), JSON.stringify(draft));
  } catch { /* storage full or blocked: the screen works, without a draft */ }
}

/** Forget the draft of `screen` in the current event (recorded, or started over). */
export function clearDraft(screen) {
  sessionStorage.removeItem(key(screen));
}
