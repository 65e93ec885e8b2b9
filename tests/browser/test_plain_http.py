"""A venue with only plain HTTP on its network (an address that is not this machine): the
judge app says it cannot be kept offline and why, still answers (Python loads from the
network), and the players' page and the organiser pages work."""

import shutil

from .conftest import CHROMIUM_ARGS, PHONE, wait_python


def test_on_plain_http_the_app_says_it_is_not_kept_offline_and_the_rest_works(browser, flask_server, tmp_path):
    event = flask_server.make_event("wotf", "competitive")
    flask_server.start_round(event["slug"])
    port = flask_server.url.rsplit(":", 1)[1]
    # judges.test resolves to this machine, but unlike 127.0.0.1 it is not a secure context.
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=shutil.which("chromium"), headless=True, viewport=PHONE,
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP judges.test 127.0.0.1"])
    url = f"http://judges.test:{port}"
    try:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.goto(url + "/#/join")
        page.wait_for_selector("#offline[data-phase=unavailable]")
        assert page.text_content("#offline") == "Not kept offline"
        assert "https://" in page.text_content("#offline-note")
        wait_python(page)
        answer = page.evaluate("""() => window.judge.evaluate({ruleset: 'wotf', query: 'extension',
            event: {level: 'competitive'}, facts: {deck_check_minutes: 6}})""")
        assert answer["extension_minutes"] > 0

        page.goto(f"{url}/#/event/{event['slug']}")
        page.wait_for_function("() => /Round 1/.test(document.querySelector('#pub-label')?.textContent)")
        page.goto(url + "/organiser/login")
        page.fill("input[name=username]", "organiser")
        page.fill("input[name=password]", "browser-tests")
        page.click("button")
        page.goto(f"{url}/organiser/events/{event['slug']}")
        assert page.is_visible("#join-insecure")
        assert page.text_content("#join-url").startswith(f"{url}/#/join/")
    finally:
        ctx.close()
