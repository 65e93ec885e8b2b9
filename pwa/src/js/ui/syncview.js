// Sync details: what waits to be sent, when the last sync worked, and rejected records with
// the server's reason; drawn again whenever a sync starts, ends or the outbox changes (once a
// tap under way is over).
import { fill, h } from "../dom.js";
import { app, eventRecords, penaltyName, playerName } from "../state.js";
import * as store from "../store.js";
import { syncNow, syncState } from "../sync.js";
import { timeOfDay } from "../clock.js";
import { t } from "../i18n.js";
import { afterPress } from "../press.js";

/** The name of a record's type (the type itself when the app does not know it). */
function typeName(type) {
  switch (type) {
    case "penalty": return t("Penalty");
    case "time_extension": return t("Time extension");
    case "match_result": return t("Match result");
    case "time_call": return t("Time call");
    case "approval": return t("Approval");
    case "resolution": return t("Kept as issued");
    case "void": return t("Void");
    case "deck_check": return t("Deck check");
    case "decklist": return t("Decklist");
    case "appeal": return t("Appeal");
    case "appeal_decision": return t("Appeal decision");
    default: return type;
  }
}

/** "of <the type> <what it says>": the record an approval, resolution or void names. */
function ofRecord(type, record) {
  switch (type) {
    case "penalty": return t("of penalty {record}", { record });
    case "time_extension": return t("of time extension {record}", { record });
    case "match_result": return t("of match result {record}", { record });
    case "time_call": return t("of time call {record}", { record });
    case "approval": return t("of approval {record}", { record });
    case "resolution": return t("of kept as issued {record}", { record });
    case "void": return t("of void {record}", { record });
    case "deck_check": return t("of deck check {record}", { record });
    case "decklist": return t("of decklist {record}", { record });
    case "appeal": return t("of appeal {record}", { record });
    case "appeal_decision": return t("of appeal decision {record}", { record });
    default: return t("of {type} {record}", { type: String(type).toLowerCase(), record });
  }
}

export async function render(main) {
  let drawing = 0;
  // A redraw keeps the keyboard where it was (the "Sync now" button, say), and waits for a tap
  // under way (press.js): the button pressed would otherwise be replaced and the tap lost.
  const redraw = async () => {
    const mine = ++drawing;
    const nodes = await content();
    afterPress(() => {
      if (mine !== drawing) return; // a newer change draws
      const focused = main.contains(document.activeElement) ? document.activeElement.id : null;
      fill(main, nodes);
      if (focused) document.getElementById(focused)?.focus();
    });
  };
  await redraw();
  syncState.addEventListener("change", redraw);
  return () => syncState.removeEventListener("change", redraw);
}

/** The screen's nodes as the phone's records and syncState stand now. */
async function content() {
  const { all } = await eventRecords();
  const waiting = all.filter((r) => r.sync === "pending");
  const rejected = all.filter((r) => r.sync === "rejected");
  const byId = new Map(all.map((r) => [r.id, r]));
  // Records of other events this phone has not sent: they wait for that event, never sent here.
  const others = (await store.outbox(Infinity)).filter((r) => r.event !== app.session.event.slug);
  const bySlug = new Map();
  for (const r of others) bySlug.set(r.event, [...(bySlug.get(r.event) || []), r]);
  const elsewhere = await Promise.all([...bySlug].map(async ([slug, recs]) =>
    [(await store.get(`event_name:${slug}`)) || slug, slug, recs]));
  const line = (r) => h("li", { "data-record": r.id }, h("strong", {}, typeName(r.type)),
    describe(r, byId).map((part) => ` · ${part}`),
    r.reason ? h("div", { class: "bad-text" }, t("Server's reason: {reason}", { reason: r.reason })) : null);
  return [
    h("h1", {}, t("Sync")),
    app.session.standalone ? h("p", {}, t("Standalone use: records stay on this phone.")) : h("div", {},
      h("p", {}, syncState.last_ok_ms ? t("Last successful sync at {time}.", { time: timeOfDay(syncState.last_ok_ms) })
        : t("Not synced yet.")),
      syncState.error ? h("p", { class: "bad-text" }, t("Last try: {error}", { error: syncState.error })) : null,
      h("button", { type: "button", id: "sync-now", onclick: () => syncNow() }, t("Sync now"))),
    h("h2", {}, t("Waiting to send ({count})", { count: waiting.length })),
    waiting.length ? h("ul", { id: "sync-waiting" }, waiting.map(line)) : h("p", { class: "muted" }, t("Nothing waiting.")),
    elsewhere.map(([name, slug, recs]) => h("section", { "data-waiting-event": slug },
      h("h2", {}, t("Waiting for event {event} ({count})", { event: name, count: recs.length })),
      h("p", { class: "muted" }, t("Not sent: they go to that event when this phone joins it again.")),
      h("ul", {}, recs.map((r) => h("li", { "data-record": r.id }, h("strong", {}, typeName(r.type)),
        describe(r, new Map()).map((part) => ` · ${part}`)))))),
    h("h2", {}, t("Rejected by the server ({count})", { count: rejected.length })),
    rejected.length ? h("ul", { id: "sync-rejected" }, rejected.map(line)) : h("p", { class: "muted" }, t("None.")),
  ];
}

/** What a record says, in short parts: player, infraction and penalty (or minutes, or the
 * result), table, round and the time it was made. Approvals, resolutions (a flagged penalty
 * kept as issued) and voids name their record. */
function describe(r, byId) {
  const p = r.payload || {};
  const parts = [];
  if (p.player != null) parts.push(playerName(p.player));
  if (r.type === "penalty") {
    const inf = (app.ruleset?.infractions || []).find((i) => i.id === p.infraction);
    // A penalty left open waits for the head judge: never "No penalty".
    parts.push(inf ? inf.name : p.infraction,
      p.penalty == null && p.head_judge ? t("penalty for the head judge to decide") : penaltyName(p.penalty));
  }
  if (r.type === "time_extension") parts.push(t("+{minutes} min", { minutes: p.minutes }));
  if (r.type === "time_call" || r.type === "match_result") {
    if (p.result) parts.push(p.result === "draw" ? t("draw") : t("player {player} wins", { player: p.result }));
  }
  if (r.type === "approval" || r.type === "resolution" || r.type === "void") {
    const target = byId.get(p.record);
    parts.push(target ? ofRecord(target.type, describe(target, byId).join(", ")) : t("of a record not on this phone"));
    if (r.type === "approval") parts.push(p.approved ? t("approve") : t("refuse"));
    if (p.reason) parts.push(t("reason: {reason}", { reason: p.reason }));
  }
  if (p.table != null) parts.push(t("table {table}", { table: p.table }));
  if (p.round != null) parts.push(t("round {round}", { round: p.round }));
  parts.push(timeOfDay(r.created_ms));
  return parts;
}
