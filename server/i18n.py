"""The organiser pages' languages (Flask-Babel): English (the source) and the five
translations in `server/translations/<lang>/LC_MESSAGES/messages.po` (compiled to .mo by
`.ci/setup`; extraction: `babel.cfg`). The language is the one chosen with the pages' picker
(kept in the LANG_COOKIE cookie: organiser.choose_language), else the browser's
Accept-Language, else English.

The API's messages stay English (errors.error_response renders them so). Rule data (ruleset
titles, level, penalty and infraction names, the engine's answers) is shown in the page's
language where the rule data has a current translation (server.rules.load_ruleset,
shared_rules/translations.py), else in English marked as such: `rule_text` and `rule_lang`
below are the pages' one way to show it.
"""

from flask import has_request_context, request
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup, escape

from shared_rules.translations import MARK, strip

LANGUAGES = {"en": "English", "de": "Deutsch", "fr": "Français", "it": "Italiano", "es": "Español",
             "pt": "Português"}  # code → the language's own name, as the picker shows it
DEFAULT = "en"
LANG_COOKIE = "lang"
LANG_COOKIE_DAYS = 365

# words the server itself shows for its own states and settings (not rule data)
LABELS = {
    "running": _l("running"), "paused": _l("paused"), "ended": _l("ended"),
    "time called": _l("time called"), "deck check": _l("deck check"), "playing": _l("playing"),
    "result in": _l("result in"), "results differ": _l("results differ"),
    "open": _l("open"), "taken": _l("taken"),
    "pending": _l("pending"), "approved": _l("approved"), "declined": _l("declined"),
    "swiss": _l("Swiss rounds"), "elimination": _l("top cut (elimination)"),
    "floor_judge": _l("floor judge"), "head_judge": _l("head judge"), "scorekeeper": _l("scorekeeper"),
    "organiser": _l("organiser"),
}

def select_locale() -> str:
    """The pages' language: the picker's cookie when it names one of LANGUAGES, else the best
    match of the request's Accept-Language (a regional tag such as de-CH matches de), else
    English (also outside a request, e.g. the command line)."""
    if not has_request_context():
        return DEFAULT
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT


def label(value: str | None) -> str:
    """The shown word for one of the server's own state or role values (LABELS), in the page's
    language; any other value as it is."""
    return LABELS.get(value, value) if value is not None else ""


def page_language() -> str:
    """The language code the page is shown in (for `<html lang>`)."""
    return str(get_locale() or DEFAULT)


def rule_text(text: str | None) -> Markup:
    """Jinja filter `rule_text`: a text of rule data (as server.rules.load_ruleset or an engine
    answer in the page's language gives it) for an element's content, escaped. A text that
    carries translations.MARK (no current translation: shown in English, as unmark counts it)
    comes without the mark in `<span lang="en" data-english>`, followed by "(English)" in the
    page's language, as the judge app shows it (pwa/src/js/ui/rule-text.js), so readers and
    screen readers know. None gives an empty text."""
    if text is None:
        return Markup("")
    text = str(text)
    if MARK not in text:
        return escape(text)
    return Markup('<span lang="en" data-english>%s</span> <span class="muted english-mark">%s</span>') % (
        strip(text), _("(English)"))


def rule_lang(*texts: str | None) -> Markup:
    """Jinja global: the attributes ` lang="en" data-english` for an element that can hold
    only text (an `<option>`) when any of its rule-data `texts` is shown in English (carries
    translations.MARK), else nothing. Show the texts themselves with `unmarked`."""
    english = any(MARK in str(t) for t in texts if t is not None)
    return Markup(' lang="en" data-english') if english else Markup("")


def unmarked(text: str | None) -> str:
    """Jinja filter `unmarked`: a rule-data text without translations.MARK (for an `<option>`,
    beside `rule_lang`); None gives an empty text."""
    return "" if text is None else strip(str(text))
