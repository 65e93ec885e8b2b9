"""The web app manifest in the phone's language (pwa/build/manifests.mjs, js/lang.js
manifestFile): one per language of the app, its name, short name and description from the
app's catalogs; the page links the one of the language shown from the first frame and again
when the judge chooses another, and the offline copy holds every one."""

import json

from .conftest import PHONE, wait_controlled

TEXTS = ("name", "short_name", "description")
LINKED = "() => document.querySelector('link[rel=manifest]').href"


def read(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_each_language_has_its_manifest_with_the_catalog_s_texts_and_all_are_precached(dist):
    english = read(dist / "manifest.webmanifest")
    assert (english["name"], english["short_name"], english["lang"]) == ("Judge's companion", "Judge", "en")
    codes = sorted(p.stem for p in (dist / "i18n").glob("*.json"))
    assert codes == ["de", "es", "fr", "it", "pt"]
    precached = {f["url"] for f in read(dist / "precache.json")["files"]}
    assert "manifest.webmanifest" in precached
    for code in codes:
        messages = read(dist / "i18n" / f"{code}.json")["messages"]
        manifest = read(dist / f"manifest.{code}.webmanifest")
        assert manifest["lang"] == code
        for key in TEXTS:
            assert manifest[key] == messages[english[key]] and manifest[key], (code, key)
        assert manifest["name"] != english["name"] and manifest["description"] != english["description"]
        # addresses, colours and icons are the English manifest's
        assert {k: v for k, v in manifest.items() if k not in (*TEXTS, "lang")} == \
            {k: v for k, v in english.items() if k not in (*TEXTS, "lang")}
        assert f"manifest.{code}.webmanifest" in precached
    assert read(dist / "manifest.de.webmanifest")["name"] == "Judge-Begleiter"


def test_a_german_phone_links_the_german_manifest_and_reads_it_offline(browser, static_server, dist):
    german = read(dist / "manifest.de.webmanifest")
    ctx = browser.new_context(viewport=PHONE, locale="de-DE", service_workers="allow")
    try:
        page = ctx.new_page()
        page.goto(static_server.url + "/#/join", wait_until="domcontentloaded")
        # linked from the first frame (the page's first code, before the app's)
        assert page.evaluate(LINKED) == f"{static_server.url}/manifest.de.webmanifest"
        assert page.evaluate("document.documentElement.lang") == "de"
        wait_controlled(page)
        page.wait_for_selector("#offline[data-phase=ready]", state="attached", timeout=60_000)
        ctx.set_offline(True)
        served = page.evaluate("""async (url) => {
            const reply = await fetch(url);
            return {ok: reply.ok, body: await reply.json()};
        }""", page.evaluate(LINKED))
        assert served["ok"] and served["body"] == german
    finally:
        ctx.close()


def test_choosing_german_links_the_german_manifest_and_a_restart_keeps_it(browser, static_server):
    ctx = browser.returning(static_server.url, viewport=PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        page.goto(static_server.url + "/#/join")
        page.wait_for_selector("main[data-screen=join] h1")
        assert page.evaluate(LINKED) == f"{static_server.url}/manifest.webmanifest"
        page.select_option("#language", "de")
        page.wait_for_function("document.documentElement.lang === 'de'")
        assert page.evaluate(LINKED) == f"{static_server.url}/manifest.de.webmanifest"
        page.close()
        again = ctx.new_page()
        again.goto(static_server.url + "/#/clock", wait_until="domcontentloaded")
        assert again.evaluate(LINKED) == f"{static_server.url}/manifest.de.webmanifest"
        # back to the browser's language: the English manifest
        again.goto(static_server.url + "/#/join")
        again.wait_for_selector("main[data-screen=join] h1")
        again.select_option("#language", "browser")
        again.wait_for_function("document.documentElement.lang === 'en'")
        assert again.evaluate(LINKED) == f"{static_server.url}/manifest.webmanifest"
    finally:
        ctx.close()
