"""The expression language of rule data: a table of small operators and one recursive evaluator.

An expression is JSON. Scalars are literals; a list evaluates element by element; an object
with exactly one key naming an operator is an operator call, ``{"op": args}``. The operators
are listed in ``OPS`` (and in shared_rules/README.md); nothing here knows any game.

``evaluate(expr, scope)`` takes a ``Scope`` that resolves ``var`` paths. Errors in the data
raise ``RuleError`` naming the operator; a ``facts.`` path with no value and no default raises
``MissingFact`` so the caller can ask for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import MissingFact, RuleError

_ABSENT = object()


class Scope:
    """Values a rule can read: ``roots`` maps a root name (event, facts, answer, ...) to a dict.

    ``ladders`` is the ruleset's ``ladders`` mapping, used by the ``ladder`` operator.
    """

    def __init__(self, roots: dict[str, Any], ladders: dict | None = None):
        self.roots = roots
        self.ladders = ladders or {}

    def with_item(self, item: Any) -> Scope:
        """A scope in which ``item`` names one element of a list (for count, any, all, filter)."""
        return Scope({**self.roots, "item": item}, self.ladders)

    def _find(self, path: str) -> Any:
        value: Any = self.roots
        for part in path.split("."):
            if isinstance(value, dict) and part in value:
                value = value[part]
            elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
                value = value[int(part)]
            else:
                return _ABSENT
        return value

    def has(self, path: str) -> bool:
        """Whether a value (null included: "no winner" is a fact) is present at ``path``."""
        return self._find(path) is not _ABSENT

    def lookup(self, path: str, default: Any = _ABSENT) -> Any:
        """The value at a dotted path.

        Facts: an absent fact gives ``default``, or raises MissingFact without one; a fact
        given as null (only nullable facts survive validation as null) is null. Other roots:
        absent or null gives ``default``, else null.
        """
        value = self._find(path)
        is_fact = path.startswith("facts.")
        if value is _ABSENT or (value is None and not is_fact):
            if default is not _ABSENT:
                return default
            if is_fact:
                raise MissingFact(path[len("facts."):])
            return None
        return value


def evaluate(expr: Any, scope: Scope) -> Any:
    """Value of ``expr`` in ``scope``. Raises RuleError for malformed data, MissingFact as above."""
    if isinstance(expr, list):
        return [evaluate(e, scope) for e in expr]
    if isinstance(expr, dict):
        if len(expr) != 1:
            raise RuleError(f"an expression object must have exactly one operator key, got {sorted(expr)}")
        (op, args), = expr.items()
        fn = OPS.get(op)
        if fn is None:
            raise RuleError(f"unknown operator {op!r}", field=op, allowed=sorted(OPS))
        return fn(args, scope)
    return expr


def _args(args: Any, n: int | None, op: str) -> list:
    args = args if isinstance(args, list) else [args]
    if n is not None and len(args) != n:
        raise RuleError(f"operator {op!r} takes {n} argument(s), got {len(args)}", field=op)
    return args


def _values(args: Any, scope: Scope, n: int | None, op: str) -> list:
    return [evaluate(a, scope) for a in _args(args, n, op)]


def _number(value: Any, op: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RuleError(f"operator {op!r} needs numbers, got {value!r}", field=op)
    return value


def _var(args: Any, scope: Scope) -> Any:
    if isinstance(args, list):
        if len(args) != 2:
            raise RuleError("operator 'var' takes a path or [path, default]", field="var")
        return scope.lookup(args[0], evaluate(args[1], scope))
    return scope.lookup(args)


def _given(args: Any, scope: Scope) -> bool:
    return scope.has(args)


def _compare_op(fn: Callable[[Any, Any], bool], op: str) -> Callable[[Any, Scope], bool]:
    def run(args: Any, scope: Scope) -> bool:
        a, b = _values(args, scope, 2, op)
        if op in ("<", "<=", ">", ">="):
            _number(a, op), _number(b, op)
        return fn(a, b)

    return run


def _and(args: Any, scope: Scope) -> bool:
    return all(evaluate(a, scope) for a in _args(args, None, "and"))


def _or(args: Any, scope: Scope) -> bool:
    return any(evaluate(a, scope) for a in _args(args, None, "or"))


def _not(args: Any, scope: Scope) -> bool:
    (a,) = _values(args, scope, 1, "not")
    return not a


def _if(args: Any, scope: Scope) -> Any:
    args = _args(args, None, "if")
    if len(args) % 2 != 1:
        raise RuleError("operator 'if' takes [cond, value, ..., else]", field="if")
    for i in range(0, len(args) - 1, 2):
        if evaluate(args[i], scope):
            return evaluate(args[i + 1], scope)
    return evaluate(args[-1], scope)


def _arith(fn: Callable[[list], Any], op: str) -> Callable[[Any, Scope], Any]:
    def run(args: Any, scope: Scope) -> Any:
        values = [_number(v, op) for v in _values(args, scope, None, op)]
        if not values:
            raise RuleError(f"operator {op!r} needs at least one argument", field=op)
        return fn(values)

    return run


def _minus(values: list) -> Any:
    return values[0] - sum(values[1:]) if len(values) > 1 else -values[0]


def _product(values: list) -> Any:
    result = 1
    for v in values:
        result *= v
    return result


def _in(args: Any, scope: Scope) -> bool:
    x, container = _values(args, scope, 2, "in")
    if not isinstance(container, (list, str)):
        raise RuleError(f"operator 'in' needs a list, got {container!r}", field="in")
    return x in container


def _list_op(kind: str) -> Callable[[Any, Scope], Any]:
    def run(args: Any, scope: Scope) -> Any:
        list_expr, predicate = _args(args, 2, kind)
        items = evaluate(list_expr, scope)
        if items is None:
            items = []
        if not isinstance(items, list):
            raise RuleError(f"operator {kind!r} needs a list, got {items!r}", field=kind)
        hits = [item for item in items if evaluate(predicate, scope.with_item(item))]
        if kind == "count":
            return len(hits)
        if kind == "filter":
            return hits
        if kind == "any":
            return bool(hits)
        return len(hits) == len(items)  # all

    return run


def _len(args: Any, scope: Scope) -> int:
    (value,) = _values(args, scope, 1, "len")
    if value is None:
        return 0
    if not isinstance(value, list):
        raise RuleError(f"operator 'len' needs a list, got {value!r}", field="len")
    return len(value)


def _concat(args: Any, scope: Scope) -> list:
    out: list = []
    for value in _values(args, scope, None, "concat"):
        if value is None:
            continue
        out.extend(value if isinstance(value, list) else [value])
    return out


def _compare_players(args: Any, scope: Scope) -> str:
    a, b = (_number(v, "compare") for v in _values(args, scope, 2, "compare"))
    return "A" if a > b else "B" if b > a else "draw"


def _ladder(args: Any, scope: Scope) -> Any:
    name, penalty, steps = _values(args, scope, 3, "ladder")
    ladder = scope.ladders.get(name)
    if ladder is None:
        raise RuleError(f"unknown ladder {name!r}", field="ladder", allowed=sorted(scope.ladders))
    rungs = ladder["steps"]
    if penalty not in rungs:
        return penalty
    index = rungs.index(penalty) + int(_number(steps, "ladder"))
    return rungs[max(0, min(index, len(rungs) - 1))]


def _lookup(args: Any, scope: Scope) -> Any:
    items, key_field, key, field = _values(args, scope, 4, "lookup")
    for element in items or []:
        if isinstance(element, dict) and element.get(key_field) == key:
            return element.get(field)
    return None


def _index(args: Any, scope: Scope) -> Any:
    items, value = _values(args, scope, 2, "index")
    if not isinstance(items, list):
        raise RuleError(f"operator 'index' needs a list, got {items!r}", field="index")
    return items.index(value) if value in items else None


OPS: dict[str, Callable[[Any, Scope], Any]] = {
    "var": _var,
    "given": _given,
    "==": _compare_op(lambda a, b: a == b, "=="),
    "!=": _compare_op(lambda a, b: a != b, "!="),
    "<": _compare_op(lambda a, b: a < b, "<"),
    "<=": _compare_op(lambda a, b: a <= b, "<="),
    ">": _compare_op(lambda a, b: a > b, ">"),
    ">=": _compare_op(lambda a, b: a >= b, ">="),
    "and": _and,
    "or": _or,
    "not": _not,
    "if": _if,
    "+": _arith(sum, "+"),
    "-": _arith(_minus, "-"),
    "*": _arith(_product, "*"),
    "min": _arith(min, "min"),
    "max": _arith(max, "max"),
    "in": _in,
    "count": _list_op("count"),
    "any": _list_op("any"),
    "all": _list_op("all"),
    "filter": _list_op("filter"),
    "len": _len,
    "concat": _concat,
    "compare": _compare_players,
    "ladder": _ladder,
    "lookup": _lookup,
    "index": _index,
}
