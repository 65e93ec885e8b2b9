// The head judge's review list on this phone: the engine's review items (shared_rules.review,
// the same list the server keeps) worked out from this phone's records of the event, so it
// works offline and follows every sync; what each role sees of it; and the head judge's
// decisions, made as records (approval, resolution, or a void and the penalty issued instead).
//
// A floor judge sees the flagged penalties they issued, read-only. Items are
// {kind: "approval" | "conflict" | "appeal", record, player, judge, created_ms, infraction,
// penalty, table, round, notes, waiting}; a conflict adds expected, needs, unseen, history and
// resolution; an appeal adds ruling, ruled_by, call (and penalty: the appealed record's id).
import { consultProblem, replacement, review } from "./engine.js";
import { addRecord, app, eventContext, eventRecords, penaltyName, recordEvents } from "./state.js";
import { recordPenalty } from "./penalty-record.js";
import { syncState } from "./sync.js";
import { t } from "./i18n.js";
import { afterPress } from "./press.js";

const changes = new EventTarget();
let cached = null; // {slug, list: Promise of {items, records}}

function changed() {
  cached = null;
  changes.dispatchEvent(new Event("change"));
}
syncState.addEventListener("synced", changed);
recordEvents.addEventListener("added", changed);

/** Whether this phone has a review screen: joined to an event as a judge (a scorekeeper gets
 * no penalties, a phone on its own has no other judge). */
export function reviewShown() {
  const s = app.session;
  return Boolean(s && !s.standalone && s.role !== "scorekeeper");
}

/** Whether this phone's judge decides the items (the head judge). */
export function decides() {
  return app.session?.role === "head_judge";
}

/** Call `draw` after each change of the list (a sync, a record made here), one run at a time
 * (changes during a run make one more run after it), and once a tap under way is over
 * (press.js): a row's buttons are not replaced or moved under the head judge's finger.
 * Returns a function that stops it. */
export function onReviewChange(draw) {
  let running = null;
  let again = false;
  const run = () => {
    if (running) { again = true; return; }
    running = Promise.resolve().then(draw).catch(() => {}).finally(() => {
      running = null;
      if (again) { again = false; run(); }
    });
  };
  const later = () => afterPress(run);
  changes.addEventListener("change", later);
  return () => changes.removeEventListener("change", later);
}

/** Every review item of the event's records on this phone, kept conflicts included, with the
 * records: {items, records}. Worked out once per change. */
function allItems() {
  const slug = app.session.event.slug;
  if (!cached || cached.slug !== slug) {
    const list = eventRecords().then(async ({ all }) =>
      ({ items: await review(all, app.session.event.ruleset, eventContext(), app.session.judge_name), records: all }));
    cached = { slug, list };
    list.catch(() => { if (cached?.list === list) cached = null; });
  }
  return cached.list;
}

/** What this phone's judge sees: {waiting, kept, items, records}. A head judge: every item
 * still waiting, and the conflicts kept as issued. A floor judge: the flagged penalties they
 * issued (waiting for the head judge) and those kept. `items` is every item (kept ones too). */
export async function reviewList() {
  const { items, records } = await allItems();
  const byId = new Map(records.map((r) => [r.id, r]));
  const s = app.session;
  const own = (item) => byId.get(item.record)?.device === s.device_id || item.judge === s.judge_name;
  const conflicts = items.filter((i) => i.kind === "conflict" && (decides() || own(i)));
  return {
    waiting: (decides() ? items : conflicts).filter((i) => i.waiting),
    kept: conflicts.filter((i) => !i.waiting),
    items,
    records,
  };
}

/** What a flagged penalty says (the engine's shared_rules.review.flag_text, the one sentence
 * the organiser's pages and exports show too), in the app's language. */
export function flagText(item) {
  return item.flag ?? "";
}

/** "Still open when recorded: ..." for a penalty recorded while facts of its remedy or
 * head-judge step were unanswered (payload.open_facts; shared_rules.review.open_text), or null. */
export function openText(item) {
  return item.open ?? null;
}

/** The head judge approves or refuses a penalty waiting for them. */
export function decide(item, approved) {
  return addRecord("approval", { record: item.record, approved });
}

/** Whether this phone's judge made the ruling an appeal item is about: the head judge then
 * consults another judge before deciding (the engine's `consult`, shared_rules.review; the
 * server refuses the decision without `consulted`). */
export function ruledFirst(item) {
  return item.kind === "appeal" && item.consult === true;
}

/** Why this phone's judge may not decide `item` naming `consulted`, or null (the engine's
 * consult_problem: the same rule the server applies). */
export function consultRefusal(item, consulted) {
  return consultProblem(item.ruled_by, app.session.judge_name, consulted);
}

/** The head judge's decision on an appeal: `outcome` "confirmed" or "changed" (then with the
 * new `ruling`), and the judge `consulted` (required where ruledFirst). */
export function decideAppeal(item, outcome, ruling, consulted) {
  return addRecord("appeal_decision", { appeal: item.record, outcome, ruling: ruling || null,
    consulted: consulted || null });
}

/** The head judge keeps a flagged penalty as issued, with a reason (the flag stays, marked kept). */
export function keep(item, reason) {
  return addRecord("resolution", { record: item.record, reason });
}

/** The head judge issues the penalty the policy gives with every judge's records instead of
 * the flagged one (shared_rules.review.replacement: decided from the flagged record's own
 * facts and the records the item names, which it keeps as history_seen, taking the flagged
 * one's place): the new penalty is recorded first, then the void of the flagged one, so a
 * refused new record never leaves the player with neither. Rejects, recording nothing, when
 * the engine's answer is not the item's expected penalty any more (the records changed). */
export async function issueInstead(item) {
  const { all } = await eventRecords();
  const { answer, payload } = await replacement(all, item.record, app.session.event.ruleset, eventContext());
  if (JSON.stringify(answer.penalty) !== JSON.stringify(item.expected)) {
    throw new Error(t("The policy's answer is not the one shown any more (the records changed): look at the list again."));
  }
  const record = await recordPenalty(payload, answer);
  await addRecord("void", { record: item.record,
    reason: `Issued ${penaltyName(answer.penalty)} instead: with every judge's records the policy gives that penalty.` });
  return record;
}
