"""Command line: ``python -m shared_rules list | eval | check``.

- ``list``: rulesets with their levels, infractions and, per query, the facts it reads
  (``*``: asked for when the situation needs it; defaults where the data assumes one).
- ``eval [--request FILE]``: a request JSON (stdin by default) -> the answer JSON.
- ``check FILE...``: run case files; one line per failure, then ``N passed, N failed``.

Bad input prints ``error: <message>`` on stderr and exits 2 (no traceback).
"""

from __future__ import annotations

import argparse
import json
import sys

from .cases import check_files
from .engine import evaluate, list_rulesets, load_ruleset
from .errors import RuleError
from .introspect import facts_read


def _list(_args) -> int:
    for summary in list_rulesets():
        data = load_ruleset(summary["id"])
        print(f"{summary['id']}: {summary['title']} (version: {summary['version']})")
        levels = ", ".join(level["id"] for level in summary["levels"]) or "none"
        print(f"  levels: {levels}")
        for query in summary["queries"]:
            facts = facts_read(summary["id"], query)
            shown = [f"{name}{'*' if info['required'] or info['asked_when_needed'] else ''}"
                     + (f" (default {' or '.join(info['defaults'])})" if info["defaults"] else "")
                     for name, info in facts.items()]
            print(f"  query {query}: facts {', '.join(shown) or 'none'}")
        for infraction in data.get("infractions", []):
            print(f"  infraction {infraction['id']}: {infraction.get('name', '')}")
    return 0


def _eval(args) -> int:
    if args.request:
        with open(args.request, encoding="utf-8") as file:
            text = file.read()
    else:
        text = sys.stdin.read()
    try:
        request = json.loads(text)
    except ValueError as error:
        raise RuleError(f"the request is not valid JSON: {error}", field="request") from None
    print(json.dumps(evaluate(request), indent=2, ensure_ascii=False))
    return 0


def _check(args) -> int:
    return check_files(args.files, sys.stdout)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 failing cases, 2 bad input)."""
    parser = argparse.ArgumentParser(prog="python -m shared_rules", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="rulesets, levels, queries and infractions").set_defaults(run=_list)
    ev = commands.add_parser("eval", help="evaluate one request (JSON on stdin or --request FILE)")
    ev.add_argument("--request", metavar="FILE")
    ev.set_defaults(run=_eval)
    ch = commands.add_parser("check", help="run case files")
    ch.add_argument("files", nargs="+")
    ch.set_defaults(run=_check)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (RuleError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
