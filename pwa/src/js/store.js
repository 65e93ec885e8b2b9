// The one storage module: IndexedDB through idb.
//   records  every record this device made or pulled, keyed by its uuid; local fields:
//            sync ("pending" | "accepted" | "duplicate" | "rejected" | "local"), reason, seq, received_ms
//   outbox   the exact records still to push (removed only once the server has answered for them)
//   kv       small values: session, cursors, clock snapshots, server time offset, settings
//   decklists  every version of every registered decklist pulled (records of type "decklist"),
//            keyed by its uuid; indexes "event" and "player" ([event, player id]). They are kept
//            apart from `records`, which every engine call reads whole: an event's lists are the
//            largest part of its sync data, and only the deck check reads them.
import { openDB } from "../vendor/idb.js";
import { inOrder } from "./order.js";

const LOCAL_FIELDS = ["sync", "reason", "seq", "received_ms"];

const DECKLIST = "decklist"; // the record type of a registered list's version

const dbPromise = openDB("judge-companion", 2, {
  upgrade(db, oldVersion) {
    if (oldVersion < 1) {
      const records = db.createObjectStore("records", { keyPath: "id" });
      records.createIndex("event", "event");
      db.createObjectStore("outbox", { keyPath: "id" });
      db.createObjectStore("kv");
    }
    if (oldVersion < 2) {
      const lists = db.createObjectStore("decklists", { keyPath: "id" });
      lists.createIndex("event", "event");
      lists.createIndex("player", ["event", "player"]);
    }
  },
  // A newer copy of the app (another tab, after an update) wants a later version of the
  // database: this older page lets it go ahead and reloads as the newer app (what it holds is
  // in the database; drafts are in the tab's sessionStorage).
  blocking() {
    dbPromise.then((db) => db.close());
    location.reload();
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
 * stay visible in records with their reason) and pulled records merge into local history;
 * registered decklists go to their own store, with the player they belong to as a key. */
export async function applySync(results, pulled) {
  const db = await dbPromise;
  const tx = db.transaction(["records", "outbox", "decklists"], "readwrite", { durability: "strict" });
  const records = tx.objectStore("records");
  const box = tx.objectStore("outbox");
  const lists = tx.objectStore("decklists");
  for (const r of results) {
    const mine = await records.get(r.id);
    if (mine) records.put({ ...mine, sync: r.status, reason: r.reason ?? null });
    box.delete(r.id);
  }
  for (const rec of pulled) {
    if (rec.type === DECKLIST) {
      lists.put({ ...rec, player: String(rec.payload?.player) });
      continue;
    }
    const mine = await records.get(rec.id);
    const merged = { ...(mine || {}), ...rec, sync: rec.status === "rejected" ? "rejected" : "accepted" };
    records.put(merged);
  }
  await tx.done;
}

/** All records of an event (any device), in the engine's order (order.js). */
export async function eventRecords(slug) {
  return inOrder(await (await dbPromise).getAllFromIndex("records", "event", slug));
}

/** A player's registered decklist on this phone: the latest version the server numbered
 * (shared_rules.decklists.current, the same rule), or null when none was synced. */
export async function playerDecklist(slug, player) {
  const versions = await (await dbPromise).getAllFromIndex("decklists", "player", [slug, String(player)]);
  return versions.reduce((latest, v) => (!latest || v.seq > latest.seq ? v : latest), null);
}

/** How many players of event `slug` have a registered list on this phone. */
export async function decklistPlayers(slug) {
  const versions = await (await dbPromise).getAllFromIndex("decklists", "event", slug);
  return new Set(versions.map((v) => v.player)).size;
}

/** The record as sent to the server, without this device's bookkeeping fields. */
export function wire(record) {
  const out = { ...record };
  for (const f of LOCAL_FIELDS) delete out[f];
  return out;
}
