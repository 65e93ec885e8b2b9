"""Facts that cannot all be true are refused, naming the fact (a query's ``checks``): the game
wins a judge types at time, in every language, for the shared checks and a ruleset's own."""

import copy

import pytest
from test_engine import TOY, install

from shared_rules import RuleError, evaluate, library, lint, translations
from shared_rules.cases import Case, mismatches
from shared_rules.library import load_ruleset

BO3 = {"level": "tier2", "stage": "swiss", "games_per_match": 3}


def time_call(wins, language="en", ruleset="yugioh", event=BO3):
    return evaluate({"ruleset": ruleset, "query": "time_call", "event": event,
                     "facts": {"game_wins": wins, "between_games": True}, "language": language})


@pytest.mark.parametrize("wins", [{"A": 2, "B": 2}, {"A": 3, "B": 0}, {"A": 0, "B": 7}, {"A": 3, "B": 3}])
def test_scores_a_best_of_three_cannot_reach_are_refused_by_the_field(wins):
    with pytest.raises(RuleError) as refused:
        time_call(wins)
    assert refused.value.field == "facts.game_wins"
    assert "best-of-3" in refused.value.message


@pytest.mark.parametrize(("wins", "match"), [({"A": 1, "B": 1}, "draw"), ({"A": 2, "B": 1}, "A"),
                                             ({"A": 0, "B": 2}, "B"), ({"A": 1, "B": 0}, "A")])
def test_scores_a_best_of_three_can_reach_are_answered(wins, match):
    assert time_call(wins)["match"] == match


def test_a_one_game_match_refuses_a_win_each_and_answers_one_win():
    event = {"level": "competitive", "stage": "swiss"}  # wotf: one game per match by default
    with pytest.raises(RuleError) as refused:
        time_call({"A": 1, "B": 1}, ruleset="wotf", event=event)
    assert "best-of-1" in refused.value.message
    assert time_call({"A": 1, "B": 0}, ruleset="wotf", event=event)["match"] == "A"


@pytest.mark.parametrize("language", [lang for lang in translations.LANGUAGES if lang != translations.ENGLISH])
def test_the_refusal_speaks_the_request_language_with_the_number_from_the_data(language):
    with pytest.raises(RuleError) as english:
        time_call({"A": 2, "B": 2})
    with pytest.raises(RuleError) as translated:
        time_call({"A": 2, "B": 2}, language)
    message = translated.value.message
    assert message != english.value.message
    assert "3" in message and translations.MARK not in message
    assert translated.value.field == "facts.game_wins"


def test_a_case_expecting_a_refusal_fails_when_the_engine_answers_and_passes_when_it_refuses():
    case = {"id": "x", "query": "time_call", "event": BO3, "facts": {"game_wins": {"A": 2, "B": 1}},
            "expect": {"refused": "facts.game_wins"}, "source": "s"}
    assert mismatches(Case("f", "yugioh", case)) == [("refused", "facts.game_wins", "an answer")]
    impossible = {**case, "facts": {"game_wins": {"A": 2, "B": 2}}}
    assert mismatches(Case("f", "yugioh", impossible)) == []
    wrong_field = {**impossible, "expect": {"refused": "facts.between_games"}}
    assert mismatches(Case("f", "yugioh", wrong_field)) == [("refused", "facts.between_games", "facts.game_wins")]


@pytest.fixture()
def forget():
    yield
    library.clear_caches()


def test_a_ruleset_adds_checks_of_its_own_after_the_shared_ones(tmp_path, monkeypatch, forget):
    toy = copy.deepcopy(TOY)
    toy["queries"]["time_call"]["checks"] = [{
        "id": "life_points_within_reach", "field": "facts.current_game.life_points",
        "when": {">": [{"var": "facts.current_game.life_points.A"}, 99999]},
        "text": "Life points of {facts.current_game.life_points.A}: check them."}]
    install(tmp_path, toy, monkeypatch)
    ask = {"ruleset": "toy", "query": "time_call", "event": {"level": "high"}}
    with pytest.raises(RuleError) as refused:
        evaluate({**ask, "facts": {"current_game": {"winner": None, "life_points": {"A": 123456, "B": 0}}}})
    assert (refused.value.field, refused.value.message) == ("facts.current_game.life_points",
                                                            "Life points of 123456: check them.")
    # a check reading a fact the request does not give does not apply
    assert evaluate({**ask, "facts": {}})["turns_after_current"] == 3
    # the shared checks still come first
    with pytest.raises(RuleError) as shared:
        evaluate({**ask, "facts": {"game_wins": {"A": 2, "B": 2}}})
    assert shared.value.field == "facts.game_wins"


def test_lint_names_a_check_of_an_undeclared_fact_and_a_repeated_id():
    data = copy.deepcopy(load_ruleset("yugioh"))
    data["queries"]["time_call"]["checks"] = [
        {"id": "one_match_winner", "field": "facts.score", "when": {"var": "facts.nothing"}, "text": "x"}]
    problems = lint.lint(data)
    assert "queries.time_call.checks[one_match_winner]: the id is used by another check of the query" in problems
    assert "queries.time_call.checks[one_match_winner].field: 'facts.score' is not a fact of the time_call query" \
        in problems
    assert any(p.startswith("queries.time_call.checks[one_match_winner][0]: facts.nothing is not declared")
               for p in problems)
