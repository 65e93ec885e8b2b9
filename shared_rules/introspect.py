"""What a ruleset's programs read: for each query, the facts it may ask for and the defaults it uses.

Derived from the rule data itself (every ``{"var": "facts.X"}`` in the query's program and in
the infraction rules it runs), so the documentation cannot drift from what the engine does.
A UI can build its forms from it.
"""

from __future__ import annotations

from typing import Any

from .engine import load_ruleset, vocabulary


def _walk(node: Any, found: dict[str, list]) -> None:
    if isinstance(node, dict):
        if len(node) == 1 and ("var" in node or "given" in node):
            (op, arg), = node.items()
            path, default = (arg[0], arg[1]) if isinstance(arg, list) else (arg, None)
            if isinstance(path, str) and path.startswith("facts."):
                name = path[len("facts."):].split(".")[0]
                entry = found.setdefault(name, [])
                if op == "var" and not isinstance(arg, list):
                    entry.append("asked")
                elif op == "var" and not isinstance(default, (dict, list)):
                    entry.append(default)
            return
        for value in node.values():
            _walk(value, found)
    elif isinstance(node, list):
        for value in node:
            _walk(value, found)


def facts_read(ruleset_id: str, query: str) -> dict[str, dict]:
    """``{fact: {"required": bool, "asked_when_needed": bool, "defaults": [...]}}`` for one query.

    ``required``: the vocabulary requires it on every request. ``asked_when_needed``: some
    situation reads it with no default (and the vocabulary gives none), so a request that
    reaches that situation without it gets a RuleError naming it (or ``needs`` in a
    step-by-step query). ``defaults``: the values the data assumes where it reads the fact
    with a default. Raises RuleError for an unknown
    ruleset; an unknown query gives an empty mapping.
    """
    ruleset = load_ruleset(ruleset_id)
    found: dict[str, list] = {}
    program = ruleset.get("queries", {}).get(query)
    if program is None:
        return {}
    _walk(program, found)
    if query == "penalty":
        _walk([i.get("rules", []) for i in ruleset.get("infractions", [])], found)
    spec = vocabulary()["queries"][query]["facts"]
    out = {}
    for name, uses in sorted(found.items()):
        field = spec.get(name, {})
        defaults = {repr(u) for u in uses if u != "asked"}
        if "default" in field:
            defaults.add(repr(field["default"]))
        out[name] = {"required": bool(field.get("required")),
                     "asked_when_needed": "asked" in uses and "default" not in field,
                     "defaults": sorted(defaults)}
    return out
