// What the organiser's server accepts in a record's fields, checked on screen before a record
// is made, so that a record is never refused later for a value typed here (a refused record
// stays only on this phone). The server's own checks are server/records.py and
// server/fields.py; tests/server/test_app_checks.py keeps these numbers equal to its.
import { t, tn } from "./i18n.js";

export const LIMITS = Object.freeze({
  table: 9999, // table numbers run from 1 to this
  name: 200, // a player's name typed in place of one of the event's players
  judge: 100, // a judge's name (who ruled, who was consulted)
  notes: 2000, // notes, reasons, rulings
  minutes: 240, // one time extension, at most
  device: 100, // a device's name
  code: 32, // an event's join code
  games: 99, // games one player won in a match
});

// a lone surrogate half, NUL and other control characters (line breaks and tabs are allowed
// in free text that may span lines)
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const CONTROL_ONE_LINE = /[\u0000-\u001F\u007F-\u009F]/;
// marks that turn the direction of the text around them (a name could be made to read as
// another), and in one-line text the invisible characters that make two equal-looking names
const DIRECTION = /[\u202A-\u202E\u2066-\u2069]/;
const INVISIBLE = /[\u200B\u2060\uFEFF]/;

/** Why `text` cannot be recorded as free text of at most `max` characters, or null; shown
 *  after a label ("Notes: too long: 2001 characters, at most 2000.").
 *  `multiline`: line breaks and tabs allowed (notes); otherwise one line (a name). */
export function textProblem(text, max = LIMITS.notes, multiline = true) {
  if (LONE_SURROGATE.test(text)) return t("contains a broken character (half of a pair): type it again");
  if (text.includes("\u0000")) return t("contains a NUL character, which cannot be recorded");
  if ((multiline ? CONTROL : CONTROL_ONE_LINE).test(text)) return t("contains a control character, which cannot be recorded");
  if (DIRECTION.test(text)) return t("contains a mark that turns the text's direction, which cannot be recorded");
  if (!multiline && INVISIBLE.test(text)) return t("contains an invisible character, which cannot be recorded");
  if (text.length > max) {
    return tn("too long: {count} character, at most {max}", "too long: {count} characters, at most {max}", text.length,
      { max });
  }
  return null;
}

/** Why `value` (a number, a field's text, or null/"" for none) is not a table number, or null. */
export function tableProblem(value, required = false) {
  if (value == null || value === "") return required ? t("a table number is needed") : null;
  // typed text must be digits only: Number() would read "1e3" as 1000 and " 0x1f" as 31
  const n = typeof value === "string" ? (/^\s*\d+\s*$/.test(value) ? Number(value) : NaN) : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > LIMITS.table) return t("must be a whole number from 1 to {max}", { max: LIMITS.table });
  return null;
}

/** Why typed `text` is not a number that `bounds` allows, or null. `bounds`: `{minimum, whole}`
 * of a fact, as the engine's needs entry or the query's vocabulary gives them (minimum 0
 * unless set). Digits only, with one decimal point where fractions are allowed (a comma
 * counts as one): Number() would read "1e9" as a billion, "" as 0 and " 0x1f" as 31. */
export function numberProblem(text, { minimum = 0, whole = false } = {}) {
  const typed = String(text ?? "").trim();
  const at = { minimum };
  if (!typed) {
    return whole ? t("a whole number of {minimum} or more is needed", at) : t("a number of {minimum} or more is needed", at);
  }
  if (!(whole ? /^\d+$/ : /^\d+([.,]\d+)?$/).test(typed)) {
    return whole ? t("must be a whole number of {minimum} or more, in digits", at)
      : t("must be a number of {minimum} or more, in digits", at);
  }
  const n = typedNumber(typed);
  // (a number typed with hundreds of digits is shown by its start)
  if (!Number.isSafeInteger(Math.floor(n))) return t("too large: {typed}", { typed: typed.length > 16 ? `${typed.slice(0, 12)}…` : typed });
  if (n < minimum) {
    return whole ? t("must be a whole number of {minimum} or more", at) : t("must be a number of {minimum} or more", at);
  }
  return null;
}

/** The number typed in `text` (one that numberProblem accepts). */
export function typedNumber(text) {
  return Number(String(text).trim().replace(",", "."));
}

/** Why typed `text` is not a time extension the server takes, or null: digits, above 0, at
 * most LIMITS.minutes, in steps of `unit` minutes (the ruleset's: state.js answerUnit gives
 * it; null for any step). */
export function extensionProblem(text, unit) {
  unit = unit ?? 0;
  const given = numberProblem(text) ? NaN : typedNumber(text);
  const onStep = !unit || Math.abs(given / unit - Math.round(given / unit)) < 1e-9;
  if (Number.isFinite(given) && given > 0 && given <= LIMITS.minutes && onStep) return null;
  return unit === 1 ? t("Time extensions are given in whole minutes: enter a whole number from 1 to {limit}.", { limit: LIMITS.minutes })
    : t("Enter the minutes as a number above 0 and at most {limit}, in steps of {unit}.", { limit: LIMITS.minutes, unit: unit || 1 });
}
