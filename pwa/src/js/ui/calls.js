// The judge calls panel, above every screen of a judge's phone: each open or taken call with
// its table, reason and age; "On my way" takes it, "Close" closes it with an optional
// ruling, and after closing "Player appeals" opens the appeal form (ui/appeal.js) with the
// call's table, round and ruling. New calls alert (banner, tone, vibration, system notification); a call nobody took
// in the organiser's time alerts the head judge.
import { h, fill, focusPlace, keptFocus } from "../dom.js";
import { app } from "../state.js";
import { serverNow } from "../servertime.js";
import { callsState, closeCall, readsCalls, reasonLabel, takeCall } from "../calls.js";
import { showAlert } from "./alerts.js";
import { LIMITS, textProblem } from "../checks.js";
import { t } from "../i18n.js";
import { afterPress } from "../press.js";

let closedHere = null; // the call this phone closed last: {call, ruling}
let closing = null;    // id of the call whose close form is open
let showAll = false;   // the judge opened the whole list
const SHOWN = 3;       // calls listed before "Show all": many calls must not push the screen away

function age(ms) {
  const s = Math.max(0, Math.floor((serverNow() - ms) / 1000));
  return s < 60 ? t("{seconds} s ago", { seconds: s }) : t("{minutes} min ago", { minutes: Math.floor(s / 60) });
}

function callItem(c) {
  const mine = c.status === "taken" && c.taken_by === app.session.judge_name;
  const reason = reasonLabel(c.reason);
  const ruling = h("textarea", { id: `call-ruling-${c.id}`, maxlength: String(LIMITS.notes), rows: "2" });
  return h("li", { "data-call": c.id, "data-status": c.status, "data-escalated": String(Boolean(c.escalated)) },
    h("div", { class: "info" },
      h("strong", {}, t("Table {table}", { table: c.table })), reason ? ` · ${reason}` : "",
      h("div", { class: "small muted" },
        h("span", { class: "call-age", "data-created": c.created_ms }, age(c.created_ms)),
        ` · ${c.status !== "taken" ? t("nobody on the way yet") : mine ? t("you are on your way")
          : t("{judge} is on the way", { judge: c.taken_by })}`,
        c.escalated ? ` · ${t("waiting too long: head judge alerted")}` : "")),
    c.status === "open" ? h("button", { type: "button", class: "call-take", onclick: (ev) => take(c, ev.currentTarget) }, t("On my way")) : null,
    mine && closing !== c.id ? h("button", { type: "button", class: "secondary call-close", onclick: () => { closing = c.id; draw(); } }, t("Close")) : null,
    mine && closing === c.id ? h("form", { class: "call-close-form", onsubmit: (ev) => { ev.preventDefault(); close(c, ruling.value.trim(), ev.target); } },
      h("label", { for: ruling.id }, t("Ruling given (optional)")), ruling,
      h("div", { class: "row" }, h("button", { type: "submit", class: "call-close-done" }, t("Close the call")),
        h("button", { type: "button", class: "secondary", onclick: () => { closing = null; draw(); } }, t("Cancel")))) : null);
}

const note = () => document.getElementById("calls-note");

async function take(c, btn) {
  btn.disabled = true;
  try {
    await takeCall(c.id);
    note().textContent = "";
  } catch (err) {
    note().textContent = err.status === 409 ? t("Another judge took this call.")
      : t("Not taken: {error}", { error: err.message });
  }
}

async function close(c, ruling, form) {
  const problem = ruling ? textProblem(ruling) : null;
  if (problem) {
    note().textContent = t("The ruling: {problem}.", { problem });
    form.querySelector("textarea")?.focus();
    return;
  }
  for (const b of form.querySelectorAll("button")) b.disabled = true;
  try {
    const call = await closeCall(c.id, ruling || null);
    closing = null;
    closedHere = { call, ruling };
    draw();
  } catch (err) {
    for (const b of form.querySelectorAll("button")) b.disabled = false;
    note().textContent = t("Not closed: {error}", { error: err.message });
  }
}

function closedItem() {
  const { call, ruling, appealed } = closedHere;
  if (appealed) {
    return h("div", { id: "call-closed", class: "row" }, appealed,
      h("button", { type: "button", class: "secondary", onclick: () => { closedHere = null; draw(); } }, t("Done")));
  }
  return h("div", { id: "call-closed", class: "row" },
    h("span", {}, ruling ? t("Table {table}: call closed with a ruling.", { table: call.table })
      : t("Table {table}: call closed.", { table: call.table })),
    ruling ? h("button", { type: "button", id: "call-appeal", class: "secondary", onclick: async () => {
      const c = closedHere.call;
      closedHere = null;
      draw();
      // The appeal form (ui/appeal.js) is loaded when first needed.
      const { openAppeal, appealRecorded } = await import("./appeal.js");
      const appeal = await openAppeal({ table: c.table, round: app.clock?.round?.number ?? null, player: null, ruling,
                                        ruledBy: app.session.judge_name, call: c.id, penalty: null });
      if (!appeal) return;
      closedHere = { call: c, ruling, appealed: appealRecorded(appeal) };
      draw();
      document.querySelector("#call-closed [data-appealed]")?.focus();
    } }, t("Player appeals")) : null,
    h("button", { type: "button", class: "secondary", onclick: () => { closedHere = null; draw(); } }, t("Done")));
}

/** Draw the panel (hidden when there is nothing to show or the role reads no calls). */
export function draw() {
  const el = document.getElementById("calls");
  if (!el) return;
  // Not over the players' pages (a judge's phone may show one to a player).
  const calls = readsCalls() && !location.hash.startsWith("#/event/") ? callsState.calls : [];
  el.hidden = !calls.length && (!closedHere || location.hash.startsWith("#/event/"));
  if (el.hidden) { fill(el); return; }
  const open = calls.filter((c) => c.status === "open").length;
  // the calls this judge took first, then the oldest: the list is kept short unless opened
  const mine = (c) => c.status === "taken" && c.taken_by === app.session.judge_name;
  const ordered = [...calls.filter(mine), ...calls.filter((c) => !mine(c))];
  const shown = showAll ? ordered : ordered.slice(0, SHOWN);
  const focused = focusPlace(el, "call"); // a new call leaves the keyboard where it was
  fill(el, h("h2", { id: "calls-h" }, open ? t("Judge calls: {count} waiting", { count: open }) : t("Judge calls")),
    calls.length ? h("ul", { class: "call-list", "aria-labelledby": "calls-h" }, shown.map(callItem)) : null,
    calls.length > SHOWN ? h("button", { type: "button", class: "secondary", id: "calls-more", "aria-expanded": String(showAll),
      onclick: () => { showAll = !showAll; draw(); } },
      showAll ? t("Show fewer calls") : t("Show all {count} calls", { count: calls.length })) : null,
    closedHere ? closedItem() : null,
    h("p", { class: "small bad-text", id: "calls-note", "aria-live": "polite" }));
  keptFocus(el, "call", focused);
}

/** Show the panel on every screen and alert for new and escalated calls. */
export function startCallsPanel() {
  // A form being typed in is not drawn over, and a tap under way is over first (press.js):
  // the panel sits above every screen, and what is under the finger would move.
  const drawn = () => {
    if (closing && document.getElementById("calls")?.contains(document.activeElement)) return;
    draw();
  };
  callsState.addEventListener("change", () => afterPress(drawn));
  window.addEventListener("hashchange", draw);
  callsState.addEventListener("new", (ev) => {
    const c = ev.detail;
    const reason = reasonLabel(c.reason);
    showAlert(reason ? t("Judge call at table {table}: {reason}.", { table: c.table, reason })
      : t("Judge call at table {table}.", { table: c.table }),
    { system: { title: t("Judge call"), tag: "judge-calls" } }); // one notification, replaced by the next call
  });
  callsState.addEventListener("escalated", (ev) => {
    if (app.session?.role !== "head_judge") return;
    const c = ev.detail;
    showAlert(t("Nobody has taken the call at table {table} yet.", { table: c.table }),
      { system: { title: t("Judge call waiting"), tag: "judge-calls-waiting" } });
  });
  setInterval(() => {
    for (const span of document.querySelectorAll("#calls .call-age")) {
      const text = age(Number(span.dataset.created));
      if (span.textContent !== text) span.textContent = text;
    }
  }, 5000);
}
