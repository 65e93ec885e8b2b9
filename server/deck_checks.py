"""Deck-check coverage: which players a judge has checked (rounds, outcome), which top-cut
players were never checked during the Swiss rounds, and what the policy asks at the event's
level.

Checks are shared_rules.board.deck_checks over the event's `deck_check` records (a "started"
record and the "finished" record naming it). A round's stage is its started round's stage
(models.Round.stage), or the event's stage for a round that has tables but has not started;
top-cut players are those paired (models.Pairing) in a round whose stage is not "swiss".

What the policy asks is the engine's `deck_checks` query at the event's level (e.g. WotF
§3.8, 004_348b1a1435ac9899.txt: required at professional REL, recommended at competitive,
the organiser's choice at casual; with the advice that every top-cut player be checked
during the Swiss rounds): the answer's own label and source are shown. A ruleset without
that query, or an answer that leaves a field unset, says "not stated".
"""

from __future__ import annotations

from shared_rules.board import deck_checks
from shared_rules.engine import compiled_ruleset
from shared_rules.translations import ENGLISH

from .events import engine_event, stored_records
from .models import Event
from .records import plain
from .rules import evaluate, queries_of

QUERY = "deck_checks"
SWISS = "swiss"
NOT_STATED = "not stated"


def policy(event: Event, language: str = ENGLISH) -> dict:
    """What the policy asks of deck checks at the event's level, its texts in `language` (the
    engine's answer and words in it; a text with no current translation is its English with
    translations.MARK in front, as rules.load_ruleset gives it, for i18n.rule_text; the API
    asks in English): `{"expectation": value id |
    null, "expectation_label": text ("not stated" when null), "top_cut_checked": bool | null,
    "top_cut_label": text, "label": the field's label, "explain": [text], "sources": [text],
    "notes": [text], "stated": bool, "covered": bool, "top_cut_field": text}`; a ruleset
    without the query (its document says nothing of deck checks), or one the rule data no
    longer has, gives `covered` false, the
    "not stated" answer under the label "Deck checks" and an empty `top_cut_label` (as
    calls.caller_policy does for its query)."""
    if QUERY not in queries_of(event.ruleset):
        return {"expectation": None, "expectation_label": NOT_STATED, "label": "Deck checks",
                "top_cut_checked": None, "top_cut_label": "", "top_cut_field": "", "explain": [], "sources": [],
                "notes": [], "stated": False, "covered": False}
    answer = evaluate({"ruleset": event.ruleset, "query": QUERY, "event": engine_event(event), "facts": {},
                       "language": language}, marked=True)
    words = compiled_ruleset(event.ruleset, language).words["queries"][QUERY]["answer"]
    value = answer.get("expectation")
    top_cut = answer.get("top_cut_checked")
    return {"expectation": value,
            "expectation_label": words["expectation"].get("values", {}).get(value, value) if value else NOT_STATED,
            "label": words["expectation"]["label"],
            "top_cut_checked": top_cut,
            "top_cut_label": words["top_cut_checked"]["label"] + ": "
            + (NOT_STATED if top_cut is None else "advised" if top_cut else "not asked"),
            "top_cut_field": words["top_cut_checked"]["label"],
            "explain": answer.get("explain", []), "sources": answer.get("sources", []),
            "notes": answer.get("notes", []), "stated": value is not None, "covered": True}


def round_stages(event: Event) -> dict[int, str]:
    """`{round number: stage}` for every round started or with tables (see module docstring)."""
    stages = {p.round_number: event.stage for p in event.pairings}
    stages.update({r.number: r.stage for r in event.rounds})
    return stages


def coverage(event: Event, language: str = ENGLISH) -> dict:
    """`{"players": [{"player", "player_name", "checks": [{"record", "round", "table", "stage",
    "judge", "started_ms", "finished_ms" | null, "outcome": "ok" | "wrong" | null}]}],
    "top_cut_unchecked": [{"player", "player_name"}], "top_cut_players": int, "policy": policy()}`
    (the policy's texts in `language`).
    `players` lists every checked player (by name); `top_cut_unchecked` the top-cut players
    with no check in a Swiss round (open checks count as checks). Player refs are ids, or
    names for players not in the list."""
    names = {p.id: p.name for p in event.players}
    stages = round_stages(event)
    records, _ = stored_records(event, ("deck_check", "void"))
    by_player: dict[str, dict] = {}
    swiss_checked: set[str] = set()
    for check in deck_checks([plain(r) for r in records]):
        player = check["player"]
        key = str(player)
        stage = stages.get(check["round"], SWISS)
        row = by_player.setdefault(key, {"player": player, "player_name": names.get(player, str(player)),
                                         "checks": []})
        row["checks"].append({k: check[k] for k in ("record", "round", "table", "judge", "started_ms",
                                                    "finished_ms", "outcome")} | {"stage": stage})
        if stage == SWISS:
            swiss_checked.add(key)
    top_cut = sorted({pid for p in event.pairings if stages.get(p.round_number, SWISS) != SWISS
                      for pid in (p.player_a_id, p.player_b_id) if pid is not None})
    unchecked = [{"player": pid, "player_name": names.get(pid, str(pid))} for pid in top_cut
                 if str(pid) not in swiss_checked]
    players = sorted(by_player.values(), key=lambda r: r["player_name"].casefold())
    return {"players": players, "top_cut_unchecked": unchecked, "top_cut_players": len(top_cut),
            "policy": policy(event, language)}
