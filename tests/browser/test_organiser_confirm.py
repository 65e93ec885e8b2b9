"""The organiser's page asks once, in the page, before ending a round or revoking a device:
the first tap does nothing but ask, "Keep ..." leaves things as they were, "Yes, ..." acts.
Replacing a round's tables shows what changes first, and acts only on Confirm."""

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
        page.fill("input[name=username]", "organiser")
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

        # replacing a round's tables shows what changes and asks: nothing changes until Confirm
        names = [p["name"] for p in event["players"]]
        page.fill("textarea[name=csv][placeholder^=table]", f"table,player_a,player_b\n9,{names[0]},{names[1]}")
        page.locator("button", has_text="Replace this round's tables").click()
        page.wait_for_selector("#preview")
        assert page.text_content("#preview-heading") == "Round 2's tables: what changes"
        row = page.locator("#preview tr[data-table='9']")
        assert row.get_attribute("data-state") == "new" and f"{names[0]} – {names[1]}" in row.text_content()
        page.click("#cancel-tables")
        page.wait_for_selector("#round-state")
        with flask_server.app.app_context():
            from server.events import get_event

            assert [p.round_number for p in get_event(event["slug"]).pairings] == [1, 1]
        page.fill("textarea[name=csv][placeholder^=table]", f"table,player_a,player_b\n9,{names[0]},{names[1]}")
        page.locator("button", has_text="Replace this round's tables").click()
        page.click("#confirm-tables")
        page.wait_for_selector("text=Round 2: 1 table.")
    finally:
        ctx.close()
