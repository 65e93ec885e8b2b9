// index.html's fixed words in each language other than English, `{language: {english:
// text}}`, for the page's first frame (first-clock.js), before the app's catalog is read.
// The build fills this from the catalogs (src/i18n); the sources hold none.
export const FIRST_WORDS = {};
