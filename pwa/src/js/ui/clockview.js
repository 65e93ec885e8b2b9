// Clock: the round's time left (big), each table's end time with its extensions, adding a
// time extension worked out by the engine, and alerts at minutes the judge picks.
import { append, h, fill } from "../dom.js";
import { ruleItems } from "./rule-text.js";
import { extensionLog } from "./extension-log.js";
import { app, addRecord, answerUnit, currentTables, eventRecords, playerName, request } from "../state.js";
import { endsText, formatLeft, roundLeft, showFace, staleText, tableLeft, timeOfDay } from "../clock.js";
import { serverNow } from "../servertime.js";
import { clockEvents, clockNewsAge, endLocalRound, startLocalRound } from "../clockdata.js";
import { evaluate } from "../engine.js";
import { LIMITS, extensionProblem, numberProblem, tableProblem, typedNumber } from "../checks.js";
import { syncState } from "../sync.js";
import { ALERT_CHOICES, alertMinutes, toggleAlertMinute } from "./alerts.js";
import { answeredNote, waitingText } from "./engine-note.js";
import { currentResults, resultText, showResult } from "./results.js";
import { t, tn } from "../i18n.js";
import { afterPress } from "../press.js";

// [reason id, its name (in the language shown), the extension query's fact for its minutes]
function reasons() {
  return [
    ["judge_pause", t("Judge pause"), "pause_minutes"],
    ["deck_check", t("Deck check"), "deck_check_minutes"],
    ["tardiness", t("Tardiness"), "tardiness_minutes"],
    ["ruling", t("Ruling"), "ruling_minutes"],
  ];
}

export async function render(main) {
  const queries = Object.keys(app.ruleset?.queries || {});
  const timeEl = h("div", { class: "time", id: "round-left", role: "timer", "aria-live": "off",
                            elementtiming: "round-clock" }, "–:––");
  const labelEl = h("div", { class: "label", id: "round-label" }, t("No round running"));
  const endsEl = h("p", { class: "muted", id: "round-ends" });
  const spoken = h("p", { class: "small muted", "aria-live": "polite", id: "round-spoken" });
  const stateEl = h("p", { class: "state", id: "round-state", "aria-live": "polite" });
  const staleEl = h("p", { class: "small stale", id: "round-stale" });
  const tablesEl = h("div", { id: "tables" });
  const extEl = h("div", { id: "extension" });
  let extensions = new Map(); // table -> local minutes not yet in the server's clock
  const tableMinutes = new Map(); // table -> all its extension minutes, as last drawn
  let results = new Map(); // table -> its current result (asked of the engine after drawing)
  // This round's extensions on the device; the alerts themselves fire on every screen (alerts.js).
  await loadLocalExtensions();
  let alerts = alertMinutes();

  const alertButtons = ALERT_CHOICES.map((m) => h("button", {
    type: "button", id: `alert-${m}`, class: "secondary", "aria-pressed": String(alerts.includes(m)),
    onclick: async (ev) => {
      const btn = ev.currentTarget;
      alerts = await toggleAlertMinute(m);
      btn.setAttribute("aria-pressed", String(alerts.includes(m)));
    },
  }, m === 0 ? t("At time") : t("{minutes} min", { minutes: m })));

  async function loadLocalExtensions() {
    const { all, voided } = await eventRecords();
    const round = app.clock?.round?.number ?? null;
    extensions = new Map();
    const waiting = (r) => ["pending", "local"].includes(r.sync);
    const add = (table, minutes) => extensions.set(table, (extensions.get(table) || 0) + minutes);
    // a void still on this phone of an extension the server counts takes its minutes back
    const voidsHere = new Set(all.filter((r) => r.type === "void" && waiting(r)).map((r) => r.payload.record));
    for (const r of all) {
      if (r.type !== "time_extension" || r.payload.round !== round) continue;
      if (waiting(r) && !voided.has(r.id)) add(r.payload.table, r.payload.minutes);
      else if (!waiting(r) && r.sync !== "rejected" && voidsHere.has(r.id)) add(r.payload.table, -r.payload.minutes);
    }
  }

  function tableRows(left) {
    const server = new Map((app.clock?.tables || []).map((tbl) => [tbl.number, tbl]));
    const numbers = new Set([...currentTables().map((tbl) => tbl.number), ...server.keys(), ...extensions.keys()]);
    const pairing = new Map(currentTables().map((tbl) => [tbl.number, tbl]));
    // outstanding tables first (the round board's order: results that differ, then tables
    // without a result), then by number
    const disputed = (n) => Boolean(results.get(n)?.disputed?.length);
    const order = (n) => (disputed(n) ? -1 : results.has(n) ? 1 : 0);
    return [...numbers].sort((a, b) => order(a) - order(b) || a - b).map((n) => {
      const minutes = (server.get(n)?.extension_minutes || 0) + (extensions.get(n) || 0);
      tableMinutes.set(n, minutes);
      const p = pairing.get(n);
      const result = results.get(n);
      // what the row shows and what its buttons act on (tick() updates the time left in it)
      const key = JSON.stringify([app.clock?.round?.number ?? null, Boolean(left), minutes,
        p ? [playerName(p.player_a), playerName(p.player_b)] : null, result ?? null]);
      const kept = drawnRows.get(n);
      return kept?.key === key ? kept : { n, key, li: tableRow(n, left, minutes, p, result) };
    });
  }

  function tableRow(n, left, minutes, p, result) {
    const differ = Boolean(result?.disputed?.length);
    return h("li", { "data-table": n, "data-state": differ ? "disputed" : result ? "result" : "open", tabindex: "-1" },
      h("div", { class: "info" },
        h("div", {}, h("strong", {}, t("Table {table}", { table: n })), p ? ` · ${playerName(p.player_a)} – ${playerName(p.player_b)}` : ""),
        h("div", { class: "when" },
          h("span", { class: "ext" }, minutes ? t("+{minutes} min", { minutes }) : t("no extension")), " · ",
          h("span", { class: "left" }, result ? "" : tableText(left, minutes)),
          h("span", { class: "result" }, result && !differ ? t("Result in: {result}", { result: resultText(result, p) }) : "")),
        // two standing results disagree (shared_rules.board): each with who entered it
        differ ? h("p", { class: "bad-text small", "data-disputed": n },
          t("Results differ: {results}. Record the right one.", { results: [...result.disputed, result]
            .map((r) => t("{result} ({judge})", { result: resultText(r, p), judge: r.judge || "?" })).join("; ") }))
          : null),
      h("div", { class: "row" },
        h("button", { type: "button", class: "secondary", "aria-label": t("Add time to table {table}", { table: n }),
                      onclick: () => showExtension(n) }, t("+ Time")),
        h("button", { type: "button", class: "secondary", "aria-label": t("Result of table {table}", { table: n }),
                      onclick: () => { panelFor = n; showResult(extEl, n, p, result, onRecords); } }, t("Result")),
        h("button", { type: "button", class: "secondary", "aria-label": t("Deck check at table {table}", { table: n }), // ui/deckcheck.js
                      onclick: () => import("./deckcheck.js").then((m) => { panelFor = n; m.showDeckCheck(extEl, n, p, onRecords); }) },
          t("Deck check"))));
  }

  function tableText(left, minutes) {
    const ms = tableLeft(left, minutes);
    if (ms == null) return "";
    if (left.state === "ended") return t("round ended");
    if (ms <= 0) return t("time has been called");
    return left.end_ms ? t("{left} left, ends {time}", { left: formatLeft(ms), time: timeOfDay(left.end_ms + minutes * 60000) })
      : t("{left} left", { left: formatLeft(ms) });
  }

  // A redraw keeps the keyboard where it was: on the same table's row or button.
  function focusedInTables() {
    const el = document.activeElement;
    if (!tablesEl.contains(el)) return null;
    return { table: el.closest("li[data-table]")?.dataset.table ?? null, id: el.id || null, label: el.getAttribute("aria-label") };
  }

  function focusTable({ table = null, id = null, label = null }) {
    const row = table == null ? null : tablesEl.querySelector(`li[data-table="${table}"]`);
    const target = (id && document.getElementById(id))
      || (row && label && [...row.querySelectorAll("[aria-label]")].find((el) => el.getAttribute("aria-label") === label))
      || row || document.getElementById("tables-h");
    target?.focus({ preventScroll: !row || target !== row });
  }

  // The list's parts are made once and a row is kept while what it shows is the same (its
  // key), and the list is drawn again (a sync, the clock's news every few seconds) only once a
  // tap under way is over (press.js): a button is never replaced or moved under a judge's
  // finger, which would lose the tap or give it to another table.
  let drawnRows = new Map(); // table -> {n, key, li} as drawn
  const tablesHead = h("h2", { id: "tables-h", tabindex: "-1" }, t("Tables this round"));
  const countEl = h("p", { class: "muted", id: "results-count" });
  const listEl = h("ul", { class: "table-list", "aria-labelledby": "tables-h" });
  const noTables = h("p", { class: "muted" }, t("No tables known for this round."));
  const otherTable = h("button", { type: "button", class: "secondary", id: "ext-other", onclick: () => showExtension(null) },
    t("Add time to another table"));

  const sameNodes = (nodes, wanted) => nodes.length === wanted.length && wanted.every((node, i) => nodes[i] === node);

  const drawTables = () => afterPress(drawTablesNow);

  function drawTablesNow() {
    const focused = focusedInTables();
    const left = roundLeft(app.clock?.round, serverNow());
    const rows = tableRows(left);
    drawnRows = new Map(rows.map((row) => [row.n, row]));
    const done = rows.filter((row) => row.li.dataset.state === "result").length;
    // Which news from the server the list was drawn from (for tests: "drawn since that fetch").
    tablesEl.dataset.newsMs = String(app.clock?.news_ms ?? "");
    const count = done === rows.length ? t("All results in.")
      : t("{done} of {total} results in; outstanding tables first.", { done, total: rows.length });
    if (countEl.textContent !== count) countEl.textContent = count;
    // rows gone are taken out and new ones put in their place; kept rows stay where they are
    // (their order among themselves is the same, as what decides it is in the key)
    const lis = new Set(rows.map((row) => row.li));
    for (const li of [...listEl.children]) if (!lis.has(li)) li.remove();
    rows.forEach(({ li }, i) => { if (listEl.children[i] !== li) listEl.insertBefore(li, listEl.children[i] ?? null); });
    const parts = rows.length ? [tablesHead, countEl, listEl, otherTable] : [tablesHead, noTables, otherTable];
    if (!sameNodes(tablesEl.children, parts)) fill(tablesEl, parts);
    if (focused && !tablesEl.contains(document.activeElement)) focusTable(focused);
  }

  function showExtension(table) {
    panelFor = table;
    const tableIn = h("input", { id: "ext-table", type: "number", min: "1", inputmode: "numeric", value: table ?? "" });
    const reason = h("select", { id: "ext-reason" }, reasons().map(([id, name]) => h("option", { value: id }, name)));
    const minutes = h("input", { id: "ext-minutes", type: "number", min: "0", step: "0.5", inputmode: "decimal" });
    const out = h("div", { "aria-live": "polite", id: "ext-answer" });
    async function work(ev) {
      ev.preventDefault();
      const [, , fact] = reasons().find(([id]) => id === reason.value);
      // A table typed wrong is said now, not when its time is added (an empty one may wait).
      const tableBad = tableIn.value.trim() === "" ? null : tableProblem(tableIn.value, true);
      if (tableBad) {
        fill(out, h("p", { class: "bad-text", id: "ext-missing" }, t("Table: {problem}.", { problem: tableBad })));
        tableIn.focus();
        return;
      }
      // Never ask the engine about an empty or non-numeric time: say which number is missing.
      // digits only: "1e2" is not how long a deck check took
      const taken = numberProblem(minutes.value) ? NaN : typedNumber(minutes.value);
      if (!Number.isFinite(taken)) {
        fill(out, h("p", { class: "bad-text", id: "ext-missing" }, t("Enter how long it took, in minutes (for example 4).")));
        minutes.focus();
        return;
      }
      const facts = { [fact]: taken };
      if (app.session.event.round_minutes) facts.round_minutes = app.session.event.round_minutes;
      fill(out, h("p", {}, waitingText()));
      if (!queries.includes("extension")) {
        fill(out, manual(t("This policy gives no rule for time extensions: the head judge decides.")));
        return;
      }
      try {
        const answer = await evaluate(request("extension", facts));
        const add = answer.extension_minutes;
        fill(out, h("div", { class: "card decision" },
          h("p", { class: "big-penalty", id: "ext-result" }, add == null ? t("Not stated by this policy") : t("+{minutes} min", { minutes: add })),
          answeredNote(answer),
          h("ul", { class: "readout" }, ruleItems("li", {}, answer, "explain")),
          ruleItems("p", { class: "muted" }, answer, "notes"),
          h("p", { class: "source" }, answer.sources.join("; ")),
          add > 0 && add <= LIMITS.minutes ? h("button", { type: "button", id: "ext-add", onclick: (ev) => addMinutes(add, ev.currentTarget) },
            t("Add {minutes} min to the table", { minutes: add })) : null,
          add > LIMITS.minutes ? manual(t("The event takes at most {limit} minutes of extension: the head judge decides what to give.",
            { limit: LIMITS.minutes })) : null,
          add == null ? manual("") : null));
      } catch (err) {
        fill(out, h("p", { class: "bad-text" }, err.message));
      }
    }
    let adding = false;
    async function addMinutes(add, btn) {
      if (adding || !(add > 0 && add <= LIMITS.minutes)) return;
      const table = Number(tableIn.value);
      const problem = tableProblem(tableIn.value, true);
      if (problem) {
        out.querySelector("#ext-missing")?.remove();
        out.prepend(h("p", { class: "bad-text", id: "ext-missing" },
          tableIn.value === "" ? t("Enter the table number first.") : t("Table: {problem}.", { problem })));
        tableIn.focus();
        return;
      }
      // One tap, one record: the buttons stay disabled once the record is being made.
      adding = true;
      for (const b of out.querySelectorAll("#ext-add, #ext-manual-add")) b.disabled = true;
      if (btn) btn.disabled = true;
      await addRecord("time_extension", { table, round: app.clock?.round?.number ?? 1, minutes: add, reason: reason.value });
      fill(extEl);
      await redraw();
    }
    // Where the policy states nothing, the head judge's decision is entered by hand.
    function manual(text) {
      const step = String(answerUnit("extension", "extension_minutes") ?? "any");
      const hj = h("input", { id: "ext-manual", type: "number", min: step === "any" ? "0" : step, max: String(LIMITS.minutes),
                              step, inputmode: "decimal", "aria-describedby": "ext-manual-error" });
      const error = h("p", { class: "bad-text", id: "ext-manual-error", role: "alert", hidden: true });
      return h("div", {}, text ? h("p", {}, text) : null,
        h("label", { for: "ext-manual" }, t("Minutes the head judge gives")), hj, error,
        h("button", { type: "button", id: "ext-manual-add", style: "margin-top:0.6rem", onclick: (ev) => {
          // what the event's server takes (checks.js extensionProblem)
          const problem = extensionProblem(hj.value, answerUnit("extension", "extension_minutes"));
          if (!problem) {
            error.hidden = true;
            hj.removeAttribute("aria-invalid");
            addMinutes(typedNumber(hj.value), ev.currentTarget);
          } else {
            out.querySelector("#ext-missing")?.remove(); // an earlier table error is not this one
            error.textContent = problem;
            error.hidden = false;
            hj.focus();
            hj.setAttribute("aria-invalid", "true");
          }
        } }, t("Add these minutes")));
    }
    // novalidate: the page says what is wrong (the browser's bubbles would leave an old answer shown)
    fill(extEl, h("form", { class: "card", onsubmit: work, novalidate: true, "aria-labelledby": "ext-h" },
      h("h2", { id: "ext-h" }, t("Time extension")),
      h("label", { for: "ext-table" }, t("Table")), tableIn,
      h("label", { for: "ext-reason" }, t("Why")), reason,
      h("label", { for: "ext-minutes" }, t("How long it took (minutes)")), minutes,
      h("div", { class: "row", style: "margin-top:0.7rem" },
        h("button", { type: "submit", id: "ext-work" }, t("Work out the extension")),
        h("button", { type: "button", class: "secondary", onclick: () => fill(extEl) }, t("Cancel"))),
      out),
    table == null ? null : extensionLog(table, app.clock?.round?.number ?? 1,
      (id) => reasons().find(([x]) => x === id)?.[1] ?? id, redraw));
    minutes.focus();
  }

  // The table whose panel (time extension, result, deck check) is open: once the panel
  // closes (done or cancelled) with the keyboard's focus in it, focus goes back to that row.
  let panelFor = null;
  new MutationObserver(() => {
    if (extEl.childElementCount || !document.body.contains(extEl)) return;
    if (document.activeElement === document.body || document.activeElement == null) focusTable({ table: panelFor });
  }).observe(extEl, { childList: true });

  // The line saying the clock's news is old comes and goes above the tables: once a tap under
  // way is over (press.js), as it moves them.
  const staleNow = () => (app.session.standalone ? "" : staleText(clockNewsAge()));
  const drawStale = () => { staleEl.textContent = staleNow(); };

  let lastSecond = null;
  function tick() {
    const round = app.clock?.round;
    const left = roundLeft(round, serverNow());
    const face = showFace(timeEl, left);
    if (staleEl.textContent !== staleNow()) afterPress(drawStale);
    if (!left) {
      labelEl.textContent = t("No round running");
      stateEl.textContent = "";
      return;
    }
    const said = face.phase === "running" ? "" : face.state;
    if (stateEl.textContent !== said) stateEl.textContent = said;
    for (const [n, minutes] of tableMinutes) {
      if (results.has(n)) continue;
      const el = tablesEl.querySelector(`li[data-table="${n}"] .left`);
      const text = tableText(left, minutes);
      if (el && el.textContent !== text) el.textContent = text;
    }
    labelEl.textContent = face.phase === "over" ? t("Round {round} · time called", { round: round.number })
      : left.state === "running" ? t("Round {round} · time left", { round: round.number })
      : left.state === "paused" ? t("Round {round} · paused", { round: round.number })
        : t("Round {round} · ended", { round: round.number });
    endsEl.textContent = endsText(left);
    const minute = Math.ceil(left.remaining_ms / 60000);
    if (minute !== lastSecond) {
      lastSecond = minute;
      spoken.textContent = left.state === "running" && left.remaining_ms > 0
        ? tn("About {count} minute left.", "About {count} minutes left.", minute) : "";
    }
  }

  async function redraw() {
    await loadLocalExtensions();
    tick();
    drawTables();
  }

  // The clock is fetched again every few seconds: it redraws the tables; results are asked of
  // the engine again only when records may have changed (a sync, a result recorded here).
  function onRecords() {
    redraw();
    refreshResults();
  }

  // Results need the engine: the tables are drawn first and again once it has answered.
  let asked = 0;
  async function refreshResults() {
    const mine = ++asked;
    try {
      const fresh = await currentResults();
      if (mine !== asked) return;
      results = fresh;
      drawTables();
    } catch { /* the engine failed to start: the status line says so; no results shown */ }
  }

  const standaloneControls = app.session.standalone ? h("form", { class: "row", onsubmit: async (ev) => {
    ev.preventDefault();
    await startLocalRound(Number(ev.target.elements.minutes.value));
    await redraw();
  } },
  h("label", { for: "local-minutes", class: "sr-only" }, t("Round minutes")),
  h("input", { id: "local-minutes", name: "minutes", type: "number", min: "1", value: app.session.event.round_minutes ?? "" }),
  h("button", { type: "submit" }, t("Start a round")),
  h("button", { type: "button", class: "secondary", onclick: async () => { await endLocalRound(); await redraw(); } }, t("End round"))) : null;

  append(main,
    h("h1", { class: "sr-only" }, t("Round clock")),
    h("section", { class: "clock", "aria-labelledby": "round-label" }, labelEl, timeEl, stateEl, endsEl, spoken, staleEl),
    standaloneControls,
    h("fieldset", {}, h("legend", {}, t("Alert me before time")), h("div", { class: "row" }, alertButtons)),
    extEl,
    tablesEl,
  );
  tick();
  drawTables();
  performance.mark("clock-visible");
  refreshResults();
  const iv = setInterval(tick, 100);
  clockEvents.addEventListener("change", redraw);
  clockEvents.addEventListener("tick", tick);
  syncState.addEventListener("synced", refreshResults);
  return () => {
    clearInterval(iv);
    clockEvents.removeEventListener("change", redraw);
    clockEvents.removeEventListener("tick", tick);
    syncState.removeEventListener("synced", refreshResults);
  };
}
