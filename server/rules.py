"""The rules engine (package `shared_rules`) as the server uses it.

The engine answers every query; the server passes requests through and serves the ruleset
files with an ETag. Files are read once per process.
"""

import hashlib
from functools import cache

import shared_rules
from shared_rules import RuleError, introspect

__all__ = ["RuleError", "evaluate", "facts_read", "levels", "load_ruleset", "ruleset_file", "ruleset_ids", "rulesets"]


@cache
def ruleset_file(ruleset_id: str) -> tuple[bytes, str]:
    """(the ruleset JSON file's bytes, its ETag). Raises RuleError for an unknown id."""
    data = shared_rules.ruleset_path(ruleset_id).read_bytes()
    return data, hashlib.sha256(data).hexdigest()[:32]


@cache
def rulesets() -> list[dict]:
    """`[{"id", "title", "version", "levels": [{"id", "name"}], "queries": [...]}]`."""
    return shared_rules.list_rulesets()


def ruleset_ids() -> list[str]:
    return [r["id"] for r in rulesets()]


def levels(ruleset_id: str) -> list[str]:
    """The level (REL / tier) ids of a ruleset; empty where it has none."""
    for r in rulesets():
        if r["id"] == ruleset_id:
            return [lvl["id"] for lvl in r["levels"]]
    return []


def load_ruleset(ruleset_id: str) -> dict:
    """The parsed ruleset (do not mutate); raises RuleError for an unknown id."""
    return shared_rules.load_ruleset(ruleset_id)


def penalty_ids() -> frozenset[str]:
    """The penalty vocabulary shared with the engine (queries.json `penalty_ids`)."""
    return frozenset(shared_rules.vocabulary()["penalty_ids"])


def evaluate(request: dict) -> dict:
    """The engine's answer to `{"ruleset", "query", "event", "facts"}`; raises RuleError."""
    return shared_rules.evaluate(request)


def facts_read(ruleset_id: str, query: str) -> list[str]:
    """The names of the facts a ruleset's query reads, sorted (shared_rules.introspect);
    an unknown query reads none. Raises RuleError for an unknown ruleset."""
    return sorted(introspect.facts_read(ruleset_id, query))
