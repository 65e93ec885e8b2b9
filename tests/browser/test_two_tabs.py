"""Two tabs of the app: a tab following the organiser's changes never overwrites the session
another tab saved later (here: the other tab went standalone)."""

from .conftest import wait_python
from .helpers import join

FOLLOW = """async (slug) => (await import('/js/state.js')).followEvent({slug, stage: 'elimination'})"""
STORED = """async () => (await import('/js/store.js')).get('session')"""


def test_a_tab_does_not_overwrite_another_tabs_newer_session(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive")
    flask_server.start_round(event["slug"])
    ctx = browser.returning(flask_server.url)
    try:
        first = ctx.new_page()
        join(first, flask_server, event, "Oda")
        second = ctx.new_page()
        second.goto(flask_server.url + "/#/join")
        wait_python(second)
        second.select_option("#standalone-ruleset", "wotf")
        second.click("#standalone-btn")
        second.wait_for_selector("main[data-screen=penalty]")
        assert second.evaluate(STORED)["event"]["slug"] == "standalone-wotf"

        assert first.evaluate(FOLLOW, event["slug"]) is True
        assert first.evaluate("() => window.judgeApp.app.session.event.stage") == "elimination"
        stored = first.evaluate(STORED)
        assert (stored["standalone"], stored["event"]["slug"]) == (True, "standalone-wotf")
    finally:
        ctx.close()
