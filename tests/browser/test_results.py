"""Results entered on a judge's Clock screen, for matches that end without time: a full round of
eight tables reaches "all results in" on the organiser's round board; a correction voids the
earlier result; a scorekeeper's phone enters results too."""

import time

from server_helpers import Phone

from .helpers import join, settled, wait_resolved, wait_synced

SHOWS = """([t, shown, games]) => {
  const el = document.querySelector(`#tables li[data-table='${t}'] .result`);
  return el && el.textContent.includes(shown) && el.textContent.includes(games);
}"""


def enter_result(page, table, result, games=None):
    page.click(f"#tables li[data-table='{table}'] button[aria-label='Result of table {table}']")
    page.wait_for_selector("#result-panel")
    page.click(f"#result-panel [data-result={result}]")
    if games:
        page.fill("#res-games-a", str(games[0]))
        page.fill("#res-games-b", str(games[1]))
    page.click("#res-record")
    page.wait_for_selector("#result-panel", state="detached")
    shown = "Draw" if result == "draw" else " wins"
    page.wait_for_function(SHOWS, arg=[table, shown, f"{games[0]}–{games[1]}" if games else ""])


def board(server, slug):
    from server.board import round_board
    from server.events import get_event

    with server.app.app_context():
        return round_board(get_event(slug), 0)


def test_a_round_of_eight_tables_reaches_all_results_in(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive", players=16, round_minutes=50)
    slug = event["slug"]
    flask_server.start_round(slug)
    judge_ctx, keeper_ctx = browser.returning(flask_server.url), browser.returning(flask_server.url)
    organiser_ctx = browser.new_context()
    try:
        judge, keeper = judge_ctx.new_page(), keeper_ctx.new_page()
        join(judge, flask_server, event, "Erin")
        join(keeper, flask_server, event, "Sam")
        flask_server.set_role(slug, "Sam", "scorekeeper")
        # the organiser's event page (on a computer of its own) stays open and follows the
        # board without a reload
        organiser = organiser_ctx.new_page()
        organiser.goto(flask_server.url + "/organiser/login")
        organiser.fill("input[name=username]", "organiser")
        organiser.fill("input[name=password]", "browser-tests")
        organiser.click("text=Log in")
        organiser.goto(flask_server.url + f"/organiser/events/{slug}")
        assert "0 in the end-of-match procedure · 8 playing · 0 results in" in organiser.text_content("#board")
        organiser.evaluate("() => { window.__samePage = true; }")
        judge.goto(flask_server.url + "/#/clock")
        judge.wait_for_selector("#tables li[data-table='8']")
        # a score the server would refuse is refused on screen by the same rule, asked of the
        # phone's engine, and nothing is recorded
        judge.click("#tables li[data-table='1'] button[aria-label='Result of table 1']")
        judge.click("#result-panel [data-result=A]")
        judge.fill("#res-games-a", "1")
        judge.fill("#res-games-b", "2")
        judge.click("#res-record")
        judge.wait_for_selector("#res-note .bad-text")
        assert judge.text_content("#res-note") == "Player A1 cannot win 1–2: the winner has won more games."
        judge.fill("#res-games-b", "1e1")
        judge.click("#res-record")
        judge.wait_for_function("() => document.querySelector('#res-note').textContent"
                                " === 'Games won: both whole numbers from 0 to 99, or neither.'")
        # what the browser's own number check would stop silently gets the same message in the page
        judge.evaluate("() => { document.querySelector('#res-note').textContent = ''; }")
        judge.fill("#res-games-b", "-1")
        judge.click("#res-record")
        judge.wait_for_function("() => document.querySelector('#res-note').textContent"
                                " === 'Games won: both whole numbers from 0 to 99, or neither.'")
        assert [r for r in judge.evaluate("() => window.judgeApp.records()") if r["type"] == "match_result"] == []
        judge.click("#result-panel button.secondary >> text=Cancel")
        enter_result(judge, 1, "A", games=(2, 1))
        assert "wins 2–1" in judge.text_content("#tables li[data-table='1'] .result")
        enter_result(judge, 1, "draw")  # a correction: the earlier result is voided
        assert judge.text_content("#tables li[data-table='1'] .result").startswith("Result in: Draw")
        for table in range(2, 8):
            enter_result(judge, table, "B")
        wait_synced(judge)
        assert board(flask_server, slug)["counts"]["result in"] == 7
        assert judge.text_content("#results-count") == "7 of 8 results in; outstanding tables first."
        assert judge.get_attribute("#tables li >> nth=0", "data-table") == "8"  # outstanding first
        keeper.goto(flask_server.url + "/#/clock")
        keeper.wait_for_selector("#tables li[data-table='8']")
        enter_result(keeper, 8, "A")
        wait_synced(keeper)
        final = board(flask_server, slug)
        assert final["all_in"] and final["counts"]["result in"] == 8
        assert {t["number"]: t["result"]["result"] for t in final["tables"]} == {
            1: "draw", 2: "B", 3: "B", 4: "B", 5: "B", 6: "B", 7: "B", 8: "A"}
        records = flask_server.records(slug)
        voids = [r for r in records if r["type"] == "void"]
        assert len(voids) == 1 and [r["type"] for r in records].count("match_result") == 9
        # the push stream tells the judge's phone, which syncs and learns the scorekeeper's result
        judge.wait_for_selector("#tables li[data-table='8'][data-state=result]", timeout=10_000)
        assert judge.text_content("#results-count") == "All results in."
        organiser.wait_for_function("() => /All results in\\./.test(document.getElementById('board').textContent)",
                                    timeout=15_000)
        assert organiser.evaluate("() => window.__samePage") is True
    finally:
        judge_ctx.close()
        keeper_ctx.close()
        organiser_ctx.close()


def result_from_another_phone(server, event, table):
    """Player A's win at `table` of round 1, recorded through the API by another phone."""
    other = Phone(server.app.test_client(), event, judge="Olly", name="other")
    result = other.record("match_result", {"table": table, "round": 1, "result": "A"},
                          created_ms=int(time.time() * 1000))
    assert [r["status"] for r in other.sync([result])["results"]] == ["accepted"]


def test_a_tap_on_a_tables_button_is_not_lost_when_the_list_is_drawn_again(browser, flask_server):
    """The tables list is drawn again on every clock fetch and sync, and a table with a result
    moves down it; while a button is pressed the list waits (press.js), then keeps the rows
    that show the same, so the tap goes to the table pressed. The judge calls panel and the
    alert banner, which push the screen down, wait the same way. Each press begins right after
    another tap, whose release's timers must not end it."""
    event = flask_server.make_event("dci-upg", "competitive", players=6, round_minutes=50)
    flask_server.start_round(event["slug"])
    # a tall phone: the whole list is in view, so no scrolling can make up for a row that moves
    ctx = browser.returning(flask_server.url, viewport={"width": 390, "height": 1600})
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Erin")
        page.goto(flask_server.url + "/#/clock")
        # nothing changes; table 1, above, gets a result from another phone; a player calls a judge
        for change in (None, "result", "call"):
            button = page.locator("#tables li[data-table='2'] button[aria-label='Result of table 2']")
            button.scroll_into_view_if_needed()
            box = button.bounding_box()
            page.click("#tables-h")  # a tap just over
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.mouse.down()
            button.evaluate("el => { el.dataset.pressed = 'yes'; }")
            # the earlier tap's timers have run, and the press is still under way
            page.wait_for_function("() => window.judgeApp.press().ending === 0")
            assert page.evaluate("() => window.judgeApp.press().pressed") is True
            if change == "result":
                result_from_another_phone(flask_server, event, 1)
            if change == "call":
                calls = flask_server.app.test_client().post(f"/api/events/{event['slug']}/calls", json={"table": 3})
                assert calls.status_code == 201
            drawn = page.get_attribute("#tables", "data-news-ms")
            page.evaluate("async () => { await window.judgeApp.refreshClock(); await window.judgeApp.syncNow(); }")
            if change == "result":  # the phone has the result, and its engine has answered what the list asks
                wait_resolved(page, "async () => (await window.judgeApp.records())"
                                    ".some((r) => r.type === 'match_result')")
            if change == "call":  # the phone knows of the call
                page.wait_for_function("() => window.judgeApp.calls.calls.length === 1")
            settled(page)
            assert button.get_attribute("data-pressed") == "yes"  # the same button, not a new one
            assert button.bounding_box() == box  # where the finger is
            assert page.is_hidden("#calls") and page.is_hidden("#alert-bar")
            page.mouse.up()
            page.wait_for_selector("#result-panel")
            assert page.text_content("#res-h") == "Result of table 2"
            page.click("#result-panel button.secondary >> text=Cancel")
            page.wait_for_selector("#result-panel", state="detached")
            # the list is drawn once the tap is over
            page.wait_for_function("(drawn) => document.getElementById('tables').dataset.newsMs !== drawn", arg=drawn)
            if change == "result":
                page.wait_for_selector("#tables li[data-table='1'][data-state=result]")
                assert page.get_attribute("#tables li >> nth=-1", "data-table") == "1"  # moved down
        # and the call's panel and banner, once the tap was over
        page.wait_for_selector("#calls li[data-call]")
        assert page.text_content("#alert") == "Judge call at table 3."
        # the status line, whose pills may wrap on a narrow phone, is also drawn after the tap
        net = page.text_content("#net")
        box = button.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        ctx.set_offline(True)
        page.evaluate("() => window.dispatchEvent(new Event('offline'))")
        settled(page)
        assert page.text_content("#net") == net != "Offline"
        page.mouse.up()
        page.wait_for_function("() => document.getElementById('net').textContent === 'Offline'")
        page.wait_for_selector("#result-panel")
        assert page.text_content("#res-h") == "Result of table 2"
    finally:
        ctx.close()


def test_results_that_differ_after_a_merge_are_shown_until_the_head_judge_records_the_right_one(
        browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive", players=4, round_minutes=50)
    slug = event["slug"]
    flask_server.start_round(slug)
    ann_ctx, hal_ctx = browser.returning(flask_server.url), browser.returning(flask_server.url)
    try:
        ann, hal = ann_ctx.new_page(), hal_ctx.new_page()
        join(ann, flask_server, event, "Ann")
        join(hal, flask_server, event, "Hal")
        flask_server.set_role(slug, "Hal", "head_judge")
        hal.reload()
        hal.wait_for_function("() => window.judgeApp.app.session?.role === 'head_judge'")
        for page in (ann, hal):
            page.goto(flask_server.url + "/#/clock")
            page.wait_for_selector("#tables li[data-table='1']")
        # Ann, offline, enters Player A1's win; Hal, online, Player B1's, not knowing of hers.
        ann_ctx.set_offline(True)
        enter_result(ann, 1, "A", games=(2, 1))
        enter_result(hal, 1, "B", games=(0, 2))
        wait_synced(hal)
        ann_ctx.set_offline(False)
        ann.evaluate("() => window.dispatchEvent(new Event('online'))")
        wait_synced(ann)
        [table] = [t for t in board(flask_server, slug)["tables"] if t["number"] == 1]
        assert table["state"] == "results differ" and len(table["result"]["disputed"]) == 1
        # both phones say so on the table's row, first in the list, naming who entered which
        for page in (ann, hal):
            if page is hal:
                hal.evaluate("() => window.judgeApp.syncNow()")
            page.wait_for_selector("#tables li[data-table='1'][data-state=disputed]", timeout=10_000)
            assert page.get_attribute("#tables li >> nth=0", "data-table") == "1"
            said = page.text_content("[data-disputed='1']")
            assert said.startswith("Results differ: ") and said.endswith(". Record the right one.")
            assert f"{table['player_a']} wins 2–1 (Ann)" in said and f"{table['player_b']} wins 0–2 (Hal)" in said
        # the head judge records the right one: both standing results are voided
        enter_result(hal, 1, "B", games=(1, 2))
        hal.wait_for_selector("#tables li[data-table='1'][data-state=result]")
        wait_synced(hal)
        [table] = [t for t in board(flask_server, slug)["tables"] if t["number"] == 1]
        assert (table["state"], table["result"]["games"], table["result"]["disputed"]) == \
            ("result in", {"A": 1, "B": 2}, [])
        voided = {r["payload"]["record"] for r in flask_server.records(slug) if r["type"] == "void"}
        assert len(voided) == 2
    finally:
        ann_ctx.close()
        hal_ctx.close()
