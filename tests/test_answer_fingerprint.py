"""Every case's full answer, and the answers of its variants, equal the ones stored before the
engine was made faster (tests/data/answer_fingerprints.json).

A case's variants are its request as written, then with each event setting left out, each fact
left out, and each field of an object-valued fact left out: the answers that have to search
(missing facts tried with each value), and the errors, are pinned too. A case's fingerprint is
the SHA-256 of the JSON text of all its variants' answers, in order, keys in the order the
engine writes them; an error is its message, field and allowed values. Case files only pin
some fields; this pins every field, explain line, source and note, and their order.

When an answer is meant to change (new rule data, a new case), write the fingerprints again:
``.venv/bin/python tests/test_answer_fingerprint.py --write``, and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shared_rules import evaluate  # noqa: E402
from shared_rules.cases import load_case_files, request_of  # noqa: E402
from shared_rules.errors import RuleError  # noqa: E402

STORED = ROOT / "tests" / "data" / "answer_fingerprints.json"
PACKAGE_CASES = sorted((ROOT / "shared_rules" / "cases").glob("*.json"))


def variants(request: dict) -> list[dict]:
    """The request, then one copy with each event setting, fact and object fact's field left out."""
    out = [request]
    for part in ("event", "facts"):
        values = request[part]
        for name, value in values.items():
            out.append({**request, part: {k: v for k, v in values.items() if k != name}})
            if isinstance(value, dict):
                for field in value:
                    inner = {k: v for k, v in value.items() if k != field}
                    out.append({**request, part: {**values, name: inner}})
    return out


def outcome(request: dict) -> object:
    """The answer, or the error as ``{"error", "field", "allowed"}``."""
    try:
        return evaluate(request)
    except RuleError as error:
        return {"error": str(error), "field": error.field, "allowed": error.allowed}


def fingerprints() -> dict[str, str]:
    """``{"<ruleset>/<case id>": sha256 hex}`` over the package's case files."""
    out = {}
    for case in load_case_files(PACKAGE_CASES):
        request = request_of(case.ruleset, case.data)
        text = json.dumps([outcome(r) for r in variants(request)], ensure_ascii=False)
        out[f"{case.ruleset}/{case.id}"] = hashlib.sha256(text.encode()).hexdigest()
    return out


def test_every_case_answer_and_its_variants_match_the_stored_fingerprints():
    stored = json.loads(STORED.read_text(encoding="utf-8"))
    found = fingerprints()
    assert len(found) >= 300
    assert sorted(found) == sorted(stored)
    assert [key for key in found if found[key] != stored[key]] == []


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: test_answer_fingerprint.py --write")
    STORED.write_text(json.dumps(fingerprints(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {STORED.relative_to(ROOT)}")
