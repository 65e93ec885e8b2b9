"""Rule texts in the phone's language: a German-speaking phone reads the Yu-Gi-Oh! rule lines
in German, and a line whose English changed since it was translated is shown in English,
marked "(English)" (in the app's language) with lang="en" (shared_rules/translations.py, ui/rule-text.js)."""

import json

from shared_rules import library, translations

from .conftest import DIST, PHONE, wait_python
from .helpers import pick, standalone

STALE_PATH = "infractions[slow_play].rules[0].first[slow_play].steps[1].explain"


def catalog_with_a_stale_line() -> tuple[str, bytes]:
    """(the line's English, the built German catalog as it is once that line's English changed
    in the ruleset): the build then writes the English with the catalog's rule_mark in front,
    and the engine is handed that (translations.give)."""
    catalog = json.loads((DIST / "i18n" / "de.json").read_text(encoding="utf-8"))
    english = translations.text_paths(library.load_ruleset("yugioh"))[STALE_PATH]
    translations._set(catalog["rules"]["yugioh"], STALE_PATH, catalog["rule_mark"] + english)
    return english, json.dumps(catalog, ensure_ascii=False).encode()


def test_a_german_phone_reads_german_rule_lines_and_a_changed_english_line_marked(browser, static_server):
    english_line, body = catalog_with_a_stale_line()
    ctx = browser.new_context(viewport=PHONE, service_workers="allow")
    try:
        ctx.add_init_script("try { localStorage.setItem('judge-language', 'de'); } catch { /* about:blank */ }")
        # the service worker's precache fetch of the catalog is routed too (Chromium)
        ctx.route("**/i18n/de.json*",
                  lambda route: route.fulfill(status=200, body=body, content_type="application/json"))
        page = ctx.new_page()
        standalone(page, static_server.url, "yugioh", "tier2")
        wait_python(page)
        pick(page, "slow", "slow_play", "Pia")
        page.click("#pen-decide")
        page.wait_for_selector("#pen-card")
        lines = page.locator("ul.readout li")
        texts = lines.all_text_contents()
        assert "Verstoß: Langsames Spiel." in texts
        assert "Strafe: Verwarnung." in texts
        marked = page.locator("ul.readout li[lang=en]")
        assert marked.count() == 1
        # the mark is the app's own word, in the language shown
        mark = json.loads((DIST / "i18n" / "de.json").read_text(encoding="utf-8"))["messages"]["(English)"]
        assert mark and marked.text_content() == f"{english_line} {mark}"
        assert marked.locator(".english-mark").text_content() == mark
        # the German lines carry no mark and no lang of their own
        assert page.locator("ul.readout li:not([lang])").count() == len(texts) - 1
        assert page.locator("ul.readout .english-mark").count() == 1
    finally:
        ctx.close()
