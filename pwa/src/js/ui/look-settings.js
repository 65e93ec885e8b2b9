// The display settings on the Event screen: the colour theme (as the system, light or dark)
// and the clock's high contrast large text, each a group of radio buttons; a choice is kept on
// the device and shown at once (js/theme.js).
import { h } from "../dom.js";
import { clockLook, setClockLook, setTheme, themeChoice } from "../theme.js";

const THEME_NAMES = { system: "As the system", light: "Light", dark: "Dark" };
const CLOCK_NAMES = { standard: "Standard", contrast: "High contrast, large" };

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

/** The "Display" section: the theme and the clock's look. */
export function lookSettings() {
  return h("section", { id: "look-settings", "aria-labelledby": "look-h" },
    h("h2", { id: "look-h" }, "Display"),
    choices("theme", "Colours", THEME_NAMES, themeChoice(), setTheme),
    choices("clock-look", "Clock", CLOCK_NAMES, clockLook(), setClockLook));
}
