"""Penalties the policy leaves to the judge: a penalty the policy does not state is never shown
as "No penalty"; the judge chooses the class and the engine answers again from it. Answers
that matter later (on purpose, minor) and multi-penalty records travel in the history."""

import json

from .conftest import shoot
from .helpers import pick, standalone, standalone_pick

HISTORY = """async ([player, ruleset]) => window.judge.history(await window.judgeApp.records(), player, ruleset)"""


def shown_penalty(page):
    return json.loads(page.get_attribute("#pen-penalty", "data-penalty"))


def test_the_judge_chooses_what_the_policy_leaves_open(browser, static_server):
    ctx = browser.returning(static_server.url)
    try:
        page = ctx.new_page()
        standalone_pick(page, static_server.url, "missed trigger", "gpe_missed_trigger", "Pia")
        page.click("#pen-decide")
        page.wait_for_selector("#pen-card")
        assert shown_penalty(page) is None
        assert page.text_content("#pen-not-stated") == \
            "The policy does not state this penalty: the head judge decides."
        assert "No penalty" not in page.text_content("#pen-card")
        shoot(page, "penalty-not-stated", at="#pen-card")
        assert page.text_content("#pen-record") == "Record it for the head judge to decide"
        page.select_option("#pen-issuing", "warning")
        page.wait_for_function(
            "() => document.querySelector('#pen-penalty')?.dataset.penalty === '\"warning\"'")
        assert page.locator("#pen-not-stated").count() == 0
        assert page.input_value("#pen-issuing") == "warning"
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")

        # Two game losses at once for tardiness, then another look-up for the same player.
        pick(page, "late", "tardiness", "Rui")
        page.click("#pen-decide")
        page.fill(".question[data-fact=minutes_late] input", "11")
        page.click(".question button[type=submit]")
        page.wait_for_selector("#pen-card")
        assert shown_penalty(page) == ["game_loss", "game_loss"]
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        assert page.evaluate(HISTORY, ["Rui", "dci-upg"]) == [
            {"infraction": "tardiness", "penalty": ["game_loss", "game_loss"], "stage": "swiss"}]
        pick(page, "slow", "slow_play", "Rui")
        page.click("#pen-decide")
        page.wait_for_selector("#pen-card")
        assert shown_penalty(page) == "warning"
        assert page.text_content("#pen-history").startswith("1 earlier penalty")
        records = page.evaluate("() => window.judgeApp.records()")
        assert [(r["payload"]["player"], r["payload"]["infraction"], r["payload"]["penalty"])
                for r in records] == [("Pia", "gpe_missed_trigger", "warning"),
                                      ("Rui", "tardiness", ["game_loss", "game_loss"])]

        standalone(page, static_server.url, "judicial-guidelines")
        pick(page, "procedural", "procedural_error", "Sol")
        page.click("#pen-detail details summary")
        page.select_option("#pen-fact-minor", "false")
        page.click("#pen-decide")
        page.click(".question[data-fact=intentional] [data-answer=no]")
        page.click(".question[data-fact=disruptive] [data-answer=yes]")
        page.wait_for_selector("#pen-card")
        assert shown_penalty(page) == "notice"
        page.select_option("#pen-issuing", "single_warning")
        page.wait_for_function(
            "() => document.querySelector('#pen-penalty')?.dataset.penalty === '\"single_warning\"'")
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        [record] = page.evaluate("() => window.judgeApp.records()")
        assert {k: record["payload"][k] for k in ("penalty", "intentional", "minor")} == {
            "penalty": "single_warning", "intentional": False, "minor": False}
        assert page.evaluate(HISTORY, ["Sol", "judicial-guidelines"]) == [
            {"infraction": "procedural_error", "penalty": "single_warning", "stage": "swiss",
             "intentional": False, "minor": False}]
    finally:
        ctx.close()


def test_a_penalty_left_open_is_recorded_for_the_head_judge(browser, static_server):
    ctx = browser.returning(static_server.url)
    try:
        page = ctx.new_page()
        standalone_pick(page, static_server.url, "missed trigger", "gpe_missed_trigger", "Pia")
        page.click("#pen-decide")
        page.wait_for_selector("#pen-card")
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        [record] = page.evaluate("() => window.judgeApp.records()")
        assert (record["payload"]["penalty"], record["payload"]["head_judge"]) == (None, True)
        page.goto(static_server.url + "/#/history/Pia")
        page.wait_for_selector("#history-records li")
        assert page.text_content("#history-records li strong") == "Penalty for the head judge to decide"
    finally:
        ctx.close()
