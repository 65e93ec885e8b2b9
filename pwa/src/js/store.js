// The one storage module: IndexedDB through idb.
//   records  every record this device made or pulled, keyed by its uuid; local fields:
//            sync ("pending" | "accepted" | "duplicate" | "rejected" | "local"), reason, seq, received_ms
//   outbox   the exact records still to push (removed only once the server has answered for them)
//   kv       small values: session, cursors, clock snapshots, server time offset, settings
import { openDB } from "../vendor/idb.js";

const LOCAL_FIELDS = ["sync", "reason", "seq", "received_ms"];

const dbPromise = openDB("judge-companion", 1, {
  upgrade(db, oldVersion) {
    if (oldVersion < 1) {
      const records = db.createObjectStore("records", { keyPath: "id" });
      records.createIndex("event", "event");
      db.createObjectStore("outbox", { keyPath: "id" });
      db.createObjectStore("kv");
    }
  },
});

/** Read a small value (undefined when absent). */
export async function get(key) {
  return (await dbPromise).get("kv", key);
}

/** Store a small value (any structured-cloneable value). */
export async function set(key, value) {
  return (await dbPromise).put("kv", value, key);
}

/** Remove a small value. */
export async function del(key) {
  return (await dbPromise).delete("kv", key);
}

/** Write a new record; resolves only once it is durably stored. With `queue` it also goes to
 * the outbox for the next sync, else it stays on this device ("local", standalone use). */
export async function addRecord(record, queue = true) {
  const db = await dbPromise;
  const tx = db.transaction(["records", "outbox"], "readwrite", { durability: "strict" });
  tx.objectStore("records").put({ ...record, sync: queue ? "pending" : "local" });
  if (queue) tx.objectStore("outbox").put(record);
  await tx.done;
  return record;
}

/** Up to `limit` records waiting in the outbox, oldest first by device time; with `slug`,
 * only that event's. */
export async function outbox(limit = 500, slug = null) {
  let all = await (await dbPromise).getAll("outbox");
  if (slug != null) all = all.filter((r) => r.event === slug);
  all.sort((a, b) => a.created_ms - b.created_ms);
  return all.slice(0, limit);
}

/** Number of records waiting to be pushed. */
export async function outboxCount() {
  return (await dbPromise).count("outbox");
}

/** This phone joined `slug` again (its old token was revoked): the records it could not send
 * yet are sent under the new device id, so they are not refused as another device's. */
export async function adoptOutbox(slug, device) {
  const db = await dbPromise;
  const tx = db.transaction(["records", "outbox"], "readwrite", { durability: "strict" });
  const records = tx.objectStore("records");
  const box = tx.objectStore("outbox");
  for (const rec of await box.getAll()) {
    if (rec.event !== slug || rec.device === device) continue;
    box.put({ ...rec, device });
    const mine = await records.get(rec.id);
    if (mine) records.put({ ...mine, device });
  }
  await tx.done;
}

/** Apply a sync reply in one transaction: per-record results leave the outbox (rejected ones
 * stay visible in records with their reason) and pulled records merge into local history. */
export async function applySync(results, pulled) {
  const db = await dbPromise;
  const tx = db.transaction(["records", "outbox"], "readwrite", { durability: "strict" });
  const records = tx.objectStore("records");
  const box = tx.objectStore("outbox");
  for (const r of results) {
    const mine = await records.get(r.id);
    if (mine) records.put({ ...mine, sync: r.status, reason: r.reason ?? null });
    box.delete(r.id);
  }
  for (const rec of pulled) {
    const mine = await records.get(rec.id);
    const merged = { ...(mine || {}), ...rec, sync: rec.status === "rejected" ? "rejected" : "accepted" };
    records.put(merged);
  }
  await tx.done;
}

/** All records of an event (any device), oldest first by device time. */
export async function eventRecords(slug) {
  const all = await (await dbPromise).getAllFromIndex("records", "event", slug);
  return all.sort((a, b) => (a.created_ms - b.created_ms) || String(a.id).localeCompare(b.id));
}

/** The record as sent to the server, without this device's bookkeeping fields. */
export function wire(record) {
  const out = { ...record };
  for (const f of LOCAL_FIELDS) delete out[f];
  return out;
}
