// Review: what waits for the head judge, from this phone's records (offline too), following
// every sync. A head judge approves or refuses the penalties the policy reserves to them, and
// decides each flagged penalty (one decided without another judge's earlier penalties of the
// same player): keep it as issued, with a reason, or issue the policy's penalty instead. A
// floor judge sees the flagged penalties they issued, read-only. Kept ones are listed below.
import { append, fill, h } from "../dom.js";
import { app, infractionName, penaltyName, playerName } from "../state.js";
import { syncState } from "../sync.js";
import { timeOfDay } from "../clock.js";
import { decide, decides, flagText, issueInstead, keep, onReviewChange, reviewList } from "../review.js";
import { waitingText } from "./engine-note.js";

// The organiser's server refuses a reason longer than this.
const REASON_MAX = 2000;

export async function render(main) {
  const status = h("p", { id: "review-status", role: "status" });
  const box = h("div", { id: "review-list" }, h("p", { class: "muted" }, waitingText()));
  const drafts = new Map(); // reasons being typed, by record id: kept when the list is drawn again
  append(main, h("h1", {}, "Review"), status, box);

  function say(text, bad = false) {
    status.className = bad ? "bad-text" : "ok-text";
    status.textContent = text;
  }

  /** Run a decision; the list is drawn again once its records are stored (a change). */
  async function act(button, work, done) {
    const row = button.closest("li");
    for (const b of row.querySelectorAll("button")) b.disabled = true;
    try {
      await work();
      drafts.delete(row.dataset.record);
      row.remove();
      say(done);
      status.tabIndex = -1;
      status.focus({ preventScroll: true });
    } catch (err) {
      for (const b of row.querySelectorAll("button")) b.disabled = false;
      say(err.message, true);
    }
  }

  function meta(item) {
    return [`Recorded by ${item.judge || "an unknown judge"}`, item.table != null ? `table ${item.table}` : "no table",
      item.round != null ? `round ${item.round}` : null, item.created_ms ? timeOfDay(item.created_ms) : null]
      .filter(Boolean).join(" · ");
  }

  function approvalActions(item) {
    return h("div", { class: "row" },
      [[true, "Approve", "Approved."], [false, "Refuse", "Refused: it no longer counts toward later penalties."]]
        .map(([approved, text, done]) => h("button", { type: "button", class: approved ? "" : "secondary",
          "data-decide": String(approved), onclick: (ev) => act(ev.currentTarget, () => decide(item, approved), done) }, text)));
  }

  function conflictActions(item) {
    const id = `review-reason-${item.record}`;
    const reason = h("textarea", { id, rows: "2", maxlength: String(REASON_MAX), "data-reason": item.record,
      oninput: () => drafts.set(item.record, reason.value) });
    reason.value = drafts.get(item.record) || "";
    const error = h("p", { class: "bad-text", role: "alert", hidden: true });
    const keepIt = (ev) => {
      ev.preventDefault();
      const text = reason.value.trim();
      if (!text) {
        error.textContent = "Say why it is kept as issued: the reason goes with the record.";
        error.hidden = false;
        reason.focus();
        return;
      }
      error.hidden = true;
      act(ev.submitter || ev.currentTarget.querySelector("button"), () => keep(item, text), "Kept as issued.");
    };
    return h("div", {},
      item.expected != null
        ? h("button", { type: "button", class: "wide", "data-issue": item.record,
          onclick: (ev) => act(ev.currentTarget, () => issueInstead(item), `${penaltyName(item.expected)} issued instead.`) },
          `Issue ${penaltyName(item.expected)} instead`)
        : h("p", { class: "small" }, "To issue another penalty, void this one on the Players screen and look it up again."),
      h("form", { onsubmit: keepIt, "aria-label": `Keep ${penaltyName(item.penalty)} as issued` },
        h("label", { for: id }, "Reason for keeping it as issued (required)"), reason, error,
        h("button", { type: "submit", class: "secondary wide", "data-keep": item.record, style: "margin-top:0.4rem" },
          "Keep as issued")));
  }

  function row(item, acting) {
    const what = item.kind === "approval"
      ? `${item.penalty == null ? "Penalty for the head judge to decide" : penaltyName(item.penalty)}: waits for the head judge's approval`
      : flagText(item);
    return h("li", { "data-record": item.record, "data-kind": item.kind },
      h("strong", {}, playerName(item.player)), " — ", infractionName(item.infraction),
      h("p", { class: item.kind === "conflict" ? "flag" : "" }, what),
      h("p", { class: "small muted" }, meta(item)),
      item.notes ? h("p", { class: "small notes" }, "Notes: ", item.notes) : null,
      item.resolution ? h("p", { class: "kept" }, `Kept as issued: ${item.resolution.reason}`,
        item.resolution.judge ? ` (${item.resolution.judge})` : "") : null,
      !acting ? null : item.kind === "approval" ? approvalActions(item) : conflictActions(item));
  }

  async function draw() {
    let list;
    try {
      list = await reviewList();
    } catch (err) {
      fill(box, h("p", { class: "bad-text" }, err.message));
      return;
    }
    if (!app.session) return;
    const head = decides();
    const focused = document.activeElement?.dataset?.reason;
    const asOf = syncState.last_ok_ms ? `As of ${timeOfDay(syncState.last_ok_ms)}, the last sync with the event.`
      : "Not yet synced: only this phone's records.";
    fill(box,
      h("p", { class: "small muted" }, asOf),
      head ? null : h("p", {}, "The head judge decides these: a flagged penalty was decided without another "
        + "judge's earlier penalties for the same player, and the head judge keeps it or issues another."),
      h("h2", {}, head ? `Waiting for you (${list.waiting.length})` : `Your penalties flagged for the head judge (${list.waiting.length})`),
      list.waiting.length ? h("ul", { class: "list", id: "review-waiting" }, list.waiting.map((item) => row(item, head)))
        : h("p", { class: "muted", id: "review-empty" }, head ? "Nothing waits for you." : "None of your penalties is flagged."),
      list.kept.length ? [h("h2", {}, `Kept as issued (${list.kept.length})`),
        h("ul", { class: "list", id: "review-kept" }, list.kept.map((item) => row(item, false)))] : null);
    if (focused) {
      const again = box.querySelector(`textarea[data-reason="${CSS.escape(focused)}"]`);
      if (again) {
        again.focus({ preventScroll: true });
        again.setSelectionRange(again.value.length, again.value.length);
      }
    }
  }

  const stop = onReviewChange(draw);
  draw();
  return stop;
}
