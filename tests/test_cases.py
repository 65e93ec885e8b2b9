"""Every case of every case file, as its own test (the same runner as `python -m shared_rules check`)."""

import pytest

import shared_rules
from shared_rules.cases import load_case_files, mismatches

CASES = load_case_files(shared_rules.case_files())


@pytest.mark.parametrize("case", CASES, ids=[f"{c.ruleset}/{c.id}" for c in CASES])
def test_case(case):
    assert mismatches(case) == []


@pytest.mark.parametrize("ruleset", shared_rules.ruleset_ids())
def test_each_ruleset_has_at_least_25_cases_each_citing_its_source(ruleset):
    cases = [c for c in CASES if c.ruleset == ruleset]
    assert len(cases) >= 25
    assert all(c.data["source"].strip() for c in cases)
