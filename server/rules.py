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
from shared_rules.engine import compiled_ruleset
from shared_rules.translations import ENGLISH, check_language, split_marks
from shared_rules.vocabulary import shared, spec_at

__all__ = ["ENGINE_ACTIONS", "RuleError", "check_event_settings", "declares_fact", "engine_action", "evaluate",
           "infraction_ids", "level_ids", "levels", "load_ruleset", "penalty_ids", "queries_of",
           "ruleset_file", "ruleset_ids", "rulesets"]


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


def load_ruleset(ruleset_id: str, language: str = ENGLISH) -> dict:
    """The parsed ruleset (do not mutate), its texts for people (title, level, penalty and
    infraction names, ...) in `language` (one of shared_rules.translations.LANGUAGES; English:
    the file as it is). A text with no current translation keeps its English with
    translations.MARK in front, which the pages show marked as English (i18n.rule_text) and
    exports never see (they ask in English). The one way the server reads ruleset data for
    people. Raises RuleError for an unknown id or language."""
    if check_language(language) == ENGLISH:
        return shared_rules.load_ruleset(ruleset_id)
    return compiled_ruleset(ruleset_id, language).data


def declares_fact(ruleset_id: str, query: str, path: str) -> bool:
    """Whether a rooted fact path ("facts.some_fact", "facts.current_game.winner",
    "event.level") names a fact or event setting the ruleset's `query` declares; False for an
    unknown ruleset or query."""
    try:
        words = compiled_ruleset(ruleset_id).words
        fields = words["queries"][query]["facts"]
    except (RuleError, KeyError):
        return False
    root, _, rest = path.partition(".")
    if root not in ("facts", "event") or not rest:
        return False
    return spec_at(fields if root == "facts" else words["event"], rest.split("."))[1] is not None


def queries_of(ruleset_id: str) -> dict:
    """The ruleset's queries (`{name: program}`), empty for a ruleset the rule data no longer
    has: an event keeps its ruleset id after the data is gone, and what it would have asked
    (call and deck-check policy) then reads as not stated instead of failing the page."""
    try:
        return shared_rules.load_ruleset(ruleset_id).get("queries", {})
    except RuleError:
        return {}


def answer_unit(ruleset_id: str, query: str, field: str) -> float | None:
    """The step an answer field of a ruleset's query is given in (its answer declaration's
    `unit`, the ruleset's own over queries.json's: `extension`'s `extension_minutes` in whole
    minutes), or None where it declares none; a ruleset the data no longer has reads
    queries.json's declaration."""
    try:
        queries = compiled_ruleset(ruleset_id).words["queries"]
    except RuleError:
        queries = shared()["queries"]
    return (queries.get(query, {}).get("answer", {}).get(field) or {}).get("unit")


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


def evaluate(request: dict, marked: bool = False) -> dict:
    """The engine's answer to `{"ruleset", "query", "event", "facts", "language"?}`; raises
    RuleError. With `marked`, a text shown in English for want of a current translation keeps
    translations.MARK in front, as load_ruleset's texts do, for i18n.rule_text and for_api
    (shared_rules.evaluate)."""
    return shared_rules.evaluate(request, marked=marked)


def for_api(data: dict) -> dict:
    """`data` (texts of translated rule data or of marked answers, in lists and objects) for
    an API reply: a copy without translations.MARK, plus `english`, the paths of the texts
    that carried it (shown in English for want of a current translation), e.g. `["label",
    "explain[1]", "reasons[2].label"]`, so a client can mark them (translations.split_marks)."""
    clean, english = split_marks(data)
    return {**clean, "english": english}


ENGINE_ACTIONS = frozenset(worker.ACTIONS)


def engine_action(action: str, request: dict) -> dict:
    """One of the app worker's engine actions (shared_rules.worker.handle), run here:
    `{"result": ...}` or `{"error": {"message", "field", "allowed"}}`."""
    return json.loads(worker.handle(action, json.dumps(request)))
