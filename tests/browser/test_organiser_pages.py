"""The organiser's pages on a small phone: everything fits the screen's width."""

from .conftest import SMALL_PHONE, shoot


def test_the_event_page_fits_a_320_px_screen(browser, flask_server):
    event = flask_server.make_event("wotf", "competitive")
    flask_server.start_round(event["slug"])
    ctx = browser.new_context(viewport=SMALL_PHONE)
    try:
        page = ctx.new_page()
        page.goto(flask_server.url + "/organiser/login")
        page.fill("input[name=password]", "browser-tests")
        page.click("text=Log in")
        page.goto(flask_server.url + f"/organiser/events/{event['slug']}")
        page.wait_for_selector("#round-state")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
        shoot(page, "organiser-event", sizes=(SMALL_PHONE,))
    finally:
        ctx.close()
