// The players' page (#/event/<slug>): the event's clock and what happens at time for its
// game and level, in plain words; a table's page (#/event/<slug>/table/<n>) shows that
// table's time (the round's plus the table's time extensions) and a "Call a judge" button;
// #/event/<slug>/decklist[/<code>] is a player's own decklist (ui/decklist-submit.js).
// No login; shows nothing personal. The clock follows the push stream, polling when it is down.
import { append, h, fill } from "../dom.js";
import { api } from "../api.js";
import { ruleData } from "../state.js";
import { language } from "../lang.js";
import { ruleItems } from "./rule-text.js";
import * as store from "../store.js";
import { measureOffset, serverNow } from "../servertime.js";
import { endsText, roundLeft, showFace, staleText } from "../clock.js";
import { openStream, pushState } from "../push.js";
import { tableCall, tableNumber } from "./table-call.js";
import { LIMITS, tableProblem } from "../checks.js";
import { t, tn } from "../i18n.js";

/** The round's state after its number, from the clock's phase (clock.js showFace): "time
 * left" while it runs, "time called" once its time is up. */
function roundState(phase) {
  return { running: t("time left"), over: t("time called"), paused: t("paused"), ended: t("ended") }[phase] ?? phase;
}

/** The event page's way to a table's page (where a player calls a judge): the table number
 * typed, checked as a table's address is (1..LIMITS.table), then #/event/<slug>/table/<n>. */
function tablePicker(slug) {
  const input = h("input", { id: "pub-table-input", inputmode: "numeric", autocomplete: "off",
    "aria-describedby": "pub-table-error" });
  const error = h("p", { class: "bad-text", id: "pub-table-error", role: "alert", hidden: true });
  const open = (ev) => {
    ev.preventDefault();
    const problem = tableProblem(input.value.trim(), true);
    error.hidden = !problem;
    error.textContent = problem ? t("Table number: {problem}", { problem }) : "";
    input.setAttribute("aria-invalid", problem ? "true" : "false");
    if (!problem) location.hash = `#/event/${encodeURIComponent(slug)}/table/${Number(input.value.trim())}`;
  };
  return h("section", { id: "pub-call", "aria-labelledby": "pub-call-h" },
    h("h2", { id: "pub-call-h" }, t("Call a judge")),
    h("form", { class: "row", onsubmit: open },
      h("label", { for: "pub-table-input" }, t("Your table number")), input,
      h("button", { type: "submit", id: "pub-table-open" }, t("Open my table"))),
    error);
}

export async function render(main, [slug, sub, tableArg]) {
  if (sub === "decklist") {
    document.getElementById("nav").hidden = true;
    for (const id of ["sync", "python"]) document.getElementById(id).hidden = true;
    document.getElementById("event-name").textContent = t("Your decklist");
    await (await import("./decklist-submit.js")).render(main, slug, tableArg);
    return () => { for (const id of ["sync", "python"]) document.getElementById(id).hidden = false; };
  }
  const key = `public-clock:${slug}`;
  const table = sub === "table" ? tableNumber(tableArg) : null;
  let clock = (await store.get(key)) ?? null;
  const title = h("h1", { id: "pub-title" }, t("Event clock"));
  const label = h("div", { class: "label", id: "pub-label" }, "");
  const time = h("div", { class: "time", id: "pub-left", role: "timer" }, "–:––");
  const ends = h("p", { class: "muted", id: "pub-ends" });
  const rules = h("section", { id: "pub-rules", "aria-labelledby": "pub-rules-h" });
  const seen = h("p", { class: "small muted", id: "pub-seen" });
  const state = h("p", { class: "state", id: "pub-state", "aria-live": "polite" });
  const stale = h("p", { class: "small stale", id: "pub-stale" });
  const call = table ? tableCall(slug, table) : null;
  const badTable = sub === "table" && !table
    ? h("p", { class: "bad-text", id: "pub-bad-table", role: "alert" },
      t("This table number is not valid: it must be a whole number from 1 to {max}. Check the card on your table.",
        { max: LIMITS.table }))
    : null;
  let rulesFor = null;
  let newsMs = clock?.news_ms ?? null;
  document.getElementById("nav").hidden = true;
  for (const id of ["sync", "python"]) document.getElementById(id).hidden = true;
  document.getElementById("event-name").textContent = t("Event clock");

  async function drawRules() {
    if (!clock?.event || rulesFor === clock.event.ruleset) return;
    rulesFor = clock.event.ruleset;
    const ruleset = await ruleData(clock.event.ruleset).catch(() => null);
    if (!ruleset) return;
    const level = (ruleset.levels || []).find((l) => l.id === clock.event.level);
    // The rule data marks the topics meant for players (the clock, what happens at time).
    const topics = (ruleset.topics || []).filter((topic) => topic.for_players);
    const atTime = h("div", { id: "pub-at-time" });
    const games = clock.event.games_per_match;
    fill(rules, h("h2", { id: "pub-rules-h" }, t("What happens at time")),
      h("p", {}, [ruleset.title, level ? level.name : null,
        clock.event.stage === "elimination" ? t("top cut") : t("Swiss rounds"),
        games ? t("best of {games}", { games }) : null].filter((x) => x != null).join(" · ")),
      atTime,
      topics.length ? h("h3", {}, t("More about time")) : null,
      topics.map((topic) => h("div", { class: "card" }, h("h4", {}, topic.name), h("p", {}, topic.summary))));
    if (ruleset.queries?.time_call) showAtTime(atTime);
    else {
      fill(atTime, h("p", { id: "pub-no-procedure" },
        t("This policy does not describe an end-of-match procedure. If time runs out, ask a judge.")));
    }
  }

  // This event's own answer from the rules engine (the server runs the same Python code),
  // kept on the phone for when the network drops.
  async function showAtTime(el) {
    const ctx = {};
    for (const k of ["level", "stage", "games_per_match", "round_minutes"]) {
      if (clock.event[k] != null) ctx[k] = clock.event[k];
    }
    const lang = language();
    const key = `public-time:${slug}:${lang}`;
    let answer = null;
    try {
      answer = await api(`/api/rulesets/${encodeURIComponent(clock.event.ruleset)}/evaluate`,
        { body: { query: "time_call", event: ctx, facts: {}, language: lang }, timeoutMs: 8000 });
      await store.set(key, answer);
    } catch {
      answer = (await store.get(key)) ?? null;
    }
    if (!answer) return;
    fill(el, h("div", { class: "card decision" },
      answer.turns_after_current != null ? h("p", { class: "big-penalty" }, tn("{count} more turn after the current one",
        "{count} more turns after the current one", answer.turns_after_current)) : null,
      h("ul", { class: "readout" }, ruleItems("li", {}, answer, "explain"))));
  }

  function tick() {
    if (!clock) return;
    title.textContent = clock.event?.name || t("Event clock");
    let left = roundLeft(clock.round, serverNow());
    // A table's page counts that table's time extensions (the clock is public).
    const ext = table ? (clock.tables || []).find((x) => x.number === table)?.extension_minutes || 0 : 0;
    if (left && ext && left.state !== "ended") {
      left = { ...left, remaining_ms: left.remaining_ms + ext * 60000, end_ms: left.end_ms && left.end_ms + ext * 60000 };
    }
    const face = showFace(time, left);
    const old = staleText(newsMs == null ? null : Date.now() - newsMs);
    if (stale.textContent !== old) stale.textContent = old;
    if (!left) { label.textContent = t("No round running"); state.textContent = ""; return; }
    state.textContent = face.phase === "running" ? "" : face.state;
    label.textContent = table
      ? t("Round {round} · table {table} · {state}", { round: clock.round.number, table, state: roundState(face.phase) })
      : t("Round {round} · {state}", { round: clock.round.number, state: roundState(face.phase) });
    ends.textContent = endsText(left, left.state === "ended" ? 0 : ext);
  }

  async function refresh() {
    try {
      clock = await api(`/api/events/${encodeURIComponent(slug)}/clock`, { timeoutMs: 8000 });
      newsMs = Date.now();
      clock.news_ms = newsMs;
      await store.set(key, clock);
      call?.seatedIn(clock);
      seen.textContent = "";
    } catch (err) {
      seen.textContent = clock ? t("Offline: showing the last clock this phone saw.")
        : err.status === 404 ? t("No event has this address. Check the link, or scan the table's code again.")
          : t("The event cannot be reached.");
    }
    tick();
    drawRules();
  }

  append(main, h("section", { class: "clock", "aria-labelledby": "pub-label" }, title, label, time, state, ends, stale),
    seen, badTable, call?.el, sub === "table" ? null : tablePicker(slug), rules);
  tick();
  drawRules();
  performance.mark("clock-visible");
  measureOffset(5).catch(() => {}).then(refresh);
  const iv = setInterval(tick, 200);
  // Polling only while the push stream is down.
  let poll = null;
  const stop = openStream(slug, {
    clock_version: refresh,
    calls_seq: () => call?.refresh(),
  }, (mode) => {
    clearInterval(poll);
    if (mode === "polling") poll = setInterval(() => { refresh(); call?.refresh(); }, 10000);
  });
  const heard = () => { newsMs = Date.now(); };
  pushState.addEventListener("message", heard);
  return () => {
    clearInterval(iv);
    clearInterval(poll);
    stop();
    pushState.removeEventListener("message", heard);
    for (const id of ["sync", "python"]) document.getElementById(id).hidden = false;
  };
}
