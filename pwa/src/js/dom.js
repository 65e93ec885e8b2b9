// A tiny element builder: h("button", {type: "button", onclick}, "Text", child, ...).
// Attributes starting with "on" become listeners; `false`/null values are skipped.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value == null) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key in el && typeof value !== "string") el[key] = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  append(el, children);
  return el;
}

/** Append children (nodes, strings, arrays; null and false are skipped). */
export function append(el, ...children) {
  appendList(el, children);
  return el;
}

function appendList(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's content. */
export function fill(el, ...children) {
  el.replaceChildren();
  appendList(el, children);
  return el;
}

/** A unique id for label/aria wiring. */
let seq = 0;
export function uid(prefix = "f") {
  seq += 1;
  return `${prefix}-${seq}`;
}

/** Where the keyboard is inside `box`, to be put back after `box` is drawn again (keptFocus):
 * {id} for an element with an id, else {row, mark}: the value of the `rowKey` data attribute
 * (e.g. "record" for li[data-record]) of its row, and what the element is within the row (its
 * first data attribute, else its class). null when the keyboard is elsewhere. */
export function focusPlace(box, rowKey) {
  const el = document.activeElement;
  if (!el || el === box || !box.contains(el)) return null;
  if (el.id) return { id: el.id };
  const row = el.closest(`[data-${rowKey}]`)?.dataset[rowKey];
  const attr = [...el.attributes].find((a) => a.name.startsWith("data-"));
  return row == null ? null : { row, mark: attr ? [attr.name, attr.value] : ["class", el.className] };
}

/** Put the keyboard back where focusPlace found it, if that element is still drawn. */
export function keptFocus(box, rowKey, place) {
  if (!place) return;
  const row = place.row == null ? null
    : [...box.querySelectorAll(`[data-${rowKey}]`)].find((el) => el.dataset[rowKey] === place.row);
  const [name, value] = place.mark || [];
  const again = place.id ? document.getElementById(place.id)
    : [...(row?.querySelectorAll(`[${name}]`) || [])].find((el) => el.getAttribute(name) === value);
  if (!again) return;
  again.focus({ preventScroll: true });
  // the caret at the end of what was typed (a field kept by id is a new one, with the draft)
  if (again.matches("textarea, input[type=text], input:not([type])")) again.setSelectionRange(again.value.length, again.value.length);
}
