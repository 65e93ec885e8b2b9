// A tap under way: from the finger (or button) going down until its click, or shortly after a
// release that made none (a scroll, a drag). What would take away, replace or move the content
// under the finger waits for it to end (afterPress): otherwise the release lands on nothing and
// the tap is lost, or on what moved there (another table's button).
let pressed = false;
const due = new Set();

function letGo() {
  if (!pressed) return;
  pressed = false;
  const now = [...due];
  due.clear();
  for (const fn of now) fn();
}

document.addEventListener("pointerdown", () => { pressed = true; }, { capture: true });
// a touch's click comes after the finger is up
document.addEventListener("click", () => setTimeout(letGo), { capture: true });
document.addEventListener("pointerup", () => setTimeout(letGo, 500), { capture: true });
document.addEventListener("pointercancel", () => setTimeout(letGo), { capture: true });

/** Run `fn` now, or once the tap under way is over (once, however often it is asked meanwhile). */
export function afterPress(fn) {
  if (pressed) due.add(fn);
  else fn();
}
