// Voiding a record asks first, in the page: why (the `void` record keeps the reason, for the
// head judge and the export), then the confirm button records the void or "Keep it" puts
// the record's buttons back as they were. Penalties (ui/history.js) and time extensions
// (ui/extension-log.js) are voided this way.
import { h } from "../dom.js";
import { addRecord } from "../state.js";
import { textProblem } from "../checks.js";
import { t } from "../i18n.js";

/** Ask why `record` is void in place of `row` (the element holding its buttons, hidden
 * meanwhile). `prefix` names the step's elements (`<prefix>-step`, `-reason`, `-error`,
 * `-confirm`, `-cancel`); the question and confirm options are the label and the button's words;
 * `back` selects the button focused again when the judge keeps the record; `done()` runs
 * once the void is recorded. */
export function askVoid(record, row, { prefix, question, confirm, back, done }) {
  const reason = h("input", { id: `${prefix}-reason`, autocomplete: "off", "aria-describedby": `${prefix}-error` });
  const error = h("p", { class: "bad-text", id: `${prefix}-error`, role: "alert", hidden: true });
  const step = h("form", { class: "card", id: `${prefix}-step`, novalidate: true, onsubmit: async (ev) => {
    ev.preventDefault();
    const text = reason.value.trim();
    const problem = text ? textProblem(text) : t("say why, for the head judge and the records");
    if (problem) {
      error.textContent = t("Reason: {problem}.", { problem });
      error.hidden = false;
      reason.focus();
      return;
    }
    step.querySelector(`#${prefix}-confirm`).disabled = true;
    await addRecord("void", { record: record.id, reason: text });
    await done();
  } },
  h("label", { for: `${prefix}-reason` }, question), reason, error,
  h("div", { class: "row" },
    h("button", { type: "submit", id: `${prefix}-confirm` }, confirm),
    h("button", { type: "button", class: "secondary", id: `${prefix}-cancel`, onclick: () => {
      step.remove();
      row.hidden = false;
      row.querySelector(back)?.focus();
    } }, t("Keep it"))));
  row.hidden = true;
  row.after(step);
  reason.focus();
}
