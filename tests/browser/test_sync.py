"""Two judges on one event: a penalty recorded offline survives a reload, reaches the
server when the network returns, both phones end with the same history, and the second
judge's look-up for that player is upgraded."""

import json

from .conftest import shoot, wait_controlled
from .helpers import join, look_up_penalty, wait_synced


def record_ids(page):
    return sorted(r["id"] for r in page.evaluate("() => window.judgeApp.records()"))


def test_offline_penalty_reaches_the_other_judge_and_upgrades_the_look_up(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive")
    flask_server.start_round(event["slug"])
    player = event["players"][0]
    alice_ctx = browser.returning(flask_server.url)
    bob_ctx = browser.returning(flask_server.url)
    try:
        alice = alice_ctx.new_page()
        join(alice, flask_server, event, "Alice")
        wait_controlled(alice)
        wait_synced(alice)

        alice_ctx.set_offline(True)
        first = look_up_penalty(alice, "slow", "slow_play", player["id"])
        assert json.loads(first["penalty"]) == "warning"
        assert not first["upgraded"]
        shoot(alice, "penalty-card", at="#pen-card")
        alice.click("#pen-record")
        alice.wait_for_selector("#pen-recorded")
        assert alice.get_attribute("#sync", "data-waiting") == "1"

        alice.reload()
        alice.wait_for_selector("main[data-screen=penalty]")
        alice.wait_for_function("() => document.querySelector('#sync').dataset.waiting === '1'")
        mine = alice.evaluate("() => window.judgeApp.records()")
        assert [(r["type"], r["payload"]["infraction"], r["sync"]) for r in mine] == [
            ("penalty", "slow_play", "pending")]
        assert flask_server.records(event["slug"]) == []

        alice_ctx.set_offline(False)
        alice.evaluate("() => window.dispatchEvent(new Event('online'))")
        wait_synced(alice)
        on_server = flask_server.records(event["slug"])
        assert [(r["id"], r["type"], r["judge"], r["payload"]["player"], r["payload"]["penalty"])
                for r in on_server] == [(mine[0]["id"], "penalty", "Alice", player["id"], "warning")]

        bob = bob_ctx.new_page()
        join(bob, flask_server, event, "Bob")
        wait_synced(bob)
        bob.goto(flask_server.url + f"/#/history/{player['id']}")
        bob.wait_for_selector("#history-records li")
        assert "Alice" in bob.text_content("#history-records")
        assert "As of" in bob.text_content("#history-list")
        shoot(bob, "history", at="#history-list")

        second = look_up_penalty(bob, "slow play", "slow_play", player["id"])
        assert json.loads(second["penalty"]) == "game_loss"
        assert second["upgraded"]
        assert second["history"].startswith("1 earlier penalty; history as of")
        bob.click("#pen-record")
        bob.wait_for_selector("#pen-recorded")
        wait_synced(bob)

        alice.evaluate("() => window.judgeApp.syncNow()")
        wait_synced(alice)
        assert record_ids(alice) == record_ids(bob) == sorted(
            r["id"] for r in flask_server.records(event["slug"]))
        assert len(record_ids(alice)) == 2
    finally:
        alice_ctx.close()
        bob_ctx.close()


def test_a_head_judge_approves_what_a_floor_judge_recorded(browser, flask_server):
    event = flask_server.make_event("judicial-guidelines", None)
    player = event["players"][2]
    kim_ctx = browser.returning(flask_server.url)
    lee_ctx = browser.returning(flask_server.url)
    try:
        kim = kim_ctx.new_page()
        join(kim, flask_server, event, "Kim")
        card = look_up_penalty(kim, "cheat", "cheating", player["id"])
        assert kim.locator("#pen-hj").count() == 1, card
        kim.click("#pen-record")
        kim.wait_for_selector("#pen-recorded")
        wait_synced(kim)

        lee = lee_ctx.new_page()
        join(lee, flask_server, event, "Lee")
        flask_server.set_role(event["slug"], "Lee", "head_judge")
        lee.reload()
        lee.wait_for_function("() => window.judgeApp.app.session?.role === 'head_judge'")
        wait_synced(lee)
        lee.goto(flask_server.url + f"/#/history/{player['id']}")
        lee.wait_for_selector("#history-records [data-approve=true]")
        assert "head judge: waiting" in lee.text_content("#history-records")
        lee.click("#history-records [data-approve=true]")
        lee.wait_for_function(
            "() => /approved by Lee/.test(document.querySelector('#history-records')?.textContent)")
        wait_synced(lee)
        approvals = [r for r in flask_server.records(event["slug"]) if r["type"] == "approval"]
        assert [(a["judge"], a["payload"]["approved"]) for a in approvals] == [("Lee", True)]

        kim.evaluate("() => window.judgeApp.syncNow()")
        wait_synced(kim)
        kim.goto(flask_server.url + f"/#/history/{player['id']}")
        kim.wait_for_selector("#history-records li")
        assert "approved by Lee" in kim.text_content("#history-records")
        assert kim.locator("#history-records [data-approve]").count() == 0

        # What the head judge issues personally needs no second confirmation.
        other = event["players"][3]
        look_up_penalty(lee, "cheat", "cheating", other["id"])
        lee.click("#pen-record")
        lee.wait_for_selector("#pen-recorded")
        wait_synced(lee)
        records = flask_server.records(event["slug"])
        own = next(r for r in records if r["type"] == "penalty" and r["payload"]["player"] == other["id"])
        assert [(a["judge"], a["payload"]["approved"]) for a in records
                if a["type"] == "approval" and a["payload"]["record"] == own["id"]] == [("Lee", True)]
    finally:
        kim_ctx.close()
        lee_ctx.close()
