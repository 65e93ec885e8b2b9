"""The expression language of rule data: a table of operators, compiled once into Python code.

An expression is JSON. Scalars are literals; a list evaluates element by element; an object
with exactly one key naming an operator is an operator call, ``{"op": args}``. The operators
are listed in ``OPS`` (and in shared_rules/README.md); nothing here knows any game.

Each operator writes one Python expression (``OPS[name](args, gen)`` returns its source
text), so a whole rule list becomes one Python function (program.py) reading plain local
variables: ``facts``, ``event``, ``answer``, ``infraction`` and, inside ``count``, ``any``,
``all`` and ``filter``, ``item``. Malformed data (an unknown operator, a wrong number of
arguments, a fact the vocabulary does not declare) raises ``RuleError`` while compiling,
naming the operator or path; a value of the wrong type raises it when the code runs. A read
of a fact (or an event setting) the request did not give, with no default, raises
``MissingFact`` naming the declared fact, so the engine can try its values or ask for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .errors import MissingFact, RuleError
from .facts import NULLABLE
from .vocabulary import spec_at

ROOTS = ("event", "facts", "answer", "infraction", "ruleset", "item")
NUMBERS = (int, float)
SCALARS = (str, int, float, bool, type(None))
SCALAR_TYPES = ("bool", "number", "string", "string_or_null", "enum", "player", "player_or_null", "penalty",
                "penalty_or_list")  # fact types whose checked value is never a list or an object
SCALAR_OPS = ("given", "==", "!=", "<", "<=", ">", ">=", "and", "or", "not", "+", "-", "*", "min", "max", "in",
              "count", "any", "all", "len", "compare", "index")  # operators giving a bool, number or text
ANSWER_KEYS = ("ruleset", "query")  # answer keys the engine fills in before the rules run


class _Absent:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<absent>"


ABSENT = _Absent()


class Gen:
    """Writes Python source for expressions of one query of one ruleset: knows the ruleset
    (its static data and ladders) and the query's vocabulary (to name a missing fact), and
    keeps the constants the code refers to in ``namespace``."""

    def __init__(self, ruleset: dict, facts: dict, event: dict, answer_defaults: Iterable[str] = ()):
        self.ruleset, self.facts, self.event = ruleset, facts, event
        # fields every evaluation has, so read by key: facts and event settings with a default
        # (the checkers fill them in) and answer fields with one (the answer starts with them)
        self.filled = {"facts": {name for name, spec in facts.items() if "default" in spec},
                       "event": {name for name, spec in event.items() if "default" in spec},
                       "answer": set(answer_defaults)}
        # of those, the event settings that are never null: a read of one with a default is the read
        self.never_null = {name for name, spec in event.items()
                           if spec.get("default") is not None and spec["type"] not in NULLABLE}
        self.namespace: dict[str, Any] = dict(HELPERS)
        # the infraction whose own rule list is being compiled (its reads are its values), or
        # ABSENT in the query's steps, where the chosen infraction is known only at run time
        self.infraction: Any = ABSENT
        self.item_depth = 0
        self._names: dict[int, str] = {}
        self.uses_answer_keys = False  # whether a rule reads or sets answer.ruleset or answer.query

    def const(self, value: Any) -> str:
        """The source text naming ``value``: a literal for a scalar, else a namespace name
        (the code must not let the value escape unmodifiable data into an answer unchanged)."""
        if isinstance(value, SCALARS) and not (isinstance(value, float) and value != value):
            return repr(value)
        key = id(value)
        if key not in self._names:
            name = f"_C{len(self._names)}"
            self._names[key] = name
            self.namespace[name] = value
        return self._names[key]

    def expr(self, expr: Any) -> str:
        """Python source computing ``expr``. Raises RuleError for malformed data."""
        if isinstance(expr, list):
            return "[" + ", ".join(self.expr(e) for e in expr) + "]"
        if isinstance(expr, dict):
            if len(expr) != 1:
                raise RuleError(f"an expression object must have exactly one operator key, got {sorted(expr)}")
            (op, args), = expr.items()
            emit = OPS.get(op)
            if emit is None:
                raise RuleError(f"unknown operator {op!r}", field=op, allowed=sorted(OPS))
            return emit(args, self)
        return self.const(expr)

    def test(self, expr: Any) -> str:
        """Python source whose truth is the truth of ``expr``, for an ``if`` or a predicate: ``and``,
        ``or`` and ``not`` as Python's own, and a read whose default is falsy as the bare read."""
        if isinstance(expr, dict) and len(expr) == 1:
            (op, args), = expr.items()
            if op in ("and", "or") and isinstance(args, list) and args:
                return "(" + f" {op} ".join(self.test(a) for a in args) + ")"
            if op == "not" and (not isinstance(args, list) or len(args) == 1):
                return f"(not {self.test(args[0] if isinstance(args, list) else args)})"
            if op == "var" and isinstance(args, list) and len(args) == 2 and is_literal(args[1]) and not args[1]:
                return self.read(args[0], None)
        return self.expr(expr)

    def always_inner(self, parts: list) -> bool:
        """Whether a fact ``parts[0]``, when given, always has the key ``parts[1]`` (a per-player
        value, or an object field with a default)."""
        spec = self.facts.get(parts[0]) or {}
        if spec.get("type") == "per_player":
            return parts[1] in ("A", "B")
        return spec.get("type") == "object" and "default" in spec.get("fields", {}).get(parts[1], {})

    def numeric(self, expr: Any) -> bool:
        """Whether an expression is sure to give a number when it gives a value at all: a
        number, or a fact or event setting the vocabulary types as a number (checked on the way
        in), read with no default or a number as default; a sum, difference or product of two
        such, or an ``if`` whose every value is one."""
        if type(expr) in NUMBERS:
            return True
        if isinstance(expr, dict) and len(expr) == 1:  # a sum, difference or product of two such
            (op, args), = expr.items()
            if op in ("+", "-", "*") and isinstance(args, list) and len(args) == 2:
                return all(map(self.numeric, args))
            if op == "if" and isinstance(args, list) and len(args) % 2 == 1:  # each value it may give is one
                return all(map(self.numeric, args[1::2] + args[-1:]))
        if not (isinstance(expr, dict) and set(expr) == {"var"}):
            return False
        args = expr["var"]
        path, default = (args[0], args[1]) if isinstance(args, list) and len(args) == 2 else (args, 0)
        if type(default) not in NUMBERS or not isinstance(path, str):
            return False
        root, parts = split_path(path)
        if root not in ("facts", "event") or not parts:
            return False
        fact, spec = spec_at(self.facts if root == "facts" else self.event, [str(p) for p in parts])
        if spec is None:
            return False
        kind = spec.get("type")
        leaf = len(fact) == len(parts)
        return (kind == "number" and leaf) or (kind == "per_player" and len(parts) == len(fact) + 1) or (
            kind == "enum" and leaf and all(type(x) in NUMBERS for x in spec.get("values", [])))

    def scalar(self, expr: Any, containers: set[str]) -> bool:
        """Whether an expression is sure never to give a list or an object, where the answer
        fields in ``containers`` may hold one (so the answer need not copy what it gives)."""
        if is_literal(expr):
            return True
        if not (isinstance(expr, dict) and len(expr) == 1):
            return False
        (op, args), = expr.items()
        if op in SCALAR_OPS:
            return True
        args = args if isinstance(args, list) else [args]
        if op == "if":
            return all(self.scalar(a, containers) for a in args[1::2] + args[-1:])
        if op == "table":
            rows = args[1] if len(args) > 1 and isinstance(args[1], dict) else {}
            return all(self.scalar(a, containers) for a in [*rows.values(), *args[2:]])
        if op == "ladder":
            steps = [s for ladder in self.ruleset.get("ladders", {}).values() for s in ladder.get("steps", [])]
            return len(args) == 3 and self.scalar(args[1], containers) and all(map(is_literal, steps))
        if op == "var":
            path, default = (args[0], args[1]) if len(args) == 2 else (args[0], None)
            return isinstance(path, str) and self.scalar(default, containers) and self.scalar_read(path, containers)
        return False

    def scalar_read(self, path: str, containers: set[str]) -> bool:
        root, parts = split_path(path)
        if root in ("facts", "event"):
            fact, spec = spec_at(self.facts if root == "facts" else self.event, [str(p) for p in parts])
            kind = spec and spec.get("type")
            return (kind in SCALAR_TYPES and len(fact) == len(parts)) or (
                kind == "per_player" and len(parts) == len(fact) + 1)
        if root == "answer":
            return len(parts) == 1 and parts[0] not in containers
        if root == "ruleset":
            return _plain(walk(self.ruleset, parts))
        if root == "infraction":
            return all(_plain(walk(i, parts)) for i in self.ruleset.get("infractions", []) if isinstance(i, dict))
        return root not in ROOTS

    def operand(self, expr: Any, op: str) -> str:
        """Source of a number an operator needs: checked unless sure to be a number."""
        code = self.expr(expr)
        return code if self.numeric(expr) else f"_num({code}, {op!r})"

    def known(self, path: str) -> Any:
        """The value a read of ``path`` gives, where it is known while compiling: a ``ruleset.``
        path, or an ``infraction.`` path in the infraction's own rule lists (None when absent
        there); ABSENT where it is known only at run time."""
        root, parts = split_path(path)
        if root == "ruleset" or (root == "infraction" and self.infraction is not ABSENT):
            value = walk(self.ruleset if root == "ruleset" else self.infraction, parts)
            return None if value is ABSENT else value
        return ABSENT

    def read(self, path: str, default: Any = ABSENT) -> str:
        """Source reading a dotted path; ``default`` is an expression, or ABSENT for none."""
        if not isinstance(path, str) or not path:
            raise RuleError(f"operator 'var' needs a path, got {path!r}", field="var")
        root, parts = split_path(path)
        has_default = default is not ABSENT
        fallback = self.expr(default) if has_default else "None"
        value = self.known(path)
        if value is not ABSENT:
            return fallback if value is None else self.const(value)
        if root not in ROOTS or (root == "item" and not self.item_depth):
            return fallback
        if root == "item" and not parts and not has_default:  # the list element itself
            return "item"
        if root == "answer" and (not parts or parts[0] in ANSWER_KEYS):
            self.uses_answer_keys = True
        missing = declared(path, self)
        lazy = has_default and not is_literal(default)
        key = repr(parts[0]) if len(parts) == 1 and isinstance(parts[0], str) else None
        pair = ", ".join(map(repr, parts)) if len(parts) == 2 and all(isinstance(p, str) for p in parts) else None
        if pair and root == "facts" and not lazy:
            if not has_default and self.always_inner(parts):
                outer = repr(parts[0])
                return f"(facts[{outer}][{parts[1]!r}] if {outer} in facts else _miss({self.const(missing)}))"
            if not has_default:
                return f"_fact2(facts, {pair}, {self.const(missing)})"
            return f"_fact2_or(facts, {pair}, {fallback})"
        if key and parts[0] in self.filled.get(root, ()):
            found = f"{root}[{key}]"
            if root == "facts" or not has_default or default is None or (
                    root == "event" and parts[0] in self.never_null):
                return found
            return f"_or_none({found}, lambda: {fallback})" if lazy else f"_or_none({found}, {fallback})"
        if root == "facts":
            if key and not has_default:
                return f"(facts[{key}] if {key} in facts else _miss({self.const(missing)}))"
            if key and not lazy:
                return f"facts.get({key}, {fallback})"
            found = f"facts[{key}] if {key} in facts else _A" if key else f"_walk(facts, {self.const(parts)})"
            if not has_default:
                return f"_have({found}, {self.const(missing)})"
            return f"_or_absent(({found}), lambda: {fallback})" if lazy else f"_or_absent(({found}), {fallback})"
        if key and root in ("answer", "event"):
            found = f"{root}.get({key})"
            if has_default and not lazy and default is not None:  # two look-ups cost less than a call
                return f"({fallback} if {found} is None else {found})"
        elif key and root == "infraction":
            found = f"(infraction.get({key}) if infraction is not None else None)"
        elif key and root == "item":
            found = f"(item.get({key}) if item.__class__ is dict else None)"
        elif pair:
            found = f"_get2({root}, {pair})"
        else:
            found = f"_walk({root}, {self.const(parts)}, None)"
        if has_default:
            if default is None:
                return found
            return f"_or_none({found}, lambda: {fallback})" if lazy else f"_or_none({found}, {fallback})"
        if root == "event" and missing is not None:
            return f"_given({found}, {self.const(missing)})"
        return found


def is_literal(expr: Any) -> bool:
    """Whether an expression is a JSON scalar (its value needs no evaluation)."""
    return isinstance(expr, SCALARS)


def _plain(value: Any) -> bool:
    return value is ABSENT or is_literal(value)


def split_path(path: str) -> tuple[str, list]:
    """``"facts.game_wins.A"`` -> ``("facts", ["game_wins", "A"])``; digits become list indexes."""
    root, *parts = path.split(".")
    return root, [int(p) if p.isdigit() else p for p in parts]


def walk(value: Any, parts: list, absent: Any = ABSENT) -> Any:
    """The value at ``parts`` below ``value``, or ``absent`` (ABSENT unless given)."""
    for part in parts:
        kind = type(value)
        if kind is dict:
            value = value.get(part if type(part) is str else str(part), ABSENT)
            if value is ABSENT:
                return absent
        elif kind is list and type(part) is int and part < len(value):
            value = value[part]
        else:
            return absent
    return value


def declared(path: str, gen: Gen) -> MissingFact | None:
    """For a ``facts.`` or ``event.`` path: the MissingFact to raise when it is absent (None
    where the vocabulary gives it a default). Raises RuleError for a path the query's
    vocabulary does not declare."""
    root, parts = split_path(path)
    if root not in ("facts", "event") or not parts:
        return None
    fields = gen.facts if root == "facts" else gen.event
    fact, spec = spec_at(fields, [str(p) for p in parts])
    if spec is None:
        raise RuleError(f"{path} is not declared in this query's vocabulary", field=path,
                        allowed=[f"{root}.{name}" for name in fields])
    if root == "event" and "default" in spec:
        return None
    return MissingFact(f"{root}.{'.'.join(fact)}", spec)


# --- run-time helpers the generated code calls ---------------------------------------------

def _miss(missing: MissingFact) -> Any:
    raise MissingFact(missing.path, missing.spec)


def _have(value: Any, missing: MissingFact) -> Any:
    if value is ABSENT:
        raise MissingFact(missing.path, missing.spec)
    return value


def _given(value: Any, missing: MissingFact) -> Any:
    if value is None:
        raise MissingFact(missing.path, missing.spec)
    return value


def _or_absent(value: Any, default: Any) -> Any:
    if value is ABSENT:
        return default() if callable(default) else default
    return value


def _or_none(value: Any, default: Any) -> Any:
    if value is None:
        return default() if callable(default) else default
    return value


def _fact2(facts: dict, outer: str, inner: str, missing: MissingFact) -> Any:
    found = facts.get(outer)
    value = found.get(inner, ABSENT) if found.__class__ is dict else ABSENT
    if value is ABSENT:
        raise MissingFact(missing.path, missing.spec)
    return value


def _fact2_or(facts: dict, outer: str, inner: str, default: Any) -> Any:
    found = facts.get(outer)
    return found.get(inner, default) if found.__class__ is dict else default


def _get2(root: Any, outer: str, inner: str) -> Any:
    found = root.get(outer) if root.__class__ is dict else None
    return found.get(inner) if found.__class__ is dict else None


def _num(value: Any, op: str) -> Any:
    if type(value) not in NUMBERS:
        raise RuleError(f"operator {op!r} needs numbers, got {value!r}", field=op)
    return value


def _items(value: Any, op: str) -> list:
    if value is None:
        return []
    if type(value) is not list:
        raise RuleError(f"operator {op!r} needs a list, got {value!r}", field=op)
    return value


def _container(value: Any) -> Any:
    if not isinstance(value, (list, str)):
        raise RuleError(f"operator 'in' needs a list, got {value!r}", field="in")
    return value


def _len(value: Any) -> int:
    if value is None:
        return 0
    if type(value) is not list:
        raise RuleError(f"operator 'len' needs a list, got {value!r}", field="len")
    return len(value)


def _concat(values: tuple) -> list:
    out: list = []
    for value in values:
        if value is None:
            continue
        if type(value) is list:
            out.extend(value)
        else:
            out.append(value)
    return out


def _compare(a: Any, b: Any) -> str:
    _num(a, "compare"), _num(b, "compare")
    return "A" if a > b else "B" if b > a else "draw"


def _arith(op: str, values: tuple) -> Any:
    for value in values:
        _num(value, op)
    if op == "+":
        return sum(values)
    if op == "-":
        return values[0] - sum(values[1:]) if len(values) > 1 else -values[0]
    if op == "*":
        result = 1
        for value in values:
            result *= value
        return result
    return min(values) if op == "min" else max(values)


def _ladder(ladders: dict, name: Any, penalty: Any, steps: Any) -> Any:
    ladder = ladders.get(name) if isinstance(name, str) else None
    if ladder is None:
        raise RuleError(f"unknown ladder {name!r}", field="ladder", allowed=sorted(ladders))
    rungs = ladder["steps"]
    if penalty not in rungs:
        return penalty
    index = rungs.index(penalty) + int(_num(steps, "ladder"))
    return rungs[max(0, min(index, len(rungs) - 1))]


def _lookup(items: Any, key_field: Any, key: Any, field: Any) -> Any:
    for element in items or []:
        if isinstance(element, dict) and element.get(key_field) == key:
            return element.get(field)
    return None


def _keyed(table: dict, key: Any) -> Any:
    return table.get(key) if type(key) is str else None


def _index(items: Any, value: Any) -> Any:
    if type(items) is not list:
        raise RuleError(f"operator 'index' needs a list, got {items!r}", field="index")
    return items.index(value) if value in items else None


def _row(rows: dict, value: Any, otherwise: Any, computed: bool) -> Any:
    found = rows.get(table_key(value), ABSENT)
    if found is ABSENT:
        if otherwise is ABSENT:
            raise RuleError(f"operator 'table' has no row for {value!r}", field="table", allowed=list(rows))
        found = otherwise
    return found() if computed else found


def table_key(value: Any) -> str:
    """How a value names a row of a ``table``: text as it is, anything else as its JSON text."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


HELPERS = {name: value for name, value in globals().items()
           if name in ("_miss", "_have", "_given", "_or_absent", "_or_none", "_num", "_items",
                       "_container", "_len", "_concat", "_compare", "_arith", "_ladder", "_lookup", "_keyed",
                       "_index", "_row", "_fact2", "_fact2_or", "_get2")}
HELPERS.update({"_A": ABSENT, "_walk": walk})


# --- operators: each returns Python source ---------------------------------------------------

def _args(args: Any, n: int | None, op: str) -> list:
    args = args if isinstance(args, list) else [args]
    if n is not None and len(args) != n:
        raise RuleError(f"operator {op!r} takes {n} argument(s), got {len(args)}", field=op)
    return args


def _var(args: Any, gen: Gen) -> str:
    if isinstance(args, list):
        if len(args) != 2:
            raise RuleError("operator 'var' takes a path or [path, default]", field="var")
        return gen.read(args[0], args[1])
    return gen.read(args)


def _given_op(args: Any, gen: Gen) -> str:
    if not isinstance(args, str):
        raise RuleError(f"operator 'given' needs a path, got {args!r}", field="given")
    root, parts = split_path(args)
    declared(args, gen)
    if root == "ruleset" or (root == "infraction" and gen.infraction is not ABSENT):
        return repr(walk(gen.ruleset if root == "ruleset" else gen.infraction, parts) is not ABSENT)
    if root not in ROOTS or (root == "item" and not gen.item_depth):
        return "False"
    if root == "answer" and (not parts or parts[0] in ANSWER_KEYS):
        gen.uses_answer_keys = True
    if root == "facts" and len(parts) == 1 and isinstance(parts[0], str):
        return f"({parts[0]!r} in facts)"
    return f"(_walk({root}, {gen.const(parts)}) is not _A)"


def _equal(negate: bool) -> Callable[[Any, Gen], str]:
    def emit(args: Any, gen: Gen) -> str:
        a, b = (gen.expr(x) for x in _args(args, 2, "!=" if negate else "=="))
        return f"({a} {'!=' if negate else '=='} {b})"
    return emit


def _order(op: str) -> Callable[[Any, Gen], str]:
    def emit(args: Any, gen: Gen) -> str:
        a, b = _args(args, 2, op)
        return f"({gen.operand(a, op)} {op} {gen.operand(b, op)})"
    return emit


def _and(args: Any, gen: Gen) -> str:
    return "(True if (" + " and ".join(gen.expr(a) for a in _args(args, None, "and")) + ") else False)"


def _or(args: Any, gen: Gen) -> str:
    parts = _args(args, None, "or")
    if not parts:
        return "False"
    return "(True if (" + " or ".join(gen.expr(a) for a in parts) + ") else False)"


def _not(args: Any, gen: Gen) -> str:
    (a,) = _args(args, 1, "not")
    return f"(not {gen.expr(a)})"


def _if(args: Any, gen: Gen) -> str:
    parts = _args(args, None, "if")
    if len(parts) % 2 != 1:
        raise RuleError("operator 'if' takes [cond, value, ..., else]", field="if")
    code = gen.expr(parts[-1])
    for i in range(len(parts) - 3, -1, -2):
        code = f"({gen.expr(parts[i + 1])} if {gen.test(parts[i])} else {code})"
    return code


def _arith_op(op: str) -> Callable[[Any, Gen], str]:
    def emit(args: Any, gen: Gen) -> str:
        listed = _args(args, None, op)
        if not listed:
            raise RuleError(f"operator {op!r} needs at least one argument", field=op)
        if len(listed) == 2 and op in "+-*":
            return f"({gen.operand(listed[0], op)} {op} {gen.operand(listed[1], op)})"
        return f"_arith({op!r}, ({', '.join(gen.expr(a) for a in listed)},))"
    return emit


def _in(args: Any, gen: Gen) -> str:
    x, container = _args(args, 2, "in")
    if isinstance(container, list) and all(is_literal(e) for e in container):
        return f"({gen.expr(x)} in {gen.const(tuple(container))})"
    return f"({gen.expr(x)} in _container({gen.expr(container)}))"


def _list_op(kind: str) -> Callable[[Any, Gen], str]:
    def emit(args: Any, gen: Gen) -> str:
        source, predicate = _args(args, 2, kind)
        items = f"_items({gen.expr(source)}, {kind!r})"
        gen.item_depth += 1
        try:
            test = gen.test(predicate)
        finally:
            gen.item_depth -= 1
        if kind == "count":
            return f"sum(1 for item in {items} if {test})"
        if kind == "filter":
            return f"[item for item in {items} if {test}]"
        return f"{kind}({test} for item in {items})"
    return emit


def _len_op(args: Any, gen: Gen) -> str:
    (a,) = _args(args, 1, "len")
    return f"_len({gen.expr(a)})"


def _concat_op(args: Any, gen: Gen) -> str:
    return "_concat((" + "".join(f"{gen.expr(a)}, " for a in _args(args, None, "concat")) + "))"


def _compare_op(args: Any, gen: Gen) -> str:
    a, b = _args(args, 2, "compare")
    return f"_compare({gen.expr(a)}, {gen.expr(b)})"


def _per_player_op(args: Any, gen: Gen) -> str:
    a, b = _args(args, 2, "per_player")
    return f"{{'A': {gen.expr(a)}, 'B': {gen.expr(b)}}}"


def _ladder_op(args: Any, gen: Gen) -> str:
    name, penalty, steps = _args(args, 3, "ladder")
    ladders = gen.ruleset.get("ladders", {})
    if is_literal(name) and name not in ladders:
        raise RuleError(f"unknown ladder {name!r}", field="ladder", allowed=sorted(ladders))
    return f"_ladder({gen.const(ladders)}, {gen.expr(name)}, {gen.expr(penalty)}, {gen.expr(steps)})"


def _lookup_op(args: Any, gen: Gen) -> str:
    items, key_field, key, field = _args(args, 4, "lookup")
    if isinstance(items, dict) and "var" in items and isinstance(items["var"], str) \
            and items["var"].startswith("ruleset.") and is_literal(key_field) and is_literal(field):
        found = walk(gen.ruleset, split_path(items["var"])[1])
        elements = found if isinstance(found, list) else []
        if all(isinstance(e, dict) and isinstance(e.get(key_field), str) for e in elements):
            table: dict = {}
            for element in elements:
                table.setdefault(element[key_field], element.get(field))
            return f"_keyed({gen.const(table)}, {gen.expr(key)})"
    return f"_lookup({gen.expr(items)}, {gen.expr(key_field)}, {gen.expr(key)}, {gen.expr(field)})"


def _index_op(args: Any, gen: Gen) -> str:
    items, value = _args(args, 2, "index")
    return f"_index({gen.expr(items)}, {gen.expr(value)})"


def _table_op(args: Any, gen: Gen) -> str:
    args = _args(args, None, "table")
    if len(args) not in (2, 3) or not isinstance(args[1], dict) or not args[1]:
        raise RuleError("operator 'table' takes [key, {value: result, ...}] or [key, {...}, otherwise]",
                        field="table")
    rows = args[1]
    computed = not all(is_literal(v) for v in [*rows.values(), *args[2:]])
    if computed:
        table = "{" + ", ".join(f"{name!r}: (lambda: {gen.expr(v)})" for name, v in rows.items()) + "}"
        otherwise = f"(lambda: {gen.expr(args[2])})" if len(args) == 3 else "_A"
    else:
        table = gen.const(dict(rows))
        otherwise = gen.const(args[2]) if len(args) == 3 else "_A"
    return f"_row({table}, {gen.expr(args[0])}, {otherwise}, {computed})"


OPS: dict[str, Callable[[Any, Gen], str]] = {
    "var": _var,
    "given": _given_op,
    "==": _equal(False),
    "!=": _equal(True),
    "<": _order("<"),
    "<=": _order("<="),
    ">": _order(">"),
    ">=": _order(">="),
    "and": _and,
    "or": _or,
    "not": _not,
    "if": _if,
    "+": _arith_op("+"),
    "-": _arith_op("-"),
    "*": _arith_op("*"),
    "min": _arith_op("min"),
    "max": _arith_op("max"),
    "in": _in,
    "count": _list_op("count"),
    "any": _list_op("any"),
    "all": _list_op("all"),
    "filter": _list_op("filter"),
    "len": _len_op,
    "concat": _concat_op,
    "compare": _compare_op,
    "per_player": _per_player_op,
    "ladder": _ladder_op,
    "lookup": _lookup_op,
    "index": _index_op,
    "table": _table_op,
}
