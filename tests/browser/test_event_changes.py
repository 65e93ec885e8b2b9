"""What the organiser changes after judges joined reaches their phones without a new join:
the event's stage (Swiss rounds to the top cut) and a device's role."""

from .conftest import PHONE
from .helpers import join, look_up_penalty, wait_synced


def test_a_stage_change_reaches_the_phone_and_its_answers(browser, flask_server):
    event = flask_server.make_event("yugioh", "tier2", round_minutes=45)
    flask_server.start_round(event["slug"])
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Uma")
        assert page.evaluate("() => window.judgeApp.app.session.event.stage") == "swiss"

        flask_server.set_stage(event["slug"], "elimination")
        page.evaluate("() => window.judgeApp.refreshClock()")
        page.wait_for_function("() => window.judgeApp.app.session.event.stage === 'elimination'")
        page.reload()
        page.wait_for_selector("main[data-screen=clock]")
        assert page.evaluate("() => window.judgeApp.app.session.event.stage") == "elimination"

        page.goto(flask_server.url + "/#/time")
        page.select_option("#tc-table", "1")
        page.fill("#tc-wins-a", "1")
        page.click("#tc-start")
        page.wait_for_selector(".question[data-fact='current_game.winner']")
        # Swiss rounds would give 5 more turns; the top cut gives 3.
        assert "3 more turns after the current one" in page.text_content("#tc-steps")

        look_up_penalty(page, "slow", "slow_play", event["players"][0]["id"])
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        wait_synced(page)
        [record] = flask_server.records(event["slug"])
        assert record["payload"]["stage"] == "elimination"
    finally:
        ctx.close()


def test_a_new_role_is_picked_up_on_the_next_sync(browser, flask_server):
    event = flask_server.make_event("judicial-guidelines", None)
    player = event["players"][0]
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Wes")
        look_up_penalty(page, "cheat", "cheating", player["id"])
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        wait_synced(page)
        page.goto(flask_server.url + f"/#/history/{player['id']}")
        page.wait_for_selector("#history-records li")
        assert page.locator("#history-records [data-approve]").count() == 0

        flask_server.set_role(event["slug"], "Wes", "head_judge")
        page.evaluate("() => window.judgeApp.syncNow()")
        page.wait_for_selector("#history-records [data-approve=true]")
        assert page.evaluate("() => window.judgeApp.app.session.role") == "head_judge"
        page.click("#history-records [data-approve=true]")
        page.wait_for_function(
            "() => /approved by Wes/.test(document.querySelector('#history-records')?.textContent)")
    finally:
        ctx.close()
