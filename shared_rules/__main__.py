"""Command line: ``python -m shared_rules list | eval | check | fmt``.

- ``list``: rulesets with their levels, best-of values, infractions and, per query, every fact
  it reads (``*``: asked for when the situation needs it; defaults where the data assumes one).
- ``eval [--request FILE]``: a request JSON (stdin by default) -> the answer JSON.
- ``check [FILE...]``: lint the rulesets (lint.py) and run case files; one line per problem
  or failing case, then ``N passed, N failed``. Without FILE: every ruleset and every case
  file found (the package and each SHARED_RULES_PATH folder); with FILEs: those case files
  and the rulesets they name.
- ``fmt [--check] [FILE...]``: write rule and case files in the canonical layout (fmt.py);
  with ``--check``, only list the files that would change (exit 1 if any).
- ``translations [--write LANGUAGE] [NAME...]``: per ruleset (and ``queries``, the shared
  words) and language, how many texts are translated, stale (their English changed) and
  missing (translations.py); with ``--write``, write or update that language's files (every
  text with its current English, translations kept). ``check`` prints the same summary and
  fails on a translation whose placeholders differ from its English.

- ``texts --out DIR``: write each ruleset and queries.json translated into each language other
  than English, as ``DIR/<name>.<language>.json`` (the app's catalogs carry them: its screens
  read infraction names, levels, questions, and its worker hands them to the engine,
  translations.give); a text with no current translation is its English with
  translations.MARK in front, and ``DIR/mark.json`` is ``{"mark": MARK}``.

Bad input prints ``error: <message>`` on stderr and exits 2 (no traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import library, translations
from .cases import check_files
from .engine import compiled_ruleset, evaluate, list_rulesets
from .errors import RuleError
from .fmt import format_file
from .introspect import facts_read
from .lint import lint


def _list(_args) -> int:
    for summary in list_rulesets():
        data = library.load_ruleset(summary["id"])
        words = compiled_ruleset(summary["id"]).words
        print(f"{summary['id']}: {summary['title']} (version: {summary['version']})")
        levels = ", ".join(level["id"] for level in summary["levels"]) or "none"
        print(f"  {(summary['level_label'] or 'levels').lower()}: {levels}")
        print(f"  best of: {', '.join(map(str, summary['best_of'])) if summary['best_of'] else 'not limited'}")
        for query in summary["queries"]:
            facts = facts_read(summary["id"], query)
            shown = [f"{name}{'*' if info['required'] or info['asked_when_needed'] else ''}"
                     + (f" (default {' or '.join(info['defaults'])})" if info["defaults"] else "")
                     for name, info in facts.items()]
            print(f"  query {query}: facts {', '.join(shown) or 'none'}")
            answer = words["queries"][query]["answer"]
            print(f"    answer fields: {', '.join(answer)}")
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
    files = [Path(f) for f in args.files] or library.case_files()
    if args.files:
        named = set()
        for path in files:
            try:
                named.add(json.loads(path.read_text(encoding="utf-8")).get("ruleset"))
            except (OSError, ValueError, AttributeError):
                continue
        rulesets = [r for r in library.ruleset_ids() if r in named]
    else:
        rulesets = library.ruleset_ids()
    problems = 0
    for ruleset_id in rulesets:
        for problem in lint(library.load_ruleset(ruleset_id)):
            print(f"LINT {ruleset_id}: {problem}")
            problems += 1
    if not args.files:
        for name, _ in _translatable():
            for language in translations.LANGUAGES[1:]:
                for problem in translations.placeholder_problems(name, language):
                    print(f"TRANSLATION {name}.{language}: {problem}")
                    problems += 1
        _translation_summary([n for n, _ in _translatable()])
    status = check_files([str(f) for f in files], sys.stdout)
    return 1 if problems else status


def _translatable() -> list[tuple[str, dict]]:
    """(name, English data) of what translation files translate: queries.json, then each ruleset."""
    from .vocabulary import shared

    return [(translations.SHARED, shared()), *((r, library.load_ruleset(r)) for r in library.ruleset_ids())]


def _translation_summary(names: list[str]) -> None:
    for name, data in _translatable():
        if name not in names:
            continue
        for language in translations.LANGUAGES[1:]:
            state = translations.status(name, data, language)
            total = len(state["translated"]) + len(state["stale"]) + len(state["missing"])
            done = "complete" if len(state["translated"]) == total else "incomplete"
            print(f"TRANSLATIONS {name}.{language}: {len(state['translated'])}/{total} translated, "
                  f"{len(state['stale'])} stale, {len(state['missing'])} missing ({done})")


def _translations(args) -> int:
    names = args.names or [n for n, _ in _translatable()]
    known = [n for n, _ in _translatable()]
    for name in names:
        if name not in known:
            raise RuleError(f"nothing to translate named {name!r}", field="name", allowed=known)
    if args.write:
        for name, data in _translatable():
            if name in names:
                print(f"wrote: {translations.template(name, data, args.write)}")
    _translation_summary(names)
    return 0


def _texts(args) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, data in _translatable():
        for language in translations.LANGUAGES:
            if language == translations.ENGLISH:
                continue
            text = translations.translated(data, name, language)
            (out / f"{name}.{language}.json").write_text(
                json.dumps(text, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    (out / "mark.json").write_text(json.dumps({"mark": translations.MARK}), encoding="utf-8")
    return 0


def _fmt(args) -> int:
    files = [Path(f) for f in args.files] or [
        *library.ruleset_files().values(), *library.case_files(), library.PACKAGE / "queries.json"]
    changed = [path for path in files if format_file(path, check=args.check)]
    for path in changed:
        print(f"{'would change' if args.check else 'formatted'}: {path}")
    return 1 if args.check and changed else 0


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 failing cases or lint problems, 2 bad input)."""
    parser = argparse.ArgumentParser(prog="python -m shared_rules", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="rulesets, levels, queries, the facts each reads, infractions"
                        ).set_defaults(run=_list)
    ev = commands.add_parser("eval", help="evaluate one request (JSON on stdin or --request FILE)")
    ev.add_argument("--request", metavar="FILE")
    ev.set_defaults(run=_eval)
    ch = commands.add_parser("check", help="lint rulesets and run case files")
    ch.add_argument("files", nargs="*")
    ch.set_defaults(run=_check)
    fm = commands.add_parser("fmt", help="write rule and case files in the canonical layout")
    fm.add_argument("--check", action="store_true", help="only list files that would change")
    fm.add_argument("files", nargs="*")
    fm.set_defaults(run=_fmt)
    tr = commands.add_parser("translations", help="translation state per language; --write LANGUAGE: templates")
    tr.add_argument("--write", metavar="LANGUAGE", help="write or update this language's files")
    tr.add_argument("names", nargs="*", help="rulesets (or queries); default: all")
    tr.set_defaults(run=_translations)
    tx = commands.add_parser("texts", help="write every ruleset and queries.json translated, one file per language")
    tx.add_argument("--out", metavar="DIR", required=True)
    tx.set_defaults(run=_texts)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (RuleError, OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
