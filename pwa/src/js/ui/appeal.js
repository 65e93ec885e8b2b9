// Appeal: a player appeals a judge's ruling to the head judge (Wonders of the First §3.9,
// 004_348b1a1435ac9899.txt: either player may appeal once a ruling is made, before it is
// applied; the head judge's decision is final). A form over the current screen records an
// `appeal` record (player, table, round, the ruling, who made it, and the call or penalty it
// came from); the head judge decides it on the Review screen.
import { h } from "../dom.js";
import { LIMITS, tableProblem, textProblem } from "../checks.js";
import { addRecord, app, currentTables, infractionName, penaltyName, playerName } from "../state.js";
import { t } from "../i18n.js";

// The organiser's server refuses a ruling longer than this, and a judge's name longer than this.

/** Open the appeal form, filled in with what is known: `{table, round, player (an id or a
 * name), ruling (text), ruledBy (the judge's name; this phone's judge by default), call (a
 * judge call's id), penalty (the appealed penalty's record id)}`, each optional. Resolves to
 * the stored `appeal` record, or null when the judge cancels. */
export function openAppeal({ table = null, round = null, player = null, ruling = "", ruledBy = null, call = null,
  penalty = null } = {}) {
  document.getElementById("appeal-dialog")?.remove();
  return new Promise((resolve) => {
    const players = app.detail?.players || [];
    const playerIn = players.length
      ? h("select", { id: "appeal-player", required: true }, h("option", { value: "" }, t("Pick a player")),
        players.map((p) => h("option", { value: p.id, selected: String(p.id) === String(player) }, p.name)))
      : h("input", { id: "appeal-player", autocomplete: "off", required: true, value: player == null ? "" : playerName(player) });
    const tableIn = h("input", { id: "appeal-table", type: "number", min: "1", max: String(LIMITS.table), inputmode: "numeric",
      value: table ?? "" });
    playerIn.addEventListener("change", () => {
      const seat = currentTables().find((x) => String(x.player_a) === playerIn.value || String(x.player_b) === playerIn.value);
      if (seat) tableIn.value = seat.number;
    });
    const rulingIn = h("textarea", { id: "appeal-ruling", rows: "3", maxlength: String(LIMITS.notes), required: true });
    rulingIn.value = ruling || "";
    const byIn = h("input", { id: "appeal-ruled-by", autocomplete: "off", maxlength: String(LIMITS.judge), required: true,
      value: ruledBy || app.session?.judge_name || "" });
    const error = h("p", { class: "bad-text", id: "appeal-error", role: "alert", hidden: true });
    const dialog = h("dialog", { id: "appeal-dialog", class: "card", "aria-labelledby": "appeal-h" });

    function close(result) {
      dialog.close();
      dialog.remove();
      resolve(result);
    }

    async function submit(ev) {
      ev.preventDefault();
      const chosen = playerIn.value.trim();
      const text = rulingIn.value.trim();
      const by = byIn.value.trim();
      const tableNo = tableIn.value.trim() === "" ? null : Number(tableIn.value);
      const problem = !chosen ? t("Say which player appeals.") : !text ? t("Write down the ruling that is appealed.")
        : !by ? t("Name the judge who made the ruling.")
          : tableProblem(tableIn.value.trim()) ? t("Table: {problem}, or empty.", { problem: tableProblem(tableIn.value.trim()) })
            : textProblem(text) ? t("The ruling: {problem}.", { problem: textProblem(text) })
              : textProblem(by, LIMITS.judge, false)
                ? t("Ruling made by: {problem}.", { problem: textProblem(by, LIMITS.judge, false) })
                : !players.length && textProblem(chosen, LIMITS.name, false)
                  ? t("Player: {problem}.", { problem: textProblem(chosen, LIMITS.name, false) }) : null;
      if (problem) {
        error.textContent = problem;
        error.hidden = false;
        return;
      }
      const button = dialog.querySelector("#appeal-record");
      button.disabled = true;
      const record = await addRecord("appeal", {
        player: /^\d+$/.test(chosen) && players.length ? Number(chosen) : chosen, table: tableNo,
        round: round ?? app.clock?.round?.number ?? null, ruling: text, ruled_by: by,
        call: call == null ? null : String(call), penalty: penalty ?? null });
      close(record);
    }

    dialog.append(h("form", { onsubmit: submit },
      h("h2", { id: "appeal-h" }, t("Appeal to the head judge")),
      h("p", { class: "small muted" },
        t("The player asks the head judge to review the ruling; the head judge's decision is final.")),
      h("label", { for: "appeal-player" }, t("Player who appeals")), playerIn,
      h("label", { for: "appeal-table" }, t("Table")), tableIn,
      h("label", { for: "appeal-ruling" }, t("The ruling appealed")), rulingIn,
      h("label", { for: "appeal-ruled-by" }, t("Ruling made by")), byIn,
      error,
      h("div", { class: "row", style: "margin-top:0.7rem" },
        h("button", { type: "submit", id: "appeal-record" }, t("Record the appeal")),
        h("button", { type: "button", class: "secondary", onclick: () => close(null) }, t("Cancel")))));
    dialog.addEventListener("cancel", (ev) => { ev.preventDefault(); close(null); });
    document.body.append(dialog);
    dialog.showModal();
    (ruling ? rulingIn : playerIn).focus();
  });
}

/** What a recorded appeal says where its button was (a status the screen reader reads). */
export function appealRecorded(record) {
  const table = record?.payload?.table;
  return h("p", { class: "ok-text", role: "status", tabindex: "-1", "data-appealed": record?.id ?? "" },
    table != null ? t("Appeal recorded (table {table}); the head judge decides it on the Review screen.", { table })
      : t("Appeal recorded; the head judge decides it on the Review screen."));
}

/** "The player appeals": a button opening the appeal form for a penalty record (`payload`:
 * its payload), the ruling filled in as the penalty and infraction, in the ruleset's names.
 * Once the appeal is recorded the button gives way to appealRecorded's line; a cancelled
 * form gives the keyboard back to the button (the one drawn for this record now, where the
 * screen was drawn again while the form was open: the head judge's flags arriving, a sync). */
export function appealButton(record, payload) {
  return h("button", { type: "button", class: "secondary", "data-appeal": record.id, onclick: async (ev) => {
    const button = ev.currentTarget;
    const appeal = await openAppeal({
      table: payload.table, round: payload.round, player: payload.player, ruledBy: record.judge, penalty: record.id,
      ruling: t("{penalty} for {infraction}",
        { penalty: penaltyName(payload.penalty), infraction: infractionName(payload.infraction) }),
    });
    // the screen may have been drawn again meanwhile (a sync): this record's button is then a new one
    const shown = button.isConnected ? button : document.querySelector(`[data-appeal="${CSS.escape(record.id)}"]`);
    if (!shown) return;
    if (!appeal) {
      shown.focus();
      return;
    }
    const said = appealRecorded(appeal);
    shown.replaceWith(said);
    said.focus();
  } }, t("The player appeals"));
}
