// A registered decklist as judges read it (the Players screen, the deck check): its sections
// in the ruleset's words, each card as the player wrote it (a card known by its code alone,
// a Yu-Gi-Oh! passcode, shown as its code), who registered it and when.
import { h } from "../dom.js";
import { app } from "../state.js";
import * as store from "../store.js";
import { timeOfDay } from "../clock.js";
import { t } from "../i18n.js";

/** A decklist section's name: the ruleset's own words, else the shared ones, else its id. */
export function sectionName(id) {
  return (app.ruleset?.sections || []).find((s) => s.id === id)?.name ?? app.queries?.sections?.[id]?.name ?? id;
}

/** A list's size problem in words: "Main deck: 58 cards, at least 60" (`nameOf`: a section's name). */
export function sizeProblemText(p, nameOf = sectionName) {
  return p.problem === "too_few"
    ? t("{section}: {count} cards, at least {minimum}", { section: nameOf(p.section), count: p.count, minimum: p.minimum })
    : t("{section}: {count} cards, at most {maximum}", { section: nameOf(p.section), count: p.count, maximum: p.maximum });
}

/** A list's sections ([{id, cards}]) and cards, read only (`nameOf`: a section's name). */
export function listSections(sections, nameOf = sectionName) {
  return sections.map((s) => h("div", { class: "decklist-section", "data-section": s.id },
    h("h3", {}, t("{section} ({count})", { section: nameOf(s.id), count: s.cards.reduce((n, c) => n + c.count, 0) })),
    h("ul", { class: "decklist" }, s.cards.map((c) => h("li", {}, `${c.count} `, c.name || h("code", {}, c.code),
      c.name && c.code ? h("span", { class: "small muted" }, ` (${c.code})`) : null)))));
}

/** The Players screen's part for `player`: their registered list as this phone has it, or
 * what to do when it has none. */
export async function registeredList(player) {
  const list = await store.playerDecklist(app.session.event.slug, player);
  if (!list) {
    return h("p", { class: "small muted", id: "player-no-list" }, t("No registered decklist for this player on this phone."));
  }
  return h("details", { id: "player-list", "data-record": list.id },
    h("summary", {}, t("Registered decklist ({when}, {by})", { when: timeOfDay(list.created_ms),
      by: list.payload.by === "player" ? t("by the player") : t("by the organiser") })),
    list.payload.late ? h("p", { class: "small flag" }, t("Stored after the deadline.")) : null,
    listSections(list.payload.sections));
}
