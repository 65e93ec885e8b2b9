"""The Clock's time extension panel: a blank time gets no answer (the app says which number is
missing), and a double tap on either add button makes one record."""

import contextlib

from .helpers import double_tap, judge_phone, settled, wait_resolved


def extensions(page):
    return [(r["payload"]["table"], r["payload"]["minutes"], r["payload"]["reason"])
            for r in page.evaluate("() => window.judgeApp.records()")
            if r["type"] == "time_extension"]


@contextlib.contextmanager
def clock_phone(browser, server, judge, round_minutes=50):
    """A phone joined as `judge` to a new one-game WotF event whose round 1 runs
    (`round_minutes` long), on the Clock; yields its page."""
    event = server.make_event("wotf", "competitive", round_minutes=round_minutes, games_per_match=1)
    server.start_round(event["slug"])
    with judge_phone(browser, server, event, judge, "#/clock", "main[data-screen=clock]") as page:
        yield page


def test_blank_minutes_ask_for_a_number_and_a_double_tap_adds_once(browser, flask_server):
    with clock_phone(browser, flask_server, "Vic") as page:
        page.click("[aria-label='Add time to table 2']")
        page.select_option("#ext-reason", "deck_check")
        page.click("#ext-work")
        page.wait_for_selector("#ext-missing")
        assert page.text_content("#ext-missing") == \
            "Enter how long it took, in minutes (for example 4)."
        assert page.locator("#ext-result").count() == 0

        page.fill("#ext-minutes", "6")
        page.click("#ext-work")
        page.wait_for_selector("#ext-result")
        assert page.text_content("#ext-result") == "+9 min"
        double_tap(page, "#ext-add")
        page.wait_for_function(
            "() => document.querySelector('li[data-table=\"2\"] .ext')?.textContent === '+9 min'")
        settled(page)
        assert extensions(page) == [(2, 9, "deck_check")]

        # Where the policy states nothing the head judge's minutes are typed in.
        page.click("[aria-label='Add time to table 1']")
        page.select_option("#ext-reason", "tardiness")
        page.fill("#ext-minutes", "4")
        page.click("#ext-work")
        page.wait_for_selector("#ext-manual")
        page.click("#ext-manual-add")
        assert page.get_attribute("#ext-manual", "aria-invalid") == "true"
        page.fill("#ext-manual", "3")
        # A table the server would refuse is refused here, with nothing recorded.
        page.fill("#ext-table", "99999")
        page.click("#ext-manual-add")
        page.wait_for_function("() => document.querySelector('#ext-missing')?.textContent"
                               " === 'Table: must be a whole number from 1 to 9999.'")
        assert extensions(page) == [(2, 9, "deck_check")]
        page.fill("#ext-table", "1")
        double_tap(page, "#ext-manual-add")
        page.wait_for_function(
            "() => document.querySelector('li[data-table=\"1\"] .ext')?.textContent === '+3 min'")
        settled(page)
        assert extensions(page) == [(2, 9, "deck_check"), (1, 3, "tardiness")]


def test_hand_entered_minutes_over_240_or_between_whole_minutes_are_refused_on_screen(browser, flask_server):
    with clock_phone(browser, flask_server, "Ines") as page:
        page.click("[aria-label='Add time to table 1']")
        page.select_option("#ext-reason", "tardiness")
        page.fill("#ext-minutes", "4")
        page.click("#ext-work")
        page.wait_for_selector("#ext-manual")
        assert page.get_attribute("#ext-manual", "max") == "240"
        assert page.get_attribute("#ext-manual", "step") == "1"
        for typed in ("241", "0.05", "2.5"):  # over the limit, or between two whole minutes
            page.fill("#ext-manual", typed)
            page.click("#ext-manual-add")
            page.wait_for_selector("#ext-manual-error:not([hidden])")
            assert page.text_content("#ext-manual-error") == \
                "Time extensions are given in whole minutes: enter a whole number from 1 to 240."
            assert page.get_attribute("#ext-manual", "aria-invalid") == "true"
        settled(page)
        assert extensions(page) == []
        page.fill("#ext-manual", "240")
        page.click("#ext-manual-add")
        page.wait_for_function(
            "() => document.querySelector('li[data-table=\"1\"] .ext')?.textContent === '+240 min'")
        assert extensions(page) == [(1, 240, "tardiness")]


def test_an_engine_extension_over_240_minutes_goes_to_the_head_judge(browser, flask_server):
    with clock_phone(browser, flask_server, "Ines", round_minutes=300) as page:
        page.click("[aria-label='Add time to table 2']")
        page.select_option("#ext-reason", "deck_check")
        page.fill("#ext-minutes", "300")
        page.click("#ext-work")
        page.wait_for_selector("#ext-result")
        assert page.text_content("#ext-result") == "+300 min"
        assert page.locator("#ext-add").count() == 0
        assert "The event takes at most 240 minutes of extension: the head judge decides what to" \
            " give." in page.text_content("#ext-answer")
        page.fill("#ext-manual", "30")
        page.click("#ext-manual-add")
        page.wait_for_function(
            "() => document.querySelector('li[data-table=\"2\"] .ext')?.textContent === '+30 min'")
        assert extensions(page) == [(2, 30, "deck_check")]


def test_a_mistaken_extension_is_voided_by_its_judge_and_the_table_gets_its_time_back(browser, flask_server):
    from .helpers import joined_phones, wait_synced

    event = flask_server.make_event("wotf", "competitive", round_minutes=50, games_per_match=1)
    slug = event["slug"]
    flask_server.start_round(slug)
    (vic_ctx, vic), (kim_ctx, kim) = joined_phones(browser, flask_server, event, "Vic", "Kim")
    try:
        vic.click("[aria-label='Add time to table 2']")
        vic.select_option("#ext-reason", "deck_check")
        vic.fill("#ext-minutes", "1e2")  # not digits: no answer, nothing given
        vic.click("#ext-work")
        vic.wait_for_selector("#ext-missing")
        vic.fill("#ext-minutes", "6")
        vic.click("#ext-work")
        vic.click("#ext-add")
        vic.wait_for_function("() => document.querySelector('li[data-table=\"2\"] .ext')?.textContent === '+9 min'")
        wait_synced(vic)
        assert [t["extension_minutes"] for t in flask_server.clock(slug)["tables"] if t["number"] == 2] == [9]

        # another floor judge sees it (once Vic's record has reached Kim's phone), not to void
        wait_resolved(kim, "async () => (await window.judgeApp.records()).some((r) => r.type === 'time_extension')")
        kim.click("[aria-label='Add time to table 2']")
        kim.wait_for_selector("#ext-log li[data-extension]")
        assert "+9 min · Deck check · Vic at " in kim.text_content("#ext-log")
        assert kim.locator("[data-void-extension]").count() == 0

        # its judge voids it, saying why; the table's time goes back at once, and on the server
        vic.click("[aria-label='Add time to table 2']")
        vic.click("[data-void-extension]")
        vic.click("#ext-void-confirm")
        vic.wait_for_selector("#ext-void-error:not([hidden])")  # a reason is needed
        vic.fill("#ext-void-reason", "wrong table")
        vic.click("#ext-void-confirm")
        vic.wait_for_function(
            "() => document.querySelector('li[data-table=\"2\"] .ext')?.textContent === 'no extension'")
        assert vic.locator("#ext-log li").count() == 0
        wait_synced(vic)
        assert [t["extension_minutes"] for t in flask_server.clock(slug)["tables"] if t["number"] == 2] in ([0], [])
        voids = [r["payload"] for r in flask_server.records(slug) if r["type"] == "void"]
        assert [v["reason"] for v in voids] == ["wrong table"]
    finally:
        vic_ctx.close()
        kim_ctx.close()


def test_a_wrong_table_or_time_is_said_on_the_page_and_clears_the_last_answer(browser, flask_server):
    with clock_phone(browser, flask_server, "Vic") as page:
        page.click("[aria-label='Add time to table 2']")
        page.select_option("#ext-reason", "deck_check")
        page.fill("#ext-minutes", "6")
        page.click("#ext-work")
        page.wait_for_selector("#ext-result")
        for table in ("99999", "1e30", "-1", "1.5"):
            page.fill("#ext-table", table)
            page.click("#ext-work")
            page.wait_for_selector("#ext-missing")
            assert page.text_content("#ext-answer") == "Table: must be a whole number from 1 to 9999.", table
            assert page.locator("#ext-add").count() == 0
            assert page.evaluate("() => document.activeElement.id") == "ext-table"
            page.fill("#ext-table", "2")
            page.click("#ext-work")
            page.wait_for_selector("#ext-result")
        page.fill("#ext-minutes", "-3")
        page.click("#ext-work")
        page.wait_for_selector("#ext-missing")
        assert page.text_content("#ext-answer") == "Enter how long it took, in minutes (for example 4)."
        assert page.locator("#ext-result, #ext-add").count() == 0
        assert extensions(page) == []


def test_a_table_error_goes_when_the_hand_entered_minutes_are_what_is_wrong(browser, flask_server):
    with clock_phone(browser, flask_server, "Vic") as page:
        page.click("[aria-label='Add time to table 1']")
        page.select_option("#ext-reason", "tardiness")
        page.fill("#ext-minutes", "4")
        page.click("#ext-work")
        page.wait_for_selector("#ext-manual")
        page.fill("#ext-manual", "3")
        page.fill("#ext-table", "0")
        page.click("#ext-manual-add")
        page.wait_for_selector("#ext-missing")
        page.fill("#ext-table", "1")
        page.fill("#ext-manual", "")
        page.click("#ext-manual-add")
        page.wait_for_selector("#ext-manual-error:not([hidden])")
        assert page.locator("#ext-missing").count() == 0
        assert page.text_content("#ext-manual-error") == \
            "Time extensions are given in whole minutes: enter a whole number from 1 to 240."
        assert extensions(page) == []
