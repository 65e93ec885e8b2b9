"""The round's time left as the page opens (js/first-clock.js): drawn from the copy kept in
localStorage before the app's code runs — here the app's code never arrives — and ticking;
the clock screen replaces it; leaving the event removes it."""

import json
import re

from .conftest import DIST, PHONE
from .helpers import local_round

MAIN_JS = re.compile(r".*/js/main\.js(\?.*)?$")


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


def test_the_kept_round_shows_before_the_app_loads_and_leaving_removes_it(browser, static_server):
    # no service worker: it would serve main.js past the route that withholds it
    ctx = browser.new_context(viewport=PHONE, service_workers="block")
    try:
        page = ctx.new_page()
        local_round(page, static_server.url, 50)
        kept = page.evaluate("JSON.parse(localStorage.getItem('judge-first-clock'))")
        assert kept["round"]["round_minutes"] == 50 and kept["round"]["state"] == "running"

        # a restart whose app code does not load: the first clock still shows the time left
        bare = ctx.new_page()
        bare.route(MAIN_JS, lambda route: route.abort())
        bare.goto(static_server.url + "/#/clock")
        first = bare.locator("main .first-clock .time")
        first.wait_for()
        left = seconds(first.text_content())
        assert 48 * 60 < left <= 50 * 60
        assert bare.locator("#round-left").count() == 0  # the clock screen never came
        bare.wait_for_function("(t) => document.querySelector('main .first-clock .time').textContent !== t",
                               arg=first.text_content())
        assert seconds(first.text_content()) < left  # it ticks
        assert bare.evaluate("performance.getEntriesByName('clock-visible').length") == 1
        # not on another screen
        bare.goto(static_server.url + "/#/penalty")
        bare.reload()
        assert bare.locator(".first-clock").count() == 0
        bare.close()

        # with the app: the clock screen replaces the first clock
        page.reload()
        page.wait_for_selector("#round-left[data-remaining-ms]")
        assert page.locator(".first-clock").count() == 0

        # leaving the event removes the copy: the next start shows no clock
        page.goto(static_server.url + "/#/join")
        page.click("#leave-btn")
        page.wait_for_function("localStorage.getItem('judge-first-clock') === null")
        after = ctx.new_page()
        after.route(MAIN_JS, lambda route: route.abort())
        after.goto(static_server.url + "/#/clock")
        after.wait_for_load_state("load")
        assert after.locator(".first-clock").count() == 0
    finally:
        ctx.close()


def test_the_first_frame_speaks_the_app_s_language_before_its_catalog_is_read(browser, static_server):
    de = json.loads((DIST / "i18n" / "de.json").read_text(encoding="utf-8"))["messages"]
    it = json.loads((DIST / "i18n" / "it.json").read_text(encoding="utf-8"))["messages"]
    ctx = browser.new_context(viewport=PHONE, locale="de-DE", service_workers="block")
    try:
        page = ctx.new_page()
        page.route(MAIN_JS, lambda route: route.abort())  # neither the app's code nor its catalog
        page.goto(static_server.url + "/#/penalty")
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.lang") == "de"
        assert page.text_content("main p") == de["Loading…"] != "Loading…"
        assert page.text_content("#nav a[data-screen=clock]") == de["Clock"]
        assert page.get_attribute("#nav", "aria-label") == de["Screens"]
        assert page.get_attribute("#python", "title") == de["Rules engine"]
        # a kept choice wins over the browser's language, as in the app
        page.evaluate("localStorage.setItem('judge-language', 'it')")
        page.reload()
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.lang") == "it"
        assert page.text_content("#nav a[data-screen=penalty]") == it["Penalty"]
    finally:
        ctx.close()
