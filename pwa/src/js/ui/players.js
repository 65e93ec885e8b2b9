// The players' page (#/event/<slug>): the event's clock and what happens at time for its
// game and level, in plain words. No login; shows nothing personal.
import { append, h, fill } from "../dom.js";
import { api } from "../api.js";
import { appJSON } from "../state.js";
import * as store from "../store.js";
import { measureOffset, serverNow } from "../servertime.js";
import { formatLeft, roundLeft, timeOfDay } from "../clock.js";

export async function render(main, [slug]) {
  const key = `public-clock:${slug}`;
  let clock = (await store.get(key)) ?? null;
  const title = h("h1", { id: "pub-title" }, "Event clock");
  const label = h("div", { class: "label", id: "pub-label" }, "");
  const time = h("div", { class: "time", id: "pub-left", role: "timer" }, "–:––");
  const ends = h("p", { class: "muted", id: "pub-ends" });
  const rules = h("section", { id: "pub-rules", "aria-labelledby": "pub-rules-h" });
  const seen = h("p", { class: "small muted", id: "pub-seen" });
  let rulesFor = null;
  document.getElementById("nav").hidden = true;
  for (const id of ["sync", "python"]) document.getElementById(id).hidden = true;
  document.getElementById("event-name").textContent = "Event clock";

  async function drawRules() {
    if (!clock?.event || rulesFor === clock.event.ruleset) return;
    rulesFor = clock.event.ruleset;
    const ruleset = await appJSON(`rules/${clock.event.ruleset}.json`).catch(() => null);
    if (!ruleset) return;
    const level = (ruleset.levels || []).find((l) => l.id === clock.event.level);
    // The rule data marks the topics meant for players (the clock, what happens at time).
    const topics = (ruleset.topics || []).filter((t) => t.for_players);
    const atTime = h("div", { id: "pub-at-time" });
    fill(rules, h("h2", { id: "pub-rules-h" }, "What happens at time"),
      h("p", {}, `${ruleset.title}${level ? ` · ${level.name}` : ""} · ${clock.event.stage === "elimination" ? "top cut" : "Swiss rounds"}${clock.event.games_per_match ? ` · best of ${clock.event.games_per_match}` : ""}`),
      atTime,
      topics.length ? h("h3", {}, "More about time") : null,
      topics.map((t) => h("div", { class: "card" }, h("h4", {}, t.name), h("p", {}, t.summary))));
    if (ruleset.queries?.time_call) showAtTime(atTime);
    else {
      fill(atTime, h("p", { id: "pub-no-procedure" },
        "This policy does not describe an end-of-match procedure. If time runs out, ask a judge."));
    }
  }

  // This event's own answer from the rules engine (the server runs the same Python code),
  // kept on the phone for when the network drops.
  async function showAtTime(el) {
    const ctx = {};
    for (const k of ["level", "stage", "games_per_match", "round_minutes"]) {
      if (clock.event[k] != null) ctx[k] = clock.event[k];
    }
    const key = `public-time:${slug}`;
    let answer = null;
    try {
      answer = await api(`/api/rulesets/${encodeURIComponent(clock.event.ruleset)}/evaluate`,
        { body: { query: "time_call", event: ctx, facts: {} }, timeoutMs: 8000 });
      await store.set(key, answer);
    } catch {
      answer = (await store.get(key)) ?? null;
    }
    if (!answer) return;
    fill(el, h("div", { class: "card decision" },
      answer.turns_after_current != null ? h("p", { class: "big-penalty" }, `${answer.turns_after_current} more turns after the current one`) : null,
      h("ul", { class: "readout" }, answer.explain.map((line) => h("li", {}, line)))));
  }

  function tick() {
    if (!clock) return;
    title.textContent = clock.event?.name || "Event clock";
    const left = roundLeft(clock.round, serverNow());
    if (!left) { label.textContent = "No round running"; time.textContent = "–:––"; return; }
    time.dataset.remainingMs = String(Math.round(left.remaining_ms));
    time.textContent = left.state === "ended" ? "0:00" : formatLeft(left.remaining_ms);
    label.textContent = `Round ${clock.round.number} · ${left.state === "running" ? "time left" : left.state}`;
    ends.textContent = left.end_ms ? `Ends at ${timeOfDay(left.end_ms)}` : "";
  }

  async function refresh() {
    try {
      clock = await api(`/api/events/${encodeURIComponent(slug)}/clock`, { timeoutMs: 8000 });
      await store.set(key, clock);
      seen.textContent = "";
    } catch {
      seen.textContent = clock ? "Offline: showing the last clock this phone saw." : "The event cannot be reached.";
    }
    tick();
    drawRules();
  }

  append(main, h("section", { class: "clock", "aria-labelledby": "pub-label" }, title, label, time, ends), seen, rules);
  tick();
  drawRules();
  performance.mark("clock-visible");
  measureOffset(5).catch(() => {}).then(refresh);
  const iv = setInterval(tick, 200);
  const poll = setInterval(refresh, 10000);
  return () => {
    clearInterval(iv);
    clearInterval(poll);
    for (const id of ["sync", "python"]) document.getElementById(id).hidden = false;
  };
}
