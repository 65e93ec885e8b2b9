// Recording a penalty: the penalty record and, when a head judge issues what the policy
// reserves to the head judge, the head judge's approval with it, so it never waits for a
// decision already made. The Penalty screen and the Review screen both record through here.
import { app, addRecord } from "./state.js";

/** Store the penalty record of `payload` (the engine's penalty_payload for `answer`); resolves
 * to the record. A penalty the policy leaves open (not stated) waits for the head judge's
 * decision even when the head judge recorded it. */
export async function recordPenalty(payload, answer) {
  const record = await addRecord("penalty", payload);
  const notStated = answer.penalty == null && answer.stated === false;
  if (answer.head_judge && !notStated && app.session.role === "head_judge" && !app.session.standalone) {
    await addRecord("approval", { record: record.id, approved: true, comment: "issued by the head judge" });
  }
  return record;
}
