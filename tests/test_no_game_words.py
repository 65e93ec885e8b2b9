"""No game words outside the rule data: the app, the server and the engine's code and shared files
name no penalty, infraction, level, fact, answer field or next step that a ruleset declares.

A new game's policy must be one JSON file plus its cases; a word of the rulesets written into the
code would make that untrue for the next game (the renamed copy test shows the other direction).
"""

import json
import re
from pathlib import Path

import pytest

import shared_rules
from shared_rules import vocabulary

ROOT = Path(__file__).resolve().parent.parent
PLACES = ["server/**/*.py", "server/templates/**/*.html", "server/translations/**/*.po", "pwa/build.mjs",
          "pwa/src/**/*.js", "pwa/src/**/*.html", "shared_rules/*.py", "shared_rules/queries.json",
          "shared_rules/schema/*.json"]


SCHEMA = json.loads((ROOT / "shared_rules/schema/ruleset.schema.json").read_text(encoding="utf-8"))
VALUES = {"A", "B", "draw", "true", "false"}  # players, results and yes/no: the engine's own values
# the plural categories of Intl.PluralRules (CLDR), which the app's message catalogs are keyed by
PLURAL_CATEGORIES = {"zero", "one", "two", "few", "many", "other"}


def keys(node) -> set[str]:
    """Every property name of a JSON Schema: the words of the rule file format."""
    out = set()
    if isinstance(node, dict):
        out |= set(node.get("properties", {}))
        for value in node.values():
            out |= keys(value)
    elif isinstance(node, list):
        for value in node:
            out |= keys(value)
    return out


def shared_words() -> set[str]:
    """Names every ruleset shares (queries.json, the file format, the engine's values, the record
    payloads' field names of server/records.py, which are the same for every game, except the
    penalty's, which carries facts of some rulesets): they may
    appear in code. A shared fact `X_minutes` makes `X` a shared word too (a time extension's reason)."""
    from server.records import PAYLOADS

    words = set(vocabulary.shared()["event"]) | set(vocabulary.stages()) | keys(SCHEMA) | VALUES | PLURAL_CATEGORIES
    words |= {name for kind, schema in PAYLOADS.items() if kind != "penalty" for name in schema.fields}
    for query, shape in vocabulary.shared()["queries"].items():
        words |= {query, *shape["facts"], *shape["answer"]}
        for spec in shape["facts"].values():
            words |= set(spec.get("fields", {})) | set(spec.get("items", {}))
        words |= {name.removesuffix("_minutes") for name in shape["facts"]}
    return words


def ruleset_words(data: dict) -> set[str]:
    """The ids and names a ruleset declares for itself."""
    words = {item["id"] for kind in ("penalties", "infractions", "levels") for item in data.get(kind, [])}
    words |= set(data.get("event", {})) | set(data.get("procedures", {}))
    for program in data.get("queries", {}).values():
        for name, spec in program.get("facts", {}).items():
            words |= {name, *spec.get("fields", {}), *spec.get("items", {})}
        for name, spec in program.get("answer", {}).items():
            words |= {name, *spec.get("values", {})}
    return words


def spoken(word: str) -> bool:
    """A plain English word (a penalty called 'warning'): only its quoted use counts."""
    return re.fullmatch(r"[a-z]+", word) is not None


def code_files() -> list[Path]:
    return sorted({p for pattern in PLACES for p in ROOT.glob(pattern) if "node_modules" not in p.parts})


@pytest.mark.parametrize("ruleset_id", shared_rules.ruleset_ids())
def test_no_word_of_the_ruleset_is_written_into_the_code(ruleset_id):
    words = ruleset_words(shared_rules.load_ruleset(ruleset_id)) - shared_words()
    found = []
    for path in code_files():
        text = path.read_text(encoding="utf-8")
        for word in sorted(words):
            pattern = rf"[\"'`]{re.escape(word)}[\"'`]" if spoken(word) else rf"(?<![\w-]){re.escape(word)}(?![\w-])"
            for match in re.finditer(pattern, text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {word}")
    assert found == []


def test_the_shared_vocabulary_keeps_no_ruleset_list():
    shared = json.dumps(vocabulary.shared())
    for ruleset_id in shared_rules.ruleset_ids():
        data = shared_rules.load_ruleset(ruleset_id)
        for kind in ("penalties", "infractions", "levels"):
            for item in data.get(kind, []):
                assert f'"{item["id"]}"' not in shared, (ruleset_id, kind, item["id"])
