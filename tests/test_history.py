"""shared_rules.history: records -> a player's history, and an answer -> a penalty record's payload."""

import pytest

from shared_rules import RuleError, evaluate
from shared_rules.history import counted_penalties, decisions, penalty_payload, player_history, player_key

UUIDS = iter(f"00000000-0000-4000-8000-{n:012d}" for n in range(1, 10_000))


def record(type_, payload, created_ms=1000, **extra):
    return {"id": next(UUIDS), "type": type_, "payload": payload, "device": 1, "judge": "Jo",
            "created_ms": created_ms, **extra}


def penalty(player, infraction, penalty, created_ms=1000, **payload):
    return record("penalty", {"player": player, "infraction": infraction, "penalty": penalty, "round": 1,
                              **payload}, created_ms)


def test_a_players_history_is_their_counted_penalties_oldest_first_by_device_time():
    late = penalty(7, "slow_play", "warning", created_ms=3000)
    early = penalty(7, "tardiness", "game_loss", created_ms=2000, stage="elimination")
    other = penalty(8, "slow_play", "warning")
    assert player_history([late, other, early], 7, "dci-upg") == [
        {"infraction": "tardiness", "penalty": "game_loss", "stage": "elimination", "round": 1},
        {"infraction": "slow_play", "penalty": "warning", "stage": "swiss", "round": 1},
    ]


def test_a_player_id_and_the_same_id_as_text_are_one_player():
    assert len(player_history([penalty(7, "slow_play", "warning")], "7", "dci-upg")) == 1
    assert len(player_history([penalty("Walk-in Wally", "slow_play", "warning")], "Walk-in Wally", "dci-upg")) == 1


def test_voided_refused_and_server_rejected_penalties_do_not_count():
    voided = penalty(7, "slow_play", "warning")
    refused = penalty(7, "usc_minor", "game_loss", head_judge=True)
    rejected = {**penalty(7, "usc_minor", "warning"), "sync": "rejected"}
    pending = penalty(7, "usc_major", None, head_judge=True)
    records = [voided, refused, rejected, pending,
               record("void", {"record": voided["id"], "reason": "wrong player"}),
               record("approval", {"record": refused["id"], "approved": False}, created_ms=2000)]
    assert [r["id"] for r in counted_penalties(records)] == [pending["id"]]
    assert [h["infraction"] for h in player_history(records, 7, "dci-upg")] == ["usc_major"]


def test_the_latest_decision_counts_and_a_voided_approval_is_no_decision():
    p = penalty(7, "usc_minor", "game_loss", head_judge=True)
    yes = record("approval", {"record": p["id"], "approved": True}, created_ms=2000)
    no = record("approval", {"record": p["id"], "approved": False}, created_ms=3000)
    assert decisions([p, yes, no]) == {p["id"]: False}
    assert player_history([p, yes, no], 7, "dci-upg") == []
    cancel = record("void", {"record": no["id"], "reason": "pressed the wrong button"}, created_ms=4000)
    assert decisions([p, yes, no, cancel]) == {p["id"]: True}
    assert len(player_history([p, yes, no, cancel], 7, "dci-upg")) == 1


def test_what_travels_is_the_rulesets_vocabulary():
    recorded = penalty(7, "other", "single_warning", intentional=False, minor=True, notes="x", table=4)
    assert player_history([recorded], 7, "judicial-guidelines") == [
        {"infraction": "other", "penalty": "single_warning", "stage": "swiss", "round": 1, "intentional": False,
         "minor": True}]
    assert player_history([recorded], 7, "dci-upg") == [
        {"infraction": "other", "penalty": "single_warning", "stage": "swiss", "round": 1}]


def test_a_recorded_value_the_vocabulary_refuses_is_left_out_not_fatal():
    odd = penalty(7, "other", "single_warning", minor="yes", round=0)
    history = player_history([odd], 7, "judicial-guidelines")
    assert history == [{"infraction": "other", "penalty": "single_warning", "stage": "swiss"}]
    evaluate({"ruleset": "judicial-guidelines", "query": "penalty", "facts": {"infraction": "other",
                                                                             "issuing": "notice", "history": history}})


def test_the_history_feeds_the_engine_which_upgrades_from_it():
    records = [penalty(7, "slow_play", "warning"), penalty(7, "slow_play", "game_loss", created_ms=2000)]
    answer = evaluate({"ruleset": "dci-upg", "query": "penalty", "event": {"level": "competitive"},
                       "facts": {"infraction": "slow_play", "history": player_history(records, 7, "dci-upg")}})
    assert (answer["penalty"], answer["upgraded"]) == ("match_loss", True)


def test_a_penalty_payload_holds_the_answer_the_event_and_the_facts_that_travel():
    facts = {"infraction": "other", "intentional": False, "disruptive": True, "minor": True, "history": []}
    answer = evaluate({"ruleset": "judicial-guidelines", "query": "penalty", "facts": facts})
    payload = penalty_payload(answer, facts, player=7, table=3, round=2,
                              event={"stage": "swiss", "level": None}, notes="spoke to both",
                              history_seen=[], replaces="00000000-0000-4000-8000-000000000999")
    assert payload == {"player": 7, "table": 3, "round": 2, "infraction": "other", "penalty": "notice",
                       "base_penalty": "notice", "upgraded": False, "head_judge": False,
                       "ruleset": "judicial-guidelines", "level": None, "stage": "swiss",
                       "intentional": False, "minor": True, "notes": "spoke to both",
                       "facts": {"infraction": "other", "intentional": False, "disruptive": True, "minor": True},
                       "history_seen": [], "replaces": "00000000-0000-4000-8000-000000000999"}
    assert player_history([record("penalty", payload)], 7, "judicial-guidelines")[0]["minor"] is True


def test_a_penalty_the_policy_does_not_state_goes_to_the_head_judge():
    facts = {"infraction": "usc_major"}
    answer = evaluate({"ruleset": "dci-upg", "query": "penalty", "event": {"level": "competitive"}, "facts": facts})
    assert (answer["penalty"], answer["stated"]) == (None, False)
    assert penalty_payload(answer, facts, player="Walk-in Wally")["head_judge"] is True


def test_an_answer_whose_penalty_still_waits_on_facts_cannot_be_recorded():
    facts = {"infraction": "tardiness"}
    answer = evaluate({"ruleset": "dci-upg", "query": "penalty", "event": {"level": "competitive"}, "facts": facts})
    with pytest.raises(RuleError) as error:
        penalty_payload(answer, facts, player=7)
    assert error.value.field == "answer.pending.penalty" and "facts.minutes_late" in str(error.value)
    # an answer from before partial answers (needs, no pending) is refused the same way
    with pytest.raises(RuleError) as error:
        penalty_payload({k: v for k, v in answer.items() if k != "pending"}, facts, player=7)
    assert "facts.minutes_late" in str(error.value)


def test_two_spellings_of_one_typed_name_are_one_player():
    first = penalty("Ada Brook", "slow_play", "warning", created_ms=1000)
    second = penalty("  ada   BROOK ", "slow_play", "warning", created_ms=2000)
    wide = penalty("Ａｄａ Ｂｒｏｏｋ", "tardiness", "game_loss", created_ms=3000)
    other = penalty("Ada Brooks", "slow_play", "warning", created_ms=4000)
    got = player_history([first, second, wide, other], "ADA BROOK", "dci-upg")
    assert [h["infraction"] for h in got] == ["slow_play", "slow_play", "tardiness"]


def test_a_player_key_keeps_ids_and_names_apart_and_within_the_servers_column():
    assert player_key(7) == player_key("7") == player_key("007") == "7"
    assert player_key("Ada Brook") == player_key("ada  brook") == "name:ada brook"
    assert player_key("Straße") == player_key("STRASSE")
    assert player_key("٢") != player_key(2)
    long = "ﷺ" * 200  # NFKC writes each as 18 letters
    assert len(player_key(long)) <= 200 and player_key(long) == player_key(long.upper())


def test_a_repeat_under_another_spelling_is_flagged_as_a_repeat():
    from shared_rules.review import conflicts

    first = penalty("Ada Brook", "slow_play", "warning", created_ms=1000)
    # the second judge did not see the first and issued a Warning again
    second = penalty("ada brook", "slow_play", "warning", created_ms=2000, history_seen=[],
                     facts={"infraction": "slow_play"})
    flags = conflicts([first, second], "dci-upg", {"level": "competitive"})
    assert [(f["record"], f["expected"]) for f in flags] == [(second["id"], "game_loss")]
