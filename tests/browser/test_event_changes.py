"""What the organiser changes after judges joined reaches their phones without a new join:
the event's stage (Swiss rounds to the top cut) and a device's role (at once, by the event's
stream)."""

import json

from .helpers import join, look_up_penalty, wait_resolved, wait_synced


def test_a_stage_change_reaches_the_phone_and_its_answers(browser, flask_server):
    event = flask_server.make_event("yugioh", "tier2", round_minutes=45)
    flask_server.start_round(event["slug"])
    ctx = browser.returning(flask_server.url)
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


def test_a_new_role_reaches_the_phone_at_once(browser, flask_server):
    event = flask_server.make_event("judicial-guidelines", None)
    player = event["players"][0]
    ctx = browser.returning(flask_server.url)
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

        # the event's stream says so: well before the next sync (every 30 s) would
        flask_server.set_role(event["slug"], "Wes", "head_judge")
        page.wait_for_selector("#history-records [data-approve=true]", timeout=10_000)
        assert page.evaluate("() => window.judgeApp.app.session.role") == "head_judge"
        page.click("#history-records [data-approve=true]")
        page.wait_for_function(
            "() => /approved by Wes/.test(document.querySelector('#history-records')?.textContent)")
    finally:
        ctx.close()


def test_a_scorekeeper_made_judge_gets_the_penalties_it_was_not_sent(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive")
    api = flask_server.app.test_client()
    ctx = browser.returning(flask_server.url)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Kim")
        flask_server.set_role(event["slug"], "Kim", "scorekeeper")
        page.evaluate("() => window.judgeApp.syncNow()")
        page.wait_for_function("() => window.judgeApp.app.session.role === 'scorekeeper'")

        other = api.post("/api/join", json={"code": event["code"], "device_name": "p",
                                            "judge_name": "Ola"}).get_json()
        penalty = {"id": "0b0e7c1e-5a4c-4a8e-9d1c-2f8f6f2f6a01", "type": "penalty",
                   "device": other["device_id"],
                   "judge": "Ola", "event": event["slug"], "created_ms": 1, "payload": {
                       "player": event["players"][0]["id"], "infraction": "usc_minor", "penalty": "warning"}}
        res = api.post(f"/api/events/{event['slug']}/sync",
                       headers={"Authorization": f"Bearer {other['token']}"},
                       json={"device": other["device_id"], "records": [penalty]})
        assert res.get_json()["results"][0]["status"] == "accepted"
        # the first may join a sync already under way; the second starts after the push
        page.evaluate("async () => { await window.judgeApp.syncNow(); await window.judgeApp.syncNow(); }")
        held = page.evaluate("async () => (await window.judgeApp.records()).map((r) => r.id)")
        assert penalty["id"] not in held  # a scorekeeper is not sent penalties

        flask_server.set_role(event["slug"], "Kim", "head_judge")
        # the phone notices its new role after a sync, then pulls the event from the start
        record_id = json.dumps(penalty["id"])
        wait_resolved(page, "async () => { await window.judgeApp.syncNow();"
                            f" return (await window.judgeApp.records()).some((r) => r.id === {record_id}); }}")
    finally:
        ctx.close()
