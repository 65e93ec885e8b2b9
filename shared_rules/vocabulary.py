"""The words a ruleset's requests and answers use: queries.json merged with the ruleset's own.

``queries.json`` holds what every ruleset shares: the event context and, per query, its
shape, the facts every game shares and its answer fields. A ruleset adds:

- ``level_label`` (what its levels are called: "Tier", "Rules Enforcement Level") and
  ``best_of`` (the games-per-match values it allows; absent: any whole number);
- ``event``: event settings of its own (e.g. the game played, where the policy varies by game);
- per query, ``facts`` (its own facts, or fields added to a shared object or list fact) and
  ``answer`` (its answer fields: ``label`` for people, ``type``, ``values`` naming each value,
  ``decides`` false for a field that describes rather than decides), and ``checks``
  (refusals of its own, after the shared ones).

A query's ``checks`` refuse facts that cannot all be true (two players each holding the
wins a match needs): ``{"id", "when", "field", "text"}``, refused when ``when`` holds, with
``text`` (placeholders filled) as the error's message and ``field`` as the fact it names.

A ruleset may add fields to a shared fact but not change a shared fact's type. ``values_from``
takes a closed list from the ruleset (``levels``, ``best_of``, ``infractions``,
``penalties``, ``sections``: the parts of a decklist it names, with their names); penalty-typed
fields take the ruleset's penalty ids. The result is plain data:

    {"level_label", "event": {name: SPEC},
     "queries": {query: {"summary", "facts": {name: SPEC}, "answer": {name: ANSWER_SPEC},
                         "at_most_one_of": [[name, ...]], "checks": [CHECK]}}}
"""

from __future__ import annotations

import copy
import json
import math
from functools import cache
from typing import Any

from .errors import RuleError
from .library import PACKAGE

FACT_TYPES = ("bool", "number", "string", "enum", "player", "player_or_null", "per_player", "penalty",
              "penalty_or_list", "object", "list")
ENUMERABLE = ("bool", "enum", "player", "player_or_null", "penalty")
PENALTY_TYPES = ("penalty", "penalty_or_list")
NUMBER_TYPES = ("number", "per_player")  # a number, or a number for each player


def number_bounds(spec: dict) -> dict:
    """``{"minimum", "whole"?}`` of a number or per-player fact (``whole`` only when true): what
    a value must be (the checks of facts.py), for forms that check a typed value before asking
    the engine."""
    return {"minimum": spec.get("minimum", 0), **({"whole": True} if spec.get("whole") else {})}


@cache
def shared() -> dict:
    """queries.json as parsed (do not mutate)."""
    return json.loads((PACKAGE / "queries.json").read_text(encoding="utf-8"))


def stages() -> list[str]:
    """The event stages every ruleset shares (``swiss``, ``elimination``)."""
    return list(shared()["event"]["stage"]["values"])


def shared_in(language: str) -> dict:
    """queries.json in a language (translations.py; English: ``shared()``), cached."""
    return _shared_in(language) if language != "en" else shared()


@cache
def _shared_in(language: str) -> dict:
    from . import translations

    return translations.translated(shared(), translations.SHARED, language)


def words(base: dict | None = None) -> dict[str, str]:
    """The engine's own words (queries.json ``words``: "no penalty", "not given", "yes", ...),
    ``{name: text}``, from ``base`` (queries.json in a language; default English)."""
    return {name: spec["text"] for name, spec in (base or shared())["words"].items() if isinstance(spec, dict)}


def for_ruleset(ruleset: dict, base: dict | None = None) -> dict:
    """The merged vocabulary of one ruleset (see the module docstring), over ``base``
    (queries.json in the ruleset's language; default English). Raises RuleError where
    the ruleset changes the type of a shared fact or declares a query queries.json lacks."""
    base = base or shared()
    lists = {
        "levels": [level["id"] for level in ruleset.get("levels", [])],
        "best_of": list(ruleset.get("best_of", [])),
        "infractions": [i["id"] for i in ruleset.get("infractions", [])],
        "penalties": [p["id"] for p in ruleset.get("penalties", [])],
        "sections": [s["id"] for s in ruleset.get("sections", [])],
    }
    # what people call each value of a list, where the list's items have names of their own
    names = {"sections": {s["id"]: s.get("name", s["id"]) for s in ruleset.get("sections", [])}}
    event = merge_fields(base["event"], ruleset.get("event", {}), "event")
    if not lists["levels"]:
        event.pop("level")
    if not lists["best_of"]:
        event["games_per_match"] = {"type": "number", "minimum": 1, "whole": True,
                                    "summary": event["games_per_match"]["summary"]}
    defaults = ruleset.get("defaults", {})
    for name, spec in event.items():
        if name in defaults:
            spec["default"] = defaults[name]
    _resolve(event, lists, names)
    queries = {}
    for name, program in ruleset.get("queries", {}).items():
        shape = base["queries"].get(name)
        if shape is None:
            raise RuleError(f"ruleset {ruleset.get('id')} has a query {name!r} that queries.json does not define",
                            field=f"queries.{name}", allowed=sorted(base["queries"]))
        facts = merge_fields(shape["facts"], program.get("facts", {}), f"queries.{name}.facts")
        _resolve(facts, lists, names)
        own = program.get("answer", {})
        answer = {field: {**spec, **own.get(field, {})} for field, spec in shape["answer"].items()}
        answer.update({field: dict(spec) for field, spec in own.items() if field not in answer})
        queries[name] = {"summary": program.get("summary", shape["summary"]), "facts": facts, "answer": answer,
                         "at_most_one_of": copy.deepcopy(shape.get("at_most_one_of", [])),
                         "checks": copy.deepcopy(shape.get("checks", [])) + copy.deepcopy(program.get("checks", []))}
    return {"level_label": ruleset.get("level_label"), "event": event, "queries": queries, "words": words(base)}


def merge_fields(common: dict, own: dict, where: str) -> dict:
    """``{name: SPEC}`` of ``common`` extended by ``own`` (deep copies; ``own`` may add fields
    to an object or list fact and change its summary, never its type)."""
    out = copy.deepcopy(common)
    for name, spec in own.items():
        if name not in out:
            out[name] = copy.deepcopy(spec)
            continue
        shared_spec = out[name]
        if spec.get("type", shared_spec["type"]) != shared_spec["type"]:
            raise RuleError(f"{where}.{name} is a shared {shared_spec['type']} fact; a ruleset cannot make it "
                            f"{spec['type']}", field=f"{where}.{name}")
        for key, value in spec.items():
            if key in ("fields", "items"):
                shared_spec[key] = merge_fields(shared_spec.get(key, {}), value, f"{where}.{name}.{key}")
            else:
                shared_spec[key] = copy.deepcopy(value)
    return out


def _resolve(fields: dict, lists: dict, names: dict) -> None:
    for spec in fields.values():
        source = spec.pop("values_from", None)
        if source is not None:
            spec["values"] = list(lists[source])
            if source in names and "names" not in spec:
                spec["names"] = dict(names[source])
        elif spec.get("type") in PENALTY_TYPES:
            spec["values"] = list(lists["penalties"])
        for nested in ("fields", "items"):
            if nested in spec:
                _resolve(spec[nested], lists, names)


def spec_at(fields: dict, parts: list[str]) -> tuple[list[str], dict | None]:
    """The declared fact a dotted read lands on: ``(path parts of the fact, its SPEC)``.

    Walks object fields; stops at the first value that is not an object (a per-player value,
    a list, a number, ...), so ``current_game.stones.A`` gives ``current_game.stones``.
    ``(parts, None)`` where the name is not declared.
    """
    spec: dict | None = None
    walked: list[str] = []
    current = fields
    for part in parts:
        spec = current.get(part) if current is not None else None
        if spec is None:
            return parts, None
        walked.append(part)
        if spec["type"] != "object":
            return walked, spec
        current = spec.get("fields", {})
    return walked, spec


def stand_in(spec: dict) -> Any:
    """A value a fact of this SPEC may take, for walking on past it where its values cannot be
    listed (engine.py): a number's least, both players' least, a one-character text, an empty
    list, an object of its fields' stand-ins."""
    kind = spec.get("type")
    if kind in NUMBER_TYPES:
        least = spec.get("minimum", 0)
        least = math.ceil(least) if spec.get("whole") else least
        return {"A": least, "B": least} if kind == "per_player" else least
    if kind in ("string", "string_or_null"):
        return "-"
    if kind == "list":
        return []
    if kind == "object":
        return {name: stand_in(field) for name, field in spec.get("fields", {}).items() if field.get("required")}
    values = enumerate_values(spec)
    return values[0] if values else None


def enumerate_values(spec: dict) -> list | None:
    """Every value a fact of this SPEC can take, in order, or None where they cannot be listed
    (numbers, text, per-player values, objects and lists)."""
    kind = spec.get("type")
    if kind == "bool":
        return [True, False]
    if kind in ("enum", "penalty"):
        return list(spec.get("values", []))
    if kind == "player":
        return ["A", "B"]
    if kind == "player_or_null":
        return ["A", "B", None]
    return None
