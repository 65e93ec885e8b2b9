// What the app knows right now: the joined event (or standalone ruleset), the event's
// players and pairings, the rule texts for display, and helpers to make records.
import * as store from "./store.js";
import { recordAdded, resetCursor } from "./sync.js";
import { serverNow } from "./servertime.js";
import { t, translatedRules } from "./i18n.js";

export const app = {
  session: null,   // {token, device_id, role, judge_name, event: {slug, name, ruleset, level, stage, games_per_match, round_minutes}} or {standalone: true, ...}
  detail: null,    // GET /api/events/<slug>: players, rounds, me
  ruleset: null,   // the ruleset JSON in the language shown (texts only are read here)
  queries: null,   // queries.json: what every ruleset shares (event settings, each query's shape and words)
  rulesets: [],    // rules/index.json: each ruleset's title, levels and queries
};

const jsonCache = new Map();
/** Fetch a JSON file of the app (precached by the service worker). */
export async function appJSON(path) {
  if (!jsonCache.has(path)) {
    jsonCache.set(path, fetch(path).then((r) => {
      if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
      return r.json();
    }));
  }
  return jsonCache.get(path);
}

/** The rule data `name` (a ruleset id, "queries" or "index") in the language shown: the
 * translated copy the language's catalog carries (i18n.js translatedRules), else the English
 * file rules/<name>.json. */
export async function ruleData(name) {
  return (await translatedRules(name)) ?? appJSON(`rules/${name}.json`);
}

/** Load the rule texts of a ruleset and the query vocabulary, in the language shown. */
export async function useRuleset(id) {
  [app.ruleset, app.queries] = await Promise.all([ruleData(id), ruleData("queries")]);
  return app.ruleset;
}

// The event's settings the engine reads (its event context) and the organiser may change:
// kept in the session, followed from the clock and the device endpoint.
const EVENT_FIELDS = ["stage", "level", "round_minutes", "games_per_match", "head_judge_from"];

/** The event context for the engine: {level, stage, games_per_match, round_minutes,
 * head_judge_from} (set ones only). */
export function eventContext() {
  const e = app.session?.event || {};
  const ctx = {};
  for (const key of EVENT_FIELDS) {
    if (e[key] != null && e[key] !== "") ctx[key] = e[key];
  }
  return ctx;
}

/** The engine request for a query in this event. */
export function request(query, facts) {
  return { ruleset: app.session.event.ruleset, query, event: eventContext(), facts };
}

/** A random (version 4) UUID; crypto.randomUUID exists only in secure contexts, so a plain
 * http venue address falls back to crypto.getRandomValues. */
export function uuid4() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// "added" (detail: the record) after each record this phone makes is stored, so that what is
// drawn from the records (the review badge) follows at once, also offline.
export const recordEvents = new EventTarget();

/** Make and durably store a record of `type` with `payload`; queues it for sync unless
 * standalone. Resolves to the stored record. Its time is the server's clock as this phone
 * measured it (servertime.js), so records of phones whose own clocks are wrong still order
 * by when they were made (the engine orders records by created_ms). */
export async function addRecord(type, payload) {
  const s = app.session;
  const record = {
    id: uuid4(),
    type,
    device: s.device_id ?? "standalone",
    judge: s.judge_name || "",
    event: s.event.slug,
    created_ms: Math.round(serverNow()),
    payload,
  };
  await store.addRecord(record, !s.standalone);
  recordEvents.dispatchEvent(new CustomEvent("added", { detail: record }));
  await recordAdded();
  return record;
}

/** The step an answer field of `query` is given in (its `unit`: the ruleset's declaration over
 * queries.json's; time extensions in whole minutes), or null. The engine rounds its answers up
 * to it and the server refuses a record between two steps (server/records.py). */
export function answerUnit(query, field) {
  return app.ruleset?.queries?.[query]?.answer?.[field]?.unit
    ?? app.queries?.queries?.[query]?.answer?.[field]?.unit ?? null;
}

/** Records of the current event, and the ids voided by void records. */
export async function eventRecords() {
  const all = await store.eventRecords(app.session.event.slug);
  const voided = new Set(all.filter((r) => r.type === "void" && r.sync !== "rejected").map((r) => r.payload.record));
  return { all, voided };
}

/** Display name of a player id (or the free text itself); "bye" for no player (a pairing's
 * empty seat). */
export function playerName(id) {
  if (id == null) return t("bye");
  const p = (app.detail?.players || []).find((x) => String(x.id) === String(id));
  return p ? p.name : String(id);
}

/** The current round's tables [{number, player_a, player_b}]: the round the clock shows, or
 * round 1 before any round has started. Empty when that round has no pairings (never another
 * round's tables). */
export function currentTables() {
  const current = app.clock?.round?.number ?? 1;
  const round = (app.detail?.rounds || []).find((r) => r.number === current);
  return round ? round.tables : [];
}

/** Display name of a penalty id or a list of ids, from the ruleset texts. */
export function penaltyName(p) {
  if (p == null) return t("No penalty");
  if (Array.isArray(p)) return p.map(penaltyName).join(" + ");
  const found = (app.ruleset?.penalties || []).find((x) => x.id === p);
  return found ? found.name : p;
}

/** Display name of an infraction id, from the ruleset texts (the id itself when unknown). */
export function infractionName(id) {
  const found = (app.ruleset?.infractions || []).find((x) => x.id === id);
  return found ? found.name : String(id);
}

/** Follow the organiser's changes to the joined event (EVENT_FIELDS, from the clock or the
 * device endpoint) and to this device's role; kept in the saved
 * session so every later engine request and record uses them. Resolves to true on a change. */
export async function followEvent(summary, role = null) {
  const s = app.session;
  if (!s || s.standalone || !summary || summary.slug !== s.event.slug) return false;
  const changes = {};
  for (const key of EVENT_FIELDS) {
    if (key in summary && summary[key] !== s.event[key]) changes[key] = summary[key];
  }
  const roleChanged = role && role !== s.role;
  if (!Object.keys(changes).length && !roleChanged) return false;
  app.session = { ...s, event: { ...s.event, ...changes }, ...(roleChanged ? { role } : {}) };
  // Another tab may have saved a newer session (joined another event, or went standalone):
  // write only what changed here, and only onto this same session.
  const stored = await store.get("session");
  // What sync pulls depends on the role (a scorekeeper gets no penalties): pull from the start.
  if (roleChanged) await resetCursor(s.event.slug);
  if (!stored) await store.set("session", app.session);
  else if (!stored.standalone && stored.token === s.token && stored.event?.slug === s.event.slug) {
    await store.set("session", { ...stored, event: { ...stored.event, ...changes }, ...(roleChanged ? { role } : {}) });
  }
  return true;
}

/** Save the session (joined or standalone). */
export async function saveSession(session) {
  app.session = session;
  await store.set("session", session);
  if (session?.event?.slug && !session.standalone) await store.set(`event_name:${session.event.slug}`, session.event.name || session.event.slug);
}
