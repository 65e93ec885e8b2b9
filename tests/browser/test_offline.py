"""Offline: after one online visit, a reload with the network cut shows the app shell, the
round clock and a penalty look-up answered by Python in the worker."""

import json

from .conftest import PHONE, shoot, wait_controlled, wait_python
from .helpers import join, look_up_penalty, wait_synced


def test_reload_with_the_network_cut_shows_shell_clock_and_penalty(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive", round_minutes=40)
    flask_server.start_round(event["slug"])
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Dana")
        wait_controlled(page)
        wait_synced(page)
        page.wait_for_selector("#round-left[data-remaining-ms]")

        ctx.set_offline(True)
        assert page.evaluate("""() => fetch('/api/time', {cache: 'no-store'})
                                  .then(() => 'reached', () => 'cut')""") == "cut"
        page.reload()
        page.wait_for_selector("main[data-screen=clock]")
        assert page.text_content("#net") == "Offline"
        page.wait_for_function("() => /Round 1/.test(document.querySelector('#round-label')?.textContent)")
        left_ms = int(page.get_attribute("#round-left", "data-remaining-ms"))
        assert 39 * 60_000 < left_ms <= 40 * 60_000
        assert page.locator("#nav a").count() == 6
        shoot(page, "clock-offline")

        wait_python(page)
        card = look_up_penalty(page, "communication", "player_communication_violation",
                               event["players"][1]["id"])
        assert json.loads(card["penalty"]) == "warning"
        assert "Source:" in page.text_content("#pen-card")
    finally:
        ctx.close()


def test_first_visit_downloads_the_runtime_once(browser, dist):
    from .conftest import StaticServer

    server = StaticServer(dist)
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        wait_controlled(page)
        wait_python(page)
        big = [p for p in server.httpd.paths if p.split("?")[0].endswith((".wasm", "python_stdlib.zip"))]
        assert sorted(p.split("?")[0] for p in big) == ["/pyodide/pyodide.asm.wasm",
                                                        "/pyodide/python_stdlib.zip"]
    finally:
        ctx.close()
        server.stop()


def test_the_app_is_installable(browser, static_server, tmp_path):
    import shutil

    from .conftest import CHROMIUM_ARGS

    # An ordinary (not incognito) profile: Chromium's own installability check must pass.
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS,
        headless=True, viewport=PHONE)
    try:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.goto(static_server.url + "/")
        wait_controlled(page)
        cdp = ctx.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == []
        assert '"display": "standalone"' in manifest["data"]
    finally:
        ctx.close()
