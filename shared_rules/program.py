"""The rule-list compiler: turns RULE nodes (shared_rules/README.md) into one Python function.

A rule list becomes the body of a function of what one evaluation reads and writes (``ARGS``:
the event, facts and answer dicts, the chosen infraction and its rule lists, the explain lines,
the sources and notes, each a dict used as an ordered set, and the options), returning True
when the evaluation halts. Each node is an ``if`` on its ``when``,
its effects (``set``, ``options``, ``explain``, ``note``, ``source``, ``stated``) as plain
statements, then what follows (``run``, ``steps``, ``first``, ``halt``). A ``first`` list is a
decision table and becomes an ``if``/``elif``/``else`` chain; ``halt`` ends the whole
evaluation. ``run`` applies another rule list: a named procedure of the ruleset
(``procedures.<name>``, written out in place) or the chosen infraction's (``infraction.rules``,
``infraction.then``, compiled once per infraction and called).

Errors in the data name the node's JSON path: while compiling for malformed data, and at run
time (through the line of the generated code that failed) for a value of the wrong type.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from .errors import RuleError
from .expr import ABSENT, ANSWER_KEYS, Gen, is_literal, split_path
from .vocabulary import words as vocab_words

PLACEHOLDER = re.compile(r"\{(penalty:)?([A-Za-z_][\w.]*)\}")
ARGS = "event, facts, answer, infraction, programs, EX, SR, NT, OP"
Rules = Callable[..., "bool | None"]


class Compiler(Gen):
    """Compiles the rule lists of one query of one ruleset."""

    def __init__(self, ruleset: dict, facts: dict, event: dict, label: str, answer_defaults: Iterable[str] = (),
                 words: dict[str, str] | None = None, tagged: bool = False):
        super().__init__(ruleset, facts, event, answer_defaults)
        self.label = label
        # tagged: each line, note, source and option is written with the number of its site,
        # (EX, SR, NT and OP are lists of (entry, number)); ``tags`` names each number's site
        # as feeds.py does: ``(site key, part)``
        self.tagged = tagged
        self.tags: list[tuple[str, str]] = []
        self.calls: list[str] = []  # the paths of the nodes running the procedures being written
        words = words or ENGLISH_WORDS
        # penalty names by id; None names no penalty
        self.namespace["_PN"] = {None: words["no_penalty"],
                                 **{p["id"]: p.get("name", p["id"]) for p in ruleset.get("penalties", [])}}
        self.namespace["_VW"] = words
        self.namespace["_pt"] = penalty_text
        self.namespace["_vt"] = value_text
        self.inlining: list[str] = []
        self.lines: list[str] = []
        self.paths: list[str] = []
        self.depth = 0
        self.sets: list[tuple[str, Any]] = []  # (answer field, expression) of every set compiled

    def function(self, rules: Any, path: str, infraction: Any = ABSENT) -> Rules:
        """A function applying every node of ``rules`` in order (until the evaluation halts).
        ``infraction``: the infraction (its data) that owns ``rules``, which is the chosen one
        whenever they run, so its reads are written as its values; ABSENT for a query's steps."""
        self.lines, self.paths, self.depth = [], [], 0
        self.infraction = infraction
        self.emit(f"def rules({ARGS}):", path)
        self.depth = 1
        try:
            self.emit_rules(rules, path)
        finally:
            self.infraction = ABSENT
        self.emit("return", path)
        source = "\n".join(self.lines)
        filename = f"<rules {self.label} {path}>"
        namespace = dict(self.namespace)
        exec(compile(source, filename, "exec"), namespace)
        function = namespace["rules"]
        LINES[filename] = list(self.paths)
        return function

    def container_fields(self, defaults: dict) -> set[str]:
        """The answer fields that may hold a list or an object, over every rule list compiled."""
        fields = {f for f, value in defaults.items() if type(value) in (dict, list)}
        while True:
            more = {f for f, expr in self.sets if f not in fields and not self.scalar(expr, fields)}
            if not more:
                return fields
            fields |= more

    def emit(self, line: str, path: str) -> None:
        self.lines.append("    " * self.depth + line)
        self.paths.append(path)

    def emit_rules(self, rules: Any, path: str) -> None:
        if not isinstance(rules, list):
            raise RuleError(f"{path} must be a list of rule nodes", field=path)
        for i, rule in enumerate(rules):
            self.emit_node(rule, f"{path}[{i}]")

    def emit_node(self, rule: Any, path: str) -> None:
        """The statements of one node: ``if <when>:`` and its body."""
        if not isinstance(rule, dict):
            raise RuleError(f"{path} must be a rule node (an object)", field=path)
        if "when" in rule:
            self.emit(f"if {self.located(rule['when'], path, True)}:", path)
            self.block(rule, path)
        else:
            self.body(rule, path)

    def block(self, rule: dict, path: str) -> None:
        self.depth += 1
        before = len(self.lines)
        self.body(rule, path)
        if len(self.lines) == before:
            self.emit("pass", path)
        self.depth -= 1

    def located(self, expr: Any, path: str, test: bool = False) -> str:
        """Source of an expression (or of its truth, for a test); a compile error in it names the node."""
        try:
            return self.test(expr) if test else self.expr(expr)
        except RuleError as error:
            if error.field and error.field.startswith(path):
                raise
            raise RuleError(f"{path}: {error}", field=path) from None

    def tag(self, path: str, part: str, entry: str) -> str:
        """``entry`` as written into a list, with its site's number when compiling with tags."""
        if not self.tagged:
            return entry
        self.tags.append((site_key(tuple(self.calls), path), part))
        return f"({entry}, {len(self.tags) - 1})"

    def body(self, rule: dict, path: str) -> None:
        """What a node does once its ``when`` holds, in the documented order."""
        for field, expr in rule.get("set", {}).items():
            self.emit(f"answer[{field!r}] = {self.located(expr, path)}", path)
            self.sets.append((field, expr))
            self.uses_answer_keys = self.uses_answer_keys or field in ANSWER_KEYS
        for i, option in enumerate(rule.get("options", [])):
            entry = (f"{{'penalty': {self.located(option['penalty'], path)}, "
                     f"'condition': {self.template(option['condition'], path)}, "
                     f"'source': {option.get('source', rule.get('source'))!r}}}")
            entry = f"OP.append({self.tag(path, f'options[{i}]', entry)})"
            if "when" in option:
                self.emit(f"if {self.located(option['when'], path, True)}:", path)
                self.depth += 1
                self.emit(entry, path)
                self.depth -= 1
            else:
                self.emit(entry, path)
        explain = rule.get("explain", [])
        for i, line in enumerate([explain] if isinstance(explain, str) else explain):
            self.emit(f"EX.append({self.tag(path, f'explain[{i}]', self.template(line, path))})", path)
        if "note" in rule:
            note = self.template(rule["note"], path)
            self.emit(f"NT.append({self.tag(path, 'note', note)})" if self.tagged else f"NT[{note}] = None", path)
        if "source" in rule:
            source = repr(rule["source"])
            self.emit(f"SR.append({self.tag(path, 'source', source)})" if self.tagged else f"SR[{source}] = None",
                      path)
        if rule.get("stated") is False:
            self.emit("answer['stated'] = False", path)
        if "run" in rule:
            self.run(rule["run"], path)
        if "steps" in rule:
            self.emit_rules(rule["steps"], f"{path}.steps")
        first = rule.get("first", [])
        for i, node in enumerate(first):
            where = f"{path}.first[{i}]"
            if not isinstance(node, dict):
                raise RuleError(f"{where} must be a rule node (an object)", field=where)
            if "when" not in node:
                if i == 0:
                    self.body(node, where)
                else:
                    self.emit("else:", where)
                    self.block(node, where)
                break
            self.emit(f"{'if' if i == 0 else 'elif'} {self.located(node['when'], where, True)}:", where)
            self.block(node, where)
        if rule.get("halt"):
            self.emit("return True", path)

    def run(self, target: Any, path: str) -> None:
        if not isinstance(target, str):
            raise RuleError(f"{path}.run must be a path", field=f"{path}.run")
        root, parts = split_path(target)
        if root == "procedures" and len(parts) == 1:
            name = str(parts[0])
            body = self.ruleset.get("procedures", {}).get(name)
            if body is None:
                raise RuleError(f"{path}: no procedure {name!r}", field=f"{path}.run",
                                allowed=sorted(self.ruleset.get("procedures", {})))
            if name in self.inlining:
                raise RuleError(f"{path}: procedure {name!r} runs itself ({' -> '.join([*self.inlining, name])})",
                                field=f"{path}.run")
            self.inlining.append(name)
            self.calls.append(path)
            try:
                self.emit_rules(body, f"procedures.{name}")
            finally:
                self.inlining.pop()
                self.calls.pop()
            return
        if root == "infraction" and len(parts) == 1:
            self.emit(f"_P = programs.get({str(parts[0])!r})", path)
            self.emit(f"if _P is not None and _P({ARGS}):", path)
            self.emit("    return True", path)
            return
        raise RuleError(f"{path}.run must name infraction.<list> or procedures.<name>, got {target!r}",
                        field=f"{path}.run")

    def template(self, text: Any, path: str) -> str:
        """Source of a text with ``{path}`` and ``{penalty:path}`` placeholders filled in; a
        placeholder whose value is known while compiling (``ruleset.``, an infraction's own
        ``infraction.``) is filled in then, so a text of known values is one literal."""
        if not isinstance(text, str):
            raise RuleError(f"{path}: a text must be a string, got {text!r}", field=path)
        pieces: list[str | Code] = []  # known text as str, code computing text as Code
        at = 0
        for match in PLACEHOLDER.finditer(text):
            pieces.append(text[at:match.start()])
            known = self.known(match.group(2))
            if is_literal(known):  # a text, number, true/false or null (not ABSENT, a list or an object)
                pieces.append(penalty_text(known, self.namespace["_PN"]) if match.group(1)
                              else value_text(known, self.namespace["_VW"]))
            else:
                read = self.located({"var": [match.group(2), None]}, path)
                pieces.append(Code(f"_pt({read}, _PN)" if match.group(1) else f"_vt({read}, _VW)"))
            at = match.end()
        pieces.append(text[at:])
        joined: list[str | Code] = []  # adjacent known texts as one
        for piece in pieces:
            if type(piece) is str and joined and type(joined[-1]) is str:
                joined[-1] += piece
            else:
                joined.append(piece)
        return " + ".join(p if type(p) is Code else repr(p) for p in joined if p) or "''"


ENGLISH_WORDS = vocab_words()


def site_key(calls: tuple, path: str) -> str:
    """The name of a node where it is written: the paths of the nodes that ran the procedures
    it is in, then its own path, joined with ``|`` (feeds.py names sites the same way)."""
    return "|".join((*calls, path))


class Code(str):
    """Python source (in a template's pieces, beside known text)."""


LINES: dict[str, list[str]] = {}  # generated file name -> the node path of each line


def locate(error: RuleError) -> RuleError:
    """A run-time RuleError raised inside generated code, with the failing node's path."""
    tb = error.__traceback__
    path = None
    while tb is not None:
        paths = LINES.get(tb.tb_frame.f_code.co_filename)
        if paths is not None and 0 < tb.tb_lineno <= len(paths):
            path = paths[tb.tb_lineno - 1]
        tb = tb.tb_next
    if path is None or (error.field and error.field.startswith(path)):
        return error
    return RuleError(f"{path}: {error}", field=path)


def penalty_text(value: Any, names: dict) -> str:
    """Display name of a penalty id, or of a list of them joined with " + "; ``names[None]``
    is the words for no penalty (queries.json ``words.no_penalty``, in the ruleset's language)."""
    if value is None:
        return names.get(None, ENGLISH_WORDS["no_penalty"])
    if isinstance(value, list):
        return " + ".join(penalty_text(v, names) for v in value) if value else penalty_text(None, names)
    return names.get(value, str(value))


def value_text(value: Any, words: dict[str, str] | None = None) -> str:
    """A value as text in an explain line: lists joined with commas, yes/no, "not given"
    (``words``: queries.json ``words`` in the ruleset's language; default English)."""
    if value.__class__ is str:
        return value
    words = words or ENGLISH_WORDS
    if value is ABSENT or value is None:
        return words["not_given"]
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return words["yes"] if value else words["no"]
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
