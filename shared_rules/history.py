"""Records -> a player's penalty history, and an answer -> a penalty record's payload.

The one home of both mappings: the organiser's server (the history endpoint) and the judge
app's engine worker call these functions, so a history looks the same wherever it is made.

A RECORD is a plain dict as records travel between phones and the server: ``{"id", "type",
"payload", "device", "judge", "created_ms", "seq"?, ...}``; records the phone holds may also
carry ``sync`` (``"rejected"`` when the server refused the record, which then counts for
nothing). ``void`` records (``payload.record``) cancel a record; ``approval`` records
(``payload.record``, ``payload.approved``) give the head judge's decision on a penalty, the
latest one counting. Voids cannot themselves be voided; approvals can.

Records are taken oldest first by the device time they were made (``created_ms``, then
``id``), so the server and every phone order the same records the same way. A penalty that
replaces another (``payload.replaces``: the head judge issued the right penalty in place of a
flagged one, see review.py) takes the place of the one it replaces, just after it.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from .engine import compiled_ruleset
from .errors import RuleError
from .facts import value_checker

SHARED_ITEM_FIELDS = ("infraction", "penalty", "stage")
NAME_KEY_PREFIX = "name:"
NAME_KEY_CHARS = 190  # keys stay within the 200 characters of the server's player columns


def name_key(name: str) -> str:
    """A typed name as it is compared: compatibility forms (full-width letters) folded, runs of
    spaces made one, outer spaces dropped, letter case ignored ("Ada  BROOK" == "ada brook")."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


def player_key(player: Any) -> str:
    """The text a player is known by across records: a player id (an integer, or its ASCII
    digits as text, as a phone's player list gives it) as its digits; a typed name as
    ``"name:"`` + name_key(name), so that two spellings of one name are one player and a name
    never reads as an id. Only the first NAME_KEY_CHARS characters of the folded name count
    (a name folds longer than it is typed only through rare compatibility forms). (The server
    refuses a typed name of digits only.)"""
    if isinstance(player, str):
        if player.isascii() and player.isdigit():
            return str(int(player))
        return NAME_KEY_PREFIX + name_key(player)[:NAME_KEY_CHARS]
    return str(player)


def ordered(records: list[dict]) -> list[dict]:
    """The records that count (not refused by the server), oldest first (see the module docstring)."""
    kept = [r for r in records if isinstance(r, dict) and r.get("sync") != "rejected"]
    made = {str(r.get("id")): _ms(r) for r in kept}

    def key(r):
        payload = r.get("payload")
        replaced = payload.get("replaces") if r.get("type") == "penalty" and isinstance(payload, dict) else None
        if replaced is None:
            return (_ms(r), 0, str(r.get("id")))
        return (made.get(str(replaced), _ms(r)), 1, str(r.get("id")))  # just after the one it replaces

    return sorted(kept, key=key)


def _ms(record: dict) -> int:
    value = record.get("created_ms")
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def voided(records: list[dict]) -> set[str]:
    """Ids of the records some void record cancels."""
    return voided_in(ordered(records))


def voided_in(log: list[dict]) -> set[str]:
    """voided() of records already ``ordered``."""
    return {str(r["payload"].get("record")) for r in log
            if r.get("type") == "void" and isinstance(r.get("payload"), dict)}


def decisions(records: list[dict]) -> dict[str, bool]:
    """``{penalty record id: approved}``: the head judge's latest decision on each penalty
    (approval records that a void cancels do not count)."""
    return decisions_in(ordered(records))


def decisions_in(log: list[dict]) -> dict[str, bool]:
    """decisions() of records already ``ordered``."""
    return {record_id: r["payload"]["approved"] for record_id, r in latest_naming(log, "approval").items()
            if isinstance(r["payload"].get("approved"), bool)}


def latest_naming(log: list[dict], record_type: str, field: str = "record") -> dict[str, dict]:
    """``{record id: the latest record of ``record_type`` naming it (``payload[field]``)}``,
    among records already ``ordered``; records a void cancels do not count."""
    cancelled = voided_in(log)
    out: dict[str, dict] = {}
    for r in log:
        if r.get("type") == record_type and str(r.get("id")) not in cancelled and isinstance(r.get("payload"), dict):
            out[str(r["payload"].get(field))] = r
    return out


def counted_penalties(records: list[dict]) -> list[dict]:
    """The penalty records that count toward later penalties, oldest first: not voided and
    not refused by the head judge (a penalty still waiting for the head judge counts)."""
    return counted_in(ordered(records))


def counted_in(log: list[dict]) -> list[dict]:
    """counted_penalties() of records already ``ordered``."""
    cancelled = voided_in(log)
    refused = {record_id for record_id, approved in decisions_in(log).items() if not approved}
    return [r for r in log
            if r.get("type") == "penalty" and isinstance(r.get("payload"), dict)
            and str(r.get("id")) not in cancelled and str(r.get("id")) not in refused]


def player_penalties(records: list[dict], player: Any) -> list[dict]:
    """The player's counted penalty records (see counted_penalties), oldest first; ``player``
    is a player id or a name, compared by player_key."""
    key = player_key(player)
    return [r for r in counted_penalties(records) if player_key(r["payload"].get("player")) == key]


def seen_ids(records: list[dict], player: Any) -> list[str]:
    """The ids of the records behind ``player_history(records, player, ...)``, in its order: a
    penalty record made from that history keeps them as ``payload.history_seen``, so that
    review.conflicts can tell which earlier penalties its decision did not see."""
    return [str(r["id"]) for r in player_penalties(records, player)]


def history_items(penalties: list[dict], ruleset_id: str) -> list[dict]:
    """Penalty records -> the engine's ``facts.history`` items, in the order given (see
    player_history for what travels)."""
    fields = item_fields(ruleset_id)
    checks = {name: value_checker(spec, f"history.{name}") for name, spec in fields.items()
              if name not in SHARED_ITEM_FIELDS}
    out = []
    for record in penalties:
        payload = record["payload"]
        item = {"infraction": payload.get("infraction"), "penalty": payload.get("penalty"),
                "stage": payload.get("stage") or "swiss"}
        for name, check in checks.items():
            if payload.get(name) is None:
                continue
            try:
                check(payload[name])
            except RuleError:
                continue
            item[name] = payload[name]
        out.append(item)
    return out


def player_history(records: list[dict], player: Any, ruleset_id: str) -> list[dict]:
    """The engine's ``facts.history`` for ``player`` (a player id or a name, see player_key):
    ``[{"infraction", "penalty", "stage", ...}]``, oldest first.

    What travels from a record into an item is taken from the ruleset's vocabulary: the
    fields every ruleset's history items have (infraction, penalty, stage, round) and those
    the ruleset adds to its history items; a recorded value that the vocabulary
    would refuse is left out rather than breaking the answer. Raises RuleError for an
    unknown ruleset.
    """
    return history_items(player_penalties(records, player), ruleset_id)


def item_fields(ruleset_id: str) -> dict:
    """The fields of a history item in this ruleset's penalty query (``{name: SPEC}``)."""
    words = compiled_ruleset(ruleset_id).words["queries"].get("penalty")
    if words is None:
        raise RuleError(f"ruleset {ruleset_id} has no penalty query", field="ruleset")
    return words["facts"]["history"]["items"]


def penalty_payload(answer: dict, facts: dict, *, player: Any, table: int | None = None,
                    round: int | None = None, event: dict | None = None, notes: str | None = None,
                    history_seen: list[str] | None = None, replaces: str | None = None) -> dict:
    """The payload of the penalty record for an answer of the penalty query.

    ``{"player", "table", "round", "infraction", "penalty", "base_penalty", "upgraded",
    "head_judge", "ruleset", "level", "stage", "facts", "open_facts"?}`` plus the facts that travel into later
    histories (the ruleset's own history item fields), ``notes`` when given,
    ``history_seen`` (the ids of the penalty records behind ``facts.history``, see seen_ids)
    and ``replaces`` (the flagged penalty this one is issued in place of) when given.
    ``facts`` holds the decision's facts without the history, so the decision can be made
    again with another history (review.conflicts). A penalty the policy does not state
    (``penalty`` null with ``stated`` false) is marked for the head judge to decide.

    A partial answer (engine.py) whose penalty is decided can be recorded: the facts its
    pending fields still wait on (its ``needs``) are kept as ``open_facts``, and a penalty
    whose head-judge step is still open goes to the head judge. Raises RuleError for an
    answer whose penalty (or whether the policy states it) still waits on facts (it cannot be
    recorded yet: they are named) or one of another query.
    """
    if answer.get("query") != "penalty":
        raise RuleError("only a penalty answer makes a penalty record", field="answer.query", allowed=["penalty"])
    pending = answer.get("pending") or {}
    waiting = [pending[name]["facts"] for name in ("penalty", "stated") if name in pending] \
        or ([[need["path"] for need in answer["needs"]]] if answer.get("needs") and "pending" not in answer else [])
    if waiting:
        names = ", ".join(dict.fromkeys(path for facts in waiting for path in facts))
        raise RuleError(f"the penalty still waits on {names}; answer that first", field="answer.pending.penalty")
    event = event or {}
    not_stated = answer.get("penalty") is None and answer.get("stated") is False
    payload = {
        "player": player, "table": table, "round": round, "infraction": facts.get("infraction"),
        "penalty": answer.get("penalty"), "base_penalty": answer.get("base_penalty"),
        "upgraded": bool(answer.get("upgraded")),
        "head_judge": bool(answer.get("head_judge")) or not_stated or "head_judge" in pending,
        "ruleset": answer.get("ruleset"), "level": event.get("level"), "stage": event.get("stage") or "swiss",
    }
    for name in item_fields(answer["ruleset"]):
        if name not in SHARED_ITEM_FIELDS and name != "round" and facts.get(name) is not None:
            payload[name] = facts[name]
    payload["facts"] = {name: value for name, value in facts.items() if name != "history"}
    if answer.get("needs"):
        payload["open_facts"] = [need["path"] for need in answer["needs"]]
    if notes:
        payload["notes"] = notes
    if history_seen is not None:
        payload["history_seen"] = [str(x) for x in history_seen]
    if replaces is not None:
        payload["replaces"] = str(replaces)
    return payload
