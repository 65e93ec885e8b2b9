"""A match result's check is one rule (shared_rules/board.py result_problem): the server refuses
such a record, and the app asks the same function through its engine worker on screen before
the record is made, so a result the screen lets through is never refused at sync."""

import json
from itertools import product

from shared_rules import worker
from shared_rules.board import result_problem

GRID = [(result, None if games is None else {"A": games[0], "B": games[1]}, most)
        for result, games, most in product(("A", "B", "draw"),
                                           [None, *product(range(5), repeat=2), (99, 0), (0, 99)],
                                           (None, 1, 3, 5))]


def test_the_python_rule_gives_its_documented_answers():
    assert result_problem("A", {"A": 2, "B": 1}, 3) is None
    assert result_problem("A", {"A": 1, "B": 1}, 3) == {"problem": "no_win"}
    assert result_problem("B", {"A": 2, "B": 0}, None) == {"problem": "no_win"}
    assert result_problem("B", {"A": 1, "B": 3}, 3) == {"problem": "too_many", "won": 4, "most": 3}
    assert result_problem("draw", {"A": 1, "B": 0}, 3) is None  # an agreed draw at any score
    assert result_problem("draw", {"A": 2, "B": 2}, 3) == {"problem": "too_many", "won": 4, "most": 3}
    assert result_problem("A", None, 1) is None


def test_the_app_asks_the_servers_rule_through_its_worker():
    """The app's result panel asks the worker's result_problem action (pwa/src/js/engine.js
    resultProblem): the very function the server checks a record by, over every result, score
    and match length."""
    answers = [json.loads(worker.handle("result_problem", json.dumps({"result": r, "games": g, "most": m})))["result"]
               for r, g, m in GRID]
    python = [result_problem(*case) for case in GRID]
    assert answers == python
    assert sum(p is not None for p in python) > 100  # the grid reaches both problems often
