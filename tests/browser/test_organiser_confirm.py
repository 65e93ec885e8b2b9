"""The organiser's page asks once, in the page, before ending a round, revoking a device or
replacing a round's tables:
the first tap does nothing but ask, "Keep ..." leaves things as they were, "Yes, ..." acts."""

from .conftest import PHONE


def test_end_round_revoke_and_replacing_tables_ask_once_in_the_page(browser, flask_server):
    event = flask_server.make_event("wotf", "competitive")
    flask_server.start_round(event["slug"])
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        joined = page.request.post(flask_server.url + "/api/join", data={
            "code": event["code"], "device_name": "Pixel", "judge_name": "Rhea"})
        assert joined.ok
        page.goto(flask_server.url + "/organiser/login")
        page.fill("input[name=password]", "browser-tests")
        page.click("text=Log in")
        page.goto(flask_server.url + f"/organiser/events/{event['slug']}")

        page.click("button[value=end]")
        assert page.is_visible("text=Yes, end round 1") and page.is_hidden("button[value=end][data-sure]")
        assert page.evaluate("() => document.activeElement.textContent") == "Yes, end round 1"
        page.click("text=Keep it running")
        assert page.locator(".sure").count() == 0 and page.is_visible("button[value=end]")
        assert flask_server.clock(event["slug"])["round"]["state"] == "running"
        assert page.text_content("#round-state") == "running"
        page.click("button[value=end]")
        page.click("text=Yes, end round 1")
        page.wait_for_function("() => document.querySelector('#round-state').textContent === 'ended'")
        assert flask_server.clock(event["slug"])["round"]["state"] == "ended"

        revoke = "#devices button[value=revoke]"
        page.click(revoke)
        yes = page.locator("#devices .sure-yes")
        assert yes.text_content().startswith("Yes, revoke ") and "Pixel" in yes.text_content()
        page.click("#devices .sure-no")
        assert page.locator("#devices .sure").count() == 0
        assert page.locator("#devices tr.voided").count() == 0
        page.click(revoke)
        yes.click()
        page.wait_for_selector("#devices tr.voided")
        assert page.locator(revoke).count() == 0

        # replacing a round's tables, once the event has tables, asks too
        names = [p["name"] for p in event["players"]]
        page.fill("textarea[name=csv][placeholder^=table]", f"table,player_a,player_b\n9,{names[0]},{names[1]}")
        replace = page.locator("button", has_text="Replace this round's tables")
        replace.click()
        assert page.is_visible("text=Yes, replace that round's tables")
        page.click("text=Keep the tables")
        assert page.locator(".sure").count() == 0 and replace.is_visible()
        replace.click()
        page.click("text=Yes, replace that round's tables")
        page.wait_for_selector("text=Round 2: 1 table.")
    finally:
        ctx.close()
