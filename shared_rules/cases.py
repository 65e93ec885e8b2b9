"""The case runner: case files pin rule values; pytest, the CLI and the browser parity test share it.

A case file is ``{"ruleset": ID, "cases": [CASE, ...]}``; a CASE is
``{"id", "query", "event", "facts", "expect", "source"}``. A case passes when, for every key of
``expect``, the answer's value for that key equals (``==``) the expected value.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .engine import evaluate
from .errors import RuleError

CASE_KEYS = {"id", "query", "event", "facts", "expect", "source"}
MISSING = "<missing>"


@dataclass(frozen=True)
class Case:
    """One case of a case file, with the file it came from."""

    file: str
    ruleset: str
    data: dict

    @property
    def id(self) -> str:
        return self.data["id"]

    @property
    def request(self) -> dict:
        return request_of(self.ruleset, self.data)


def request_of(ruleset: str, case: dict) -> dict:
    """The evaluate() request ``{"ruleset", "query", "event", "facts"}`` of a case."""
    return {"ruleset": ruleset, "query": case["query"], "event": case.get("event", {}),
            "facts": case.get("facts", {})}


def load_case_file(path: str | Path) -> list[Case]:
    """Read and check one case file. Raises RuleError naming the file and the bad case or key."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RuleError(f"{path}: cannot read case file: {error}", field=str(path)) from None
    if not isinstance(data, dict) or not isinstance(data.get("ruleset"), str) \
            or not isinstance(data.get("cases"), list):
        raise RuleError(f"{path}: a case file is {{\"ruleset\": ID, \"cases\": [...]}}", field=str(path))
    seen: set[str] = set()
    cases = []
    for i, case in enumerate(data["cases"]):
        where = f"{path}: cases[{i}]"
        if not isinstance(case, dict):
            raise RuleError(f"{where} must be an object", field=where)
        keys = set(case)
        if keys - CASE_KEYS or {"id", "query", "expect", "source"} - keys:
            raise RuleError(f"{where} has keys {sorted(keys)}", field=where, allowed=sorted(CASE_KEYS))
        if case["id"] in seen:
            raise RuleError(f"{where}: duplicate case id {case['id']!r}", field=where)
        seen.add(case["id"])
        cases.append(Case(str(path), data["ruleset"], case))
    return cases


def load_case_files(paths: list[str | Path]) -> list[Case]:
    """All cases of several files, in order."""
    return [case for path in paths for case in load_case_file(path)]


def mismatches(case: Case) -> list[tuple[str, Any, Any]]:
    """``[(key, expected, got)]`` for every expected key the answer gets wrong (empty: the case passes).

    An engine error is reported as the key ``error`` with the error's message as ``got``. A
    case that expects ``refused`` (a field name: facts the engine must refuse as impossible
    together, a query's ``checks``) passes only when the engine raises an error naming that field.
    ``pending`` is compared as ``{field: [the facts it waits on]}`` (engine.py), every pending
    field named: a case pins which fields a partial answer leaves open and on what, not the
    sentences and outcomes (the answer fingerprints pin those).
    """
    refused = case.data["expect"].get("refused", MISSING)
    try:
        answer = evaluate(case.request)
    except RuleError as error:
        if refused is not MISSING:
            return [] if error.field == refused else [("refused", refused, error.field)]
        return [("error", "an answer", str(error))]
    if refused is not MISSING:
        return [("refused", refused, "an answer")]
    if "pending" in answer:
        answer = {**answer, "pending": {field: entry["facts"] for field, entry in answer["pending"].items()}}
    return [(key, want, answer.get(key, MISSING)) for key, want in case.data["expect"].items()
            if answer.get(key, MISSING) != want]


def check_files(paths: list[str], out) -> int:
    """Run every case of ``paths``, print one line per failing case and ``N passed, N failed``.

    Returns the exit status: 0 when all pass, 1 on any failure or unreadable file.
    """
    passed = failed = 0
    for path in paths:
        try:
            cases = load_case_file(path)
        except RuleError as error:
            print(f"{path}: unreadable: {error}", file=out)
            failed += 1
            continue
        for case in cases:
            wrong = mismatches(case)
            if wrong:
                failed += 1
                for key, want, got in wrong:
                    print(f"FAIL {case.ruleset}/{case.id}: {key}: expected {json.dumps(want)}, "
                          f"got {json.dumps(got)}", file=out)
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed", file=out)
    return 1 if failed or not passed else 0
