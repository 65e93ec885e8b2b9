// The organiser's server as the engine's stand-in: it runs the same shared_rules code, so
// while Python is still loading on the phone (a first visit downloads ~3.5 MiB), a phone that
// is online asks the server instead of waiting. Each action the screens ask the engine has
// its twin on the server.
import { api, ApiError } from "./api.js";

const TIMEOUT_MS = 8000;

// Every action of the phone's worker (shared_rules/worker.py ACTIONS, the one list of them) has
// its twin on the server, run by the same Python function: POST /api/engine/<action> with the
// same request (an action the server does not know is a 404: the phone's engine answers).

/** Whether the server may answer now (the phone is online). */
export function serverAnswers() {
  return navigator.onLine;
}

/** The server's answer as JSON text; null when it cannot answer (unreachable, no server
 * behind this page, a server error), and the phone's engine should. An engine error (400)
 * rejects like the phone's engine would: an Error with .field. */
export async function askServer(action, payload) {
  try {
    const reply = await api(`api/engine/${encodeURIComponent(action)}`, { body: payload, timeoutMs: TIMEOUT_MS });
    return JSON.stringify(reply.result);
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) {
      throw Object.assign(new Error(err.message), { field: err.field ?? null, allowed: null });
    }
    return null;
  }
}
