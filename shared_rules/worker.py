"""The judge app's side of the engine: its Web Worker runs these under Pyodide.

The worker posts ``handle(action, text)`` with a JSON text and gets a JSON text back:
``{"result": ...}`` or ``{"error": {"message", "field", "allowed"}}`` for a RuleError. The
actions (``ACTIONS``) are the engine's own functions, so the worker holds no logic of its
own and everything here runs the same under CPython (tests/test_worker.py):

- ``evaluate``: a request -> the answer (engine.evaluate);
- ``facts_read``: ``{"ruleset", "query", "infraction"?, "language"?}`` -> ``[{"name", "type",
  "summary", "asked_when_needed", "defaults", "english"}]``, the facts that query (and
  infraction) reads, each summary in the language where translated (``english``: it is not);
- ``history``: ``{"records", "player", "ruleset"}`` -> the player's ``facts.history``
  (history.player_history);
- ``history_seen``: ``{"records", "player"}`` -> the ids of the records behind that history
  (history.seen_ids), which a penalty record keeps;
- ``penalty_payload``: ``{"answer", "facts", "player", "table", "round", "event", "notes",
  "history_seen"?, "replaces"?}`` -> the penalty record's payload (history.penalty_payload);
- ``results``: ``{"records"}`` -> each table's current match result (board.table_results);
- ``result_problem``: ``{"result", "games"?, "most"?}`` -> what is wrong with a match result, or
  None (board.result_problem: the rule the server checks a result record by);
- ``deck_checks``: ``{"records"}`` -> every deck check, started and finished
  (board.deck_checks);
- ``replacement``: ``{"records", "record", "ruleset", "event"}`` -> ``{"answer", "payload"}``,
  the penalty to issue in place of a flagged one (review.replacement);
- ``review``: ``{"records", "ruleset", "event", "judge"?, "language"?}`` -> every review item, kept conflicts
  included (review.review: penalties waiting for the head judge, flagged penalties, appeals;
  with ``judge``, each appeal says whether that judge must name the judge consulted);
- ``consult_problem``: ``{"ruled_by", "judge", "consulted"}`` -> why that head judge may not
  decide the appeal naming ``consulted``, or null (review.consult_problem, WotF §3.9);
- ``rule_texts``: ``{"language", "texts": {name: translated data}}`` -> whether anything
  changed: the rule texts of a language as the app's catalog carries them, used in place of
  translation files (translations.give; the app's engine package carries none);
- ``decklist_compare``: ``{"sections", "counts", "found"?}`` -> the deck as counted against its
  registered list: missing, extra and wrong-section cards (decklists.compare);
- ``decklist_sizes``: ``{"sections", "limits"}`` -> where a list breaks the deck sizes
  (decklists.size_problems).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from . import board, decklists, history, review, translations
from .engine import compiled_ruleset, evaluate
from .errors import RuleError
from .introspect import facts_read
from .library import ruleset_ids


def start() -> None:
    """Compile every ruleset now, so the first answer is quick (and a memory snapshot of the
    interpreter taken after this holds them compiled)."""
    for ruleset_id in ruleset_ids():
        compiled_ruleset(ruleset_id)


def _facts_read(request: dict) -> list[dict]:
    language = translations.check_language(request.get("language"))
    words = compiled_ruleset(request["ruleset"], language).words["queries"].get(request["query"], {"facts": {}})
    out = []
    for name, info in facts_read(request["ruleset"], request["query"], request.get("infraction")).items():
        spec = words["facts"].get(name, {})
        summary = spec.get("summary")
        out.append({"name": name, "type": spec.get("type"), "summary": translations.strip(summary),
                    "asked_when_needed": info["asked_when_needed"], "defaults": info["defaults"],
                    "english": language == translations.ENGLISH or translations.MARK in (summary or "")})
    return out


def _history(request: dict) -> list[dict]:
    return history.player_history(request["records"], request["player"], request["ruleset"])


def _seen(request: dict) -> list[str]:
    return history.seen_ids(request["records"], request["player"])


def _payload(request: dict) -> dict:
    return history.penalty_payload(request["answer"], request["facts"], player=request["player"],
                                   table=request.get("table"), round=request.get("round"),
                                   event=request.get("event"), notes=request.get("notes"),
                                   history_seen=request.get("history_seen"), replaces=request.get("replaces"))


def _review(request: dict) -> list[dict]:
    return review.review(request["records"], request["ruleset"], request.get("event"), request.get("judge"),
                         request.get("language"))


ACTIONS: dict[str, Callable[[Any], Any]] = {
    "evaluate": evaluate,
    "facts_read": _facts_read,
    "history": _history,
    "history_seen": _seen,
    "penalty_payload": _payload,
    "results": lambda request: board.table_results(request["records"]),
    "result_problem": lambda request: board.result_problem(request["result"], request.get("games"),
                                                           request.get("most")),
    "deck_checks": lambda request: board.deck_checks(request["records"]),
    "replacement": lambda request: review.replacement(request["records"], request["record"], request["ruleset"],
                                                      request.get("event")),
    "review": _review,
    "consult_problem": lambda request: review.consult_problem(request.get("ruled_by"), request.get("judge"),
                                                              request.get("consulted")),
    "decklist_compare": lambda request: decklists.compare(request["sections"], request["counts"], request.get("found")),
    "decklist_sizes": lambda request: decklists.size_problems(request["sections"], request["limits"]),
    "rule_texts": lambda request: translations.give(request["language"], request["texts"]),
}


def handle(action: str, text: str) -> str:
    """Run one action on a JSON text; returns ``{"result": ...}`` or ``{"error": {...}}`` as JSON text."""
    try:
        run = ACTIONS.get(action)
        if run is None:
            raise RuleError(f"unknown action {action!r}", field="action", allowed=sorted(ACTIONS))
        try:
            request = json.loads(text)
        except ValueError as error:
            raise RuleError(f"the {action} request is not valid JSON: {error}", field="request") from None
        if action != "evaluate" and not isinstance(request, dict):
            raise RuleError(f"the {action} request must be an object", field="request")
        try:
            result = run(request)
        except KeyError as error:
            raise RuleError(f"the {action} request lacks {error.args[0]!r}", field=str(error.args[0])) from None
        return json.dumps({"result": result}, ensure_ascii=False)
    except RuleError as error:
        return json.dumps({"error": error.to_dict()}, ensure_ascii=False, default=str)
