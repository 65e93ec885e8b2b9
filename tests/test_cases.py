"""Every case of every case file, as its own test (the same runner as `python -m shared_rules check`)."""

from pathlib import Path

import pytest

from shared_rules.cases import load_case_files, mismatches

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "shared_rules/cases").glob("*.json"))
CASES = load_case_files(FILES)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.ruleset}/{c.id}" for c in CASES])
def test_case(case):
    assert mismatches(case) == []


@pytest.mark.parametrize("ruleset", ["yugioh", "judicial-guidelines", "dci-upg", "wotf"])
def test_each_ruleset_has_at_least_25_cases_each_citing_its_source(ruleset):
    cases = [c for c in CASES if c.ruleset == ruleset]
    assert len(cases) >= 25
    assert all(c.data["source"].strip() for c in cases)
