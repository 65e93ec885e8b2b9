// A visible, announced alert (role="alert" banner) with a short vibration where supported.
let timer = null;

/** Show `text` in the alert banner for `ms` milliseconds. */
export function showAlert(text, ms = 20000) {
  const el = document.getElementById("alert");
  el.textContent = text;
  el.hidden = false;
  el.onclick = () => { el.hidden = true; };
  if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
  clearTimeout(timer);
  timer = setTimeout(() => { el.hidden = true; }, ms);
}
