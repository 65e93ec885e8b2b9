"""The engine on a small made-up ruleset: errors, upgrades, what an answer needs, the CLI and the runner."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import shared_rules
from shared_rules import RuleError, engine, evaluate, library

ROOT = Path(__file__).resolve().parent.parent
SRC = "toy-rules §1"

TOY = {
    "id": "toy", "title": "Toy policy", "document": {"id": "toy-rules", "name": "Toy", "version": "1"},
    "defaults": {"games_per_match": 3}, "level_label": "Tier", "best_of": [1, 3, 5],
    "levels": [{"id": "low", "name": "Low", "summary": "s"}, {"id": "high", "name": "High", "summary": "s"}],
    "penalties": [{"id": "caution", "name": "Caution", "summary": "s"},
                  {"id": "warning", "name": "Warning", "summary": "s"},
                  {"id": "game_loss", "name": "Game Loss", "summary": "s"}],
    "ladders": {"default": {"steps": ["caution", "warning", "game_loss"], "source": SRC}},
    "procedures": {"climb": [
        {"set": {"repeats": {"count": [{"var": "facts.history"},
                                       {"==": [{"var": "item.infraction"}, {"var": "facts.infraction"}]}]}}},
        {"set": {"penalty": {"ladder": ["default", {"var": "answer.base_penalty"}, {"var": "answer.repeats"}]},
                 "upgraded": {">": [{"var": "answer.repeats"}, 0]}},
         "explain": "Penalty: {penalty:answer.penalty}.", "source": SRC,
         "options": [{"penalty": "game_loss", "condition": "head judge may raise it",
                      "when": {"var": "answer.upgraded"}}]}]},
    "infractions": [
        {"id": "slow", "name": "Slow Play", "summary": "s", "source": SRC, "rules": [
            {"set": {"base_penalty": {"table": [{"var": "event.level"}, {"low": "caution", "high": "warning"}]}},
             "source": SRC}]},
        {"id": "late", "name": "Tardiness", "summary": "s", "source": SRC, "rules": [
            {"when": {">": [{"var": "facts.minutes_late"}, 3]}, "set": {"base_penalty": "game_loss"}, "source": SRC}]},
        {"id": "rude", "name": "Rudeness", "summary": "s", "source": SRC, "rules": [
            {"first": [{"when": {"var": "facts.intentional"}, "set": {"base_penalty": "warning"},
                        "explain": "On purpose.", "source": SRC},
                       {"set": {"base_penalty": "warning"}, "explain": "By accident.", "source": SRC}]}]},
        {"id": "shove", "name": "Shoving", "summary": "s", "source": SRC, "rules": [
            {"first": [{"when": {"var": "facts.intentional"}, "set": {"base_penalty": "game_loss"}, "source": SRC},
                       {"set": {"base_penalty": "caution"}, "source": SRC}]}]}],
    "queries": {
        "penalty": {
            "facts": {"minutes_late": {"type": "number", "summary": "minutes late"},
                      "intentional": {"type": "bool", "summary": "the judge believes it was done on purpose"}},
            "steps": [{"run": "infraction.rules"}, {"run": "procedures.climb"}]},
        "time_call": {
            "facts": {"current_game": {"fields": {"life_points": {"type": "per_player", "summary": "life points"}}}},
            "steps": [
                {"set": {"turns_after_current": 3}, "explain": "Play {answer.turns_after_current} more turns.",
                 "source": SRC},
                {"first": [
                    {"when": {"!=": [{"var": "facts.current_game.winner"}, None]},
                     "set": {"game_result": {"var": "facts.current_game.winner"}}, "source": SRC},
                    {"set": {"game_result": {"compare": [{"var": "facts.current_game.life_points.A"},
                                                         {"var": "facts.current_game.life_points.B"}]}},
                     "source": SRC}]}]}},
}


def install(folder: Path, data: dict, monkeypatch) -> None:
    (folder / "rulesets").mkdir(parents=True, exist_ok=True)
    (folder / "rulesets" / f"{data['id']}.json").write_text(json.dumps(data))
    monkeypatch.setenv(library.PATH_VARIABLE, str(folder))


@pytest.fixture()
def toy(tmp_path, monkeypatch):
    install(tmp_path, TOY, monkeypatch)
    yield "toy"
    library.clear_caches()


def ask(query, facts, level="high", **event):
    return evaluate({"ruleset": "toy", "query": query, "event": {"level": level, **event}, "facts": facts})


def test_first_offense_uses_the_level_base_penalty(toy):
    assert ask("penalty", {"infraction": "slow"}, level="low")["penalty"] == "caution"
    answer = ask("penalty", {"infraction": "slow"})
    assert (answer["penalty"], answer["upgraded"], answer["explain"]) == ("warning", False, ["Penalty: Warning."])


def test_repeat_of_the_same_infraction_climbs_one_step_per_repeat_and_stops_at_the_top(toy):
    one = [{"infraction": "slow", "penalty": "warning"}]
    assert ask("penalty", {"infraction": "slow", "history": one})["penalty"] == "game_loss"
    assert ask("penalty", {"infraction": "slow", "history": one * 5})["penalty"] == "game_loss"
    other = [{"infraction": "late", "penalty": "game_loss"}]
    assert ask("penalty", {"infraction": "slow", "history": other})["upgraded"] is False


def test_a_record_that_gave_several_penalties_is_one_earlier_offense_counting_its_last(toy):
    two = [{"infraction": "slow", "penalty": ["caution", "warning"]}]
    answer = ask("penalty", {"infraction": "slow", "history": two})
    assert (answer["repeats"], answer["penalty"]) == (1, "game_loss")
    none = [{"infraction": "slow", "penalty": None}]
    assert ask("penalty", {"infraction": "slow", "history": none})["repeats"] == 1


def test_options_carry_their_condition_and_the_sorted_penalty_ids(toy):
    answer = ask("penalty", {"infraction": "slow", "history": [{"infraction": "slow", "penalty": "warning"}]})
    assert answer["options"] == [{"penalty": "game_loss", "condition": "head judge may raise it", "source": SRC}]
    assert answer["option_penalties"] == ["game_loss"]


def test_a_number_that_decides_the_answer_is_named_in_needs(toy):
    answer = ask("penalty", {"infraction": "late"})
    assert answer["needs"] == [{"path": "facts.minutes_late", "type": "number", "label": "minutes late",
                                "minimum": 0}]
    assert answer["penalty"] is None and "not_needed" not in answer
    assert ask("penalty", {"infraction": "late", "minutes_late": 4})["penalty"] == "game_loss"


def test_a_missing_fact_the_answer_does_not_depend_on_is_no_error(toy):
    answer = ask("penalty", {"infraction": "rude"})
    assert (answer["penalty"], "needs" in answer) == ("warning", False)
    assert answer["not_needed"] == [{"path": "facts.intentional", "label": "the judge believes it was done on purpose"}]
    assert "On purpose." not in answer["explain"] and "By accident." not in answer["explain"]
    assert answer["explain"][-1] == ("Not asked: the judge believes it was done on purpose. "
                                     "Every possible answer gives this same result.")


def test_a_missing_fact_that_decides_is_asked_with_its_values(toy):
    answer = ask("penalty", {"infraction": "shove"})
    assert answer["needs"] == [{"path": "facts.intentional", "type": "bool",
                                "label": "the judge believes it was done on purpose"}]
    assert answer["penalty"] is None and answer["explain"] == []
    assert ask("penalty", {"infraction": "shove", "intentional": False})["penalty"] == "caution"


def test_a_missing_level_is_tried_for_each_level_of_the_ruleset(toy):
    request = {"ruleset": "toy", "query": "penalty", "facts": {"infraction": "slow"}}
    answer = evaluate(request)
    assert answer["needs"] == [{"path": "event.level", "type": "enum", "label": "tier",
                                "values": [{"id": "low", "name": "Low"}, {"id": "high", "name": "High"}]}]
    twice = [{"infraction": "slow", "penalty": "warning"}] * 2
    answer = evaluate({**request, "facts": {"infraction": "slow", "history": twice}})
    assert (answer["penalty"], answer["upgraded"]) == ("game_loss", True)
    assert answer["not_needed"] == [{"path": "event.level", "label": "tier"}]
    assert answer["base_penalty"] is None  # caution at one level, warning at the other: it does not decide
    answer = evaluate({**request, "facts": {"infraction": "late", "minutes_late": 4}})
    assert answer["penalty"] == "game_loss" and "not_needed" not in answer  # the level is never read


def test_the_walk_names_what_it_needs_next_and_keeps_what_it_found(toy):
    answer = ask("time_call", {})
    assert answer["turns_after_current"] == 3 and answer["explain"] == ["Play 3 more turns."]
    # every fact a field still waits on, in the order read: the life points decide when no one won
    assert [n["path"] for n in answer["needs"]] == ["facts.current_game.winner", "facts.current_game.life_points"]
    answer = ask("time_call", {"current_game": {"winner": None}})
    assert answer["needs"] == [{"path": "facts.current_game.life_points", "type": "per_player",
                                "label": "life points", "minimum": 0}]
    answer = ask("time_call", {"current_game": {"winner": None, "life_points": {"A": 100, "B": 800}}})
    assert answer["game_result"] == "B" and "needs" not in answer


def test_a_count_declared_whole_is_asked_and_checked_as_a_whole_number():
    request = {"ruleset": "yugioh", "query": "time_call", "event": {"level": "tier2", "stage": "swiss"},
               "facts": {"game_wins": {"A": 1, "B": 0}, "current_game": {"winner": None}}}
    assert evaluate(request)["needs"] == [{"path": "facts.current_game.life_points", "type": "per_player",
                                           "label": "life points once the extra turns are over",
                                           "minimum": 0, "whole": True}]
    with pytest.raises(RuleError) as error:
        evaluate({**request, "facts": {**request["facts"], "game_wins": {"A": 1.5, "B": 0}}})
    assert error.value.field == "facts.game_wins.A"
    with pytest.raises(RuleError) as error:
        evaluate({**request, "facts": {"current_game": {"winner": None, "life_points": {"A": 800, "B": -1}}}})
    assert error.value.field == "facts.current_game.life_points.B"


def test_the_search_is_bounded(toy, monkeypatch):
    monkeypatch.setattr(engine, "MAX_EVALUATIONS", 2)
    answer = ask("penalty", {"infraction": "rude"})
    assert [n["path"] for n in answer["needs"]] == ["facts.intentional"]


@pytest.mark.parametrize(("request_", "field", "allowed"), [
    ({"ruleset": "nope", "query": "penalty"}, "ruleset", None),
    ({"ruleset": "toy", "query": "nope"}, "query", None),
    ({"ruleset": "toy", "query": "drop", "event": {"level": "low"}}, "query", ["penalty", "time_call"]),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "mid"}}, "event.level", ["low", "high"]),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low", "stage": "final"}},
     "event.stage", ["swiss", "elimination"]),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low", "games_per_match": 2}},
     "event.games_per_match", [1, 3, 5]),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low", "tables": 12}}, "event.tables", None),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"}}, "facts.infraction", None),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"}, "facts": {"infraction": "x"}},
     "facts.infraction", ["slow", "late", "rude", "shove"]),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"}, "facts": {"infraction": "slow", "mood": 1}},
     "facts.mood", None),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"},
      "facts": {"infraction": "late", "minutes_late": -4}}, "facts.minutes_late", None),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"},
      "facts": {"infraction": "slow", "history": [{"penalty": "warning"}]}}, "facts.history[0].infraction", None),
    ({"ruleset": "toy", "query": "time_call", "event": {"level": "low"},
      "facts": {"current_game": {"winner": "C"}}}, "facts.current_game.winner", ["A", "B"]),
    ({"ruleset": "toy", "query": "penalty", "colour": "red"}, "colour", None),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"},
      "facts": {"infraction": "late", "minutes_late": float("nan")}}, "facts.minutes_late", None),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"},
      "facts": {"infraction": "late", "minutes_late": float("inf")}}, "facts.minutes_late", None),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"},
      "facts": {"infraction": "late", "minutes_late": 1e30}}, "facts.minutes_late", None),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"},
      "facts": {"infraction": "late", "minutes_late": 10**400}}, "facts.minutes_late", None),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"},
      "facts": {"infraction": "late", "minutes_late": -10**5000}}, "facts.minutes_late", None),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"},
      "facts": {"infraction": "slow", "history": [{"infraction": "slow", "penalty": "warnin"}]}},
     "facts.history[0].penalty", ["caution", "warning", "game_loss"]),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"},
      "facts": {"infraction": "slow", "history": [{"infraction": "slow", "penalty": ["warning", 3]}]}},
     "facts.history[0].penalty[1]", None),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"},
      "facts": {"infraction": "slow", "intentional": "yes"}}, "facts.intentional", None),
])
def test_bad_requests_raise_one_error_type_naming_the_field(toy, request_, field, allowed):
    with pytest.raises(RuleError) as error:
        evaluate(request_)
    assert error.value.field == field
    if allowed is not None:
        assert error.value.allowed == allowed
        assert all(str(a) in str(error.value) for a in allowed)


def test_answers_are_deterministic_and_not_shared_with_the_data(toy):
    first = ask("penalty", {"infraction": "slow"})
    first["explain"].append("changed")
    first["options"].append("changed")
    assert ask("penalty", {"infraction": "slow"})["explain"] == ["Penalty: Warning."]
    assert ask("penalty", {"infraction": "slow"})["options"] == []


def test_a_whole_number_setting_of_any_size_is_refused_above_the_exact_range():
    """A ruleset with no list of match lengths takes any whole number of games, up to 2**53."""
    request = {"ruleset": "wotf", "query": "time_call", "event": {"level": "competitive"}, "facts": {}}
    assert evaluate({**request, "event": {"level": "competitive", "games_per_match": 2**53}})["needs"]
    for huge in (1e30, 2**53 + 1, 10**400):
        with pytest.raises(RuleError) as error:
            evaluate({**request, "event": {"level": "competitive", "games_per_match": huge}})
        assert error.value.field == "event.games_per_match" and "too large" in str(error.value)


def test_remembered_event_checks_tell_a_number_from_true_and_from_a_float(toy):
    assert ask("penalty", {"infraction": "slow"}, games_per_match=3)["penalty"] == "warning"
    with pytest.raises(RuleError) as error:
        ask("penalty", {"infraction": "slow"}, games_per_match=True)
    assert error.value.field == "event.games_per_match"
    assert ask("penalty", {"infraction": "slow"}, games_per_match=3.0)["penalty"] == "warning"
    with pytest.raises(RuleError):
        ask("penalty", {"infraction": "slow"}, games_per_match=[3])
    assert ask("penalty", {"infraction": "slow"}, games_per_match=3)["penalty"] == "warning"


def test_an_infraction_reads_its_own_data_in_its_rules_as_the_query_steps_do(tmp_path, monkeypatch):
    data = json.loads(json.dumps(TOY))
    line = "{infraction.name} ({infraction.summary}, {infraction.missing}); given: {answer.has_source}."
    data["infractions"][0]["rules"].append(
        {"set": {"has_source": {"given": "infraction.source"}, "no_ladder": {"given": "infraction.ladder"},
                 "name": {"var": ["infraction.missing", {"var": "infraction.name"}]}}, "explain": line})
    data["queries"]["penalty"]["steps"].append(
        {"set": {"steps_name": {"var": ["infraction.missing", {"var": "infraction.name"}]}}, "explain": line})
    install(tmp_path, data, monkeypatch)
    try:
        answer = ask("penalty", {"infraction": "slow"})
        assert [answer[k] for k in ("has_source", "no_ladder", "name", "steps_name")] == \
            [True, False, "Slow Play", "Slow Play"]
        assert answer["explain"].count("Slow Play (s, not given); given: yes.") == 2
    finally:
        library.clear_caches()


def test_a_value_of_the_wrong_type_at_run_time_names_the_rule_node(tmp_path, monkeypatch):
    broken = json.loads(json.dumps(TOY))
    broken["infractions"][0]["rules"].append({"set": {"x": {">": [{"var": "infraction.name"}, 1]}}})
    install(tmp_path, broken, monkeypatch)
    try:
        with pytest.raises(RuleError) as error:
            ask("penalty", {"infraction": "slow"})
        assert error.value.field == "infractions[slow].rules[1]"
        assert "operator '>' needs numbers" in str(error.value)
    finally:
        library.clear_caches()


def test_reading_an_undeclared_fact_fails_when_the_ruleset_loads(tmp_path, monkeypatch):
    broken = json.loads(json.dumps(TOY))
    broken["infractions"][0]["rules"].append({"when": {"var": "facts.mood"}, "explain": "x"})
    install(tmp_path, broken, monkeypatch)
    try:
        with pytest.raises(RuleError) as error:
            ask("penalty", {"infraction": "slow"})
        assert error.value.field == "infractions[slow].rules[1]" and "facts.mood is not declared" in str(error.value)
    finally:
        library.clear_caches()


def test_engine_imports_only_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    for path in (ROOT / "shared_rules").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            assert {n.split(".")[0] for n in names} <= allowed, f"{path.name} imports {names}"


def run_cli(*args, stdin="", env=None):
    return subprocess.run([sys.executable, "-m", "shared_rules", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, check=False, env=env)


def test_cli_eval_prints_the_same_answer_as_the_function():
    ruleset = shared_rules.ruleset_ids()[0]
    data = shared_rules.load_ruleset(ruleset)
    query = sorted(data["queries"])[0]
    request = {"ruleset": ruleset, "query": query, "event": {}, "facts": {}}
    if query == "penalty":
        request["facts"] = {"infraction": data["infractions"][0]["id"]}
    done = run_cli("eval", stdin=json.dumps(request))
    assert done.returncode == 0 and json.loads(done.stdout) == evaluate(request)


def test_cli_bad_request_exits_2_with_a_message_and_no_traceback():
    done = run_cli("eval", stdin='{"ruleset": "nope", "query": "penalty"}')
    assert done.returncode == 2
    assert done.stderr.startswith("error: unknown ruleset 'nope'") and "Traceback" not in done.stderr
    assert run_cli("eval", stdin="{not json").returncode == 2


def test_check_fails_on_a_wrong_expectation_and_names_it(tmp_path):
    path = next(p for p in shared_rules.case_files()
                if json.loads(p.read_text())["ruleset"] in shared_rules.ruleset_ids())
    data = json.loads(path.read_text())
    case = data["cases"][0]
    key = next(iter(case["expect"]))
    case["expect"][key] = "surely-not-this"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"ruleset": data["ruleset"], "cases": [case]}))
    done = run_cli("check", str(bad))
    assert done.returncode == 1
    assert f"FAIL {data['ruleset']}/{case['id']}: {key}: expected \"surely-not-this\"" in done.stdout
    assert done.stdout.strip().endswith("0 passed, 1 failed")


def test_check_fails_on_an_unreadable_file(tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text("{")
    done = run_cli("check", str(bad))
    assert done.returncode == 1 and "unreadable" in done.stdout


def test_list_shows_every_fact_a_query_reads_with_its_defaults():
    done = run_cli("list")
    assert done.returncode == 0
    for ruleset_id in shared_rules.ruleset_ids():
        assert f"{ruleset_id}: " in done.stdout
    from shared_rules.introspect import facts_read

    for ruleset_id in shared_rules.ruleset_ids():
        for query in shared_rules.load_ruleset(ruleset_id)["queries"]:
            for name in facts_read(ruleset_id, query):
                assert name in done.stdout


def test_facts_read_comes_from_the_rule_data_of_every_list_a_query_runs(toy):
    from shared_rules.introspect import facts_read

    assert facts_read("toy", "penalty") == {
        "history": {"required": False, "asked_when_needed": False, "defaults": ["[]"]},
        "infraction": {"required": True, "asked_when_needed": True, "defaults": []},
        "intentional": {"required": False, "asked_when_needed": True, "defaults": []},
        "minutes_late": {"required": False, "asked_when_needed": True, "defaults": []},
    }
    assert set(facts_read("toy", "penalty", infraction="late")) == {"history", "infraction", "minutes_late"}


def test_one_extension_at_a_time_and_games_are_numbered_from_one():
    with_extension = [r for r in shared_rules.ruleset_ids() if "extension" in shared_rules.load_ruleset(r)["queries"]]
    with_first_turn = [r for r in shared_rules.ruleset_ids()
                       if "first_turn" in shared_rules.load_ruleset(r)["queries"]]
    for ruleset in with_extension:
        with pytest.raises(RuleError) as error:
            evaluate({"ruleset": ruleset, "query": "extension",
                      "facts": {"deck_check_minutes": 4, "pause_minutes": 3}})
        assert error.value.field == "facts.deck_check_minutes" and "give only one of" in str(error.value)
    for ruleset in with_first_turn:
        with pytest.raises(RuleError) as error:
            evaluate({"ruleset": ruleset, "query": "first_turn", "facts": {"game_number": 0}})
        assert error.value.field == "facts.game_number"


def test_cli_rejects_nan_in_a_request():
    ruleset = next(r for r in shared_rules.ruleset_ids() if "extension" in shared_rules.load_ruleset(r)["queries"])
    request = f'{{"ruleset": "{ruleset}", "query": "extension", "facts": {{"pause_minutes": NaN}}}}'
    done = run_cli("eval", stdin=request)
    assert done.returncode == 2 and "facts.pause_minutes" in done.stderr


def test_a_history_longer_than_the_list_limit_is_refused_naming_the_field():
    from shared_rules.facts import MAX_LIST

    item = {"infraction": "slow_play", "penalty": "warning", "stage": "swiss"}
    request = {"ruleset": "dci-upg", "query": "penalty", "event": {"level": "competitive"},
               "facts": {"infraction": "slow_play", "history": [item] * MAX_LIST}}
    assert evaluate(request)["upgraded"] is True  # answered, from the whole history
    with pytest.raises(RuleError) as refused:
        evaluate({**request, "facts": {**request["facts"], "history": [item] * (MAX_LIST + 1)}})
    assert refused.value.field == "facts.history"
    assert str(refused.value) == f"facts.history holds at most {MAX_LIST} entries, got {MAX_LIST + 1}"
