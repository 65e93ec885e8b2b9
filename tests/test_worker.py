"""shared_rules.worker: the judge app's worker glue, run here under CPython as the worker runs it."""

import json

import pytest

from shared_rules import evaluate, worker


def call(action, request):
    return json.loads(worker.handle(action, json.dumps(request)))


def test_evaluate_gives_the_engines_answer():
    request = {"ruleset": "dci-upg", "query": "penalty", "event": {"level": "competitive"},
               "facts": {"infraction": "slow_play"}}
    assert call("evaluate", request) == {"result": evaluate(request)}


def test_a_rule_error_comes_back_with_its_field_and_allowed_values():
    reply = call("evaluate", {"ruleset": "dci-upg", "query": "penalty", "event": {"level": "casual"},
                              "facts": {"infraction": "slow_play"}})
    assert reply["error"]["field"] == "event.level"
    assert reply["error"]["allowed"] == ["regular", "competitive", "professional"]


@pytest.mark.parametrize(("action", "text", "field"), [
    ("nope", "{}", "action"),
    ("evaluate", "{not json", "request"),
    ("history", "[]", "request"),
    ("history", '{"records": []}', "player"),
])
def test_bad_messages_are_errors_not_crashes(action, text, field):
    reply = json.loads(worker.handle(action, text))
    assert reply["error"]["field"] == field


def test_facts_read_lists_the_facts_of_a_query_and_an_infraction_with_their_words():
    facts = call("facts_read", {"ruleset": "dci-upg", "query": "penalty", "infraction": "tardiness"})["result"]
    by_name = {f["name"]: f for f in facts}
    assert by_name["minutes_late"]["type"] == "number" and by_name["minutes_late"]["asked_when_needed"]
    assert by_name["grace_elected"]["summary"].startswith("the organiser allows")
    assert "can_restore" not in by_name  # a deck-error fact, not read for tardiness


def test_history_and_payload_actions_are_the_history_modules():
    records = [{"id": "00000000-0000-4000-8000-000000000001", "type": "penalty", "created_ms": 1,
                "payload": {"player": 5, "infraction": "slow_play", "penalty": "warning"}}]
    history = call("history", {"records": records, "player": 5, "ruleset": "dci-upg"})["result"]
    assert history == [{"infraction": "slow_play", "penalty": "warning", "stage": "swiss"}]
    facts = {"infraction": "slow_play", "history": history}
    answer = evaluate({"ruleset": "dci-upg", "query": "penalty", "event": {"level": "competitive"}, "facts": facts})
    payload = call("penalty_payload", {"answer": answer, "facts": facts, "player": 5, "table": 2, "round": 1,
                                       "event": {"level": "competitive", "stage": "swiss"}})["result"]
    assert (payload["penalty"], payload["base_penalty"], payload["upgraded"]) == ("game_loss", "warning", True)


def test_start_compiles_every_ruleset():
    from shared_rules import engine, library

    library.clear_caches()
    worker.start()
    assert engine.compiled.cache_info().currsize == len(library.ruleset_ids())
