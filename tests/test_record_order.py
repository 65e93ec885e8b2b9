"""The app lists records in the engine's order (pwa/src/js/order.js against
shared_rules.history.ordered, run in Node): oldest first by the time each was made, ties by id,
and a penalty the head judge issued in place of a flagged one stands where that one stood."""

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from shared_rules.history import ordered

ORDER = Path(__file__).resolve().parents[1] / "pwa" / "src" / "js" / "order.js"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def app_order(records: list[dict]) -> list[str]:
    script = (f"import({json.dumps(ORDER.as_uri())}).then(({{ inOrder }}) => process.stdout.write("
              f"JSON.stringify(inOrder({json.dumps(records)}).filter((r) => r.sync !== 'rejected')"
              ".map((r) => r.id))));")
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    return json.loads(out)


def test_a_replacement_stands_where_the_penalty_it_replaces_stood():
    records = [
        {"id": "b-warning", "type": "penalty", "created_ms": 1_000, "payload": {"player": 1}},
        {"id": "a-game-loss", "type": "penalty", "created_ms": 2_000, "payload": {"player": 1}},
        {"id": "c-later", "type": "penalty", "created_ms": 3_000, "payload": {"player": 1}},
        {"id": "d-instead", "type": "penalty", "created_ms": 9_000,
         "payload": {"player": 1, "replaces": "a-game-loss"}},
    ]
    expected = ["b-warning", "a-game-loss", "d-instead", "c-later"]
    assert [r["id"] for r in ordered(records)] == expected
    assert app_order(records) == expected


def test_the_app_orders_any_records_as_the_engine_does():
    rng = random.Random(7)
    records = []
    for n in range(300):
        rec = {"id": f"{rng.randrange(50):02d}-{n}", "type": rng.choice(["penalty", "void", "approval"]),
               "created_ms": rng.choice([rng.randrange(20) * 1000, None, "5", True]), "payload": {"player": 1}}
        if records and rng.random() < 0.3:
            rec["payload"]["replaces"] = rng.choice([*[r["id"] for r in records], "missing"])
        if rng.random() < 0.1:
            rec["sync"] = "rejected"
        records.append(rec)
    assert app_order(records) == [r["id"] for r in ordered(records)]
