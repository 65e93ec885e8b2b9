"""``evaluate(request)``: the one entry point that answers every query of every ruleset.

The CLI (``python -m shared_rules eval``), the server's evaluate endpoint and the browser
worker all call this function, so the same request gets the same answer everywhere.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from .errors import MissingFact, RuleError
from .expr import Scope
from .facts import check_event, check_fields
from .program import Run, run_rules

HERE = Path(__file__).resolve().parent
RULESETS = HERE / "rulesets"
REQUEST_KEYS = ["ruleset", "query", "event", "facts"]


@cache
def vocabulary() -> dict:
    """The query vocabulary (queries.json): penalty ids, event fields, each query's facts and answer defaults."""
    return json.loads((HERE / "queries.json").read_text(encoding="utf-8"))


def ruleset_ids() -> list[str]:
    """Ids of the ruleset files present, sorted."""
    return sorted(p.stem for p in RULESETS.glob("*.json"))


def ruleset_path(ruleset_id: str) -> Path:
    """Path of a ruleset's JSON file. Raises RuleError for an unknown id (listing the known ones)."""
    ids = ruleset_ids()
    if ruleset_id not in ids:
        raise RuleError(f"unknown ruleset {ruleset_id!r}", field="ruleset", allowed=ids)
    return RULESETS / f"{ruleset_id}.json"


@cache
def load_ruleset(ruleset_id: str) -> dict:
    """The parsed ruleset file (cached; callers must not mutate it). Raises RuleError if unknown."""
    data = json.loads(ruleset_path(ruleset_id).read_text(encoding="utf-8"))
    if data.get("id") != ruleset_id:
        raise RuleError(f"ruleset file {ruleset_id}.json declares id {data.get('id')!r}", field="id")
    return data


def list_rulesets() -> list[dict]:
    """``[{"id", "title", "version", "levels": [{"id", "name"}], "queries": [...]}]`` for every ruleset."""
    out = []
    for ruleset_id in ruleset_ids():
        data = load_ruleset(ruleset_id)
        out.append({
            "id": ruleset_id,
            "title": data.get("title"),
            "version": data.get("document", {}).get("version"),
            "levels": [{"id": lv["id"], "name": lv.get("name", lv["id"])} for lv in data.get("levels", [])],
            "queries": sorted(data.get("queries", {})),
        })
    return out


def evaluate(request: Any) -> dict:
    """Answer one request ``{"ruleset", "query", "event", "facts"}`` (event and facts may be omitted).

    Returns a JSON-ready dict: ``ruleset``, ``query``, the query's answer fields (defaults
    from queries.json, then whatever the ruleset's rules set), ``explain`` (lines to read
    out), ``sources`` (seed file and section of every rule applied), ``notes``, ``options``
    (head-judge choices ``{"penalty", "condition", "source"}``) and ``option_penalties``. In a
    step-by-step query (time_call) a fact still missing ends the walk with ``needs``.

    Raises RuleError for an unknown ruleset, query, level or infraction, a malformed or
    unknown fact, or a fact that this situation requires but the request lacks.
    """
    if not isinstance(request, dict):
        raise RuleError("a request must be an object", field="request", allowed=REQUEST_KEYS)
    unknown = sorted(set(request) - set(REQUEST_KEYS))
    if unknown:
        raise RuleError(f"unknown request field {unknown[0]!r}", field=unknown[0], allowed=REQUEST_KEYS)
    ruleset = load_ruleset(_required_text(request, "ruleset"))
    vocab = vocabulary()
    query = _required_text(request, "query")
    if query not in vocab["queries"]:
        raise RuleError(f"unknown query {query!r}", field="query", allowed=sorted(vocab["queries"]))
    program = ruleset.get("queries", {}).get(query)
    if program is None:
        raise RuleError(f"ruleset {ruleset['id']} has no {query!r} query", field="query",
                        allowed=sorted(ruleset.get("queries", {})))
    spec = vocab["queries"][query]
    event = check_event(request.get("event"), ruleset, vocab["event"])
    facts = check_fields(request.get("facts"), spec["facts"], "facts", vocab["penalty_ids"])
    for group in spec.get("at_most_one_of", []):
        given = [name for name in group if name in facts]
        if len(given) > 1:
            raise RuleError(f"give only one of facts.{', facts.'.join(group)}; got {', '.join(given)}",
                            field=f"facts.{given[1]}", allowed=group)
    infraction = _infraction(ruleset, facts) if "infraction" in facts else None

    answer: dict = {"ruleset": ruleset["id"], "query": query, **json.loads(json.dumps(spec["answer"]))}
    scope = Scope({"event": event, "facts": facts, "answer": answer, "infraction": infraction,
                   "ruleset": ruleset}, ruleset.get("ladders", {}))
    run = Run(scope, answer, {p["id"]: p.get("name", p["id"]) for p in ruleset.get("penalties", [])})
    try:
        run_rules(program["steps"], run, f"queries.{query}.steps")
    except MissingFact as missing:
        if not spec.get("stepwise"):
            what = f" for {infraction['id']}" if infraction else ""
            raise RuleError(f"{query}{what} needs facts.{missing.name}",
                            field=f"facts.{missing.name}") from None
        answer["needs"] = [missing.name]
    options = run.options
    answer.update({
        "explain": run.explain,
        "sources": list(dict.fromkeys(run.sources)),
        "notes": list(dict.fromkeys(run.notes)),
        "options": options,
        "option_penalties": sorted({p for o in options for p in _as_list(o["penalty"]) if p}),
    })
    return json.loads(json.dumps(answer))


def _required_text(request: dict, key: str) -> str:
    value = request.get(key)
    if not isinstance(value, str) or not value:
        raise RuleError(f"request.{key} is required", field=key)
    return value


def _infraction(ruleset: dict, facts: dict) -> dict:
    infractions = ruleset.get("infractions", [])
    for item in infractions:
        if item["id"] == facts["infraction"]:
            return item
    raise RuleError(f"unknown infraction {facts['infraction']!r} in ruleset {ruleset['id']}",
                    field="facts.infraction", allowed=[i["id"] for i in infractions])


def _as_list(value: Any) -> list:
    return value if isinstance(value, list) else [value]
