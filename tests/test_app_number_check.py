"""The app's check of a typed number (pwa/src/js/checks.js numberProblem), run in Node: digits
only, and a number typed with hundreds of digits is refused naming only its start, so the
message beside the field stays one line."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

CHECKS = Path(__file__).resolve().parents[1] / "pwa" / "src" / "js" / "checks.js"


def problems(*typed: str) -> list:
    script = (f"import({json.dumps(CHECKS.as_uri())}).then(({{ numberProblem }}) => "
              f"process.stdout.write(JSON.stringify({json.dumps(list(typed))}.map((x) => numberProblem(x)))));")
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    return json.loads(out)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_huge_typed_number_is_named_by_its_start():
    huge = "1" + "0" * 400
    short, long_, fine, word = problems("9" * 16, huge, "800", "1e3")
    assert short == "too large: 9999999999999999"  # 16 digits: above 2**53, shown whole
    assert long_ == "too large: 100000000000…"
    assert fine is None
    assert word == "must be a number of 0 or more, in digits"
