// The order records are taken in, the same on every phone and on the server (the engine's
// shared_rules.history.ordered, checked against it by tests/test_record_order.py): oldest first
// by the device time each was made (created_ms, then id); a penalty that replaces another
// (payload.replaces: issued by the head judge in place of a flagged one) stands just after it.

const made = (r) => (Number.isInteger(r.created_ms) ? r.created_ms : 0);

/** `records` sorted in place in the engine's order and returned. */
export function inOrder(records) {
  // (a record the server refused counts for nothing, so no replacement takes its place)
  const at = new Map(records.filter((r) => r.sync !== "rejected").map((r) => [String(r.id), made(r)]));
  const replaced = (r) => (r.type === "penalty" && r.payload && typeof r.payload === "object" ? r.payload.replaces ?? null : null);
  // [when, 1 for a replacement (just after the one it replaces), id]
  const key = (r) => (replaced(r) === null ? [made(r), 0] : [at.get(String(replaced(r))) ?? made(r), 1]);
  const id = (r) => String(r.id);
  return records.sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    return (ka[0] - kb[0]) || (ka[1] - kb[1]) || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0);
  });
}
