"""The rules engine (package `shared_rules`) as the server uses it.

The engine answers every query; the server passes requests through and serves the ruleset
files with an ETag. Each file is read once per process.
"""

import hashlib
import json
from functools import cache
from pathlib import Path

import shared_rules
from shared_rules import RuleError, worker

__all__ = ["ENGINE_ACTIONS", "RuleError", "check_event_settings", "engine_action", "evaluate", "infraction_ids",
           "level_ids", "levels", "load_ruleset", "penalty_ids", "ruleset_file", "ruleset_ids", "rulesets"]


def ruleset_file(ruleset_id: str) -> tuple[bytes, str]:
    """(the ruleset JSON file's bytes, its ETag). Raises RuleError for an unknown id."""
    return _file(shared_rules.ruleset_path(ruleset_id))


@cache
def _file(path: Path) -> tuple[bytes, str]:
    data = path.read_bytes()
    return data, hashlib.sha256(data).hexdigest()[:32]


def rulesets(language: str | None = None) -> list[dict]:
    """`[{"id", "title", "version", "level_label", "levels": [{"id", "name"}], "best_of",
    "defaults", "queries": [...]}]`: every ruleset the engine finds (the package's and those in
    the folders of SHARED_RULES_PATH); with a language, its texts in it where translated and
    `language`, `english` added (shared_rules.list_rulesets). Raises RuleError for an
    unknown language."""
    return shared_rules.list_rulesets(language)


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


def penalty_ids(ruleset_id: str) -> frozenset[str]:
    """The penalty ids a ruleset declares (what its events' records may give); raises
    RuleError for an unknown ruleset."""
    return frozenset(p["id"] for p in shared_rules.load_ruleset(ruleset_id).get("penalties", []))


def infraction_ids(ruleset_id: str) -> frozenset[str]:
    """The infraction ids a ruleset declares (what its events' penalty records may name);
    raises RuleError for an unknown ruleset."""
    return frozenset(i["id"] for i in shared_rules.load_ruleset(ruleset_id).get("infractions", []))


def level_ids(ruleset_id: str) -> frozenset[str]:
    """The level (REL / tier) ids a ruleset declares; raises RuleError for an unknown ruleset."""
    return frozenset(lvl["id"] for lvl in shared_rules.load_ruleset(ruleset_id).get("levels", []))


def check_event_settings(ruleset_id: str, settings: dict) -> dict:
    """The engine's own check of an event's settings (shared_rules.check_event_settings):
    the settings with the ruleset's defaults, or RuleError naming the field."""
    return shared_rules.check_event_settings(ruleset_id, settings)


def evaluate(request: dict) -> dict:
    """The engine's answer to `{"ruleset", "query", "event", "facts", "language"?}`; raises RuleError."""
    return shared_rules.evaluate(request)


ENGINE_ACTIONS = frozenset(worker.ACTIONS)


def engine_action(action: str, request: dict) -> dict:
    """One of the app worker's engine actions (shared_rules.worker.handle), run here:
    `{"result": ...}` or `{"error": {"message", "field", "allowed"}}`."""
    return json.loads(worker.handle(action, json.dumps(request)))
