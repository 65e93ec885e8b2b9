"""Translated rule texts travel once on a first visit: they are in the app's catalogs
(i18n/<language>.json, which the screens read) and nowhere else; the engine package carries
no translation, and the phone's engine is handed the texts of the catalog (js/engine.js,
shared_rules translations.give) and answers in German as the engine does under CPython."""

import json
import zipfile
from collections import Counter
from urllib.parse import urlsplit

from shared_rules import evaluate, translations

from .conftest import PHONE, wait_controlled, wait_python

REQUEST = {"ruleset": "yugioh", "query": "penalty", "event": {"level": "tier2"},
           "facts": {"infraction": "slow_play", "history": []}}


def german_lines(count=30):
    """Translated rule texts (German, differing from their English) to look for in what was sent."""
    out = []
    for (_name, language), path in sorted(translations.files().items()):
        if language != "de":
            continue
        for line in translations.read(path)["lines"].values():
            text = line["text"]
            if text and text != line["en"] and len(text) > 40 and not any(c in text for c in '"\\'):
                out.append(text)
                break
    return out[:count]


def test_a_german_first_visit_downloads_each_translated_rule_text_once(browser, static_server, dist):
    sent_before = len(static_server.httpd.paths)
    ctx = browser.new_context(viewport=PHONE, locale="de-DE", service_workers="allow")
    try:
        page = ctx.new_page()
        page.goto(static_server.url + "/#/join")
        wait_controlled(page)
        wait_python(page)
        page.wait_for_selector("#offline[data-phase=ready]", state="attached", timeout=60_000)
        answer = page.evaluate("(r) => window.judge.evaluate(r)", REQUEST)
        assert page.evaluate("(r) => window.judge.evaluate(r).then(window.judge.answeredBy)", REQUEST) == "phone"
    finally:
        ctx.close()
    # the phone's engine answers in German, as the engine does with the translation files
    assert answer == json.loads(json.dumps(evaluate({**REQUEST, "language": "de"})))
    assert answer["language"] == "de" and answer["english"] == []

    sent = Counter(urlsplit(p).path for p in static_server.httpd.paths[sent_before:])
    catalogs = [f"/i18n/{p.name}" for p in sorted((dist / "i18n").glob("*.json"))]
    assert len(catalogs) == 5
    # every catalog (precached, so a language can be switched offline) once, the engine zip once
    assert {c: sent[c] for c in catalogs} == {c: 1 for c in catalogs}
    assert sent["/engine/shared_rules.zip"] == 1
    with zipfile.ZipFile(dist / "engine" / "shared_rules.zip") as engine:
        assert not [n for n in engine.namelist() if "/translations/" in n]
    # and no translated text is in any other file sent
    lines = german_lines()
    assert len(lines) >= 4
    for path in sent:
        body = (dist / path.lstrip("/")).read_bytes() if path != "/" else (dist / "index.html").read_bytes()
        held = [line for line in lines if line.encode() in body]
        assert held == (lines if path == "/i18n/de.json" else []), path
