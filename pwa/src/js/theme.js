// The look the judge picked on the Event screen, kept on the device: the colour theme
// (following the system's light or dark scheme, or always one of them) and the clock's high
// contrast large text. Both are attributes of <html> the style sheet reads: data-theme
// ("light" | "dark", the theme in use) and data-clock ("standard" | "contrast").
// localStorage keeps them so index.html can set both before the first paint (its inline
// script reads the same keys); this module changes them and follows the system's scheme.

export const THEMES = ["system", "light", "dark"];
export const CLOCK_LOOKS = ["standard", "contrast"];
const THEME_KEY = "judge-theme";
const CLOCK_KEY = "judge-clock";
const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

function kept(key, allowed) {
  let value = null;
  try { value = localStorage.getItem(key); } catch { /* storage blocked: the default */ }
  return allowed.includes(value) ? value : allowed[0];
}

function keep(key, value) {
  try { localStorage.setItem(key, value); } catch { /* storage blocked: this page only */ }
}

/** The theme the judge picked: "system", "light" or "dark". */
export function themeChoice() {
  return kept(THEME_KEY, THEMES);
}

/** The clock's look the judge picked: "standard" or "contrast". */
export function clockLook() {
  return kept(CLOCK_KEY, CLOCK_LOOKS);
}

/** Set <html>'s data-theme and data-clock from the kept choices and the system's scheme. */
export function applyLook() {
  const choice = themeChoice();
  const root = document.documentElement;
  root.dataset.theme = choice === "system" ? (systemDark.matches ? "dark" : "light") : choice;
  root.dataset.themeChoice = choice;
  root.dataset.clock = clockLook();
}

/** Keep `choice` ("system", "light" or "dark") as the theme and show it. */
export function setTheme(choice) {
  if (!THEMES.includes(choice)) throw new Error(`unknown theme ${choice}`);
  keep(THEME_KEY, choice);
  applyLook();
}

/** Keep `look` ("standard" or "contrast") as the clock's look and show it. */
export function setClockLook(look) {
  if (!CLOCK_LOOKS.includes(look)) throw new Error(`unknown clock look ${look}`);
  keep(CLOCK_KEY, look);
  applyLook();
}

/** Show the kept look and follow the system's scheme while the theme is "system". */
export function startLook() {
  applyLook();
  systemDark.addEventListener("change", applyLook);
}
