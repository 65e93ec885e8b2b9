// The display settings on the Event screen: the language (as the browser, or one of the app's
// languages, lang.js), the colour theme (as the system, light or dark) and the clock's high
// contrast large text; a choice is kept on the device and shown at once (lang.js, theme.js).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { LANGUAGES, browserLanguage, languageChoice, setLanguage } from "../lang.js";
import { clockLook, setClockLook, setTheme, themeChoice } from "../theme.js";

function themeNames() {
  return { system: t("As the system"), light: t("Light"), dark: t("Dark") };
}

function clockNames() {
  return { standard: t("Standard"), contrast: t("High contrast, large") };
}

function choices(name, legend, names, current, onPick) {
  return h("fieldset", { id: `${name}-choice`, class: "choices" }, h("legend", {}, legend),
    Object.entries(names).map(([value, text]) => {
      const id = `${name}-${value}`;
      return h("div", { class: "choice" },
        h("input", { type: "radio", name, id, value, checked: value === current,
                     onchange: (ev) => { if (ev.currentTarget.checked) onPick(value); } }),
        h("label", { for: id }, text));
    }));
}

/** The language choice: each language named in its own words (and marked with its lang), and
 * "as the browser" naming the language that gives. */
function languageChoiceField() {
  const current = languageChoice();
  const fromBrowser = LANGUAGES[browserLanguage() ?? "en"];
  const select = h("select", { id: "language", name: "language",
                               onchange: (ev) => setLanguage(ev.currentTarget.value) },
    h("option", { value: "browser", selected: current === "browser" },
      t("As the browser ({language})", { language: fromBrowser })),
    Object.entries(LANGUAGES).map(([code, name]) =>
      h("option", { value: code, lang: code, selected: current === code }, name)));
  return [h("label", { for: "language" }, t("Language")), select];
}

/** The "Display" section: the language, the theme and the clock's look. */
export function lookSettings() {
  return h("section", { id: "look-settings", "aria-labelledby": "look-h" },
    h("h2", { id: "look-h" }, t("Display")),
    languageChoiceField(),
    choices("theme", t("Colours"), themeNames(), themeChoice(), setTheme),
    choices("clock-look", t("Clock"), clockNames(), clockLook(), setClockLook));
}
