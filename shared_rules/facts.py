"""Validation of a request's event context and facts against a ruleset's merged vocabulary.

``checker(fields, path)`` turns a ``{name: SPEC}`` mapping (vocabulary.py) into a function
that takes the request's values and returns a new dict with defaults filled in, or raises
RuleError naming the field (``facts.current_game.winner``) and, where there is a closed list,
the allowed values. Numbers are minutes, counts or life points: finite and never negative (a
field, or a per-player field for both its numbers, may set a higher ``minimum``, and ``whole``
for whole numbers). Penalty fields take the
ruleset's penalty ids; a history entry's penalty may also be a list (several penalties given
at once), which counts as its last one. A list (e.g. a player's history) holds at most
MAX_LIST entries. Each checker is built once per ruleset and query.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .errors import RuleError

PLAYERS = ("A", "B")
BOTH = frozenset(PLAYERS)
NULLABLE = {"string_or_null", "player_or_null", "penalty_or_list"}  # null is a value here, not "not given"
MAX_LIST = 1000  # entries of a list fact: far above any player's history at one event
# the largest number a fact may be: a float (a JavaScript number, in the browser) counts whole
# numbers exactly up to here, and no count, time or score of a tournament comes near it
MAX_NUMBER = 2**53
Check = Callable[[Any], Any]


def checker(fields: dict, path: str) -> Callable[[Any], dict]:
    """A function checking a mapping of named values against ``fields`` (see the module docstring)."""
    checks = {name: value_checker(spec, f"{path}.{name}") for name, spec in fields.items()}
    nullable = frozenset(name for name, spec in fields.items() if spec["type"] in NULLABLE)
    required = [name for name, spec in fields.items() if spec.get("required")]
    defaults = [(name, spec["default"], copier(spec["default"])) for name, spec in fields.items() if "default" in spec]
    names = frozenset(fields)
    allowed = sorted(fields)

    def check(values: Any) -> dict:
        if values is None:
            values = {}
        if type(values) is not dict:
            raise RuleError(f"{path} must be an object", field=path)
        if not values.keys() <= names:
            first = sorted(values.keys() - names)[0]
            raise RuleError(f"unknown field {path}.{first}", field=f"{path}.{first}", allowed=allowed)
        out = {}
        for name, value in values.items():
            if value is None:
                if name in nullable:
                    out[name] = None
                continue
            out[name] = checks[name](value)
        for name in required:
            if name not in out:
                raise RuleError(f"{path}.{name} is required", field=f"{path}.{name}")
        for name, default, copy in defaults:
            if name not in out:
                out[name] = default if copy is None else copy(default)
        return out

    return check


def clone(value: Any) -> Any:
    """A copy of a JSON value (dicts and lists copied all the way down)."""
    kind = type(value)
    if kind is dict:
        return {k: clone(v) if v.__class__ in _NESTED else v for k, v in value.items()}
    if kind is list:
        return [clone(v) if v.__class__ in _NESTED else v for v in value]
    return value


_NESTED = (dict, list)


def copier(value: Any) -> Callable[[Any], Any] | None:
    """How to copy a default each time it is filled in: None for a scalar (no copy), the
    container's own shallow copy when it holds only scalars, else ``clone``."""
    if type(value) not in _NESTED:
        return None
    inner = value.values() if type(value) is dict else value
    if any(v.__class__ in _NESTED for v in inner):
        return clone
    return dict.copy if type(value) is dict else list.copy


def value_checker(spec: dict, path: str) -> Check:
    """A function checking one value against a SPEC ``{"type", "values"?, "fields"?, "items"?, ...}``."""
    kind = spec["type"]
    if kind == "bool":
        def check_bool(value):
            if value is not True and value is not False:
                raise RuleError(f"{path} must be true or false, got {value!r}", field=path)
            return value
        return check_bool
    if kind == "number":
        return number_checker(path, spec.get("minimum", 0), spec.get("whole", False))
    if kind in ("penalty", "penalty_or_list"):
        values = list(spec.get("values", []))
        penalties = frozenset(values)

        def check_penalty(value):
            if type(value) is not str or value not in penalties:
                _not_penalty(value, path, values)
            return value
        if kind == "penalty":
            return check_penalty

        def check_penalties(value):
            if type(value) is not list:
                return check_penalty(value)
            for i, item in enumerate(value):
                if type(item) is not str or item not in penalties:
                    _not_penalty(item, f"{path}[{i}]", values)
            return value[-1] if value else None
        return check_penalties
    if kind in ("string", "string_or_null"):
        def check_string(value):
            if type(value) is not str or not value:
                raise RuleError(f"{path} must be a non-empty string, got {value!r}", field=path)
            return value
        return check_string
    if kind == "enum":
        values = list(spec["values"])
        known = frozenset(values)

        def check_enum(value):
            kind = value.__class__
            if kind is bool or kind is dict or kind is list or value not in known:
                raise RuleError(f"{path} has an unknown value {value!r}", field=path, allowed=values)
            return value
        return check_enum
    if kind in ("player", "player_or_null"):
        def check_player(value):
            if value not in PLAYERS or type(value) is not str:
                raise RuleError(f"{path} must name a player, got {value!r}", field=path, allowed=list(PLAYERS))
            return value
        return check_player
    if kind == "per_player":
        bounds = spec.get("minimum", 0), spec.get("whole", False)
        check_a, check_b = number_checker(f"{path}.A", *bounds), number_checker(f"{path}.B", *bounds)

        def check_per_player(value):
            if type(value) is not dict or value.keys() != BOTH:
                raise RuleError(f"{path} must be an object with keys A and B, got {value!r}", field=path,
                                allowed=list(PLAYERS))
            return {"A": check_a(value["A"]), "B": check_b(value["B"])}
        return check_per_player
    if kind == "object":
        return checker(spec.get("fields", {}), path)
    if kind == "list":
        items = spec.get("items", {})
        item_checks: dict[int, Callable] = {}

        def check_list(value):
            if type(value) is not list:
                raise RuleError(f"{path} must be a list, got {value!r}", field=path)
            if len(value) > MAX_LIST:
                raise RuleError(f"{path} holds at most {MAX_LIST} entries, got {len(value)}", field=path)
            out = []
            for i, item in enumerate(value):
                check = item_checks.get(i)
                if check is None:
                    check = item_checks[i] = checker(items, f"{path}[{i}]")
                out.append(check(item))
            return out
        return check_list
    raise RuleError(f"{path}: unknown field type {kind!r} in the vocabulary", field=path,
                    allowed=["bool", "number", "string", "enum", "player", "player_or_null", "per_player",
                             "penalty", "penalty_or_list", "object", "list"])


def number_checker(path: str, minimum: float = 0, whole: bool = False) -> Check:
    """A function checking a number: finite, at least ``minimum``, within MAX_NUMBER either side
    of 0 (an int of any size, a float such as 1e30: RuleError, never OverflowError), whole if
    ``whole``."""
    def check_number(value):
        kind = type(value)
        if kind is int or (kind is float and math.isfinite(value)):
            if not -MAX_NUMBER <= value <= MAX_NUMBER:  # (before repr: an int of 5000 digits has none)
                raise RuleError(f"{path} is too large: at most {MAX_NUMBER} either side of 0", field=path)
            if value >= minimum and (kind is int or not whole or value == int(value)):
                return value
        text = "a whole number" if whole else "a number"
        shown = f"{value!r}"[:40]
        raise RuleError(f"{path} must be {text} of {minimum} or more, got {shown}", field=path)
    return check_number


def _not_penalty(value: Any, path: str, penalties: list[str]) -> None:
    raise RuleError(f"{path} is not a penalty id of this ruleset, got {value!r}", field=path, allowed=penalties)


def check_groups(facts: dict, groups: list[list[str]]) -> None:
    """Raise RuleError where a request gives more than one fact of an ``at_most_one_of`` group."""
    for group in groups:
        given = [name for name in group if name in facts]
        if len(given) > 1:
            raise RuleError(f"give only one of facts.{', facts.'.join(group)}; got {', '.join(given)}",
                            field=f"facts.{given[1]}", allowed=group)
