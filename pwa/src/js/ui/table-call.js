// The "Call a judge" part of a table's players' page (#/event/<slug>/table/<n>): who may call
// at this event (the policy endpoint, from the event's ruleset and level), an optional reason,
// and the call's state: called, then a judge on the way. Anonymous; nothing personal is sent.
// A call while the table's call is still open gets that same call back (one call per table).
import { h, fill } from "../dom.js";
import { api } from "../api.js";
import { isEnglish, ruleText } from "./rule-text.js";
import { language } from "../lang.js";
import { tableProblem } from "../checks.js";
import { t } from "../i18n.js";

/** What the table's call state says ("" for a state the app does not know). */
function statusText(status) {
  switch (status) {
    case "open": return t("A judge has been called. Stay at the table.");
    case "taken": return t("A judge is on the way.");
    case "closed": return t("The call is closed.");
    default: return "";
  }
}

/** The table number from the route: a whole number 1..LIMITS.table, else null. */
export function tableNumber(text) {
  return text && !tableProblem(String(text)) ? Number(text) : null;
}

/** Build the call section for table `table` of event `slug`. Returns {el, refresh, seatedIn}
 * where refresh() reads the table's latest call again (on the stream's calls_seq or a poll)
 * and seatedIn(clock) follows the public clock's tables. */
export function tableCall(slug, table) {
  const base = `/api/events/${encodeURIComponent(slug)}/calls`;
  const policyEl = h("div", { id: "call-policy" });
  const reasonSel = h("select", { id: "call-reason" }, h("option", { value: "" }, t("No reason given")));
  const callerSel = h("select", { id: "call-caller", hidden: true }); // shown with its label once the policy is known
  const callerLabel = h("label", { for: "call-caller", hidden: true }, t("Who is calling"));
  const button = h("button", { type: "submit", id: "call-btn", class: "big" }, t("Call a judge"));
  const statusEl = h("p", { id: "call-status", class: "state", "aria-live": "assertive" });
  const errorEl = h("p", { id: "call-error", class: "bad-text", "aria-live": "polite" });
  const missingEl = h("p", { id: "call-table-missing", class: "bad-text", hidden: true });
  let policy = null;
  let current = null;
  let sending = false;
  let missing = false; // the current round's pairings do not hold this table

  function allowed(caller) {
    return policy?.callers.find((c) => c.caller === caller)?.allowed !== false;
  }

  function draw() {
    const active = current && current.status !== "closed";
    statusEl.textContent = current ? statusText(current.status) : "";
    statusEl.dataset.status = current?.status ?? "";
    button.disabled = sending || active || missing || !allowed(callerSel.value || "player");
    missingEl.hidden = !missing;
    missingEl.textContent = !missing ? ""
      : t("Table {table} does not play in the current round: check the number on your table, or raise your hand for a judge.", { table });
    button.textContent = active ? t("Judge called") : t("Call a judge");
  }

  async function loadPolicy() {
    try {
      policy = await api(`${base}/policy?language=${language()}`, { timeoutMs: 8000 });
    } catch {
      fill(policyEl, h("p", { class: "muted" }, t("Who may call a judge could not be read; you may still try.")));
      return;
    }
    // an option holds text only: one shown in English says so with its lang
    const english = (where) => (isEnglish(policy, where) ? { lang: "en" } : {});
    fill(reasonSel, h("option", { value: "" }, t("No reason given")),
      policy.reasons.map((r, i) => h("option", { value: r.id, ...english(`reasons[${i}].label`) }, r.label)));
    // The choice of caller is offered only where the policy treats them differently.
    const differs = new Set(policy.callers.map((c) => c.allowed)).size > 1;
    callerLabel.hidden = callerSel.hidden = !differs;
    fill(callerSel, policy.callers.map((c, i) => h("option", { value: c.caller, ...english(`callers[${i}].name`) }, c.name)));
    fill(policyEl, h("h3", {}, t("Who may call a judge")),
      h("ul", { class: "readout" }, policy.callers.map((c, i) => h("li", { "data-caller": c.caller, "data-allowed": String(c.allowed) },
        c.allowed ? t("{caller}: may call.", { caller: c.name }) : t("{caller}: may not call.", { caller: c.name }), " ",
        c.stated ? ruleText("span", {}, c.explain, isEnglish(policy, `callers[${i}].explain`))
          : h("span", {}, t("This event's policy does not say who may call a judge, so nobody is refused.")),
        c.source ? h("span", { class: "source" }, ` (${c.source})`) : null))));
    draw();
  }

  async function refresh() {
    try {
      const reply = await api(`${base}/table/${table}`, { timeoutMs: 8000 });
      current = reply.call;
      draw();
    } catch { /* the last state stays; the page says when the event cannot be reached */ }
  }

  async function call(ev) {
    ev.preventDefault();
    if (sending || (current && current.status !== "closed")) return;
    sending = true;
    errorEl.textContent = "";
    draw();
    const body = { table, caller: callerSel.value || "player" };
    if (reasonSel.value) body.reason = reasonSel.value;
    try {
      const made = await api(base, { body, timeoutMs: 8000 });
      current = { id: made.id, status: made.status };
    } catch (err) {
      // the server checks the table against the latest round's pairings (server/calls.py)
      if (err.field === "table") missing = true;
      errorEl.textContent = err.code === "network"
        ? t("The call did not reach the judges (no network). Raise your hand and call a judge.")
        : err.field === "table" ? "" : err.message;
    } finally {
      sending = false;
      draw();
    }
  }

  /** Follow the public clock (`clock`: GET .../clock): a table that the round's pairings do
   * not hold cannot call; the page says so before anyone taps. */
  function seatedIn(clock) {
    const numbers = (clock?.tables || []).map((x) => x.number);
    missing = Boolean(clock?.round && numbers.length && !numbers.includes(table));
    draw();
  }

  const el = h("section", { id: "table-call", "aria-labelledby": "call-h" },
    h("h2", { id: "call-h" }, t("Table {table}", { table })), missingEl,
    h("form", { onsubmit: call },
      h("label", { for: "call-reason" }, t("Why (optional)")), reasonSel,
      callerLabel, callerSel,
      h("div", { style: "margin-top:0.7rem" }, button)),
    statusEl, errorEl, policyEl);
  callerSel.addEventListener("change", draw);
  loadPolicy();
  refresh();
  return { el, refresh, seatedIn };
}
