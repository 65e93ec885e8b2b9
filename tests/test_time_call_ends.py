"""Every branch of every end-of-match procedure ends in something the Time! screen records.

The screen asks each fact the answer `needs`, in turn, and stops at an answer without needs.
Such an answer ends in one of three ways, and the screen records a result for each: the
answer gives the match result (`match`); its `next` step is one the ruleset says the procedure
continues after (`answer.next.continues`: the walk goes on with that object fact's
questions); or neither, where the policy leaves the result to the head judge and the screen
records the head judge's decision. This test walks every branch (each value of every
question; a few numbers on each side of the thresholds), and checks that each ends so, and
that a continuation does continue.
"""

import itertools

import pytest

from shared_rules import evaluate, list_rulesets, load_ruleset
from shared_rules.errors import RuleError

NUMBERS = [0, 1, 2, 3, 5, 6, 7, 8, 10, 12]
RULESETS = [r["id"] for r in list_rulesets() if "time_call" in r["queries"]]


def values(need):
    kind = need["type"]
    if kind == "bool":
        return [True, False]
    if kind == "player":
        return ["A", "B"]
    if kind == "player_or_null":
        return ["A", "B", None]
    if kind == "per_player":
        return [{"A": a, "B": b} for a, b in [(3, 4), (4, 3), (4, 4), (0, 0)]]
    if kind == "enum":
        return list(need["values"])
    if kind == "number":
        return [n for n in NUMBERS if n >= need.get("minimum", 0)]
    raise AssertionError(f"the walk cannot answer a {kind} question: {need}")


def put(target, path, value):
    parts = path.split(".")[1:]
    for part in parts[:-1]:
        target = target.setdefault(part, {})
    target[parts[-1]] = value


def walk(ruleset, event, facts, continues, ends, depth=0, loops=0):
    assert depth < 12, f"a walk that asks without end: {facts}"
    try:
        answer = evaluate({"ruleset": ruleset, "query": "time_call", "event": event, "facts": facts})
    except RuleError:
        return  # a combination of answers the policy rules out (e.g. more wins than games)
    need = (answer.get("needs") or [None])[0]
    if need:
        for value in values(need):
            more_event, more = dict(event), {k: (dict(v) if isinstance(v, dict) else v) for k, v in facts.items()}
            put(more_event if need["path"].startswith("event.") else more, need["path"], value)
            walk(ruleset, more_event, more, continues, ends, depth + 1, loops)
        return
    if answer.get("match"):
        ends["match"] += 1
    elif answer.get("next") in continues:
        ends["continues"] += 1
        fact = continues[answer["next"]]
        again = {**facts, fact: {}}
        assert facts.get(fact) != {}, "a continuation that asks nothing"
        if loops < 2:  # tied again and again, players go on opening Realms: two rounds of it suffice
            walk(ruleset, event, again, continues, ends, depth + 1, loops + 1)
    else:
        ends["head judge"] += 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_branch_of_the_time_procedure_ends_in_a_recordable_result(ruleset):
    data = load_ruleset(ruleset)
    continues = data["queries"]["time_call"].get("answer", {}).get("next", {}).get("continues", {})
    stages = ["swiss", "elimination"]
    levels = [lv["id"] for lv in data.get("levels", [])] or [None]
    ends = {"match": 0, "continues": 0, "head judge": 0}
    for stage, level, (a, b) in itertools.product(stages, levels, [(0, 0), (1, 0), (0, 1), (1, 1)]):
        event = {"stage": stage, **({"level": level} if level else {})}
        walk(ruleset, event, {"game_wins": {"A": a, "B": b}}, continues, ends)
    assert ends["match"] > 0
    if ruleset == "wotf":  # the two ends the issue found: both now go on to a recorded result
        assert ends["continues"] > 0 and ends["head judge"] > 0
