"""Validation of a request's event context and facts against the query vocabulary (queries.json).

Each check returns a new dict with defaults filled in, or raises RuleError naming the field
(``facts.current_game.winner``) and, where there is a closed list, the allowed values.
Numbers are minutes, counts or life points: finite and never negative (a field may set a
higher ``minimum``). Penalty fields take the vocabulary's penalty ids; a history entry's
penalty may also be a list (several penalties given at once), which counts as its last one.
"""

from __future__ import annotations

import copy
import math
from typing import Any

from .errors import RuleError

PLAYERS = ["A", "B"]
NULLABLE = {"string_or_null", "player_or_null", "penalty_or_list"}  # null is a value here, not "not given"


def check_fields(values: Any, spec: dict, path: str, penalties: list[str] = ()) -> dict:
    """Check a mapping of named values against a ``{name: field spec}`` mapping.

    ``penalties`` are the penalty ids a ``penalty`` or ``penalty_or_list`` field accepts.
    """
    if values is None:
        values = {}
    if not isinstance(values, dict):
        raise RuleError(f"{path} must be an object", field=path)
    unknown = sorted(set(values) - set(spec))
    if unknown:
        raise RuleError(f"unknown field {path}.{unknown[0]}", field=f"{path}.{unknown[0]}",
                        allowed=sorted(spec))
    out = {}
    for name, field_spec in spec.items():
        where = f"{path}.{name}"
        if name in values and values[name] is None and field_spec["type"] in NULLABLE:
            out[name] = None
        elif name in values and values[name] is not None:
            out[name] = check_value(values[name], field_spec, where, penalties)
        elif field_spec.get("required"):
            raise RuleError(f"{where} is required", field=where)
        elif "default" in field_spec:
            out[name] = copy.deepcopy(field_spec["default"])
    return out


def check_value(value: Any, spec: dict, path: str, penalties: list[str] = ()) -> Any:
    """Check one value against a field spec ``{"type", "values"?, "fields"?, "items"?, "minimum"?}``."""
    kind = spec["type"]
    if kind == "bool":
        if not isinstance(value, bool):
            raise RuleError(f"{path} must be true or false, got {value!r}", field=path)
    elif kind == "number":
        _check_number(value, path, spec.get("minimum", 0))
    elif kind == "penalty":
        _check_penalty(value, path, penalties)
    elif kind == "penalty_or_list":
        if not isinstance(value, list):
            _check_penalty(value, path, penalties)
            return value
        for i, item in enumerate(value):
            _check_penalty(item, f"{path}[{i}]", penalties)
        return value[-1] if value else None
    elif kind in ("string", "string_or_null"):
        if not isinstance(value, str) or not value:
            raise RuleError(f"{path} must be a non-empty string, got {value!r}", field=path)
    elif kind == "enum":
        if isinstance(value, bool) or value not in spec["values"]:
            raise RuleError(f"{path} has an unknown value {value!r}", field=path, allowed=spec["values"])
    elif kind in ("player", "player_or_null"):
        if value not in PLAYERS:
            raise RuleError(f"{path} must name a player, got {value!r}", field=path, allowed=PLAYERS)
    elif kind == "per_player":
        if not isinstance(value, dict) or sorted(value) != PLAYERS:
            raise RuleError(f"{path} must be an object with keys A and B, got {value!r}", field=path,
                            allowed=PLAYERS)
        for player in PLAYERS:
            _check_number(value[player], f"{path}.{player}")
    elif kind == "object":
        return check_fields(value, spec["fields"], path, penalties)
    elif kind == "list":
        if not isinstance(value, list):
            raise RuleError(f"{path} must be a list, got {value!r}", field=path)
        return [check_fields(item, spec["items"], f"{path}[{i}]", penalties) for i, item in enumerate(value)]
    else:  # a vocabulary error, not a request error
        raise RuleError(f"{path}: unknown field type {kind!r} in queries.json", field=path)
    return value


def _check_number(value: Any, path: str, minimum: float = 0) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or value < minimum:
        raise RuleError(f"{path} must be a number of {minimum} or more, got {value!r}", field=path)


def _check_penalty(value: Any, path: str, penalties: list[str]) -> None:
    if value not in penalties:
        raise RuleError(f"{path} is not a penalty id, got {value!r}", field=path, allowed=list(penalties))


def check_event(event: Any, ruleset: dict, spec: dict) -> dict:
    """Event context with defaults (stage swiss, the ruleset's games_per_match and round_minutes).

    Raises RuleError for an unknown key, a level the ruleset does not define (or any level
    where the ruleset has none), or a malformed value.
    """
    out = check_fields(event, spec, "event")
    levels = [level["id"] for level in ruleset.get("levels", [])]
    level = out.get("level")
    if levels and level is None:
        raise RuleError(f"event.level is required for ruleset {ruleset['id']}", field="event.level",
                        allowed=levels)
    if level is not None and level not in levels:
        raise RuleError(f"event.level {level!r} is not a level of ruleset {ruleset['id']}",
                        field="event.level", allowed=levels)
    defaults = ruleset.get("defaults", {})
    for name in ("games_per_match", "round_minutes"):
        if name not in out and name in defaults:
            out[name] = defaults[name]
    return out
