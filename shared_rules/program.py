"""The rule-list interpreter: runs RULE nodes (shared_rules/README.md) and collects an answer.

A ``Run`` holds what the nodes produce: answer fields (``set``), explain lines, sources,
notes and head-judge options. ``run_rules`` evaluates a list in order; a node's ``first``
list is a decision table (only the first applicable node runs); ``halt`` ends the run.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import MissingFact, RuleError
from .expr import Scope, evaluate

_PLACEHOLDER = re.compile(r"\{(penalty:)?([A-Za-z_][\w.]*)\}")


class Run:
    """State of one evaluation: the scope rules read and the answer they build."""

    def __init__(self, scope: Scope, answer: dict, penalty_names: dict[str, str]):
        self.scope = scope
        self.answer = answer
        self.penalty_names = penalty_names
        self.explain: list[str] = []
        self.sources: list[str] = []
        self.notes: list[str] = []
        self.options: list[dict] = []
        self.halted = False

    def render(self, template: str) -> str:
        """Fill ``{path}`` and ``{penalty:path}`` placeholders of a text from the scope."""

        def fill(match: re.Match) -> str:
            value = self.scope.lookup(match.group(2), None)
            if match.group(1):
                return self.penalty_text(value)
            if isinstance(value, list):
                return ", ".join(str(v) for v in value)
            if isinstance(value, bool):
                return "yes" if value else "no"
            return "not given" if value is None else _number_text(value)

        return _PLACEHOLDER.sub(fill, template)

    def penalty_text(self, value: Any) -> str:
        """Display name of a penalty id, or of a list of them joined with " + "."""
        if value is None:
            return "no penalty"
        if isinstance(value, list):
            return " + ".join(self.penalty_text(v) for v in value) if value else "no penalty"
        return self.penalty_names.get(value, str(value))


def _number_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def run_rules(rules: list, run: Run, path: str) -> None:
    """Apply every node of ``rules`` in order (until the run halts)."""
    if not isinstance(rules, list):
        raise RuleError(f"{path} must be a list of rule nodes", field=path)
    for i, rule in enumerate(rules):
        if run.halted:
            return
        apply_rule(rule, run, f"{path}[{i}]")


def apply_rule(rule: dict, run: Run, path: str) -> bool:
    """Apply one RULE node; returns whether its ``when`` held. Errors name the node's path."""
    try:
        if "when" in rule and not evaluate(rule["when"], run.scope):
            return False
        for field, expr in rule.get("set", {}).items():
            run.answer[field] = evaluate(expr, run.scope)
        for option in rule.get("options", []):
            if "when" in option and not evaluate(option["when"], run.scope):
                continue
            run.options.append({
                "penalty": evaluate(option["penalty"], run.scope),
                "condition": run.render(option["condition"]),
                "source": option.get("source", rule.get("source")),
            })
        explain = rule.get("explain", [])
        for line in [explain] if isinstance(explain, str) else explain:
            run.explain.append(run.render(line))
        if "note" in rule:
            run.notes.append(run.render(rule["note"]))
        if "source" in rule:
            run.sources.append(rule["source"])
        if rule.get("stated") is False:
            run.answer["stated"] = False
    except MissingFact:
        raise
    except RuleError as error:
        if error.field and error.field.startswith(path):
            raise
        raise RuleError(f"{path}: {error}", field=path) from None
    if "run" in rule:
        target = run.scope.lookup(rule["run"], None)
        if target is not None:
            run_rules(target, run, rule["run"])
    if "steps" in rule:
        run_rules(rule["steps"], run, f"{path}.steps")
    if "first" in rule:
        for i, node in enumerate(rule["first"]):
            if run.halted or apply_rule(node, run, f"{path}.first[{i}]"):
                break
    if rule.get("halt"):
        run.halted = True
    return True
