"""The Time! walk reaches a recorded result where the policy gives none (the head judge
decides, and the screen records that decision) and where the procedure goes on after a step
(a Wonders of the First play-off's additional Round asks for its Stones and goes round again)."""

import contextlib

from .helpers import join, wait_synced


def answer(page, fact, *, choose=None, numbers=None):
    """Answer the question for `fact`: a choice button, or numbers typed then Next."""
    question = f".question[data-fact='{fact}']"
    page.wait_for_selector(question)
    if choose is not None:
        page.click(f"{question} [data-answer='{choose}']")
        return
    for i, n in enumerate(numbers):
        page.fill(f"{question} input >> nth={i}", str(n))
    page.click(f"{question} button[type=submit]")


@contextlib.contextmanager
def walking(browser, server, stage):
    """A judge's phone at the start of a Time! walk for table 1 of a Wonders of the First
    event at `stage`; yields (page, event)."""
    event = server.make_event("wotf", "competitive", round_minutes=50, games_per_match=1)
    server.set_stage(event["slug"], stage)
    server.start_round(event["slug"])
    ctx = browser.returning(server.url)
    try:
        page = ctx.new_page()
        join(page, server, event, "Erin")
        page.goto(server.url + "/#/time")
        page.select_option("#tc-table", "1")
        page.click("#tc-start")
        yield page, event
    finally:
        ctx.close()


def test_where_the_policy_gives_no_result_the_head_judges_decision_is_recorded(browser, flask_server):
    with walking(browser, flask_server, "swiss") as (page, event):
        answer(page, "current_game.winner", choose="none")
        answer(page, "current_game.round_reached", numbers=[7])
        answer(page, "current_game.stones", numbers=[4, 4])
        answer(page, "current_game.lowest_realm", choose="none")
        page.wait_for_selector("#tc-head-judge")
        assert "the head judge decides the result" in page.text_content("#tc-head-judge")
        page.click("#tc-head-judge [data-result=B]")
        page.wait_for_selector("#tc-result")
        assert "Decided by the head judge." in page.text_content("#tc-result")
        page.click("#tc-record")
        page.wait_for_selector("#tc-result [role=status]")
        wait_synced(page)
        [record] = flask_server.records(event["slug"])
        assert (record["type"], record["payload"]["result"], record["payload"]["decided_by"]) == (
            "time_call", "B", "head_judge")
        assert "games" not in record["payload"]  # the policy gives no score where it gives no result


def test_a_play_off_s_additional_round_asks_for_its_stones_and_goes_round_again(browser, flask_server):
    with walking(browser, flask_server, "elimination") as (page, event):
        answer(page, "current_game.winner", choose="none")
        answer(page, "current_game.stones", numbers=[3, 3])
        answer(page, "current_game.lowest_realm", choose="none")
        # tied on everything: one more Realm, one more Round, then its Stones are asked
        page.click("#tc-continue")
        answer(page, "additional_round.stones", numbers=[4, 4])
        answer(page, "additional_round.lowest_realm", choose="none")
        page.click("#tc-continue")  # tied again: another Round
        answer(page, "additional_round.stones", numbers=[4, 6])
        page.wait_for_selector("#tc-result")
        assert page.get_attribute("#tc-result [data-match]", "data-match") == "B"
        # the one game, won in the additional Round, is the score the engine gives
        assert page.text_content("#tc-match").endswith("wins the match 0–1")
        page.click("#tc-record")
        page.wait_for_selector("#tc-result [role=status]")
        wait_synced(page)
        [record] = flask_server.records(event["slug"])
        assert (record["payload"]["result"], record["payload"]["decided_by"]) == ("B", "procedure")
        assert record["payload"]["games"] == record["payload"]["answer"]["games"] == {"A": 0, "B": 1}
        assert record["payload"]["facts"]["additional_round"] == {"stones": {"A": 4, "B": 6}}
