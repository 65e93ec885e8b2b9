// Judge calls as the judges' phones see them: GET /api/events/<slug>/calls (open and taken
// calls, oldest first), taking one ("on my way") and closing it with an optional ruling.
// Fetched when the stream says calls changed, on every poll while the stream is down, and
// when the network returns. "change" fires after each fetch; "new" (detail: the call) for
// each open call this phone had not seen; "escalated" (detail: the call) once per call that
// nobody took in the organiser's time.
import { api } from "./api.js";
import { app } from "./state.js";
import { serverNow } from "./servertime.js";

export const callsState = new EventTarget();
Object.assign(callsState, { calls: [], escalate_seconds: null, error: null, loaded: false });

const seen = new Set();
const escalated = new Set();
let inflight = null;
let escalateTimer = null;
let again = false;

/** Whether this phone's role reads the event's calls (floor judge, head judge, organiser). */
export function readsCalls() {
  const s = app.session;
  return Boolean(s && !s.standalone && ["floor_judge", "head_judge", "organiser"].includes(s.role));
}

function base() {
  return `/api/events/${encodeURIComponent(app.session.event.slug)}/calls`;
}

/** Fetch the calls now (coalesced with one in progress); never throws. */
export function fetchCalls() {
  if (!readsCalls()) return Promise.resolve();
  if (inflight) { again = true; return inflight; }
  inflight = load().finally(() => {
    inflight = null;
    if (again) { again = false; fetchCalls(); }
  });
  return inflight;
}

async function load() {
  const slug = app.session.event.slug;
  try {
    const reply = await api(base(), { token: app.session.token, timeoutMs: 8000 });
    if (app.session?.event.slug !== slug) return;
    apply(reply.calls, reply.escalate_seconds);
  } catch (err) {
    callsState.error = err.message;
    callsState.dispatchEvent(new Event("change"));
  }
}

function apply(calls, escalateSeconds) {
  // A poll that brings nothing new leaves the panel as it is: a tap that lands while it would
  // be drawn again is not lost with the button it began on.
  const same = callsState.loaded && !callsState.error && JSON.stringify(calls) === JSON.stringify(callsState.calls);
  callsState.calls = calls;
  callsState.escalate_seconds = escalateSeconds ?? callsState.escalate_seconds;
  callsState.error = null;
  callsState.loaded = true;
  for (const c of calls) {
    // Calls already open when the phone first looks are shown, and alert too: nobody may
    // have answered them yet.
    if (c.status === "open" && !seen.has(c.id)) callsState.dispatchEvent(new CustomEvent("new", { detail: c }));
    seen.add(c.id);
    if (c.escalated && c.status === "open" && !escalated.has(c.id)) {
      escalated.add(c.id);
      callsState.dispatchEvent(new CustomEvent("escalated", { detail: c }));
    }
  }
  if (!same) callsState.dispatchEvent(new Event("change"));
  scheduleEscalation();
}

// An open call escalates with no change on the server: fetch again just after the next one
// is due, so the head judge hears of it then.
function scheduleEscalation() {
  clearTimeout(escalateTimer);
  const seconds = callsState.escalate_seconds;
  if (!seconds) return;
  const due = callsState.calls.filter((c) => c.status === "open" && !c.escalated).map((c) => c.created_ms + seconds * 1000);
  if (!due.length) return;
  escalateTimer = setTimeout(fetchCalls, Math.max(500, Math.min(...due) - serverNow() + 500));
}

function replace(call) {
  const others = callsState.calls.filter((c) => c.id !== call.id);
  apply(call.status === "closed" ? others : [...others, call].sort((a, b) => a.created_ms - b.created_ms));
}

/** Take call `id` ("on my way"): resolves to the call; throws ApiError (409: another judge
 * took it, then the list is fetched again). */
export async function takeCall(id) {
  try {
    const call = await api(`${base()}/${encodeURIComponent(id)}/take`, { token: app.session.token, body: {} });
    replace(call);
    return call;
  } catch (err) {
    fetchCalls();
    throw err;
  }
}

/** Close call `id` with an optional `ruling` (text, at most 2000 characters): resolves to the
 * closed call; throws ApiError. */
export async function closeCall(id, ruling) {
  const call = await api(`${base()}/${encodeURIComponent(id)}/close`,
    { token: app.session.token, body: ruling ? { ruling } : {} });
  replace(call);
  return call;
}

/** Forget what this phone saw (another event was joined). */
export function resetCalls() {
  seen.clear();
  escalated.clear();
  Object.assign(callsState, { calls: [], escalate_seconds: null, error: null, loaded: false });
  callsState.dispatchEvent(new Event("change"));
}

/** The words of a call's reason (queries.json; null without a reason). */
export function reasonLabel(id) {
  if (!id) return null;
  return app.queries?.queries?.judge_call?.facts?.reason?.names?.[id] ?? id;
}
