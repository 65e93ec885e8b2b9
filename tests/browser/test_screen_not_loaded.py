"""A screen whose code the phone has not downloaded yet (the network went during the first
visit, before the offline copy had it) says so in place of the screen, and opens by itself when
the network is back, without another tap."""

from .conftest import PHONE
from .helpers import standalone


def test_a_screen_not_downloaded_says_so_and_opens_when_the_network_returns(browser, static_server):
    # No service worker: every screen's code comes from the network, as on a first visit
    # whose offline copy is not complete.
    ctx = browser.new_context(viewport=PHONE, service_workers="block")
    try:
        page = ctx.new_page()
        cut = lambda route: route.abort("internetdisconnected")  # noqa: E731
        page.route("**/js/ui/history.js", cut)
        standalone(page, static_server.url, "dci-upg", "competitive")
        ctx.set_offline(True)
        page.click("#nav [data-screen=history]")
        page.wait_for_selector("#not-loaded h1")
        assert page.text_content("#not-loaded h1") == "This screen is not on this phone yet"
        assert "opens by itself when the network is back" in page.text_content("#not-loaded [role=status]")
        assert page.get_attribute("main", "data-screen") == "history"
        # the network returns: the screen's code is fetched and the screen drawn, untouched
        page.unroute("**/js/ui/history.js", cut)
        ctx.set_offline(False)
        page.wait_for_selector("#not-loaded", state="detached")
        page.wait_for_selector("main[data-screen=history]:not([data-not-loaded]) h1")
        assert page.text_content("main h1") == "Player history"
    finally:
        ctx.close()
