// The messenger to the Python engine worker, and the documented hook `window.judge`:
//   window.judge.ready            Promise, resolves (to the start time in ms) when Python is ready
//   window.judge.evaluate(req)    Promise of the engine's answer for {ruleset, query, event, facts};
//                                 the rule texts in the app's language (lang.js) unless req names
//                                 one; answer.english lists the texts shown in English (englishAt);
//                                 rejects with an Error carrying .field and .allowed on a RuleError.
//   window.judge.factsRead(ruleset, query, infraction?)  Promise of the facts that query (and
//                                 infraction) reads: [{name, type, summary, asked_when_needed, defaults}]
//   window.judge.history(records, player, ruleset)  Promise of the player's facts.history from
//                                 this device's records (shared_rules/history.py)
//   window.judge.historySeen(records, player)  Promise of the ids of the records behind that
//                                 history (a penalty record keeps them as payload.history_seen)
//   window.judge.review(records, ruleset, event)  Promise of the head judge's review items from
//                                 these records, kept conflicts included (shared_rules/review.py)
//   window.judge.answeredBy(answer)         "server" or "phone": who answered that evaluate
//   window.judge.state            {ready, failed, ms, from, started_ms, expected_ms,
//                                  snapshot_bytes, snapshot_error}
// Until Python is ready on the phone, a phone that is online asks the organiser's server,
// which runs the same engine (engine-server.js); the phone's engine answers from then on.
// The phone's engine package carries no translation of rule texts: before its first request
// in a language the worker is handed that language's rule texts from the app's catalog
// (i18n.js ruleTexts; shared_rules translations.give), so they are downloaded once.
import { askServer, serverAnswers } from "./engine-server.js";
import { language } from "./lang.js";
import { ruleTexts, t } from "./i18n.js";

let worker = null;
let nextId = 1;
const pending = new Map();
const queued = [];
let resolveReady;
let rejectReady;
export const ready = new Promise((res, rej) => { resolveReady = res; rejectReady = rej; });
// The last start's time on this phone, to say how long the next one should take.
const LAST_START = "judge-engine-start-ms";
// A phone that never started Python: a plain start (no snapshot yet) takes ~2 s on a desktop
// CPU (window.judge.state.ms), so about 8 s on a phone four times slower.
const FIRST_START_MS = 8000;
// ready, failed (message), ms (start time), from ("fresh" | "snapshot"), started_ms (when the
// worker was made, performance.now()), expected_ms (how long a start should take here),
// snapshot_bytes (once kept), snapshot_error (why no snapshot was used or kept), phases (the
// worker's marks: ms from its start to "version", "snapshot-read", "restored", "warm")
export const engineState = {
  ready: false, failed: null, ms: null, from: null, started_ms: null, phases: null,
  expected_ms: Number(localStorage.getItem(LAST_START)) || FIRST_START_MS,
  snapshot_bytes: null, snapshot_error: null, onchange: null,
};

function changed() {
  engineState.onchange?.();
}

/** Start the worker (once). Called once the service worker controls the page (the runtime
 * is then read from the precache and downloaded only once), or at once where there is no
 * service worker. Calls made before wait for it. */
export function startEngine() {
  if (worker) return;
  // index.html starts the worker as the page opens when a service worker controls it.
  const early = window.judgeEarlyEngine;
  delete window.judgeEarlyEngine;
  if (early) {
    worker = early.worker;
    engineState.started_ms = early.started_ms;
  } else {
    performance.mark("engine-start");
    engineState.started_ms = performance.now();
    worker = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
  }
  worker.onmessage = ({ data }) => {
    if ("snapshot" in data) {
      Object.assign(engineState, { snapshot_bytes: data.snapshot, snapshot_error: data.snapshot_error ?? null });
      return;
    }
    if ("ready" in data) {
      if (data.ready) {
        Object.assign(engineState, { ready: true, ms: data.ms, from: data.from, phases: data.phases ?? null,
                                     snapshot_error: data.snapshot_error ?? null });
        localStorage.setItem(LAST_START, String(Math.round(data.ms)));
        performance.mark("python-ready");
        resolveReady(data.ms);
      } else {
        engineState.failed = data.error.message;
        rejectReady(new Error(data.error.message));
      }
      changed();
      return;
    }
    const call = pending.get(data.id);
    if (!call) return;
    pending.delete(data.id);
    if (data.error) call.reject(Object.assign(new Error(data.error.message), data.error));
    else call.resolve(data.result);
  };
  worker.onerror = (ev) => {
    engineState.failed = ev.message || t("the engine worker failed to start");
    rejectReady(new Error(engineState.failed));
    changed();
  };
  if (early) {
    early.worker.removeEventListener("message", early.onMessage);
    early.worker.removeEventListener("error", early.onError);
    for (const data of early.messages) worker.onmessage({ data });
    if (early.error) worker.onerror({ message: early.error });
  }
  for (const message of queued.splice(0)) worker.postMessage(message);
  changed();
}

function askWorker(action, payload) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    const message = { id, action, payload: JSON.stringify(payload) };
    if (worker) worker.postMessage(message);
    else queued.push(message);
  });
}

const textsGiven = new Map(); // language -> Promise, settled once the worker holds its rule texts

/** Hand the worker the rule texts of language `code` (once; again after a failure). English
 * and a language with no catalog need none (the engine then says what is wrong). */
function giveRuleTexts(code) {
  if (typeof code !== "string" || code === "en") return null;
  if (!textsGiven.has(code)) {
    const given = ruleTexts(code).then((texts) => {
      if (!texts) throw new Error(`no rule texts in ${code}`);
      return askWorker("rule_texts", { language: code, texts });
    });
    given.catch(() => textsGiven.delete(code));
    textsGiven.set(code, given.catch(() => null));
  }
  return textsGiven.get(code);
}

/** {text, by}: the answer as JSON text and who gave it ("phone" or "server"). */
async function call(action, payload) {
  if (!engineState.ready && serverAnswers()) {
    const text = await askServer(action, payload);
    if (text != null) return { text, by: "server" };
  }
  const languages = new Set((Array.isArray(payload) ? payload : [payload]).map((request) => request?.language));
  await Promise.all([...languages].map(giveRuleTexts));
  return { text: await askWorker(action, payload), by: "phone" };
}

/** The request with the app's language (lang.js) where it names none: the engine answers
 * in it, keeping in English (and listing in `english`) what has no current translation. */
function inLanguage(request) {
  return request && typeof request === "object" && !("language" in request)
    ? { ...request, language: language() } : request;
}

/** Whether the answer's text at `where` ("explain[2]", "notes[0]", "needs[0].label", ...) is
 * shown in English for want of a current translation (answer.english). */
export function englishAt(answer, where) {
  return Boolean(answer?.english?.includes(where));
}

/** Evaluate a request; resolves to the answer as JSON text. */
export async function evaluateJSON(request) {
  return (await call("evaluate", inLanguage(request))).text;
}

const fromServer = new WeakSet();

/** Who answered `answer` (an object evaluate() resolved to): "server" or "phone". */
export function answeredBy(answer) {
  return fromServer.has(answer) ? "server" : "phone";
}

const factsCache = new Map();
/** The facts a ruleset's query (and, for a penalty, one infraction) reads, as the engine
 * derives them from the rule data: [{name, type, summary, asked_when_needed, defaults}]. */
export function factsRead(ruleset, query, infraction = null) {
  const lang = language();
  const key = `${ruleset}/${query}/${infraction ?? ""}/${lang}`;
  if (!factsCache.has(key)) {
    factsCache.set(key, call("facts_read", { ruleset, query, infraction, language: lang })
      .then(({ text }) => JSON.parse(text)));
    factsCache.get(key).catch(() => factsCache.delete(key));
  }
  return factsCache.get(key);
}

/** A player's penalty history for the engine, from this device's records of the event (all
 * judges'): shared_rules.history.player_history leaves out voided and refused penalties. */
export async function history(records, player, ruleset) {
  return JSON.parse((await call("history", { records, player, ruleset })).text);
}

/** The ids of the records behind that history, in its order (shared_rules.history.seen_ids):
 * a penalty record keeps them as payload.history_seen. */
export async function historySeen(records, player) {
  return JSON.parse((await call("history_seen", { records, player })).text);
}

/** Every review item of these records, kept conflicts included (shared_rules.review.review):
 * penalties waiting for the head judge, flagged penalties and appeals. `event` is the engine's
 * event context (level, stage, games per match); `judge`, the judge looking (each appeal then
 * says in `consult` whether they must name the judge consulted). Items say what they show in
 * the app's language: a flagged penalty its `flag`, one recorded with facts open its `open`. */
export async function review(records, ruleset, event, judge = null) {
  return JSON.parse((await call("review", { records, ruleset, event, judge, language: language() })).text);
}

/** Why head judge `judge` may not decide an appeal of a ruling by `ruledBy` naming
 * `consulted`, or null (shared_rules.review.consult_problem, WotF §3.9). */
export async function consultProblem(ruledBy, judge, consulted) {
  return JSON.parse((await call("consult_problem", { ruled_by: ruledBy, judge, consulted })).text);
}

/** The penalty to issue in place of a flagged one (shared_rules.review.replacement):
 * {answer, payload}; rejects with the engine's error when it is not flagged any more. */
export async function replacement(records, record, ruleset, event) {
  return JSON.parse((await call("replacement", { records, record, ruleset, event })).text);
}

/** The penalty record's payload for an answer (shared_rules.history.penalty_payload). */
export async function penaltyPayload(request) {
  return JSON.parse((await call("penalty_payload", request)).text);
}

/** Each table's current match result from these records (shared_rules.board.table_results):
 * [{round, table, result, games, record, type, device, judge, created_ms}]. */
export async function tableResults(records) {
  return JSON.parse((await call("results", { records })).text);
}

/** What is wrong with a match result, or null (shared_rules.board.result_problem, the rule the
 * server checks a result record by): `result` "A" | "B" | "draw", `games` {A, B} or null,
 * `most` the games a match of the event has at most (null: not checked). Resolves to
 * {problem: "no_win"} or {problem: "too_many", won, most}. */
export async function resultProblem(result, games, most) {
  return JSON.parse((await call("result_problem", { result, games, most })).text);
}

/** Every deck check of these records (shared_rules.board.deck_checks): [{record, player,
 * round, table, judge, started_ms, finished_ms (null: under way), outcome, mid_game}]. */
export async function deckChecks(records) {
  return JSON.parse((await call("deck_checks", { records })).text);
}

/** The deck as counted against its registered list (shared_rules.decklists.compare):
 * {differences: [{kind: "missing" | "extra" | "wrong_section", card, name?, code?, count, section,
 * listed_section?}], sections: [{id, listed, counted}], matches}. `counts` {section: [count per
 * line]}, `found` [{section, name, count}]. */
export async function decklistCompare(sections, counts, found) {
  return JSON.parse((await call("decklist_compare", { sections, counts, found })).text);
}

/** Where a list breaks the event's deck sizes (shared_rules.decklists.size_problems):
 * [{section, problem: "too_few" | "too_many", count, minimum | maximum}]. */
export async function decklistSizes(sections, limits) {
  return JSON.parse((await call("decklist_sizes", { sections, limits })).text);
}

/** Evaluate a request; resolves to the answer object (see answeredBy). */
export async function evaluate(request) {
  const { text, by } = await call("evaluate", inLanguage(request));
  const answer = JSON.parse(text);
  if (by === "server") fromServer.add(answer);
  // a question's label shown in English (answer.english "needs[0].label"), for the question form
  for (const [i, need] of (answer.needs ?? []).entries()) {
    if (englishAt(answer, `needs[${i}].label`)) need.label_english = true;
  }
  return answer;
}

window.judge = { ready, evaluate, evaluateJSON, englishAt, factsRead, history, historySeen, review, answeredBy, state: engineState };
