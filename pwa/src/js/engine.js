// The messenger to the Python engine worker, and the documented hook `window.judge`:
//   window.judge.ready            Promise, resolves (to the start time in ms) when Python is ready
//   window.judge.evaluate(req)    Promise of the engine's answer for {ruleset, query, event, facts};
//                                 rejects with an Error carrying .field and .allowed on a RuleError.
//   window.judge.factsRead(ruleset, query, infraction?)  Promise of the facts that query (and
//                                 infraction) reads: [{name, type, summary, asked_when_needed, defaults}]
//   window.judge.history(records, player, ruleset)  Promise of the player's facts.history from
//                                 this device's records (shared_rules/history.py)
let worker = null;
let nextId = 1;
const pending = new Map();
let resolveReady;
let rejectReady;
export const ready = new Promise((res, rej) => { resolveReady = res; rejectReady = rej; });
// ready, failed (message), ms (start time), from ("fresh" | "snapshot"), snapshot_bytes (once kept)
export const engineState = { ready: false, failed: null, ms: null, from: null, snapshot_bytes: null };

/** Start the worker (once). Called after the service worker controls the page on a first
 * visit, so the runtime is fetched from the precache and downloaded only once. */
export function startEngine() {
  if (worker) return;
  performance.mark("engine-start");
  worker = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => {
    if ("snapshot" in data) {
      engineState.snapshot_bytes = data.snapshot;
      return;
    }
    if ("ready" in data) {
      if (data.ready) {
        Object.assign(engineState, { ready: true, ms: data.ms, from: data.from });
        performance.mark("python-ready");
        resolveReady(data.ms);
      } else {
        engineState.failed = data.error.message;
        rejectReady(new Error(data.error.message));
      }
      return;
    }
    const call = pending.get(data.id);
    if (!call) return;
    pending.delete(data.id);
    if (data.error) call.reject(Object.assign(new Error(data.error.message), data.error));
    else call.resolve(data.result);
  };
  worker.onerror = (ev) => {
    engineState.failed = ev.message || "the engine worker failed to start";
    rejectReady(new Error(engineState.failed));
  };
}

function call(action, payload) {
  startEngine();
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, action, payload: JSON.stringify(payload) });
  });
}

/** Evaluate a request; resolves to the answer as JSON text (exactly what Python wrote). */
export function evaluateJSON(request) {
  return call("evaluate", request);
}

const factsCache = new Map();
/** The facts a ruleset's query (and, for a penalty, one infraction) reads, as the engine
 * derives them from the rule data: [{name, type, summary, asked_when_needed, defaults}]. */
export function factsRead(ruleset, query, infraction = null) {
  const key = `${ruleset}/${query}/${infraction ?? ""}`;
  if (!factsCache.has(key)) {
    factsCache.set(key, call("facts_read", { ruleset, query, infraction }).then(JSON.parse));
    factsCache.get(key).catch(() => factsCache.delete(key));
  }
  return factsCache.get(key);
}

/** A player's penalty history for the engine, from this device's records of the event (all
 * judges'): shared_rules.history.player_history leaves out voided and refused penalties. */
export async function history(records, player, ruleset) {
  return JSON.parse(await call("history", { records, player, ruleset }));
}

/** The penalty record's payload for an answer (shared_rules.history.penalty_payload). */
export async function penaltyPayload(request) {
  return JSON.parse(await call("penalty_payload", request));
}

/** Evaluate a request; resolves to the answer object. */
export async function evaluate(request) {
  return JSON.parse(await evaluateJSON(request));
}

window.judge = { ready, evaluate, evaluateJSON, factsRead, history, state: engineState };
