"""Decklists on the phone: a round of the 32-player demo event deck-checked end to end with the
network off (lists synced beforehand, counts and differences from the phone's own engine, the
penalty look-up opened with the policy's infraction and the differences in its notes, records
synced when the network returns), and a player's own submission on the players' page before
the server's deadline and not after."""

from .conftest import shoot
from .helpers import join, wait_resolved, wait_synced

ROUND = 1


def _demo(flask_server):
    """The demo's decklist event (server/demo_decks.py), round 1 started: {slug, code, players}."""
    from server.clock import start_round
    from server.demo_decks import deck_event

    with flask_server.app.app_context():
        event = deck_event()
        start_round(event)
        return {"slug": event.slug, "code": event.join_code,
                "players": {p.name: p.id for p in event.players},
                "tables": {p.number: (p.player_a_id, p.player_b_id) for p in event.pairings}}


def _start_check(page, table):
    """On the Clock screen: the table's deck check, started for its first player; the count
    against the registered list opens."""
    page.goto(page.url.split("#")[0] + "#/clock")
    page.click(f'li[data-table="{table}"] button[aria-label="Deck check at table {table}"]')
    page.click("#dc-start")
    page.wait_for_selector("main[data-screen=deck] .count-row")


def _extend(page, minutes):
    """The policy states no time for a deck check (DCI excerpt): the judge types the minutes."""
    page.wait_for_selector("#dc-manual")
    page.fill("#dc-manual", str(minutes))
    page.click("#dc-manual-add")
    page.wait_for_selector("#dc-extended")


def _count_all(page):
    for button in page.locator("button[data-all]").all():
        button.click()
    page.wait_for_selector("#dk-match")


def test_a_round_of_the_32_player_demo_is_deck_checked_offline(browser, flask_server):
    event = _demo(flask_server)
    context = browser.returning(flask_server.url)
    try:
        page = context.new_page()
        join(page, flask_server, event, "Dora Deck")
        wait_resolved(page, "async () => (await window.judgeApp.decklists()) === 32", timeout_ms=30_000)
        context.set_offline(True)

        # table 1: the deck is as registered
        _start_check(page, 1)
        assert page.locator("#dk-finish-ok").is_disabled()
        _count_all(page)
        shoot(page, "deck-count")
        page.click("#dk-finish-ok")
        page.wait_for_selector("#dk-recorded")
        _extend(page, 4)

        # table 2: one card short in the main deck
        _start_check(page, 2)
        _count_all(page)
        first = page.locator(".count-row").first
        card = first.locator(".card-line").inner_text().split(" ", 1)[1].split(" (")[0]
        first.locator("button", has_text="−1").click()
        page.wait_for_selector('#dk-diff-list li[data-kind="missing"]')
        assert page.locator("#dk-finish-ok").is_disabled()
        page.click("#dk-finish-wrong")
        _extend(page, 5)
        page.wait_for_selector('[data-look-up="deck_decklist_mismatch"]')
        shoot(page, "deck-count-differences", at="#dk-lookups")
        page.click('[data-look-up="deck_decklist_mismatch"]')
        page.wait_for_selector("#pen-detail-h")
        assert page.input_value("#pen-player") == str(event["tables"][2][0])
        assert page.input_value("#pen-table") == "2"
        page.click("#pen-decide")
        page.wait_for_selector("#pen-card")
        notes = page.input_value("#pen-notes")
        assert notes == f"Deck check, round 1, table 2: Missing: 1 {card} (Deck)"
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")

        # table 3: two sideboard cards found in the main deck
        _start_check(page, 3)
        _count_all(page)
        side = page.locator('.count-row[data-section="side"]').first
        side_card = side.locator(".card-line").inner_text().split(" ", 1)[1].split(" (")[0]
        for _ in range(2):
            side.locator("button", has_text="−1").click()
        page.fill("#dk-found-name-main", side_card)
        page.fill("#dk-found-count-main", "2")
        page.click("#dk-found-add-main")
        page.wait_for_selector('#dk-diff-list li[data-kind="wrong_section"]')
        assert page.locator("#dk-diff-list li").count() == 1
        page.click("#dk-finish-wrong")
        page.wait_for_selector("#dk-recorded")
        _extend(page, 6)
        assert page.locator('[data-look-up="deck_decklist_mismatch"]').count() == 1
    except BaseException:
        context.close()
        raise
    try:
        context.set_offline(False)
        page.evaluate("() => window.judgeApp.syncNow()")
        wait_synced(page)
    finally:
        context.close()
    records = flask_server.records(event["slug"])
    finished = [r["payload"] for r in records if r["type"] == "deck_check" and r["payload"]["phase"] == "finished"]
    assert [(f["table"], f["outcome"]) for f in finished] == [(1, "ok"), (2, "wrong"), (3, "wrong")]
    assert all(f["decklist"] and f["counts"] for f in finished)
    assert finished[2]["found"] == [{"section": "main", "name": side_card, "count": 2}]
    extensions = [r["payload"] for r in records if r["type"] == "time_extension"]
    assert sorted((e["table"], e["minutes"], e["reason"]) for e in extensions) == [
        (1, 4, "deck_check"), (2, 5, "deck_check"), (3, 6, "deck_check")]
    (penalty,) = [r["payload"] for r in records if r["type"] == "penalty"]
    assert penalty["infraction"] == "deck_decklist_mismatch" and penalty["notes"] == notes


def test_a_player_submits_their_list_before_the_deadline_and_not_after(browser, flask_server):
    from server.decklist_intake import ensure_codes, set_deadline
    from server.events import get_event
    from server.timeutil import now_ms

    event = flask_server.make_event(players=2)
    with flask_server.app.app_context():
        ev = get_event(event["slug"])
        ensure_codes(ev)
        set_deadline(ev, now_ms() + 3_600_000)
        code = ev.players[0].decklist_code
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"{flask_server.url}/#/event/{event['slug']}/decklist/{code}")
        page.wait_for_selector("#dl-deadline[data-open=yes]")
        assert page.text_content("#dl-h") == f"Decklist of {event['players'][0]['name']}"
        page.fill("#dl-text", "4 Lightning Bolt\nCounterspell\n\n2 Negate\n")
        page.click("#dl-send")
        page.wait_for_selector("#dl-lines li")
        assert page.get_attribute("#dl-lines li", "data-line") == "2"
        assert "Line 2 (Counterspell): not a card line" in page.text_content("#dl-lines")
        shoot(page, "decklist-refused", at="#dl-refused")
        page.fill("#dl-text", "56 Island\n4 Lightning Bolt\n\n2 Negate\n")
        page.click("#dl-send")
        page.wait_for_selector("#dl-stored")
        assert "Island" in page.text_content("#dl-list")
        shoot(page, "decklist-stored")
        with flask_server.app.app_context():
            set_deadline(get_event(event["slug"]), now_ms() - 1000)
        page.reload()
        page.wait_for_selector("#dl-deadline[data-open=no]")
        assert page.locator("#dl-form").count() == 0
        assert "56 Island" in page.text_content("#dl-list")
        status = page.evaluate("""async ([slug, code]) => (await fetch(`/api/events/${slug}/decklist`, {
            method: "POST", headers: {"Content-Type": "application/json"},
            body: JSON.stringify({code, text: "60 Island"})})).status""", [event["slug"], code])
        assert status == 403
    finally:
        context.close()
    versions = [r for r in flask_server.records(event["slug"]) if r["type"] == "decklist"]
    assert len(versions) == 1 and versions[0]["payload"]["by"] == "player"
