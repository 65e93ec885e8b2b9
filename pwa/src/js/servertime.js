// The device's offset to the server clock, from several round trips to /api/time; the sample
// with the shortest round trip is kept (its midpoint estimate has the smallest error bound).
// serverNow() = Date.now() + offset_ms, in epoch milliseconds.
import { api } from "./api.js";
import * as store from "./store.js";

let best = { offset_ms: 0, rtt_ms: null, measured_ms: null };

/** Load the last estimate kept on this device (the clock keeps running offline). */
export async function loadOffset() {
  const saved = await store.get("server_offset");
  if (saved) best = saved;
  return best;
}

/** Measure `samples` round trips; keep the best. Resolves to {offset_ms, rtt_ms, measured_ms}.
 * Throws ApiError when the server cannot be reached. */
export async function measureOffset(samples = 5) {
  let found = null;
  for (let i = 0; i < samples; i++) {
    const t0 = Date.now();
    const p0 = performance.now();
    const { now_ms: server } = await api("/api/time", { timeoutMs: 5000 });
    const rtt = performance.now() - p0;
    const offset = server + rtt / 2 - (t0 + rtt);
    if (!found || rtt < found.rtt_ms) found = { offset_ms: offset, rtt_ms: rtt, measured_ms: Date.now() };
  }
  best = found;
  await store.set("server_offset", best);
  return best;
}

/** The server clock now, epoch milliseconds. */
export function serverNow() {
  return Date.now() + best.offset_ms;
}

/** The current estimate {offset_ms, rtt_ms, measured_ms}. */
export function offsetInfo() {
  return best;
}
