"""The organiser's pages on a small phone: everything fits the screen's width; the language picked stays."""

from playwright.sync_api import expect

from .conftest import SMALL_PHONE, shoot


def test_the_event_page_fits_a_320_px_screen(browser, flask_server):
    event = flask_server.make_event("wotf", "competitive")
    flask_server.start_round(event["slug"])
    ctx = browser.new_context(viewport=SMALL_PHONE)
    try:
        page = ctx.new_page()
        page.goto(flask_server.url + "/organiser/login")
        page.fill("input[name=username]", "organiser")
        page.fill("input[name=password]", "browser-tests")
        page.click("text=Log in")
        page.goto(flask_server.url + f"/organiser/events/{event['slug']}")
        page.wait_for_selector("#round-state")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
        shoot(page, "organiser-event", sizes=(SMALL_PHONE,))
    finally:
        ctx.close()


def test_the_language_picked_stays_after_a_reload(browser, flask_server):
    """The browser asks for English; Spanish picked on the login page is kept (a cookie) on
    the next pages and after a reload, and `<html lang>` follows."""
    ctx = browser.new_context(viewport=SMALL_PHONE, locale="en-GB")
    try:
        page = ctx.new_page()
        page.goto(flask_server.url + "/organiser/login")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        page.select_option("#language select[name=lang]", "es")
        page.click("#language button")
        expect(page.locator("html")).to_have_attribute("lang", "es")
        expect(page.locator("main button")).to_have_text("Iniciar sesión")
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "es")
        page.fill("input[name=username]", "organiser")
        page.fill("input[name=password]", "browser-tests")
        page.click("main button")
        expect(page.locator("main h2").first).to_have_text("Torneos")
        expect(page.locator("#language select")).to_have_value("es")
    finally:
        ctx.close()
