"""Partial answers on the Penalty screen: the decided part of the card shows at once, with
what is still open and its question under it; a penalty whose remedy is still open is
recorded with the facts it was recorded without, and a penalty that itself waits on a fact
cannot be recorded until it is answered."""

from .conftest import shoot, wait_python
from .helpers import join, pick, standalone, standalone_pick, wait_synced
from .test_review import head_judge, open_review, synced


def records(page):
    return page.evaluate("() => window.judgeApp.records()")


def shown_penalty(page, value):
    page.wait_for_selector(f"#pen-penalty[data-penalty='{value}']")


def below(page, upper, lower):
    """Whether the element `lower` starts below the end of `upper` on the screen."""
    return page.locator(lower).bounding_box()["y"] >= page.locator(upper).bounding_box()["y"] + \
        page.locator(upper).bounding_box()["height"]


def warning_with_the_fix_open(page):
    """Pick a game rule violation for Pia, choose a Warning, and record it without saying
    whether the error can be backed up."""
    pick(page, "game rule", "gpe_game_rule_violation", "Pia")
    page.click("#pen-decide")
    page.wait_for_selector("#pen-card .question[data-fact=caught_quickly_and_simple]")
    page.select_option("#pen-issuing", "warning")
    shown_penalty(page, '"warning"')
    page.wait_for_selector("#pen-card .question[data-fact=caught_quickly_and_simple]")
    page.click("#pen-record")
    page.wait_for_selector("#pen-recorded")


def test_the_decided_penalty_shows_with_the_open_question_under_it_and_records_what_was_open(browser, static_server):
    ctx = browser.returning(static_server.url)
    try:
        page = ctx.new_page()
        standalone_pick(page, static_server.url, "game rule", "gpe_game_rule_violation", "Pia")
        page.click("#pen-decide")
        page.wait_for_selector("#pen-card .question[data-fact=caught_quickly_and_simple]")
        page.select_option("#pen-issuing", "warning")
        shown_penalty(page, '"warning"')
        # the penalty first, what is still open under it, then its question
        assert page.text_content("#pen-penalty") == "Warning"
        assert below(page, "#pen-penalty", "#pen-open")
        assert below(page, "#pen-pending", "#pen-question .question")
        assert page.text_content("#pen-question .question-text") == (
            "The error was caught soon enough and is simple enough to undo safely")
        fix = page.text_content("#pen-pending li[data-field=fix]")
        assert fix.startswith("How the game or list is fixed: Back the game up to the error")
        assert "(if the error was caught soon enough and is simple enough to undo safely: no)" in fix
        assert page.locator("#pen-hj-open").count() == 1  # backing up needs the head judge's permission
        assert page.text_content("#pen-open-record") == (
            "You can record the penalty now: the record keeps what is still open.")
        assert page.evaluate("() => document.activeElement.id") == "pen-card-h"
        shoot(page, "penalty-open-question", at="#pen-card")
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        [record] = records(page)
        payload = record["payload"]
        assert (payload["penalty"], payload["open_facts"], payload["head_judge"]) == (
            "warning", ["facts.caught_quickly_and_simple"], True)
        assert "caught_quickly_and_simple" not in payload["facts"]

        # The ruling: two warnings earlier, the game rule violation is a game loss at
        # once; answering the open question fills in the fix, and the record has nothing open.
        warning_with_the_fix_open(page)
        pick(page, "game rule", "gpe_game_rule_violation", "Pia")
        page.click("#pen-decide")
        shown_penalty(page, '"game_loss"')
        assert page.locator("#pen-upgraded").count() == 1
        page.click("#pen-question [data-answer=no]")
        page.wait_for_function("() => !document.querySelector('#pen-open')"
                               " && document.querySelector('#pen-details li[data-field=fix]')")
        shown_penalty(page, '"game_loss"')
        assert page.text_content("#pen-details li[data-field=fix]") == "Leave the game as it is; no partial fix"
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        last = records(page)[-1]["payload"]
        assert (last["penalty"], last["upgraded"], "open_facts" in last) == ("game_loss", True, False)
        assert last["facts"]["caught_quickly_and_simple"] is False
    finally:
        ctx.close()


def test_a_penalty_that_waits_on_a_fact_says_on_which_answers_and_is_not_recorded_yet(browser, static_server):
    ctx = browser.returning(static_server.url)
    try:
        page = ctx.new_page()
        standalone(page, static_server.url, "judicial-guidelines")
        wait_python(page)
        pick(page, "other", "other", "Pia")
        page.click("#pen-decide")
        page.wait_for_selector("#pen-card .question[data-fact=intentional]")
        page.select_option("#pen-issuing", "single_warning")
        page.wait_for_function("() => document.querySelector('#pen-pending li[data-field=penalty]')"
                               "?.textContent.startsWith('Penalty: Single Warning (if')")
        shown_penalty(page, "pending")
        assert page.text_content("#pen-penalty .big-penalty") == "Not decided yet"
        assert "Double Warning (if the judge believes it was done on purpose: yes and it disrupted the game or " \
               "the event: yes)" in page.text_content("#pen-pending li[data-field=penalty]")
        assert page.locator("#pen-hj").count() == 1  # an official warning either way: the head judge confirms
        assert page.locator("#pen-record").count() == 0
        assert page.text_content("#pen-open-record") == "Answer the question to record this penalty."
        shoot(page, "penalty-not-decided-yet", at="#pen-card")
        page.click("#pen-question [data-answer=no]")
        shown_penalty(page, '"single_warning"')
        page.wait_for_selector("#pen-record")
        assert page.locator("#pen-open").count() == 0  # whether it disrupted decides nothing now
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        [record] = records(page)
        assert (record["payload"]["penalty"], "open_facts" in record["payload"]) == ("single_warning", False)
    finally:
        ctx.close()


def test_the_head_judge_sees_what_was_still_open_when_a_penalty_was_recorded(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive")
    flask_server.start_round(event["slug"])
    player = event["players"][0]
    floor_ctx = browser.returning(flask_server.url)
    head_ctx = None
    try:
        floor = floor_ctx.new_page()
        join(floor, flask_server, event, "Fay")
        floor.goto(flask_server.url + "/#/penalty")
        floor.fill("#pen-search", "game rule")
        floor.click("[data-infraction=gpe_game_rule_violation]")
        floor.select_option("#pen-player", str(player["id"]))
        floor.click("#pen-decide")
        floor.wait_for_selector("#pen-card .question[data-fact=caught_quickly_and_simple]")
        floor.select_option("#pen-issuing", "warning")
        shown_penalty(floor, '"warning"')
        floor.click("#pen-record")
        floor.wait_for_selector("#pen-recorded")
        wait_synced(floor)
        head_ctx, head = head_judge(browser, flask_server, event, "Hal")
        synced(head)
        open_review(head)
        item = head.locator("#review-waiting li[data-kind=approval]")
        item.wait_for()
        assert item.locator(".open-facts").text_content() == (
            "Still open when recorded: the error was caught soon enough and is simple enough to undo safely.")
    finally:
        floor_ctx.close()
        if head_ctx:
            head_ctx.close()
