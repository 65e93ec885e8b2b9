"""Rule texts in the phone's language: a German-speaking phone reads the Yu-Gi-Oh! rule lines
in German, and a line whose English changed since it was translated is shown in English,
marked "(English)" (in the app's language) with lang="en" (shared_rules/translations.py, ui/rule-text.js)."""

import io
import json
import zipfile

from .conftest import DIST, PHONE, wait_python
from .helpers import pick, standalone

STALE_PATH = "infractions[slow_play].rules[0].first[slow_play].steps[1].explain"
GERMAN_FILE = "shared_rules/translations/yugioh.de.json"


def engine_zip_with_changed_english() -> bytes:
    """The built engine zip with the German Yu-Gi-Oh! file recording an older English for
    one line: what the file holds after that line's English changed in the ruleset."""
    out = io.BytesIO()
    with zipfile.ZipFile(DIST / "engine" / "shared_rules.zip") as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == GERMAN_FILE:
                german = json.loads(data)
                german["lines"][STALE_PATH]["en"] = "An older English text of this line."
                data = json.dumps(german, ensure_ascii=False).encode()
            dst.writestr(item, data)
    return out.getvalue()


def test_a_german_phone_reads_german_rule_lines_and_a_changed_english_line_marked(browser, static_server):
    with zipfile.ZipFile(DIST / "engine" / "shared_rules.zip") as built:
        english_line = json.loads(built.read(GERMAN_FILE))["lines"][STALE_PATH]["en"]
    body = engine_zip_with_changed_english()
    ctx = browser.new_context(viewport=PHONE, service_workers="allow")
    try:
        ctx.add_init_script("try { localStorage.setItem('judge-language', 'de'); } catch { /* about:blank */ }")
        # the service worker's precache fetch of the zip is routed too (Chromium)
        ctx.route("**/engine/shared_rules.zip*",
                  lambda route: route.fulfill(status=200, body=body, content_type="application/zip"))
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
