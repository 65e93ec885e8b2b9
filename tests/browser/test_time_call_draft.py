"""Time!: Back and Forward keep a walk in progress (its answers and its next question), and
recording or "Start over" ends it; a bad number stays on screen with a message beside its
field instead of reaching the engine, and a score no match can have (two wins each in a best
of three) is refused beside the game-wins fields in the phone's language."""

import contextlib

from playwright.sync_api import expect

from .helpers import judge_phone, wait_synced
from .test_time_call_ends import answer


@contextlib.contextmanager
def time_screen(browser, server, level="tier2", locale="en-US"):
    """A judge's phone (its browser in `locale`) on the Time! screen of a Yu-Gi-Oh! event at
    `level` whose round 1 runs; yields (page, event)."""
    event = server.make_event("yugioh", level, round_minutes=45)
    server.start_round(event["slug"])
    with judge_phone(browser, server, event, "Tove", "#/time", "#tc-start", locale=locale) as page:
        yield page, event


def shown(page):
    """What the walk shows: the form, the answers given and the question asked now."""
    page.wait_for_selector("#tc-steps .question")
    return {
        "table": page.input_value("#tc-table"),
        "wins": [page.input_value("#tc-wins-a"), page.input_value("#tc-wins-b")],
        "answers": page.locator("#tc-steps .answered").all_text_contents(),
        "question": page.get_attribute("#tc-steps .question", "data-fact"),
    }


def test_back_and_forward_keep_the_walk_and_recording_ends_it(browser, flask_server):
    # at tier 1, equal life points mean playing on: a third question
    with time_screen(browser, flask_server, "tier1") as (page, event):
        page.select_option("#tc-table", "1")
        page.fill("#tc-wins-a", "1")
        page.click("#tc-start")
        answer(page, "current_game.winner", choose="none")
        answer(page, "current_game.life_points", numbers=[4000, 4000])
        page.wait_for_selector(".question[data-fact='after_life_point_change.winner']")
        before = shown(page)
        assert before["table"] == "1" and before["wins"] == ["1", "0"]
        assert len(before["answers"]) == 2 and before["answers"][0].endswith("— neither")
        assert before["answers"][1].count("4000") == 2

        page.go_back()
        page.wait_for_selector("main[data-screen=clock]")
        page.go_forward()
        page.wait_for_selector("main[data-screen=time]")
        page.wait_for_selector(".question[data-fact='after_life_point_change.winner']")
        assert shown(page) == before
        # leaving by the menu and coming back shows it too
        page.click("#nav [data-screen=clock]")
        page.wait_for_selector("main[data-screen=clock]")
        page.click("#nav [data-screen=time]")
        page.wait_for_selector(".question[data-fact='after_life_point_change.winner']")
        assert shown(page) == before

        answer(page, "after_life_point_change.winner", choose="A")
        page.wait_for_selector("#tc-record")
        assert page.get_attribute("#tc-result [data-match]", "data-match") == "A"
        assert page.get_attribute("#tc-match", "data-games") == "2–0"
        assert page.text_content("#tc-match").endswith("(A) wins the match 2–0")
        page.click("#tc-record")
        page.wait_for_selector("#tc-result [role=status]")
        wait_synced(page)
        [record] = flask_server.records(event["slug"])
        assert (record["payload"]["result"], record["payload"]["games"]) == ("A", {"A": 2, "B": 0})
        assert record["payload"]["facts"] == {
            "game_wins": {"A": 1, "B": 0},
            "current_game": {"winner": None, "life_points": {"A": 4000, "B": 4000}},
            "after_life_point_change": {"winner": "A"}}
        # recorded: the next visit starts a new walk
        page.go_back()
        page.wait_for_selector("main[data-screen=clock]")
        page.go_forward()
        page.wait_for_selector("main[data-screen=time] #tc-start")
        assert page.locator("#tc-steps > *").count() == 0
        assert page.input_value("#tc-table") == ""


def test_start_over_forgets_the_walk(browser, flask_server):
    with time_screen(browser, flask_server) as (page, _):
        page.select_option("#tc-table", "1")
        page.click("#tc-start")
        answer(page, "current_game.winner", choose="none")
        page.wait_for_selector(".question[data-fact='current_game.life_points']")
        page.click("#tc-reset")
        expect(page.locator("#tc-steps > *")).to_have_count(0)
        assert page.input_value("#tc-table") == ""
        page.go_back()
        page.wait_for_selector("main[data-screen=clock]")
        page.go_forward()
        page.wait_for_selector("main[data-screen=time] #tc-start")
        assert page.locator("#tc-steps > *").count() == 0
        assert page.locator("#tc-reset").is_hidden()


def test_a_bad_number_gets_a_message_beside_its_field_and_the_walk_stays(browser, flask_server):
    with time_screen(browser, flask_server) as (page, _):
        page.select_option("#tc-table", "1")
        page.fill("#tc-wins-a", "1.5")
        page.click("#tc-start")
        expect(page.locator("#tc-wins-a-error")).to_be_visible()
        assert "a whole number of 0 or more" in page.text_content("#tc-wins-a-error")
        assert page.get_attribute("#tc-wins-a", "aria-invalid") == "true"
        assert page.locator("#tc-steps > *").count() == 0
        page.fill("#tc-wins-a", "1")
        expect(page.locator("#tc-wins-a-error")).to_be_hidden()
        page.click("#tc-start")
        answer(page, "current_game.winner", choose="none")
        question = ".question[data-fact='current_game.life_points']"
        page.wait_for_selector(question)
        a, b = page.locator(f"{question} input").all()
        for bad, why in [("abc", "in digits"), ("-1", "in digits"), ("1e9", "in digits"),
                         ("1.5", "in digits"), ("", "is needed")]:
            a.fill(bad)
            b.fill("4000")
            page.click(f"{question} button[type=submit]")
            error = page.locator(f"#{a.get_attribute('id')}-error")
            expect(error).to_be_visible()
            assert why in error.text_content() and "whole number of 0 or more" in error.text_content()
            assert page.locator(f"#{b.get_attribute('id')}-error").is_hidden()
            assert page.locator("#tc-steps .answered").count() == 1  # the question is still open
            assert page.locator("#tc-steps .bad-text:not([id])").count() == 0  # no engine error
        a.fill("3500")
        page.click(f"{question} button[type=submit]")
        page.wait_for_selector("#tc-result")
        # 1 game to 0 before, the current game lost by A on life points: one game each
        assert page.get_attribute("#tc-result [data-match]", "data-match") == "draw"


def test_an_impossible_score_is_refused_beside_the_fields_and_a_corrected_one_walks_on(browser, flask_server):
    with time_screen(browser, flask_server, locale="de-DE") as (page, _):
        page.select_option("#tc-table", "1")
        page.fill("#tc-wins-a", "2")
        page.fill("#tc-wins-b", "2")
        page.click("#tc-start")
        error = page.locator("#tc-wins-error")
        error.wait_for(state="visible")
        # the engine's reason in German, the number from the data
        assert "Best-of-3" in error.text_content() and "Spielstand" in error.text_content()
        assert page.evaluate("document.activeElement.id") == "tc-wins-a"
        assert page.get_attribute("#tc-wins-a", "aria-invalid") == "true"
        assert "tc-wins-error" in page.get_attribute("#tc-wins-b", "aria-describedby")
        assert page.locator("#tc-steps > *").count() == 0
        assert page.is_hidden("#tc-reset")
        # nothing of the refused walk is kept: a reload shows the form, not a walk
        page.reload()
        page.wait_for_selector("#tc-start")
        assert page.locator("#tc-steps > *").count() == 0
        assert page.input_value("#tc-wins-a") == "2"
        # corrected, the walk goes on; typing took the reason away
        page.fill("#tc-wins-b", "1")
        assert page.is_hidden("#tc-wins-error")
        assert page.get_attribute("#tc-wins-a", "aria-invalid") is None
        page.click("#tc-start")
        page.wait_for_selector("#tc-match[data-match=A]")
