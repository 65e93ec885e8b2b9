// A player's own decklist on the players' page (#/event/<slug>/decklist[/<code>]): with the
// code the organiser handed them, they see their registered list and the deadline, and submit
// a list (pasted or from a file) until it passes (the server's clock decides). A list that does
// not read is refused line by line, each line named; nothing stored is lost. No login; the
// code is the player's key, sent only in request bodies (never in a fetched address).
import { append, fill, h } from "../dom.js";
import { api } from "../api.js";
import { ruleData } from "../state.js";
import { timeOfDay } from "../clock.js";
import { listSections, sizeProblemText } from "./decklist-view.js";
import { t, tn } from "../i18n.js";

// the formats the server reads (server/decklists), in the words people know them by
function formatNames() {
  return {
    plain: t("Plain text (4 Card Name)"), arena: t("MTG Arena export"), mtgo: t("MTGO .dek file"),
    ydk: t("YDK file"), ydke: t("ydke:// URL"), ptcgl: t("Pokémon TCG Live"),
  };
}

/** A refused line's problem in words (the server's codes, server/decklists); the server's
 * English words where the code is unknown here. */
function problemText(p) {
  const words = {
    no_count: () => t("not a card line: write the number of copies first, as in 4 Card Name"),
    count_range: () => t("{count} copies: a line names 1 to {limit} copies", p),
    no_name: () => t("a card without a name"),
    characters: () => t("holds characters that are not text"),
    too_long: () => t("longer than {limit} characters", p),
    too_many_entries: () => t("more than {limit} card lines: the list stops here", p),
    too_many_lines: () => t("more than {limit} lines", p),
    too_large: () => t("more than {limit} characters", p),
    empty: () => t("no card in the list"),
    third_part: () => t("a third part after a second blank line: name it with a header (Sideboard, Extra deck)"),
    unknown_header: () => t("not a card line or a header this format knows (Deck, Sideboard)"),
    passcode: () => t("not a passcode: one number of up to {limit} digits a line", p),
    no_section: () => t("a card before any section header"),
    ydke: () => t("not a ydke:// URL: it holds three parts, main!extra!side!"),
    ydke_part: () => t("the {section} part of the URL is not base64 of passcodes", p),
    xml: () => t("not readable as XML: {detail}", p),
    xml_unsafe: () => t("XML with a DTD or entities, which is refused"),
    xml_root: () => t("an MTGO .dek file starts with <Deck>, not <{found}>", p),
    xml_quantity: () => t("Quantity must be a whole number of copies"),
    xml_sideboard: () => t("Sideboard must be true or false, not {found}", p),
    group_count: () => t("the heading says {expected} cards, the lines under it hold {found}", p),
  }[p.problem];
  const text = words ? words() : p.message;
  return p.line ? t("Line {line} ({text}): {problem}", { line: p.line, text: p.text, problem: text }) : text;
}

/** When the deadline is, in this phone's time zone ("Sat 14:30" style, with the date). */
function deadlineText(ms) {
  return new Date(ms).toLocaleString(document.documentElement.lang || undefined,
    { dateStyle: "medium", timeStyle: "short" });
}

export async function render(main, slug, codeArg) {
  const names = formatNames();
  let ruleset = null;
  // the ruleset's names of the parts of a list, once the event's ruleset is known (its clock)
  const sectionName = (id) => (ruleset?.sections || []).find((s) => s.id === id)?.name ?? id;
  const code = h("input", { id: "dl-code", autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
    value: codeArg ? decodeURIComponent(codeArg) : "", maxlength: "32" });
  const codeError = h("p", { class: "bad-text", id: "dl-code-error", role: "alert", hidden: true });
  const shown = h("div", { id: "dl-shown", "aria-live": "polite" });
  const heading = h("h1", { id: "dl-h" }, t("Your decklist"));

  async function ask(path, body) {
    codeError.hidden = true;
    try {
      return await api(`/api/events/${encodeURIComponent(slug)}/${path}`, { body, timeoutMs: 20000 });
    } catch (err) {
      if (err.status === 404) codeError.textContent = t("No player of this event has this code. Check your slip.");
      else if (err.status === 429) codeError.textContent = t("Too many wrong codes from this network: wait a few minutes.");
      else if (err.code === "network") codeError.textContent = t("The event cannot be reached: try again when online.");
      else return Promise.reject(err);
      codeError.hidden = false;
      return null;
    }
  }

  function listPart(list) {
    if (!list) return h("p", { id: "dl-none" }, t("No list is registered for you yet."));
    return h("div", { id: "dl-list" }, h("h2", {}, t("Your registered list")),
      h("p", { class: "small muted" }, t("Registered {when}, {by}; {count} cards.", {
        when: `${new Date(list.created_ms).toLocaleDateString(document.documentElement.lang || undefined)} ${timeOfDay(list.created_ms)}`,
        by: list.by === "player" ? t("by you") : t("by the organiser"), count: list.total })),
      list.problems.length ? h("p", { class: "flag", id: "dl-size-problems" },
        list.problems.map((p) => sizeProblemText(p, sectionName)).join("; ")) : null,
      listSections(list.sections, sectionName));
  }

  function submitForm(reply) {
    const text = h("textarea", { id: "dl-text", rows: "14", spellcheck: "false" });
    const format = h("select", { id: "dl-format" }, h("option", { value: "" }, t("Recognise the format")),
      Object.entries(names).map(([id, name]) => h("option", { value: id }, name)));
    const file = h("input", { id: "dl-file", type: "file", accept: ".txt,.dek,.ydk,text/plain,application/xml,text/xml",
      onchange: async () => { if (file.files[0]) text.value = await file.files[0].text(); } });
    const refused = h("div", { id: "dl-refused", role: "alert" });
    const send = async (ev) => {
      ev.preventDefault();
      fill(refused);
      if (!text.value.trim()) {
        fill(refused, h("p", { class: "bad-text" }, t("Paste your list or choose its file first.")));
        return;
      }
      const button = ev.submitter;
      if (button) button.disabled = true;
      try {
        const done = await ask("decklist", { code: code.value, text: text.value, ...(format.value ? { format: format.value } : {}) });
        if (done) {
          show(done);
          shown.prepend(h("p", { class: "ok-text", id: "dl-stored", role: "status", tabindex: "-1" },
            t("Your list is stored. The latest list before the deadline counts.")));
          shown.querySelector("#dl-stored").focus();
        }
      } catch (err) {
        fill(refused, h("p", { class: "bad-text" }, err.lines
          ? tn("Your list was not stored: {count} line does not read.", "Your list was not stored: {count} lines do not read.",
            err.lines.length) : err.message),
        err.lines ? h("ul", { id: "dl-lines" }, err.lines.map((p) => h("li", { "data-line": p.line ?? "" }, problemText(p)))) : null);
      } finally {
        if (button) button.disabled = false;
      }
    };
    return h("form", { id: "dl-form", onsubmit: send, "aria-labelledby": "dl-new-h" },
      h("h2", { id: "dl-new-h" }, reply.list ? t("Send a new version") : t("Send your list")),
      h("label", { for: "dl-format" }, t("Format")), format,
      h("label", { for: "dl-file" }, t("From a file")), file,
      h("label", { for: "dl-text" }, t("Or paste it")), text, refused,
      h("button", { type: "submit", id: "dl-send", class: "wide" }, t("Send my list")));
  }

  function show(reply) {
    heading.textContent = t("Decklist of {player}", { player: reply.player.name });
    const deadline = reply.deadline_ms == null
      ? h("p", { id: "dl-deadline", "data-open": "no" }, t("This event does not take decklists from players: hand yours to the organiser."))
      : reply.open ? h("p", { id: "dl-deadline", "data-open": "yes" }, t("You can send or change your list until {deadline}.",
        { deadline: deadlineText(reply.deadline_ms) }))
        : h("p", { id: "dl-deadline", "data-open": "no" }, t("The deadline passed at {deadline}: only the organiser can change your list now.",
          { deadline: deadlineText(reply.deadline_ms) }));
    fill(shown, deadline, listPart(reply.list), reply.open ? submitForm(reply) : null);
  }

  const open = async (ev) => {
    ev?.preventDefault();
    if (!code.value.trim()) {
      codeError.textContent = t("Type the code from your slip.");
      codeError.hidden = false;
      return;
    }
    const reply = await ask("decklist/mine", { code: code.value }).catch((err) => {
      codeError.textContent = err.message;
      codeError.hidden = false;
      return null;
    });
    if (reply) show(reply);
  };

  append(main, heading,
    h("form", { id: "dl-code-form", onsubmit: open },
      h("label", { for: "dl-code" }, t("Your decklist code")), code, codeError,
      h("button", { type: "submit", id: "dl-open" }, t("Show my decklist"))),
    shown,
    h("p", {}, h("a", { href: `#/event/${encodeURIComponent(slug)}` }, t("Event clock"))));
  api(`/api/events/${encodeURIComponent(slug)}/clock`, { timeoutMs: 8000 })
    .then((clock) => ruleData(clock.event.ruleset)).then((data) => { ruleset = data; }).catch(() => {});
  if (code.value) open();
}
