"""Tournament policy as data, and the one engine that answers questions from it.

Standard library only: the same files run under CPython on the server and under Pyodide in
the judge app. See shared_rules/README.md for the rule-file format and the expression language.

``evaluate({"ruleset", "query", "event", "facts"})`` answers every query of every ruleset;
``python -m shared_rules list`` shows what each ruleset's queries read.
"""

from .engine import check_event_settings, evaluate, list_rulesets
from .errors import RuleError
from .library import case_files, load_ruleset, ruleset_ids, ruleset_path

__all__ = ["RuleError", "case_files", "check_event_settings", "evaluate", "list_rulesets", "load_ruleset",
           "ruleset_ids", "ruleset_path"]
