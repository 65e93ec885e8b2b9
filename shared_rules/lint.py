"""Static checks of a ruleset file (nothing is run): ``python -m shared_rules check`` prints them.

``lint(data)`` returns problems as ``"<JSON path>: <what is wrong>"``, none for a good file:

- the vocabulary merges (a ruleset adds facts, never changes a shared fact's type), and every
  query compiles (known operators with the right arguments, known procedures and ladders);
- every ``facts.X`` and ``event.X`` path an expression or a ``{placeholder}`` reads is
  declared for that query; ``run`` targets resolve (``procedures.<name>``, and
  ``infraction.<list>`` in the penalty query only);
- every penalty literal is a declared penalty: values set to penalty-typed answer fields,
  option penalties, penalties compared with a penalty-typed value, ladder steps, ``ladder``,
  ``lookup`` and ``index`` arguments; ``ladder`` names a ladder;
- every node that decides a value (sets a deciding answer field to anything but a plain copy,
  or offers options) has a ``source``, on itself or on a node above it;
- no node sets a field the engine writes itself (``needs``, ``explain``, ...);
- a ``table`` keyed by an enum-typed value has a row for each value (or an ``otherwise``) and
  none for an unknown value;
- every fact a query may ask (read without a default, none in the vocabulary) has its feeds
  declared (``queries.<q>.feeds``: the answer fields it can change, feeds.py) as the rules show
  them, and feeds at least one field: a fact that feeds none would be asked for nothing; a
  declaration for a fact the rules never ask, or naming a field that is not an answer field of
  the query, is a problem too;
- every infraction literal set to an infraction-typed answer field is a declared infraction;
- every infraction's ``category`` is one of the ruleset's ``categories``;
- every decklist section is one queries.json names (``sections``), once, and a size the
  document states cites where (on the size or its section), with a minimum not above its maximum;
- defaults are allowed values, ids are unique, and every ``source`` cites the document
  (``"<document id> §<section>"``, or the public full text of the same document, named as such).
"""

from __future__ import annotations

from typing import Any

from . import feeds as flows
from . import vocabulary as vocab
from .errors import RuleError
from .expr import Gen, split_path
from .introspect import expressions, texts, walk_query
from .program import PLACEHOLDER, Compiler

ENGINE_FIELDS = ("ruleset", "query", "needs", "not_needed", "explain", "sources", "notes", "options",
                 "option_penalties")


def document_id(data: dict) -> str | None:
    """The id sources cite: ``document.id``, else the seed file name."""
    document = data.get("document") or {}
    return document.get("id") or document.get("seed")


def lint(data: dict) -> list[str]:
    """Every problem found in one ruleset (see the module docstring); empty when it is good."""
    problems: list[str] = []
    try:
        words = vocab.for_ruleset(data)
    except RuleError as error:
        return [f"{error.field}: {error.message}"]
    penalties = [p.get("id") for p in data.get("penalties", []) if isinstance(p, dict)]
    problems += _ids(data)
    problems += _sections(data)
    problems += _sources(data)
    problems += _settings(data, words)
    for name, steps in (data.get("ladders") or {}).items():
        for i, step in enumerate(steps.get("steps", []) if isinstance(steps, dict) else []):
            if step not in penalties:
                problems.append(f"ladders.{name}.steps[{i}]: {step!r} is not a declared penalty")
    for query, query_words in words["queries"].items():
        problems += _query(data, query, query_words, words["event"], penalties)
    return list(dict.fromkeys(problems))


def _ids(data: dict) -> list[str]:
    problems = []
    for kind in ("levels", "penalties", "categories", "infractions", "topics", "notes"):
        seen: set = set()
        for i, item in enumerate(data.get(kind) or []):
            ident = item.get("id") if isinstance(item, dict) else None
            if ident in seen:
                problems.append(f"{kind}[{i}].id: {ident!r} is used twice")
            seen.add(ident)
    categories = {c.get("id") for c in data.get("categories") or [] if isinstance(c, dict)}
    for i, item in enumerate(data.get("infractions") or []):
        category = item.get("category") if isinstance(item, dict) else None
        if category is not None and category not in categories:
            problems.append(f"infractions[{i}].category: {category!r} is not one of the ruleset's categories")
    return problems


def _sections(data: dict) -> list[str]:
    """A ruleset's decklist sections: shared ids, each once; a stated size with a source."""
    problems = []
    shared = [k for k in vocab.shared().get("sections", {}) if not k.startswith("$")]
    seen: set = set()
    for i, section in enumerate(data.get("sections") or []):
        ident = section.get("id")
        if ident not in shared:
            problems.append(f"sections[{i}].id: {ident!r} is not a section queries.json names ({', '.join(shared)})")
        if ident in seen:
            problems.append(f"sections[{i}].id: {ident!r} is used twice")
        seen.add(ident)
        size = section.get("size") or {}
        if size.get("stated") and "source" not in size and "source" not in section:
            problems.append(f"sections[{i}].size: a stated size needs a source")
        if not size.get("stated") and (size.get("minimum") is not None or size.get("maximum") is not None):
            problems.append(f"sections[{i}].size: a size not stated has no numbers (the organiser sets them)")
        low, high = size.get("minimum"), size.get("maximum")
        if isinstance(low, int) and isinstance(high, int) and low > high:
            problems.append(f"sections[{i}].size: minimum {low} is above maximum {high}")
    return problems


def _sources(data: dict) -> list[str]:
    """Every ``source`` (and ``sources`` entry) cites the document by its id."""
    ident = document_id(data)
    problems = []

    def visit(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                where = f"{path}.{key}"
                if key == "source" and isinstance(value, str):
                    check(value, where)
                elif key == "sources" and isinstance(value, list):
                    for i, item in enumerate(value):
                        if isinstance(item, str):
                            check(item, f"{where}[{i}]")
                else:
                    visit(value, where)
        elif isinstance(node, list):
            for i, value in enumerate(node):
                visit(value, f"{path}[{i}]")

    def check(text: str, where: str) -> None:
        if "(public full text" in text:
            return
        if ident is None or not text.startswith(f"{ident} §"):
            problems.append(f"{where}: a source reads '{ident} §<section>' (or names the public full text), "
                            f"got {text!r}")

    visit({k: v for k, v in data.items() if k != "document"}, "$")
    return [p[2:] for p in problems]


def _settings(data: dict, words: dict) -> list[str]:
    problems = []
    defaults = data.get("defaults") or {}
    for name, value in defaults.items():
        spec = words["event"].get(name)
        if spec is None or name in ("source", "note"):
            continue
        if "values" in spec and value not in spec["values"]:
            problems.append(f"defaults.{name}: {value!r} is not allowed (allowed: {spec['values']})")
    best_of = data.get("best_of")
    if best_of is not None and (not isinstance(best_of, list) or not best_of
                                or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in best_of)):
        problems.append(f"best_of: a list of whole numbers of games, got {best_of!r}")
    return problems


def _query(data: dict, query: str, words: dict, event: dict, penalties: list) -> list[str]:
    problems = []
    gen = Gen(data, words["facts"], event)
    answer = words["answer"]
    penalty_fields = {name for name, spec in answer.items() if spec.get("type") in vocab.PENALTY_TYPES}
    infraction_fields = {name for name, spec in answer.items() if spec.get("type") == "infraction"}
    infractions = [i.get("id") for i in data.get("infractions", []) if isinstance(i, dict)]
    deciding = {name for name, spec in answer.items() if spec.get("decides", True)}
    for name, spec in answer.items():
        for step, fact in (spec.get("continues") or {}).items():
            if (words["facts"].get(fact) or {}).get("type") != "object":
                problems.append(f"queries.{query}.answer.{name}.continues.{step}: {fact!r} is not an object fact "
                                f"of the {query} query")
    checker = _Penalties(words["facts"], penalty_fields, penalties, data)
    for node in walk_query(data, query):
        rule = node.rule
        for where, expr in expressions(rule):
            try:
                gen.expr(expr)
            except RuleError as error:
                problems.append(f"{node.path}.{where}: {error}")
                continue
            problems += [f"{node.path}.{where}: {p}" for p in checker.expression(expr)]
            problems += [f"{node.path}.{where}: {p}" for p in _tables(expr, words["facts"], event)]
        for where, text in texts(rule):
            for match in PLACEHOLDER.finditer(text):
                try:
                    gen.read(match.group(2), None)
                except RuleError as error:
                    problems.append(f"{node.path}.{where}: placeholder {{{match.group(2)}}}: {error}")
        for field, expr in (rule.get("set") or {}).items():
            if field in ENGINE_FIELDS:
                problems.append(f"{node.path}.set.{field}: the engine writes {field!r} itself")
            if field in penalty_fields:
                problems += [f"{node.path}.set.{field}: {p}" for p in checker.values(expr)]
            if field in infraction_fields:
                problems += [f"{node.path}.set.{field}: {value!r} is not a declared infraction"
                             for value in _literals(expr) if value is not None and value not in infractions]
        for i, option in enumerate(rule.get("options") or []):
            if isinstance(option, dict):
                problems += [f"{node.path}.options[{i}].penalty: {p}" for p in checker.values(option.get("penalty"))]
        target = rule.get("run")
        if target is not None:
            problems += _target(data, query, target, node.path)
        decides = bool(rule.get("options")) or any(
            field in deciding and not _plain_copy(expr) for field, expr in (rule.get("set") or {}).items())
        if decides and "source" not in rule and not any("source" in a for a in node.ancestors):
            problems.append(f"{node.path}: decides a value ({', '.join(sorted(set(rule.get('set', {})) & deciding))}"
                            f"{' options' if rule.get('options') else ''}) but neither it nor a node above it "
                            f"has a source")
    problems += _checks(query, words)
    problems += _feeds(data, query, words, event)
    try:
        compiler = Compiler(data, words["facts"], event, f"{data.get('id')} {query} (lint)")
        compiler.function(data["queries"][query].get("steps", []), f"queries.{query}.steps")
        for check in words["checks"]:
            compiler.function([{"when": check.get("when"), "explain": check.get("text", ""), "halt": True}],
                              f"queries.{query}.checks[{check.get('id')}]")
        if query == "penalty":
            for infraction in data.get("infractions", []):
                for key in ("rules", "then"):
                    if key in infraction:
                        compiler.function(infraction[key], f"infractions[{infraction['id']}].{key}", infraction)
    except RuleError as error:
        problems.append(f"{error.field}: {error}" if error.field and not str(error).startswith(error.field)
                        else str(error))
    return problems


def _feeds(data: dict, query: str, words: dict, event: dict) -> list[str]:
    """Each fact the query may ask declares the fields it feeds, as the rules show them (feeds.py)."""
    where = f"queries.{query}.feeds"
    declared = (data.get("queries") or {}).get(query, {}).get("feeds") or {}
    if not isinstance(declared, dict):
        return [f"{where}: must be an object of fact paths and the fields each feeds"]
    found = flows.computed(flows.Flow(data, query, words, event), words)
    fields = flows.declared_fields(words)
    problems = []
    for path, fed in found.items():
        said = declared.get(path)
        if not fed:
            problems.append(f"{where}[{path}]: the rules ask for {path} but it feeds no answer field, so it "
                            f"would be asked for nothing")
        elif said is None:
            problems.append(f"{where}[{path}]: not declared; the rules show it feeds {fed}")
        elif not isinstance(said, list) or set(said) != set(fed) or len(said) != len(fed):
            extra = [f for f in said if f not in fed] if isinstance(said, list) else said
            problems.append(f"{where}[{path}]: declared {said}, but the rules show it feeds {fed}"
                            f"{f' (not fed: {extra})' if extra else ''}")
    for path, said in declared.items():
        if path not in found:
            problems.append(f"{where}[{path}]: the rules never ask for {path} (read without a default), so it "
                            f"declares nothing")
        elif isinstance(said, list):
            problems += [f"{where}[{path}]: {f!r} is not an answer field of the {query} query (fields: {fields})"
                         for f in said if f not in fields]
    return problems


def _checks(query: str, words: dict) -> list[str]:
    """A query's checks (shared and the ruleset's own): unique ids, each naming a declared fact."""
    problems = []
    ids = [check.get("id") for check in words["checks"]]
    for check in words["checks"]:
        where = f"queries.{query}.checks[{check.get('id')}]"
        if ids.count(check.get("id")) > 1:
            problems.append(f"{where}: the id is used by another check of the query")
        field = check.get("field")
        parts = field.split(".") if isinstance(field, str) else []
        if parts[:1] != ["facts"] or vocab.spec_at(words["facts"], parts[1:])[1] is None:
            problems.append(f"{where}.field: {field!r} is not a fact of the {query} query")
    return list(dict.fromkeys(problems))


def _target(data: dict, query: str, target: Any, path: str) -> list[str]:
    if not isinstance(target, str):
        return [f"{path}.run: must be a path"]
    root, parts = split_path(target)
    if root == "procedures" and len(parts) == 1:
        if str(parts[0]) not in (data.get("procedures") or {}):
            return [f"{path}.run: no procedure {parts[0]!r} (known: {sorted(data.get('procedures') or {})})"]
        return []
    if root == "infraction" and len(parts) == 1:
        return [] if query == "penalty" else [f"{path}.run: only the penalty query has an infraction"]
    return [f"{path}.run: must name infraction.<list> or procedures.<name>, got {target!r}"]


def _plain_copy(expr: Any) -> bool:
    return isinstance(expr, dict) and set(expr) == {"var"}


def _tables(expr: Any, facts: dict, event: dict) -> list[str]:
    """A ``table`` keyed by an enum-typed value covers its values."""
    problems = []
    if isinstance(expr, list):
        for e in expr:
            problems += _tables(e, facts, event)
    elif isinstance(expr, dict):
        for op, args in expr.items():
            if op == "table" and isinstance(args, list) and len(args) in (2, 3) and isinstance(args[1], dict):
                values = _enum_values(args[0], facts, event)
                if values is not None:
                    names = [str(v) for v in values]
                    unknown = [row for row in args[1] if row not in names]
                    missing = [n for n in names if n not in args[1]]
                    if unknown:
                        problems.append(f"table has rows for unknown values {unknown} (values: {names})")
                    if missing and len(args) == 2:
                        problems.append(f"table has no row for {missing} and no otherwise value")
            problems += _tables(args, facts, event)
    return problems


def _enum_values(key: Any, facts: dict, event: dict) -> list | None:
    if not (isinstance(key, dict) and set(key) == {"var"} and isinstance(key["var"], str)):
        return None
    root, parts = split_path(key["var"])
    fields = facts if root == "facts" else event if root == "event" else None
    if fields is None:
        return None
    _, spec = vocab.spec_at(fields, [str(p) for p in parts])
    return list(spec["values"]) if spec and spec.get("type") == "enum" else None


class _Penalties:
    """Finds penalty literals in penalty positions and checks them against the declared ids."""

    def __init__(self, facts: dict, answer_fields: set, penalties: list, data: dict):
        self.facts, self.answer_fields, self.penalties, self.data = facts, answer_fields, penalties, data

    def values(self, expr: Any) -> list[str]:
        """Problems with the literals an expression in a penalty position can give."""
        return [f"{value!r} is not a declared penalty" for value in _literals(expr)
                if value is not None and value not in self.penalties]

    def typed(self, expr: Any, item_is_penalty: bool) -> bool:
        """Whether an expression gives a penalty id (or a list of them)."""
        if not (isinstance(expr, dict) and len(expr) == 1):
            return False
        (op, args), = expr.items()
        if op == "var":
            path = args[0] if isinstance(args, list) else args
            if not isinstance(path, str):
                return False
            root, parts = split_path(path)
            if root == "item":
                return item_is_penalty if not parts else parts == ["penalty"]
            if root == "answer" and len(parts) == 1:
                return parts[0] in self.answer_fields
            if root == "facts":
                _, spec = vocab.spec_at(self.facts, [str(p) for p in parts])
                return bool(spec) and spec.get("type") in vocab.PENALTY_TYPES
            return False
        return op in ("ladder", "concat")

    def expression(self, expr: Any, item_is_penalty: bool = False) -> list[str]:
        problems: list[str] = []
        if isinstance(expr, list):
            for e in expr:
                problems += self.expression(e, item_is_penalty)
            return problems
        if not isinstance(expr, dict) or len(expr) != 1:
            return problems
        (op, args), = expr.items()
        listed = args if isinstance(args, list) else [args]
        if op in ("==", "!=") and len(listed) == 2:
            a, b = listed
            if self.typed(a, item_is_penalty):
                problems += self.values(b)
            if self.typed(b, item_is_penalty):
                problems += self.values(a)
        if op == "in" and len(listed) == 2 and self.typed(listed[0], item_is_penalty):
            problems += self.values(listed[1])
        if op == "ladder" and len(listed) == 3:
            if isinstance(listed[0], str) and listed[0] not in (self.data.get("ladders") or {}):
                problems.append(f"{listed[0]!r} is not a ladder (known: {sorted(self.data.get('ladders') or {})})")
            problems += self.values(listed[1])
        if op == "lookup" and len(listed) == 4 and listed[0] == {"var": "ruleset.penalties"} and listed[1] == "id":
            problems += self.values(listed[2])
        if op == "index" and len(listed) == 2 and isinstance(listed[0], dict) \
                and str(listed[0].get("var", "")).startswith("ruleset.ladders."):
            problems += self.values(listed[1])
        inner = item_is_penalty
        if op in ("count", "any", "all", "filter") and len(listed) == 2:
            problems += self.expression(listed[0], item_is_penalty)
            source = listed[0]
            inner = isinstance(source, dict) and "concat" in source and all(
                self.typed(e, item_is_penalty) for e in (source["concat"] if isinstance(source["concat"], list)
                                                          else [source["concat"]]))
            return problems + self.expression(listed[1], inner)
        for arg in listed:
            problems += self.expression(arg, item_is_penalty)
        return problems


def _literals(expr: Any) -> list:
    """The literal values an expression can give (through ``if``, ``concat``, ``table``, lists
    and ``var`` defaults); computed values are not followed."""
    if isinstance(expr, list):
        return [v for e in expr for v in _literals(e)]
    if not isinstance(expr, dict):
        return [expr]
    if len(expr) != 1:
        return []
    (op, args), = expr.items()
    if op == "if" and isinstance(args, list):
        return [v for i, a in enumerate(args) if i % 2 == 1 or i == len(args) - 1 for v in _literals(a)]
    if op == "concat":
        return _literals(args)
    if op == "table" and isinstance(args, list) and len(args) >= 2 and isinstance(args[1], dict):
        return [v for a in [*args[1].values(), *args[2:]] for v in _literals(a)]
    if op == "var" and isinstance(args, list) and len(args) == 2:
        return _literals(args[1])
    return []
