// The screens' bar at the bottom is fixed over the page; its height (one row of names, or two
// in a language with long ones on a small phone) is kept as the CSS variable --nav-height, by
// which app.css pads the page and scrolls a focused field clear of the bar.

/** Keep --nav-height on <html> the bottom bar's height in px (0 while it is hidden). */
export function keepClearOfNav(nav = document.getElementById("nav")) {
  if (!nav) return;
  const root = document.documentElement;
  const measure = () => root.style.setProperty("--nav-height", `${nav.offsetHeight}px`);
  new ResizeObserver(measure).observe(nav);
  measure();
}
