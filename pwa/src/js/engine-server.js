// The organiser's server as the engine's stand-in: it runs the same shared_rules code, so
// while Python is still loading on the phone (a first visit downloads ~3.5 MiB), a phone that
// is online asks the server instead of waiting. Each action the screens ask the engine has
// its endpoint here; an action without one waits for the phone's engine.
import { api, ApiError } from "./api.js";

const TIMEOUT_MS = 8000;
const enc = encodeURIComponent;

const ENDPOINTS = {
  evaluate: ({ ruleset, query, event, facts }) =>
    api(`api/rulesets/${enc(ruleset)}/evaluate`, { body: { query, event, facts }, timeoutMs: TIMEOUT_MS }),
  facts_read: ({ ruleset, query }) =>
    api(`api/rulesets/${enc(ruleset)}/queries/${enc(query)}/facts`, { timeoutMs: TIMEOUT_MS }).then((r) => r.facts),
};

/** Whether the server can answer `action` now (the phone is online and there is an endpoint). */
export function serverAnswers(action) {
  return action in ENDPOINTS && navigator.onLine;
}

/** The server's answer as JSON text; null when it cannot answer (unreachable, no server
 * behind this page, a server error), and the phone's engine should. An engine error (400)
 * rejects like the phone's engine would: an Error with .field. */
export async function askServer(action, payload) {
  try {
    return JSON.stringify(await ENDPOINTS[action](payload));
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) {
      throw Object.assign(new Error(err.message), { field: err.field ?? null, allowed: null });
    }
    return null;
  }
}
