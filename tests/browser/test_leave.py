"""Leaving an event never loses records still waiting to sync (a phone revoked meanwhile sends
them once it joins the same event again), a record the server refused is shown with what
it was and the server's reason, and leaving with one asks first (it exists only on the phone)."""

from .helpers import join, look_up_penalty, wait_synced
from .test_sync_failures import ADD_RECORD


def test_leaving_waits_for_the_outbox_and_refused_records_say_what_they_were(browser,
                                                                             flask_server):
    event = flask_server.make_event("dci-upg", "competitive")
    flask_server.start_round(event["slug"])
    player = event["players"][1]
    ctx = browser.returning(flask_server.url)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Lena")
        wait_synced(page)

        ctx.set_offline(True)
        look_up_penalty(page, "slow", "slow_play", player["id"])
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        page.goto(flask_server.url + "/#/join")
        page.click("#leave-btn")
        page.wait_for_function(
            "() => /1 record is still waiting to sync/.test(document.querySelector('#leave-status').textContent)")
        assert page.evaluate("() => window.judgeApp.app.session?.event.slug") == event["slug"]
        # Joining another event is refused the same way.
        page.fill("#join-code", "OTHERCODE")
        page.fill("#judge-name", "Lena")
        page.click("#join-btn")
        page.wait_for_function(
            "() => /still waiting to sync/.test(document.querySelector('#join-status').textContent)")
        assert page.evaluate("() => window.judgeApp.app.session?.event.slug") == event["slug"]

        ctx.set_offline(False)
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
        wait_synced(page)
        assert [r["payload"]["player"] for r in flask_server.records(event["slug"])] == [player["id"]]

        # The server refuses a penalty recorded under another policy.
        refused = page.evaluate(ADD_RECORD, ["penalty", {
            "player": player["id"], "table": 2, "round": 1, "infraction": "slow_play",
            "penalty": "warning", "ruleset": "wotf", "stage": "swiss"}])
        page.wait_for_function("() => /1 rejected/.test(document.querySelector('#sync').textContent)")
        page.goto(flask_server.url + "/#/sync")
        row = page.locator(f"#sync-rejected [data-record='{refused}']")
        text = row.text_content()
        assert text.startswith(f"Penalty · {player['name']} · Tournament Error — Slow Play · Warning"
                               " · table 2 · round 1 · ")
        assert "Server's reason: payload.ruleset: this event uses dci-upg" in text

        # Revoked with a record still to send: joining the same event again sends it.
        new_code = flask_server.revoke(event["slug"], "Lena")  # the organiser tells Lena the new code
        kept = page.evaluate(ADD_RECORD, ["time_extension", {
            "table": 1, "round": 1, "minutes": 2, "reason": "judge_pause"}])
        page.wait_for_function("() => /join again/.test(document.querySelector('#sync').textContent)")
        page.goto(flask_server.url + "/#/join")
        page.click("#leave-btn")
        page.wait_for_function(
            "() => /no longer accepts this phone/.test(document.querySelector('#leave-status').textContent)")
        page.fill("#join-code", new_code)
        page.fill("#judge-name", "Lena")
        page.click("#join-btn")
        page.wait_for_selector("main[data-screen=clock]")
        wait_synced(page)
        assert kept in [r["id"] for r in flask_server.records(event["slug"])]

        # The refused record lives only on this phone: leaving asks first, in the page.
        page.goto(flask_server.url + "/#/join")
        page.click("#leave-btn")
        page.wait_for_selector("#leave-step")
        assert page.text_content("#leave-ask").startswith("1 record the server refused is kept only on this phone")
        assert page.evaluate("() => document.activeElement.id") == "leave-stay"
        page.click("#leave-stay")
        page.wait_for_function(
            "() => /refused records are on the Sync screen/.test(document.querySelector('#leave-status').textContent)")
        assert page.evaluate("() => document.activeElement.id") == "leave-btn"
        assert page.evaluate("() => window.judgeApp.app.session?.event.slug") == event["slug"]
        page.click("#leave-btn")
        page.click("#leave-anyway")
        page.wait_for_function("() => window.judgeApp.app.session === null")
        # the Event screen is drawn again without the event (its join form was there before too)
        page.wait_for_selector("#leave-btn", state="detached")
        assert page.locator("#join-code").count() == 1
    finally:
        ctx.close()
