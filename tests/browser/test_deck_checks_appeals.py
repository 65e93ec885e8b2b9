"""Deck checks and appeals on the phones: a judge starts and finishes a deck check at a table
on the Clock screen, the engine's extension for it is recorded, and the table's extension
shows on a second judge's phone after sync; a check that finds a problem opens the Penalty
screen for that player and table; an appeal a floor judge records from a penalty is
decided by the head judge's phone, which asks for the judge consulted where the head judge
made the ruling (WotF §3.9)."""

from .conftest import shoot
from .helpers import joined_phones, look_up_penalty, wait_synced
from .test_review import open_review, synced


def test_a_deck_check_at_a_table_gives_that_table_its_extension_on_every_phone(browser, flask_server):
    event = flask_server.make_event("wotf", "competitive", players=4, round_minutes=50)
    slug = event["slug"]
    flask_server.start_round(slug)
    phones = joined_phones(browser, flask_server, event, "Dana", "Omar")
    (_, judge), (_, other) = phones
    try:
        judge.locator("#tables li[data-table='2']").scroll_into_view_if_needed()
        shoot(judge, "clock-tables-with-deck-check")
        judge.click("#tables li[data-table='1'] button[aria-label='Deck check at table 1']")
        judge.wait_for_selector("#dc-start")
        player = judge.eval_on_selector("#dc-player", "el => el.value")
        judge.click("#dc-start")
        judge.wait_for_selector("#dc-under-way")
        wait_synced(judge)
        assert [t["state"] for t in _board(flask_server, slug) if t["number"] == 1] == ["deck check"]
        shoot(judge, "deck-check-under-way")
        judge.click("#dc-ok")
        judge.wait_for_selector("#dc-extended")
        wait_synced(judge)
        checks = [r for r in flask_server.records(slug) if r["type"] == "deck_check"]
        assert [(c["payload"]["phase"], str(c["payload"]["player"]), c["payload"].get("outcome")) for c in checks] == [
            ("started", player, None), ("finished", player, "ok")]
        [ext] = [r for r in flask_server.records(slug) if r["type"] == "time_extension"]
        # the check took under a minute: its length plus three minutes (WotF §3.2)
        assert ext["payload"]["table"] == 1 and ext["payload"]["reason"] == "deck_check"
        assert 3 <= ext["payload"]["minutes"] < 4
        assert judge.text_content("#dc-result") == f"+{ext['payload']['minutes']:g} min"
        other.evaluate("() => window.judgeApp.syncNow()")
        other.wait_for_function(
            "m => document.querySelector(\"#tables li[data-table='1'] .ext\")?.textContent === `+${m} min`",
            arg=ext["payload"]["minutes"], timeout=20_000)
        assert other.text_content("#tables li[data-table='2'] .ext") == "no extension"
        assert [t["state"] for t in _board(flask_server, slug) if t["number"] == 1] == ["playing"]

        # A check that finds a problem leads to the Penalty screen for that player and table.
        judge.click("#tables li[data-table='2'] button[aria-label='Deck check at table 2']")
        judge.wait_for_selector("#dc-start")
        checked = judge.eval_on_selector("#dc-player", "el => el.value")
        judge.click("#dc-start")
        judge.click("#dc-wrong")
        judge.click("#dc-penalty")
        judge.wait_for_selector("main[data-screen=penalty] #pen-preset")
        judge.click("#pen-results [data-infraction]")
        judge.wait_for_selector("#pen-table")
        assert (judge.eval_on_selector("#pen-player", "el => el.value"),
                judge.eval_on_selector("#pen-table", "el => el.value")) == (checked, "2")
        wait_synced(judge)
        assert [r["payload"].get("outcome") for r in flask_server.records(slug)
                if r["type"] == "deck_check" and r["payload"]["table"] == 2] == [None, "wrong"]
    finally:
        for ctx, _ in phones:
            ctx.close()


def _board(server, slug):
    from server.board import round_board
    from server.events import get_event

    with server.app.app_context():
        return round_board(get_event(slug), 0)["tables"]


def test_an_appeal_from_a_floor_judges_penalty_is_decided_on_the_head_judges_phone(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive")
    slug = event["slug"]
    flask_server.start_round(slug)
    player = event["players"][0]
    phones = joined_phones(browser, flask_server, event, "Fay", "Hal")
    (_, floor), (_, head) = phones
    flask_server.set_role(slug, "Hal", "head_judge")
    head.reload()
    head.wait_for_function("() => window.judgeApp.app.session?.role === 'head_judge'")
    try:
        look_up_penalty(floor, "slow", "slow_play", player["id"])
        floor.click("#pen-record")
        floor.wait_for_selector("#pen-recorded")
        # the player appeals Fay's ruling from the penalty card; a second appeal, from the
        # player's history, is of a ruling Hal made
        for ruled_by in ("Fay", "Hal"):
            if ruled_by == "Hal":
                floor.goto(floor.url.split("#")[0] + f"#/history/{player['id']}")
            floor.click("[data-appeal]")
            floor.wait_for_selector("#appeal-dialog")
            assert floor.eval_on_selector("#appeal-player", "el => el.value") == str(player["id"])
            assert floor.input_value("#appeal-ruling").startswith("Warning for ")
            assert floor.input_value("#appeal-ruled-by") == "Fay"
            floor.fill("#appeal-ruled-by", ruled_by)
            floor.click("#appeal-record")
            floor.wait_for_selector("#appeal-dialog", state="detached")
            # the judge sees it was recorded, where the button was, and the keyboard is there
            floor.wait_for_function("() => document.activeElement?.matches('[data-appealed]')")
            said = floor.locator("[data-appealed]")
            assert said.get_attribute("role") == "status" and "table 1" in said.text_content()
        # a cancelled form gives the keyboard back to the button
        floor.reload()
        floor.click("[data-appeal]")
        floor.wait_for_selector("#appeal-dialog")
        floor.keyboard.press("Escape")
        floor.wait_for_function("() => document.activeElement?.matches('[data-appeal]')")
        wait_synced(floor)
        appeals = {r["payload"]["ruled_by"]: r for r in flask_server.records(slug) if r["type"] == "appeal"}
        assert set(appeals) == {"Fay", "Hal"}
        assert appeals["Fay"]["payload"]["table"] == 1 and appeals["Fay"]["payload"]["penalty"] is not None

        synced(head)
        open_review(head)
        head.wait_for_selector("#review-waiting li[data-kind=appeal] >> nth=1")
        fay_item = head.locator(f"#review-waiting li[data-record='{appeals['Fay']['id']}']")
        hal_item = head.locator(f"#review-waiting li[data-record='{appeals['Hal']['id']}']")
        assert "appeal: waiting" in fay_item.text_content() and "Ruling by Fay: Warning for " in fay_item.text_content()
        assert fay_item.locator("[data-consulted]").count() == 0
        assert hal_item.locator("[data-consulted]").count() == 1
        shoot(head, "review-appeals")
        fay_item.locator("[data-appeal-decide=confirmed]").click()
        head.wait_for_selector(f"#review-waiting li[data-record='{appeals['Fay']['id']}']", state="detached")
        # Hal made the ruling: no decision until he names the judge he consulted
        hal_item.locator("[data-appeal-decide=confirmed]").click()
        assert "name the judge you consulted" in hal_item.locator("[role=alert]").text_content()
        hal_item.locator("[data-consulted]").fill("Fay")
        hal_item.locator("[data-appeal-decide=confirmed]").click()
        head.wait_for_selector("#review-empty")
        wait_synced(head)
        decisions = [r["payload"] for r in flask_server.records(slug) if r["type"] == "appeal_decision"]
        assert decisions == [
            {"appeal": appeals["Fay"]["id"], "outcome": "confirmed", "ruling": None, "consulted": None},
            {"appeal": appeals["Hal"]["id"], "outcome": "confirmed", "ruling": None, "consulted": "Fay"}]
        assert head.text_content("#deck-policy").startswith("Regular deck checks: Recommended")
    finally:
        for ctx, _ in phones:
            ctx.close()
