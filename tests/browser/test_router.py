"""Two quick moves between screens: a screen whose code arrives after the hash moved on is
not drawn (it once covered the newer screen, under a nav that named the other)."""

from .helpers import join


def test_a_screen_whose_code_loads_after_the_hash_moved_on_is_not_shown(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive")
    flask_server.start_round(event["slug"])
    ctx = browser.returning(flask_server.url)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Rui")
        page.wait_for_selector("#round-label")
        assert not page.evaluate(
            "() => performance.getEntriesByType('resource').some((e) => /ui\\/penalty\\.js/.test(e.name))")
        # the Penalty screen is asked for, and while its code loads the Clock is asked for again
        page.evaluate("""() => {
            addEventListener('hashchange', () => { location.hash = '#/clock'; }, { once: true });
            location.hash = '#/penalty';
        }""")
        page.wait_for_function(
            "() => performance.getEntriesByType('resource').some((e) => /ui\\/penalty\\.js/.test(e.name))")
        # two frames after the code arrived, its render would have drawn
        page.evaluate("() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
        assert page.evaluate("() => location.hash") == "#/clock"
        assert page.get_attribute("#main", "data-screen") == "clock"
        assert page.locator("#pen-search").count() == 0
        assert page.locator("#main #round-label").count() == 1
        assert page.get_attribute("#nav [data-screen=clock]", "aria-current") == "page"
    finally:
        ctx.close()


def test_a_malformed_link_opens_a_screen_that_says_what_is_wrong(browser, flask_server):
    ctx = browser.returning(flask_server.url)
    errors = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        for link in ("/#/event/%ZZ/table/1", "/#/event/a%/table/%E0%A4%A"):
            page.goto(flask_server.url + link)
            page.wait_for_selector("main[data-screen=event] h1")
            page.wait_for_function(
                "() => document.querySelector('main').textContent.includes('No event has this address')")
        assert errors == []
    finally:
        ctx.close()
