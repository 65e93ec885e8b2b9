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
