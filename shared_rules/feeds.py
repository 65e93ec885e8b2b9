"""What each fact feeds: the answer fields whose value can depend on it, found from the rule
data (nothing is run).

A fact (or an event setting) *feeds* an answer field when it is read

- in the expression a ``set`` of that field evaluates;
- in the ``when`` of that node or of a node above it (the set runs only when they hold);
- in the ``when`` of an earlier node of a ``first`` list that the node, or a node above it,
  belongs to (it runs only when those do not hold);
- in the ``when`` of a node that may ``halt`` (or of a node above one) before it, in the
  order the rules run (it runs only when the evaluation did not stop there);

or when it feeds a field read in one of those places (``answer.X``): feeds are closed
through such reads. Options feed the field ``options``, ``"stated": false`` the field
``stated``, and the engine's own setting feeds what event_settings.FEEDS says
(``head_judge`` from ``penalty`` and ``event.head_judge_from``). Procedures are followed
where they are run (once per place), and in the penalty query every infraction's ``rules``
and ``then`` where the steps run them, so a query's feeds are what any infraction does.

A ruleset declares them per query (``queries.<q>.feeds``: ``{"facts.x": ["field", ...]}``)
for every fact the rules may ask (read without a default, and none in the vocabulary); lint
checks each declaration against ``Flow.feeds`` and fails a fact that feeds no field (it
would be asked for nothing). The engine walks on past a missing fact it cannot try value by
value (a number, a text) with a stand-in value, then leaves pending the fields the fact
feeds and drops the lines it shapes (``Flow.site_facts``).

``stand_for`` finds the numbers and per-player values a query's rules only compare (with
number literals, or a player's with the other's): the engine tries those on each side of each
comparison instead of walking past them, which is exact.

The same walk names each place a line, note, source or option is written (a *site*: the
node's path, after the paths of the nodes that ran the procedures it is in, joined with
``|``; and which line), with what decides whether and how it is written; program.py names
the same sites when it compiles the rules with tags (``Compiler(tagged=True)``).
"""

from __future__ import annotations

import math
from typing import Any

from . import event_settings
from . import vocabulary as vocab
from .expr import split_path
from .introspect import READ_WITHOUT_DEFAULT, expressions, reads, walk_query
from .program import PLACEHOLDER, site_key

ENGINE_FIELDS = ("options", "stated")  # decision fields the engine keeps beside the declared ones
Tokens = frozenset  # rooted fact paths ("facts.x", "event.level") and answer fields ("answer.x")


def related(a: str, b: str) -> bool:
    """Whether two rooted fact paths name the same value or one holds the other
    (``facts.current_game`` and ``facts.current_game.winner``)."""
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


class Flow:
    """The dependencies of one query of one ruleset (see the module docstring).

    ``asked``: the rooted paths of the facts and event settings the rules may ask for, in the
    order they are first read; ``read``: every fact and event setting read; ``feeds(path)``:
    the answer fields (declared and working) the fact can change; ``site_facts(key, part)``:
    the facts that decide whether and how a site writes ``part`` (``explain[0]``, ``note``,
    ``source``, ``options[1]``)."""

    def __init__(self, ruleset: dict, query: str, words: dict, event_words: dict):
        self.ruleset, self.query = ruleset, query
        self.fact_specs, self.event_specs = words["facts"], event_words
        self.fields: dict[str, set] = {}
        self.sites: dict[tuple[str, str], set] = {}
        self.asked: dict[str, None] = {}
        self.read: dict[str, None] = {}
        program = (ruleset.get("queries") or {}).get(query) or {}
        self._list(program.get("steps", []), f"queries.{query}.steps", Tokens(), (), ())
        for field, tokens in event_settings.FEEDS.get(query, {}).items():
            self._field(field, Tokens(self._token(t) for t in tokens) - {None})
        self._facts: dict[str, frozenset] = {}
        for field in self.fields:
            self._facts[field] = self._close(self.fields[field])
        self._sites = {key: self._close(tokens) for key, tokens in self.sites.items()}

    def feeds(self, path: str) -> list[str]:
        """The answer fields the fact at the rooted ``path`` feeds, in the order first set."""
        return [field for field, facts in self._facts.items() if any(related(path, f) for f in facts)]

    def facts_of(self, field: str) -> frozenset:
        """The facts and event settings an answer field can depend on."""
        return self._facts.get(field, frozenset())

    def site_facts(self, key: str, part: str) -> frozenset:
        """The facts and event settings deciding whether and how a site writes ``part``."""
        return self._sites.get((key, part), frozenset())

    # --- the walk --------------------------------------------------------------------

    def _list(self, rules: Any, path: str, ctrl: frozenset, calls: tuple, running: tuple) -> frozenset | None:
        """Walk a rule list under ``ctrl``; what decides whether it halted (None: it cannot)."""
        halts = None
        if not isinstance(rules, list):
            return None
        for i, rule in enumerate(rules):
            if isinstance(rule, dict):
                halt = self._node(rule, f"{path}[{i}]", ctrl, calls, running)
                if halt is not None:
                    ctrl = ctrl | halt
                    halts = halt if halts is None else halts | halt
        return halts

    def _node(self, rule: dict, path: str, ctrl: frozenset, calls: tuple, running: tuple) -> frozenset | None:
        key = site_key(calls, path)
        if "when" in rule:
            ctrl = ctrl | self._tokens(rule["when"])
        for field, expr in (rule.get("set") or {}).items() if isinstance(rule.get("set"), dict) else ():
            self._field(field, ctrl | self._tokens(expr))
        for i, option in enumerate(rule.get("options") or []):
            if isinstance(option, dict):
                tokens = (ctrl | self._tokens(option.get("when")) | self._tokens(option.get("penalty"))
                          | self._text(option.get("condition")))
                self._field("options", tokens)
                self._site(key, f"options[{i}]", tokens)
        explain = rule.get("explain", [])
        for i, line in enumerate([explain] if isinstance(explain, str) else explain or []):
            self._site(key, f"explain[{i}]", ctrl | self._text(line))
        if "note" in rule:
            self._site(key, "note", ctrl | self._text(rule["note"]))
        if "source" in rule:
            self._site(key, "source", ctrl)
        if rule.get("stated") is False:
            self._field("stated", ctrl)
        halts: list[frozenset | None] = []
        target = rule.get("run")
        if isinstance(target, str):
            root, parts = split_path(target)
            if root == "procedures" and len(parts) == 1 and str(parts[0]) not in running:
                name = str(parts[0])
                body = (self.ruleset.get("procedures") or {}).get(name)
                halts.append(self._list(body, f"procedures.{name}", ctrl, (*calls, path), (*running, name)))
            elif root == "infraction" and len(parts) == 1 and self.query == "penalty":
                for item in self.ruleset.get("infractions") or []:
                    if isinstance(item, dict) and isinstance(item.get(str(parts[0])), list):
                        halts.append(self._list(item[str(parts[0])], f"infractions[{item.get('id')}].{parts[0]}",
                                                ctrl, (), ()))
        if "steps" in rule:
            halts.append(self._list(rule["steps"], f"{path}.steps", ctrl, calls, running))
        before = ctrl
        for i, node in enumerate(rule.get("first") or []):
            if not isinstance(node, dict):
                continue
            halts.append(self._node(node, f"{path}.first[{i}]", before, calls, running))
            if "when" not in node:
                break
            before = before | self._tokens(node["when"])
        if rule.get("halt"):
            halts.append(ctrl)
        found = [h for h in halts if h is not None]
        return frozenset().union(*found) if found else None

    def _field(self, field: str, tokens: frozenset) -> None:
        self.fields.setdefault(field, set()).update(tokens)

    def _site(self, key: str, part: str, tokens: frozenset) -> None:
        self.sites.setdefault((key, part), set()).update(tokens)

    def _tokens(self, expr: Any) -> frozenset:
        out = set()
        for op, path, default in reads(expr):
            token = self._token(path, op == "var" and default is READ_WITHOUT_DEFAULT)
            if token is not None:
                out.add(token)
        return frozenset(out)

    def _text(self, text: Any) -> frozenset:
        if not isinstance(text, str):
            return frozenset()
        return frozenset(t for t in (self._token(m.group(2)) for m in PLACEHOLDER.finditer(text)) if t)

    def _token(self, path: Any, asks: bool = False) -> str | None:
        if not isinstance(path, str):
            return None
        root, parts = split_path(path)
        if root == "answer":
            return f"answer.{parts[0]}" if parts else None
        if root not in ("facts", "event") or not parts:
            return None
        walked, spec = vocab.spec_at(self.fact_specs if root == "facts" else self.event_specs, [str(p) for p in parts])
        if spec is None:
            return None  # lint names the undeclared read
        fact = f"{root}.{'.'.join(walked)}"
        self.read.setdefault(fact)
        if asks and "default" not in spec and not spec.get("required"):
            self.asked.setdefault(fact)
        return fact

    def _close(self, tokens: set | frozenset) -> frozenset:
        """The facts behind ``tokens``: its fact paths, and those of the answer fields it reads."""
        facts: set[str] = set()
        seen: set[str] = set()
        todo = list(tokens)
        while todo:
            token = todo.pop()
            if token in seen:
                continue
            seen.add(token)
            if token.startswith("answer."):
                todo.extend(self.fields.get(token[len("answer."):], ()))
            else:
                facts.add(token)
        return frozenset(facts)


COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "compare")
NUMBER_KINDS = ("number", "per_player")


def stand_for(ruleset: dict, query: str, facts: dict) -> dict[str, list]:
    """``{fact path: [values]}`` for the numbers and per-player values of a query that its rules
    only ever compare: a number with number literals (``>`` 3, ``<=`` 10, ...), a per-player
    value its two players with each other (``compare``, ``!=``, ...); either may also be
    compared with null or tested with ``given``, and shown in a line. The values hit every
    side of every comparison (a number: its least, each literal and one just past it; a
    per-player value: A ahead, level, B ahead), so trying each is trying every way the fact
    can be, as listing a true/false fact's values is (engine.py). A fact read anywhere else
    (in arithmetic, copied into a field, compared with a computed value) is left out."""
    uses: dict[str, set] = {}
    other: set[str] = set()

    def fact(expr: Any) -> tuple[str, str | None] | None:
        """(fact path, player) of a plain read of a number or per-player fact, else None."""
        if not (isinstance(expr, dict) and len(expr) == 1 and "var" in expr):
            return None
        path = expr["var"][0] if isinstance(expr["var"], list) else expr["var"]
        root, parts = split_path(path) if isinstance(path, str) else (None, [])
        if root != "facts":
            return None
        walked, spec = vocab.spec_at(facts, [str(p) for p in parts])
        if spec is None or spec.get("type") not in NUMBER_KINDS:
            return None
        rest = [str(p) for p in parts][len(walked):]
        name = f"facts.{'.'.join(walked)}"
        if spec["type"] == "per_player":
            return (name, rest[0]) if rest in (["A"], ["B"]) else (name, None) if not rest else None
        return (name, None) if not rest else None

    def scan(expr: Any) -> None:
        if isinstance(expr, list):
            for e in expr:
                scan(e)
            return
        if not isinstance(expr, dict) or len(expr) != 1:
            return
        (op, args), = expr.items()
        if op == "given":
            return
        if op in COMPARISONS and isinstance(args, list) and len(args) == 2:
            left, right = fact(args[0]), fact(args[1])
            if left and right and left[0] == right[0] and {left[1], right[1]} == {"A", "B"}:
                uses.setdefault(left[0], set()).add("players")
                return
            for read, against in ((left, args[1]), (right, args[0])):
                if read is None:
                    continue
                number = isinstance(against, int | float) and not isinstance(against, bool)
                if read[1] is None and (against is None or (number and op != "compare")):
                    uses.setdefault(read[0], set()).add("null" if against is None else float(against))
                else:
                    other.add(read[0])
            scan([a for a, read in ((args[0], left), (args[1], right)) if read is None])
            return
        if op == "var":
            read = fact(expr)
            if read is not None:
                other.add(read[0])
            if isinstance(args, list) and len(args) == 2:
                scan(args[1])
            return
        scan(args)

    for node in walk_query(ruleset, query):
        for _, expr in expressions(node.rule):
            scan(expr)
    out: dict[str, list] = {}
    for path, used in uses.items():
        if path in other:
            continue
        spec = vocab.spec_at(facts, path.split(".")[1:])[1]
        least, whole = spec.get("minimum", 0), bool(spec.get("whole"))
        least = math.ceil(least) if whole else least
        literals = sorted(u for u in used if u not in ("null", "players"))
        if spec["type"] == "per_player":
            if literals:
                continue  # compared with a literal as well: not handled
            out[path] = [{"A": least + 1, "B": least}, {"A": least, "B": least}, {"A": least, "B": least + 1}]
            continue
        if not literals:
            continue
        points = {least}
        for i, literal in enumerate(literals):
            after = literals[i + 1] if i + 1 < len(literals) else literal + 2
            points |= {literal, literal + 1 if whole else (literal + after) / 2}
        values = sorted(p for p in points if p >= least and (not whole or p == int(p)))
        out[path] = [int(v) if whole or v == int(v) else v for v in values]
    return out


def flow(ruleset: dict, query: str) -> Flow | None:
    """The Flow of one query of a ruleset file (its English vocabulary); None where the ruleset
    has no such query. Raises RuleError where the vocabulary does not merge."""
    words = vocab.for_ruleset(ruleset)
    query_words = words["queries"].get(query)
    return None if query_words is None else Flow(ruleset, query, query_words, words["event"])


def declared_fields(words: dict) -> list[str]:
    """The fields a feeds declaration names: the query's answer fields, then options and stated."""
    return [*words["answer"], *ENGINE_FIELDS]


def computed(flow_: Flow, words: dict) -> dict[str, list[str]]:
    """``{fact path: [field, ...]}`` for every fact the rules may ask, the declared fields it
    feeds in the vocabulary's order: what ``queries.<q>.feeds`` must say."""
    fields = declared_fields(words)
    out = {}
    for path in flow_.asked:
        fed = set(flow_.feeds(path))
        out[path] = [f for f in fields if f in fed]
    return out
