"""Partial answers (shared_rules/engine.py): each answer field is decided on its own.

The property test asks, for every case of every case file with each event setting, fact and
object fact's field left out (the answer fingerprints' variants), every way of answering what
the partial answer asks (each value of a listable fact; a spread of numbers and of per-player
values for the others), and checks the partial answer against all of them: a field it gives
is the same in every completion, a line it reads out is read out in every completion, and every
fact it asks for is one some pending field waits on and one on which some completion differs.
"""

from __future__ import annotations

import copy
import itertools
import json

import pytest
from test_answer_fingerprint import variants  # (tests/ is on the path)

from shared_rules import RuleError, engine, evaluate, feeds, library, lint
from shared_rules.cases import load_case_files, request_of
from shared_rules.history import penalty_payload
from shared_rules.review import conflicts
from shared_rules.vocabulary import enumerate_values

NUMBERS = [0, 1, 2, 3, 4, 7, 8, 10, 11, 30]
PER_PLAYER = [{"A": 0, "B": 0}, {"A": 800, "B": 500}, {"A": 500, "B": 800}, {"A": 3, "B": 3}]
ENGINE_LINES = ("Not asked: ",)


def tries(need: dict) -> list:
    """The values a completion gives a fact the answer asks for."""
    if need["type"] == "per_player":
        return PER_PLAYER
    if need["type"] == "number":
        return [n for n in NUMBERS if n >= need.get("minimum", 0)]
    if need["type"] == "string":
        return ["a", "b"]
    return [v["id"] for v in need["values"]] if "values" in need else enumerate_values({"type": need["type"]})


def set_path(request: dict, path: str, value) -> dict:
    out = copy.deepcopy(request)
    root, *parts = path.split(".")
    at = out.setdefault(root, {})
    for part in parts[:-1]:
        at = at.setdefault(part, {})
    at[parts[-1]] = value
    return out


def completions(request: dict, answer: dict, depth: int = 0) -> list[tuple[dict, dict]]:
    """Every (request, complete answer) reached by answering what the answer asks, first need first."""
    if not answer.get("needs"):
        return [(request, answer)]
    assert depth < 8, "a walk that never ends"
    need = answer["needs"][0]
    out = []
    for value in tries(need):
        completed = set_path(request, need["path"], value)
        try:
            out += completions(completed, evaluate(completed), depth + 1)
        except RuleError:
            continue  # facts the query refuses together (more games won than a match has)
    return out


def searched_variants():
    for case in load_case_files(library.case_files()):
        for request in variants(request_of(case.ruleset, case.data)):
            try:
                answer = evaluate(request)
            except RuleError:
                continue
            if answer.get("needs"):
                yield f"{case.ruleset}/{case.id}", request, answer


SEARCHED = list(searched_variants())


def test_the_property_runs_over_many_partial_answers_of_every_query_kind():
    assert len(SEARCHED) > 300
    assert {request["query"] for _, request, _ in SEARCHED} >= {"penalty", "time_call", "extension", "first_turn"}


@pytest.mark.parametrize("ruleset", ["yugioh", "judicial-guidelines", "dci-upg", "wotf"])
def test_a_partial_answer_gives_only_what_every_way_of_answering_it_agrees_on(ruleset):
    checked = 0
    for name, request, answer in (s for s in SEARCHED if s[0].startswith(ruleset + "/")):
        query = engine.compiled_ruleset(ruleset).queries[request["query"]]
        done = completions(request, answer)
        assert done, name
        pending = answer.get("pending", {})
        for field in [*query.decisions, *query.answer_specs]:
            if field in pending or field in query.as_asked or field in ("options",):
                continue
            if field not in query.decisions and answer.get(field) == query.defaults.get(field):
                continue  # a describing field on which answers differ shows its default
            wanted = answer.get(field, "<absent>")
            got = {json.dumps(a.get(field, "<absent>"), sort_keys=True) for _, a in done}
            assert got == {json.dumps(wanted, sort_keys=True)}, (name, request, field)
        if "options" not in pending:
            assert all(a["options"] == answer["options"] for _, a in done), (name, request)
        lines = [line for line in answer["explain"] if not line.startswith(ENGINE_LINES)]
        for _, complete in done:
            assert all(line in complete["explain"] for line in lines), (name, request)
            assert set(answer["notes"]) <= set(complete["notes"]), (name, request)
            assert set(answer["sources"]) <= set(complete["sources"]), (name, request)
        for need in answer["needs"]:
            waiting = [f for f, entry in pending.items() if need["path"] in entry["facts"]]
            assert waiting, (name, need["path"])
        checked += 1
    assert checked > 20


def test_a_field_pending_on_facts_tried_value_by_value_differs_between_two_ways_of_answering():
    # (a field pending on a stand-in's fact is left open as the feeds declare: it may be less exact)
    checked = 0
    for name, request, answer in SEARCHED:
        done = completions(request, answer)
        for field, entry in answer.get("pending", {}).items():
            if "outcomes" not in entry:
                continue
            values = {json.dumps(a.get(field, "<absent>"), sort_keys=True) for _, a in done}
            assert len(values) > 1, (name, request, field)
            checked += 1
    assert checked > 100


def test_outcomes_name_each_value_a_pending_field_takes_and_the_answers_giving_it():
    for name, request, answer in SEARCHED:
        for field, entry in answer.get("pending", {}).items():
            for outcome in entry.get("outcomes", []):
                for alternative in outcome["if"]:
                    completed = request
                    for path, value in alternative.items():
                        completed = set_path(completed, path, value)
                    further = evaluate(completed)
                    if field in further.get("pending", {}):
                        continue  # decided only with facts a stand-in value hid
                    assert further.get(field, engine.compiled_ruleset(request["ruleset"])
                                       .queries[request["query"]].defaults.get(field)) == outcome["value"], \
                        (name, field, alternative)


GRV = {"ruleset": "dci-upg", "query": "penalty", "event": {"level": "competitive"},
       "facts": {"infraction": "gpe_game_rule_violation",
                 "history": [{"infraction": "gpe_game_rule_violation", "penalty": "warning"}] * 2}}


def test_a_game_rule_violation_after_two_warnings_is_a_game_loss_with_the_fix_still_open():
    answer = evaluate(GRV)
    assert (answer["penalty"], answer["upgraded"], answer["head_judge"]) == ("game_loss", True, True)
    assert {f: e["facts"] for f, e in answer["pending"].items()} == {
        "fix": ["facts.caught_quickly_and_simple"], "opponent_infraction": ["facts.caught_quickly_and_simple"]}
    assert [n["path"] for n in answer["needs"]] == ["facts.caught_quickly_and_simple"]
    assert answer["pending"]["fix"]["outcomes"] == [
        {"value": "back_up_with_head_judge_permission", "if": [{"facts.caught_quickly_and_simple": True}]},
        {"value": "leave_as_is", "if": [{"facts.caught_quickly_and_simple": False}]}]
    assert answer["pending"]["fix"]["text"].startswith("How the game or list is fixed: Back the game up")
    assert "DCI Penalty Guide §120 [Definition]" in answer["sources"]
    full = evaluate({**GRV, "facts": {**GRV["facts"], "caught_quickly_and_simple": False}})
    assert (full["penalty"], full["fix"], "pending" in full, "needs" in full) == ("game_loss", "leave_as_is", False,
                                                                                   False)


def test_a_third_warning_is_an_ejection_whatever_the_intent_with_the_head_judges_choices_still_open():
    history = [{"infraction": "tardiness", "penalty": "single_warning", "intentional": False, "minor": True},
               {"infraction": "procedural_error", "penalty": "single_warning", "intentional": False, "minor": True}]
    answer = evaluate({"ruleset": "judicial-guidelines", "query": "penalty", "event": {"stage": "swiss"},
                       "facts": {"infraction": "other", "disruptive": True, "issuing": "single_warning",
                                 "minor": True, "history": history}})
    assert (answer["penalty"], answer["drop"], answer["official_warnings"]) == ("ejection", True, 3)
    assert list(answer["pending"]) == ["options"] and answer["options"] == []
    assert [n["path"] for n in answer["needs"]] == ["facts.intentional"]


def test_where_intent_may_raise_a_chosen_class_the_penalty_waits_and_says_on_which_answers():
    answer = evaluate({"ruleset": "judicial-guidelines", "query": "penalty",
                       "facts": {"infraction": "other", "issuing": "single_warning"}})
    assert answer["penalty"] is None and answer["head_judge"] is True  # an official warning either way
    assert (answer["official_warning"], answer["official_warnings"]) == (True, 1)
    outcomes = answer["pending"]["penalty"]["outcomes"]
    assert outcomes == [
        {"value": "double_warning", "if": [{"facts.intentional": True, "facts.disruptive": True}]},
        {"value": "single_warning", "if": [{"facts.intentional": True, "facts.disruptive": False},
                                           {"facts.intentional": False}]}]
    assert answer["pending"]["penalty"]["text"] == (
        "Penalty: Single Warning (if the judge believes it was done on purpose: yes and it disrupted the game or "
        "the event: no, or the judge believes it was done on purpose: no); Double Warning (if the judge believes "
        "it was done on purpose: yes and it disrupted the game or the event: yes).")
    settled = evaluate({"ruleset": "judicial-guidelines", "query": "penalty",
                        "facts": {"infraction": "other", "issuing": "single_warning", "intentional": False}})
    assert (settled["penalty"], "needs" in settled) == ("single_warning", False)
    assert settled["not_needed"] == [{"path": "facts.disruptive", "label": "it disrupted the game or the event"}]


def test_a_number_that_is_not_given_leaves_pending_only_the_fields_it_feeds():
    answer = evaluate({"ruleset": "yugioh", "query": "time_call", "event": {"level": "tier2", "stage": "swiss"},
                       "facts": {"game_wins": {"A": 1, "B": 0}, "current_game": {"winner": None}}})
    assert answer["turns_after_current"] == 5
    assert {"game_result", "match"} <= set(answer["pending"])
    assert "outcomes" not in answer["pending"]["match"]  # a number hides which values give what
    assert answer["pending"]["match"]["text"] == ("The match: not decided until these are known: life points "
                                                  "once the extra turns are over.")
    assert [n["path"] for n in answer["needs"]] == ["facts.current_game.life_points"]


def test_the_step_to_play_is_given_as_it_stands_when_the_next_question_is_asked():
    facts = {"game_wins": {"A": 0, "B": 0}, "current_game": {"winner": None, "life_points": {"A": 3000, "B": 3000}}}
    answer = evaluate({"ruleset": "yugioh", "query": "time_call", "event": {"level": "tier1"}, "facts": facts})
    assert answer["next"] == "play_until_life_points_change"  # then: who was ahead once they changed
    assert [n["path"] for n in answer["needs"]] == ["facts.after_life_point_change.winner"]
    done = evaluate({"ruleset": "yugioh", "query": "time_call", "event": {"level": "tier1"},
                     "facts": {**facts, "after_life_point_change": {"winner": "A"}}})
    assert (done["next"], done["match"]) == (None, "A")


def test_a_search_over_its_budget_walks_on_with_a_stand_in_and_trusts_the_feeds(monkeypatch):
    monkeypatch.setattr(engine, "MAX_EVALUATIONS", 1)
    answer = evaluate(GRV)
    assert answer["penalty"] == "game_loss"
    assert set(answer["pending"]) == {"head_judge", "fix", "opponent_infraction"}  # the declared feeds
    assert "outcomes" not in answer["pending"]["fix"]


def test_a_penalty_with_its_remedy_open_is_recorded_with_the_open_facts_and_the_head_judge():
    answer = evaluate(GRV)
    payload = penalty_payload(answer, GRV["facts"], player=3, event=GRV["event"])
    assert (payload["penalty"], payload["open_facts"], payload["head_judge"]) == (
        "game_loss", ["facts.caught_quickly_and_simple"], True)
    undecided = evaluate({"ruleset": "judicial-guidelines", "query": "penalty",
                          "facts": {"infraction": "other", "issuing": "single_warning"}})
    with pytest.raises(RuleError) as error:
        penalty_payload(undecided, {"infraction": "other"}, player=3)
    assert error.value.field == "answer.pending.penalty"
    assert "facts.intentional, facts.disruptive" in str(error.value)


def test_a_head_judge_step_still_open_sends_the_record_to_the_head_judge():
    request = {"ruleset": "dci-upg", "query": "penalty", "event": {"level": "competitive"},
               "facts": {"infraction": "gpe_game_rule_violation", "issuing": "warning"}}
    answer = evaluate(request)
    assert answer["penalty"] == "warning" and "head_judge" in answer["pending"]
    assert penalty_payload(answer, request["facts"], player=1)["head_judge"] is True


def test_the_head_judge_setting_decides_an_approval_the_rules_left_open():
    request = {"ruleset": "dci-upg", "query": "penalty",
               "event": {"level": "competitive", "head_judge_from": "warning"},
               "facts": {"infraction": "gpe_game_rule_violation", "issuing": "warning"}}
    answer = evaluate(request)
    assert answer["head_judge"] is True and "head_judge" not in answer["pending"]
    assert answer["explain"][-1] == "This event's setting: from Warning up, the head judge confirms the penalty."


def test_a_record_whose_remedy_was_open_is_checked_again_on_its_penalty_alone():
    records = []  # three judges each give a warning, none seeing another's (the fix left open each time)
    for i, facts in enumerate([{"infraction": "gpe_game_rule_violation", "issuing": "warning"}] * 3):
        answer = evaluate({"ruleset": "dci-upg", "query": "penalty", "event": {"level": "competitive"},
                           "facts": {**facts, "history": []}})
        payload = penalty_payload(answer, facts, player=7, event={"level": "competitive"}, history_seen=[])
        records.append({"id": f"r{i}", "type": "penalty", "payload": payload, "created_ms": 1000 + i})
    flags = conflicts(records, "dci-upg", {"level": "competitive"})
    # the game play error path climbs warning, warning, game loss: only the third is flagged, the
    # open fix never making a flag of its own
    assert [(f["record"], f["recorded"], f["expected"], f["needs"]) for f in flags] == [
        ("r2", "warning", "game_loss", [])]
    assert records[2]["payload"]["open_facts"] == ["facts.caught_quickly_and_simple"]


def test_a_pending_sentence_comes_in_the_answers_language():
    answer = evaluate({**GRV, "language": "de"})
    assert answer["pending"]["fix"]["text"].startswith("Wie das Spiel oder die Liste korrigiert wird")
    assert "(wenn " in answer["pending"]["fix"]["text"]
    assert {f: e["facts"] for f, e in answer["pending"].items()} == {
        f: e["facts"] for f, e in evaluate(GRV)["pending"].items()}


# --- what each fact feeds, and its lint ------------------------------------------------------

SRC = "toy-rules §1"
TOY = {
    "id": "toy", "title": "Toy policy", "document": {"id": "toy-rules"},
    "penalties": [{"id": "caution", "name": "Caution", "summary": "s"},
                  {"id": "game_loss", "name": "Game Loss", "summary": "s"}],
    "infractions": [
        {"id": "spill", "name": "Spill", "summary": "s", "source": SRC, "rules": [
            {"set": {"penalty": "caution"}, "source": SRC},
            {"first": [{"when": {"var": "facts.wet"}, "set": {"fix": "dry"}, "explain": "Dry the cards."},
                       {"set": {"fix": "none"}}], "source": SRC},
            {"when": {"var": "facts.angry"}, "halt": True},
            {"set": {"extra_turns_each": {"var": "answer.bonus"}}, "explain": "Bonus: {facts.bonus_text}."},
            {"set": {"bonus": 1}, "source": SRC}]}],
    "queries": {"penalty": {
        "facts": {"wet": {"type": "bool", "summary": "the cards got wet"},
                  "angry": {"type": "bool", "summary": "the player got angry"},
                  "mood": {"type": "bool", "summary": "the player's mood"},
                  "bonus_text": {"type": "string", "summary": "a text"}},
        "answer": {"fix": {"type": "text", "label": "Fix"}},
        "feeds": {"facts.wet": ["fix"], "facts.angry": ["extra_turns_each"]},
        "steps": [{"run": "infraction.rules"},
                  {"when": {"var": "facts.mood"}, "explain": "A mood."}]}},
}


def toy(**changes) -> dict:
    data = copy.deepcopy(TOY)
    for path, value in changes.items():
        data["queries"]["penalty"]["feeds"][path.replace("__", ".")] = value
    return data


def test_feeds_follow_whens_first_lists_halts_and_answer_reads():
    flow = feeds.flow(TOY, "penalty")
    assert flow.feeds("facts.wet") == ["fix"]
    assert flow.feeds("facts.angry") == ["extra_turns_each", "bonus"]  # what runs after a halt it guards
    assert flow.feeds("facts.mood") == []  # shapes a line only
    assert list(flow.asked) == ["facts.wet", "facts.angry", "facts.mood"]
    key = "infractions[spill].rules[1].first[0]"
    assert flow.site_facts(key, "explain[0]") == {"facts.wet"}
    assert flow.site_facts("infractions[spill].rules[3]", "explain[0]") == {"facts.angry", "facts.bonus_text"}


def test_lint_fails_a_fact_asked_for_nothing_and_a_declaration_that_differs_from_the_rules():
    problems = lint.lint(TOY)
    assert problems == ["queries.penalty.feeds[facts.mood]: the rules ask for facts.mood but it feeds no answer "
                        "field, so it would be asked for nothing"]
    data = toy(facts__wet=["fix", "penalty"])
    assert any("feeds[facts.wet]: declared ['fix', 'penalty'], but the rules show it feeds ['fix'] "
               "(not fed: ['penalty'])" in p for p in lint.lint(data))
    data = toy()
    del data["queries"]["penalty"]["feeds"]["facts.angry"]
    assert any("feeds[facts.angry]: not declared; the rules show it feeds ['extra_turns_each']" in p
               for p in lint.lint(data))
    data = toy(facts__bonus_text=["fix"])
    assert any("feeds[facts.bonus_text]: the rules never ask for facts.bonus_text" in p for p in lint.lint(data))


@pytest.mark.parametrize("ruleset", ["yugioh", "judicial-guidelines", "dci-upg", "wotf"])
def test_the_four_rulesets_declare_what_every_askable_fact_feeds(ruleset):
    data = library.load_ruleset(ruleset)
    assert not [p for p in lint.lint(data) if ".feeds[" in p]
    assert any(program.get("feeds") for program in data["queries"].values())


def test_a_stand_in_leaves_out_the_lines_its_fact_shapes_and_keeps_the_others():
    answer = evaluate({"ruleset": "dci-upg", "query": "penalty", "event": {"level": "competitive"},
                       "facts": {"infraction": "tardiness"}})
    assert [n["path"] for n in answer["needs"]] == ["facts.minutes_late"]
    assert answer["explain"] == ["Infraction: Tournament Error — Tardiness."]  # nothing the minutes shape
    assert answer["sources"] == ["DCI Penalty Guide §40 [Definition]", "DCI Penalty Guide §131 [Remedy]"]
    assert "penalty" in answer["pending"] and answer["penalty"] is None
    assert answer["minutes_without_penalty"] == 0  # the grace the organiser did not elect: decided


def test_every_answer_field_of_a_complete_answer_is_as_before_the_search_changed():
    # one evaluation, no search: nothing pending, no needs, the same dict as the plain walk gives
    answer = evaluate({**GRV, "facts": {**GRV["facts"], "caught_quickly_and_simple": True}})
    assert not ({"pending", "needs", "not_needed"} & set(answer))
    assert list(itertools.islice(answer, 3)) == ["ruleset", "query", "penalty"]


def test_numbers_the_rules_only_compare_are_tried_on_each_side_of_each_comparison():
    data = library.load_ruleset("yugioh")
    facts = engine.compiled_ruleset("yugioh").words["queries"]
    assert feeds.stand_for(data, "penalty", facts["penalty"]["facts"]) == {"facts.minutes_late": [0, 3, 6.5, 10, 11]}
    both = [{"A": 1, "B": 0}, {"A": 0, "B": 0}, {"A": 0, "B": 1}]
    assert feeds.stand_for(data, "time_call", facts["time_call"]["facts"]) == {
        "facts.current_game.life_points": both, "facts.sudden_death.life_points": both}
    wotf = library.load_ruleset("wotf")
    extension = engine.compiled_ruleset("wotf").words["queries"]["extension"]["facts"]
    assert feeds.stand_for(wotf, "extension", extension) == {}  # minutes added up: a stand-in, not tried


def test_a_match_decided_whatever_the_duel_in_progress_gives_is_given():
    # B won the sudden death duel: whoever won the duel before it, or however it ended, B wins
    answer = evaluate({"ruleset": "yugioh", "query": "time_call", "event": {"level": "tier1", "stage": "swiss"},
                       "facts": {"game_wins": {"A": 0, "B": 1}, "sudden_death": {"winner": "B"}}})
    assert answer["match"] == "B" and "match" not in answer.get("pending", {})
    assert "outcomes" not in answer["pending"]["game_result"]  # life points stand for ranges: not named


@pytest.mark.parametrize("ruleset", ["yugioh", "judicial-guidelines", "dci-upg", "wotf"])
def test_every_line_the_rules_write_has_its_place_in_the_feeds_analysis(ruleset):
    compiled = engine.compiled_ruleset(ruleset)
    for name, query in compiled.queries.items():
        tagged = query.tagged()  # raises where a line's place is unknown
        assert len(tagged.site_facts) >= 1, name
