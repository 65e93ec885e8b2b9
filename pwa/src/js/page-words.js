// The page's fixed words (index.html): the text of each element marked `data-t` and the
// attributes each names in `data-t-attrs` ("aria-label title"), put into a language by a
// `translate(english) → text` function. The English is kept in the element's dataset on the
// first pass, so a later language starts from it. The first clock (first-clock.js) uses it
// with the few words the build puts in line, the app (i18n.js) with its whole catalog.

/** Put the fixed words under `root` into the language of `translate`. */
export function translateWords(root, translate) {
  for (const el of root.querySelectorAll("[data-t]")) {
    el.dataset.tEn ??= el.textContent;
    el.textContent = translate(el.dataset.tEn);
  }
  for (const el of root.querySelectorAll("[data-t-attrs]")) {
    for (const attr of el.dataset.tAttrs.split(/\s+/).filter(Boolean)) {
      const keep = `tEn${attr.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase())}`;
      el.dataset[keep] ??= el.getAttribute(attr) ?? "";
      el.setAttribute(attr, translate(el.dataset[keep]));
    }
  }
}
