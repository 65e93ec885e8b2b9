// Deck-check coverage for the head judge (Review screen): what the policy asks of regular
// deck checks at the event's level, with its label and source (the engine's deck_checks
// answer, e.g. Wonders of the First §3.8), the top-cut players never checked during the Swiss
// rounds, and who was checked. It comes from the organiser's server
// (GET /api/events/<slug>/deck-checks), which knows the rounds' stages and pairings.
import { fill, h } from "../dom.js";
import { api } from "../api.js";
import { app } from "../state.js";
import { t } from "../i18n.js";
import { language } from "../lang.js";
import { isEnglish, ruleText } from "./rule-text.js";

/** A section that fills itself with the event's coverage (or says why it cannot). */
export function coverageSection() {
  const box = h("section", { id: "deck-coverage", "aria-labelledby": "deck-coverage-h" },
    h("h2", { id: "deck-coverage-h" }, t("Deck checks")), h("p", { class: "muted" }, t("Asking the organiser's server…")));
  const s = app.session;
  api(`api/events/${encodeURIComponent(s.event.slug)}/deck-checks?language=${language()}`, { token: s.token }).then((body) => {
    const p = body.policy;
    const text = (where) => ruleText("span", {}, p[where], isEnglish(p, where));
    fill(box, h("h2", { id: "deck-coverage-h" }, t("Deck checks")),
      !p.covered ? h("p", { id: "deck-policy", "data-expectation": "" },
        t("This policy does not say how often decks are checked (not stated)."))
        : h("p", { id: "deck-policy", "data-expectation": p.expectation ?? "" }, text("label"), ": ",
          h("strong", {}, p.stated ? text("expectation_label") : t("not stated")),
          p.sources.length ? h("span", { class: "source" }, ` (${p.sources.join("; ")})`) : null),
      p.covered ? h("p", { class: "small muted" }, text("top_cut_field"), ": ",
        p.top_cut_checked == null ? t("not stated") : p.top_cut_checked ? t("advised") : t("not asked")) : null,
      body.top_cut_players ? [
        h("h3", {}, t("Top-cut players never checked during the Swiss rounds ({count} of {total})",
          { count: body.top_cut_unchecked.length, total: body.top_cut_players })),
        body.top_cut_unchecked.length
          ? h("ul", { class: "list", id: "deck-unchecked" }, body.top_cut_unchecked.map((x) => h("li", {}, x.player_name)))
          : h("p", { class: "muted" }, t("Every top-cut player was checked."))] : null,
      h("p", { class: "small", id: "deck-checked" }, body.players.length
        ? t("Checked: {players}", { players: body.players.map((x) => t("{player} (round {rounds})",
          { player: x.player_name, rounds: x.checks.map((c) => c.round).join(", ") })).join("; ") })
        : t("No deck checks recorded yet.")));
  }, (err) => {
    fill(box, h("h2", { id: "deck-coverage-h" }, t("Deck checks")),
      h("p", { class: "muted" }, t("Coverage comes from the organiser's server: {reason}", { reason: err.message })));
  });
  return box;
}
