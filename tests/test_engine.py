"""The engine on a small made-up ruleset: errors, upgrades, step-by-step needs, the CLI and the runner."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import shared_rules
from shared_rules import RuleError, engine, evaluate

ROOT = Path(__file__).resolve().parent.parent
SRC = "000_f7c9504af2784703.txt §Made-up section"

TOY = {
    "id": "toy", "title": "Toy policy", "document": {"name": "Toy", "version": "1", "seed": "000_f7c9504af2784703.txt"},
    "defaults": {"games_per_match": 3},
    "levels": [{"id": "low", "name": "Low", "summary": "s"}, {"id": "high", "name": "High", "summary": "s"}],
    "penalties": [{"id": "caution", "name": "Caution", "summary": "s"},
                  {"id": "warning", "name": "Warning", "summary": "s"},
                  {"id": "game_loss", "name": "Game Loss", "summary": "s"}],
    "ladders": {"default": {"steps": ["caution", "warning", "game_loss"], "source": SRC}},
    "infractions": [{"id": "slow", "name": "Slow Play", "summary": "s", "source": SRC, "rules": [
        {"first": [{"when": {"==": [{"var": "event.level"}, "low"]}, "set": {"base_penalty": "caution"}},
                   {"set": {"base_penalty": "warning"}}], "source": SRC}]},
        {"id": "late", "name": "Tardiness", "summary": "s", "source": SRC, "rules": [
            {"when": {">": [{"var": "facts.minutes_late"}, 3]}, "set": {"base_penalty": "game_loss"}}]}],
    "queries": {
        "penalty": {"steps": [
            {"run": "infraction.rules"},
            {"set": {"repeats": {"count": [{"var": "facts.history"},
                                           {"==": [{"var": "item.infraction"}, {"var": "facts.infraction"}]}]}}},
            {"set": {"penalty": {"ladder": ["default", {"var": "answer.base_penalty"}, {"var": "answer.repeats"}]},
                     "upgraded": {">": [{"var": "answer.repeats"}, 0]}},
             "explain": "Penalty: {penalty:answer.penalty}.",
             "options": [{"penalty": "game_loss", "condition": "head judge may raise it",
                          "when": {"var": "answer.upgraded"}}]}]},
        "time_call": {"steps": [
            {"set": {"turns_after_current": 3}, "explain": "Play {answer.turns_after_current} more turns."},
            {"first": [
                {"when": {"!=": [{"var": "facts.current_game.winner"}, None]},
                 "set": {"game_result": {"var": "facts.current_game.winner"}}},
                {"set": {"game_result": {"compare": [{"var": "facts.current_game.life_points.A"},
                                                    {"var": "facts.current_game.life_points.B"}]}}}]}]}},
}


@pytest.fixture()
def toy(tmp_path, monkeypatch):
    (tmp_path / "toy.json").write_text(json.dumps(TOY))
    monkeypatch.setattr(engine, "RULESETS", tmp_path)
    engine.load_ruleset.cache_clear()
    yield "toy"
    engine.load_ruleset.cache_clear()


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
    assert answer["options"] == [{"penalty": "game_loss", "condition": "head judge may raise it", "source": None}]
    assert answer["option_penalties"] == ["game_loss"]


def test_a_fact_the_situation_needs_is_an_error_naming_it(toy):
    with pytest.raises(RuleError) as error:
        ask("penalty", {"infraction": "late"})
    assert error.value.field == "facts.minutes_late"
    assert "late needs facts.minutes_late" in str(error.value)


def test_step_by_step_query_returns_what_it_still_needs(toy):
    answer = ask("time_call", {})
    assert answer["turns_after_current"] == 3 and answer["needs"] == ["current_game.winner"]
    answer = ask("time_call", {"current_game": {"winner": None}})
    assert answer["needs"] == ["current_game.life_points.A"]
    answer = ask("time_call", {"current_game": {"winner": None, "life_points": {"A": 100, "B": 800}}})
    assert answer["game_result"] == "B" and "needs" not in answer


@pytest.mark.parametrize(("request_", "field", "allowed"), [
    ({"ruleset": "nope", "query": "penalty"}, "ruleset", ["toy"]),
    ({"ruleset": "toy", "query": "nope"}, "query", None),
    ({"ruleset": "toy", "query": "drop", "event": {"level": "low"}}, "query", ["penalty", "time_call"]),
    ({"ruleset": "toy", "query": "penalty", "event": {}}, "event.level", ["low", "high"]),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "mid"}}, "event.level", ["low", "high"]),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low", "stage": "final"}},
     "event.stage", ["swiss", "elimination"]),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"}}, "facts.infraction", None),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"}, "facts": {"infraction": "x"}},
     "facts.infraction", ["slow", "late"]),
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
      "facts": {"infraction": "slow", "history": [{"infraction": "slow", "penalty": "warnin"}]}},
     "facts.history[0].penalty", None),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"},
      "facts": {"infraction": "slow", "history": [{"infraction": "slow", "penalty": ["warning", 3]}]}},
     "facts.history[0].penalty[1]", None),
    ({"ruleset": "toy", "query": "penalty", "event": {"level": "low"},
      "facts": {"infraction": "slow", "issuing": "a_stern_look"}}, "facts.issuing", None),
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
    assert ask("penalty", {"infraction": "slow"})["explain"] == ["Penalty: Warning."]


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


def run_cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "shared_rules", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, check=False)


def test_cli_eval_prints_the_same_answer_as_the_function():
    request = {"ruleset": "wotf", "query": "extension", "event": {"level": "competitive"},
               "facts": {"deck_check_minutes": 4}}
    if "wotf" not in shared_rules.ruleset_ids():
        pytest.skip("wotf ruleset not present")
    done = run_cli("eval", stdin=json.dumps(request))
    assert done.returncode == 0 and json.loads(done.stdout) == evaluate(request)


def test_cli_bad_request_exits_2_with_a_message_and_no_traceback():
    done = run_cli("eval", stdin='{"ruleset": "nope", "query": "penalty"}')
    assert done.returncode == 2
    assert done.stderr.startswith("error: unknown ruleset 'nope'") and "Traceback" not in done.stderr
    assert run_cli("eval", stdin="{not json").returncode == 2


def test_check_fails_on_a_wrong_expectation_and_names_it(tmp_path):
    files = [f for f in sorted((ROOT / "shared_rules/cases").glob("*.json"))
             if json.loads(f.read_text())["ruleset"] in shared_rules.ruleset_ids()]
    if not files:
        pytest.skip("no case file with its ruleset present")
    data = json.loads(files[0].read_text())
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


def test_list_shows_which_facts_each_query_may_ask_for():
    done = run_cli("list")
    assert done.returncode == 0
    line = next(x for x in done.stdout.splitlines() if x.startswith("  query time_call") and "game_wins" in x)
    assert "current_game*" in line and "game_wins (default {'A': 0, 'B': 0})" in line


def test_facts_read_comes_from_the_rule_data(toy):
    from shared_rules.introspect import facts_read

    assert facts_read("toy", "penalty") == {
        "history": {"required": False, "asked_when_needed": False, "defaults": ["[]"]},
        "infraction": {"required": True, "asked_when_needed": True, "defaults": []},
        "minutes_late": {"required": False, "asked_when_needed": True, "defaults": []},
    }


def test_one_extension_at_a_time_and_games_are_numbered_from_one():
    with pytest.raises(RuleError) as error:
        evaluate({"ruleset": "wotf", "query": "extension", "event": {"level": "competitive"},
                  "facts": {"deck_check_minutes": 4, "pause_minutes": 3}})
    assert error.value.field == "facts.deck_check_minutes" and "give only one of" in str(error.value)
    with pytest.raises(RuleError) as error:
        evaluate({"ruleset": "wotf", "query": "first_turn", "event": {"level": "competitive"},
                  "facts": {"game_number": 0}})
    assert error.value.field == "facts.game_number"


def test_cli_rejects_nan_in_a_request():
    request = '{"ruleset": "wotf", "query": "extension", "event": {"level": "casual"}, "facts": {"pause_minutes": NaN}}'
    done = run_cli("eval", stdin=request)
    assert done.returncode == 2 and "facts.pause_minutes" in done.stderr
