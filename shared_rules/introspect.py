"""What a ruleset's programs read, found from the rule data itself (nothing is run).

``walk_query`` visits every rule node a query can reach: its steps, the procedures they run
and, for the penalty query, every infraction's ``rules`` and ``then`` lists (or one
infraction's). ``facts_read`` lists, per fact, whether the rules read it without a default
(so a request may have to give it) and the defaults they assume; a UI builds its forms from
it and ``python -m shared_rules list`` prints it, so the documentation cannot drift from
what the engine does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from .library import load_ruleset
from .program import PLACEHOLDER

INFRACTION_LISTS = ("rules", "then")


class Node:
    """A rule node met on a walk: its JSON path, the node, the nodes above it (nearest last)
    and the query it belongs to."""

    __slots__ = ("path", "rule", "ancestors", "query")

    def __init__(self, path: str, rule: dict, ancestors: tuple, query: str):
        self.path, self.rule, self.ancestors, self.query = path, rule, ancestors, query


def walk_query(ruleset: dict, query: str, infraction: str | None = None) -> Iterator[Node]:
    """Every rule node ``query`` can reach (procedures visited where they are run, once per
    call site). With ``infraction``, only that infraction's own lists are visited."""
    program = ruleset.get("queries", {}).get(query)
    if program is None:
        return
    yield from _walk_list(ruleset, query, program.get("steps", []), f"queries.{query}.steps", (), ())
    if query != "penalty":
        return
    for item in ruleset.get("infractions", []):
        if infraction is not None and item.get("id") != infraction:
            continue
        for key in INFRACTION_LISTS:
            if isinstance(item.get(key), list):
                yield from _walk_list(ruleset, query, item[key], f"infractions[{item['id']}].{key}", (), ())


def _walk_list(ruleset: dict, query: str, rules: Any, path: str, ancestors: tuple, running: tuple) -> Iterator[Node]:
    if not isinstance(rules, list):
        return
    for i, rule in enumerate(rules):
        if isinstance(rule, dict):
            yield from _walk_node(ruleset, query, rule, f"{path}[{i}]", ancestors, running)


def _walk_node(ruleset: dict, query: str, rule: dict, path: str, ancestors: tuple, running: tuple) -> Iterator[Node]:
    yield Node(path, rule, ancestors, query)
    below = (*ancestors, rule)
    target = rule.get("run")
    if isinstance(target, str) and target.startswith("procedures."):
        name = target[len("procedures."):]
        body = ruleset.get("procedures", {}).get(name)
        if body is not None and name not in running:
            yield from _walk_list(ruleset, query, body, f"procedures.{name}", below, (*running, name))
    yield from _walk_list(ruleset, query, rule.get("steps"), f"{path}.steps", below, running)
    yield from _walk_list(ruleset, query, rule.get("first"), f"{path}.first", below, running)


def expressions(rule: dict) -> Iterator[tuple[str, Any]]:
    """``(where, expression)`` of every expression in a node (not in nested nodes)."""
    if "when" in rule:
        yield "when", rule["when"]
    for field, expr in (rule.get("set") or {}).items():
        yield f"set.{field}", expr
    for i, option in enumerate(rule.get("options") or []):
        if isinstance(option, dict):
            for key in ("when", "penalty"):
                if key in option:
                    yield f"options[{i}].{key}", option[key]


def texts(rule: dict) -> Iterator[tuple[str, str]]:
    """``(where, text)`` of every text with placeholders in a node."""
    explain = rule.get("explain", [])
    for i, line in enumerate([explain] if isinstance(explain, str) else explain or []):
        yield f"explain[{i}]", line
    if isinstance(rule.get("note"), str):
        yield "note", rule["note"]
    for i, option in enumerate(rule.get("options") or []):
        if isinstance(option, dict) and isinstance(option.get("condition"), str):
            yield f"options[{i}].condition", option["condition"]


def reads(expr: Any) -> Iterator[tuple[str, str, Any]]:
    """``(operator, path, default)`` of every ``var`` and ``given`` in an expression;
    ``default`` is ``READ_WITHOUT_DEFAULT`` where a ``var`` has none (and for ``given``)."""
    if isinstance(expr, list):
        for e in expr:
            yield from reads(e)
    elif isinstance(expr, dict):
        for op, args in expr.items():
            if op == "var":
                if isinstance(args, list) and len(args) == 2:
                    yield "var", args[0], args[1]
                    yield from reads(args[1])
                else:
                    yield "var", args, READ_WITHOUT_DEFAULT
            elif op == "given":
                yield "given", args, READ_WITHOUT_DEFAULT
            else:
                yield from reads(args)


READ_WITHOUT_DEFAULT = object()


def facts_read(ruleset_id: str, query: str, infraction: str | None = None) -> dict[str, dict]:
    """``{fact: {"required", "asked_when_needed", "defaults": [...]}}`` for one query (facts only).

    ``required``: the vocabulary requires it on every request. ``asked_when_needed``: some
    situation reads it with no default (and the vocabulary gives none), so a request that
    reaches that situation without it gets it in ``needs`` (or answered without it where the
    answer does not depend on it). ``defaults``: the values the data assumes where it reads
    the fact with a default (JSON text). With ``infraction`` (penalty query), only what the
    query's own steps and that infraction's rules read. Raises RuleError for an unknown
    ruleset; an unknown query gives an empty mapping.
    """
    from .engine import compiled_ruleset

    ruleset = load_ruleset(ruleset_id)
    words = compiled_ruleset(ruleset_id).words["queries"].get(query)
    if words is None:
        return {}
    found: dict[str, list] = {}
    for node in walk_query(ruleset, query, infraction):
        for _, expr in expressions(node.rule):
            for op, path, default in reads(expr):
                _note_read(found, op, path, default)
        for _, text in texts(node.rule):
            for match in PLACEHOLDER.finditer(text):
                _note_read(found, "text", match.group(2), None)
    out = {}
    for name, uses in sorted(found.items()):
        spec = words["facts"].get(name, {})
        defaults = {json.dumps(u) for u in uses if u is not READ_WITHOUT_DEFAULT and not isinstance(u, Asked)}
        if "default" in spec:
            defaults.add(json.dumps(spec["default"]))
        out[name] = {"required": bool(spec.get("required")),
                     "asked_when_needed": any(isinstance(u, Asked) for u in uses) and "default" not in spec,
                     "defaults": sorted(defaults)}
    return out


class Asked:
    """A read with no default: the request may have to give the value."""


def _note_read(found: dict, op: str, path: Any, default: Any) -> None:
    if not isinstance(path, str) or not path.startswith("facts."):
        return
    name = path.split(".")[1]
    uses = found.setdefault(name, [])
    if op == "var" and default is READ_WITHOUT_DEFAULT:
        uses.append(Asked())
    elif op == "var" and not isinstance(default, (dict, list)):
        uses.append(default)
