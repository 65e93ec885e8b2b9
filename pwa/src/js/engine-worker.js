// Module worker running the Python rules engine (shared_rules) in Pyodide.
// Messages in: {id, action, payload: JSON text}, where action is one of the engine's actions
// (shared_rules/worker.py: evaluate, facts_read, history, history_seen, penalty_payload,
// review); the Python side holds the logic and is tested under CPython.
// Messages out: {ready: true, ms, from, phases, snapshot_error} once (phases: ms from the
// worker's start to each of its marks), {snapshot: bytes | null,
// snapshot_error} when a snapshot was kept or refused, then {id, result: JSON text} or
// {id, error: {...}}.
//
// Restarts are cut by a memory snapshot of the interpreter taken after the engine is
// imported (kept in IndexedDB, one per app build); if restoring it fails, Python starts
// the ordinary way, the snapshot is dropped and snapshot_error says why. Pyodide restores a
// snapshot into the runtime's initial memory, so a heap larger than that (version.json's
// snapshot_heap_limit, read from the runtime at build time) is never kept. The runtime loads
// while the snapshot's bytes are read; performance marks in the worker (worker-version,
// worker-snapshot-read, worker-restored, worker-warm) show where a restart's time goes.
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { openDB } from "../vendor/idb.js";

const WARM = `
from shared_rules import worker as judge_worker
judge_worker.start()
`;

const t0 = performance.now();
const indexURL = new URL("../pyodide/", import.meta.url).href;
const snapshots = openDB("judge-engine", 1, {
  upgrade(db) { db.createObjectStore("snapshots"); },
});

async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.arrayBuffer();
}

async function keptSnapshot(version) {
  try {
    return (await (await snapshots).get("snapshots", version)) ?? null;
  } catch {
    return null;
  }
}

/** Whether a snapshot of `version` is kept (its key only: the bytes are read later). */
async function hasSnapshot(version) {
  try {
    return (await (await snapshots).getKey("snapshots", version)) !== undefined;
  } catch {
    return false;
  }
}

async function keepSnapshot(version, bytes) {
  try {
    const db = await snapshots;
    const tx = db.transaction("snapshots", "readwrite");
    await tx.store.clear();
    await tx.store.put(bytes, version);
    await tx.done;
  } catch { /* no room: start without a snapshot next time */ }
}

const MiB = (n) => `${(n / 1048576).toFixed(1)} MiB`;

async function start() {
  const [zip, build] = await Promise.all([
    fetchBytes(new URL("../engine/shared_rules.zip", import.meta.url)),
    fetch(new URL("../version.json", import.meta.url)).then((r) => r.json()).catch(() => ({})),
  ]);
  const { version = null, snapshot_heap_limit: heapLimit = 0 } = build;
  // Whether a snapshot is kept is asked first (its key only): the runtime then loads (its
  // wasm compiles) while the snapshot's bytes are read from IndexedDB.
  const kept = version ? await hasSnapshot(version) : false;
  performance.mark("worker-version");
  let pyodide = null;
  let from = "fresh";
  let snapshotError = null;
  if (kept) {
    try {
      const snap = keptSnapshot(version).then((bytes) => {
        performance.mark("worker-snapshot-read");
        if (!bytes) throw new Error("the snapshot is gone");
        return bytes;
      });
      snap.catch(() => {});
      pyodide = await loadPyodide({ indexURL, _loadSnapshot: snap });
      performance.mark("worker-restored");
      pyodide.unpackArchive(zip, "zip");
      pyodide.runPython(WARM);
      performance.mark("worker-warm");
      from = "snapshot";
    } catch (err) {
      pyodide = null;
      snapshotError = `the kept snapshot could not be restored (${String(err?.message || err).split("\n")[0]}); Python started without it`;
      await keepSnapshot("none", new Uint8Array(0));
    }
  }
  let makeSnapshot = null;
  if (!pyodide) {
    pyodide = await loadPyodide({ indexURL, _makeSnapshot: Boolean(version) });
    pyodide.unpackArchive(zip, "zip");
    pyodide.runPython(WARM);
    if (version) {
      makeSnapshot = async () => {
        const heap = pyodide._module.HEAP8.byteLength;
        if (!(heap <= heapLimit)) {
          self.postMessage({ snapshot: null, snapshot_error: `no snapshot kept: the heap (${MiB(heap)}) is larger than `
            + `the ${MiB(heapLimit)} this Python runtime can restore; every start is a plain one` });
          return;
        }
        const bytes = pyodide.makeMemorySnapshot();
        await keepSnapshot(version, bytes);
        self.postMessage({ snapshot: bytes.byteLength, snapshot_error: snapshotError });
      };
    }
  }
  return { handle: pyodide.globals.get("judge_worker").handle, from, makeSnapshot, snapshotError };
}

const started = start();

started.then(
  ({ from, makeSnapshot, snapshotError }) => {
    const phases = Object.fromEntries(performance.getEntriesByType("mark")
      .map((m) => [m.name.replace(/^worker-/, ""), Math.round(m.startTime - t0)]));
    self.postMessage({ ready: true, ms: performance.now() - t0, from, phases, snapshot_error: snapshotError });
    if (makeSnapshot) setTimeout(() => makeSnapshot().catch(() => {}), 1000);
  },
  (err) => self.postMessage({ ready: false, error: { message: String(err && err.message || err) } }),
);

// Every action is answered by shared_rules.worker.handle, whose ACTIONS table is the one list
// of them (an unknown action is its error).
async function answer(action, text) {
  const { handle } = await started;
  const reply = JSON.parse(handle(action, text));
  if (reply.error) throw Object.assign(new Error(reply.error.message), reply.error);
  return JSON.stringify(reply.result);
}

self.onmessage = async ({ data }) => {
  const { id, action, payload } = data;
  try {
    self.postMessage({ id, result: await answer(action, payload) });
  } catch (err) {
    self.postMessage({ id, error: { message: String(err.message || err), field: err.field ?? null,
                                    allowed: err.allowed ?? null } });
  }
};
