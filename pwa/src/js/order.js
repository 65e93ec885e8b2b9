// The order records are taken in, the same on every phone and on the server (the engine's
// shared_rules.history.ordered, checked against it by tests/test_record_order.py): oldest first
// by the device time each was made (created_ms, then id); a penalty that replaces another
// (payload.replaces: issued by the head judge in place of a flagged one) stands just after it.

const made = (r) => (Number.isInteger(r.created_ms) ? r.created_ms : 0);

/** `records` sorted in place in the engine's order and returned. */
export function inOrder(records) {
  // (a record the server refused counts for nothing, so no replacement takes its place)
  const at = new Map(records.filter((r) => r.sync !== "rejected").map((r) => [String(r.id), made(r)]));
  // each record's key once: [when, 1 for a replacement (just after the one it replaces), id]
  const keys = new Map(records.map((r) => {
    const replaced = r.type === "penalty" && r.payload && typeof r.payload === "object" ? r.payload.replaces ?? null : null;
    return [r, replaced === null ? [made(r), 0, String(r.id)] : [at.get(String(replaced)) ?? made(r), 1, String(r.id)]];
  }));
  return records.sort((a, b) => {
    const [ka, kb] = [keys.get(a), keys.get(b)];
    return (ka[0] - kb[0]) || (ka[1] - kb[1]) || (ka[2] < kb[2] ? -1 : ka[2] > kb[2] ? 1 : 0);
  });
}
