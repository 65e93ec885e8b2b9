"""A match result's check is one rule written twice: in Python (shared_rules/board.py, the
server refuses such a record) and in the app (pwa/src/js/checks.js, checked on screen before
the record is made). Both are run over every result, score and match length here, and must
agree, so a result the screen lets through is never refused at sync."""

import json
import shutil
import subprocess
from itertools import product
from pathlib import Path

import pytest

from shared_rules.board import result_problem

CHECKS = Path(__file__).resolve().parents[1] / "pwa" / "src" / "js" / "checks.js"
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


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_app_and_the_server_check_a_result_alike():
    script = (f"import({json.dumps(CHECKS.as_uri())}).then(({{ resultProblem }}) => {{"
              f"const grid = {json.dumps(GRID)};"
              "process.stdout.write(JSON.stringify(grid.map(([r, g, m]) => resultProblem(r, g, m))));});")
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    app = json.loads(out)
    python = [result_problem(*case) for case in GRID]
    assert len(app) == len(GRID) == 3 * 28 * 4
    assert [c for c, a, p in zip(GRID, app, python, strict=True) if a != p] == []
    assert sum(p is not None for p in python) > 100  # the grid reaches both problems often
