// The time extensions given at one table this round, every judge's as of the last sync, each
// with how long, why, who and when. A mistaken one is voided as a penalty is: its judge (the
// head judge: any) says why, and a `void` record cancels it, so the table's time goes back
// once the void is recorded (on this phone at once, on the others at the next sync).
import { h, fill } from "../dom.js";
import { app, eventRecords } from "../state.js";
import { timeOfDay } from "../clock.js";
import { t } from "../i18n.js";
import { askVoid } from "./void-step.js";

/** The `time_extension` records of `table` in `round` that still count (none voided), oldest
 * first: `[record]`. */
export async function tableExtensions(table, round) {
  const { all, voided } = await eventRecords();
  return all.filter((r) => r.type === "time_extension" && r.sync !== "rejected" && !voided.has(r.id)
    && r.payload.table === table && r.payload.round === round).sort((a, b) => a.created_ms - b.created_ms);
}

/** Whether this phone's judge may void `record` (their own; the head judge any). */
function mayVoid(record) {
  return app.session.standalone || record.device === app.session.device_id || app.session.role === "head_judge";
}

/** A section listing the extensions of `table` in `round`, `reasonName(id)` naming each reason;
 * `onChange()` runs once a void is recorded. Returns the element (filled when read). */
export function extensionLog(table, round, reasonName, onChange) {
  const box = h("section", { id: "ext-log", "aria-labelledby": "ext-log-h" });

  async function draw() {
    const given = await tableExtensions(table, round);
    if (!given.length) {
      fill(box);
      return;
    }
    fill(box, h("h3", { id: "ext-log-h", tabindex: "-1" }, t("Time given at table {table} this round", { table })),
      h("ul", { class: "list" }, given.map((r) => {
        const row = h("div", { class: "row" },
          h("span", {}, t("+{minutes} min · {reason} · {judge} at {time}", {
            minutes: r.payload.minutes, reason: reasonName(r.payload.reason),
            judge: r.judge || t("unknown judge"), time: timeOfDay(r.created_ms) })),
          r.sync === "pending" || r.sync === "local" ? h("span", { class: "small muted" }, ` · ${t("waiting to sync")}`) : null,
          mayVoid(r) ? h("button", { type: "button", class: "secondary", "data-void-extension": r.id,
            "aria-label": t("Void +{minutes} min at table {table}", { minutes: r.payload.minutes, table }),
            onclick: (ev) => askVoid(r, ev.currentTarget.parentElement, {
              prefix: "ext-void", question: t("Why is this extension void?"), confirm: t("Void this extension"),
              back: "[data-void-extension]",
              done: async () => {
                await draw();
                box.querySelector("#ext-log-h")?.focus();
                onChange();
              } }) }, t("Void")) : null);
        return h("li", { "data-extension": r.id }, row);
      })));
  }

  draw();
  return box;
}
