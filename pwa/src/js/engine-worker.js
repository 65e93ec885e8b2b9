// Module worker running the Python rules engine (shared_rules) in Pyodide.
// Messages in: {id, action: "evaluate", payload: JSON text of the request}.
// Messages out: {ready: true, ms} once, then {id, result: JSON text} or {id, error: {...}}.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const BRIDGE = `
import json
from shared_rules import RuleError, evaluate


def judge_eval(text):
    try:
        return json.dumps({"answer": evaluate(json.loads(text))})
    except RuleError as err:
        return json.dumps({"error": {"message": str(err), "field": getattr(err, "field", None),
                                     "allowed": getattr(err, "allowed", None)}}, default=str)
`;

const t0 = performance.now();
const started = (async () => {
  const indexURL = new URL("../pyodide/", import.meta.url).href;
  const [pyodide, zip] = await Promise.all([
    loadPyodide({ indexURL }),
    fetch(new URL("../engine/shared_rules.zip", import.meta.url)).then((r) => {
      if (!r.ok) throw new Error(`engine archive: HTTP ${r.status}`);
      return r.arrayBuffer();
    }),
  ]);
  pyodide.unpackArchive(zip, "zip");
  pyodide.runPython(BRIDGE);
  return pyodide.globals.get("judge_eval");
})();

started.then(
  () => self.postMessage({ ready: true, ms: performance.now() - t0 }),
  (err) => self.postMessage({ ready: false, error: { message: String(err && err.message || err) } }),
);

const actions = {
  async evaluate(text) {
    const judgeEval = await started;
    const reply = JSON.parse(judgeEval(text));
    if (reply.error) throw Object.assign(new Error(reply.error.message), reply.error);
    return JSON.stringify(reply.answer);
  },
};

self.onmessage = async ({ data }) => {
  const { id, action, payload } = data;
  try {
    if (!actions[action]) throw new Error(`unknown action ${action}`);
    self.postMessage({ id, result: await actions[action](payload) });
  } catch (err) {
    self.postMessage({ id, error: { message: String(err.message || err), field: err.field ?? null,
                                    allowed: err.allowed ?? null } });
  }
};
