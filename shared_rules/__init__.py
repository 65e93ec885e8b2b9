"""Tournament policy as data, and the one engine that answers questions from it.

Standard library only: the same files run under CPython on the server and under Pyodide in
the judge app. See shared_rules/README.md for the rule-file format and the expression language.

>>> from shared_rules import evaluate
>>> evaluate({"ruleset": "dci-upg", "query": "penalty",
...           "event": {"level": "competitive"},
...           "facts": {"infraction": "slow_play"}})["penalty"]
'warning'
"""

from .engine import check_event_settings, evaluate, list_rulesets
from .errors import RuleError
from .library import case_files, load_ruleset, ruleset_ids, ruleset_path

__all__ = ["RuleError", "case_files", "check_event_settings", "evaluate", "list_rulesets", "load_ruleset",
           "ruleset_ids", "ruleset_path"]
