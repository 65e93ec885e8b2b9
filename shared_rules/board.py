"""Match results from the records, for the round board on the organiser's page and on every
judge's phone (the server and the app's worker run this same function).

A table's result is its latest result that no void cancels, by the time it was made: a
``match_result`` record (a result entered for a match that ended without time, by a judge or
the scorekeeper) or the result a ``time_call`` record ends with (the end-of-match procedure
walked to its end, or the head judge's decision where the policy gives none). A correction
is a new result, and voids the earlier one where its author may.

Two results that no void cancels and that disagree (a judge offline recorded one while another
judge or the scorekeeper recorded another) are a dispute: the latest still shows, with the
others it disagrees with as ``disputed``, until a void cancels all but one. Nothing is
decided by itself: a correction made knowing of the earlier result voids it (the app does).

A table is under a deck check while a ``deck_check`` record with phase "started" (not
voided) has no "finished" record naming it (``payload.started``) that counts.
"""

from __future__ import annotations

from .history import ordered, voided_in

RESULT_TYPES = ("match_result", "time_call")


def result_problem(result: str, games: dict | None, most: int | None) -> dict | None:
    """What is wrong with a match result, or None: ``result`` "A" | "B" | "draw", ``games``
    ``{"A": int, "B": int}`` (games won, each 0–99) or None, ``most`` the games a match of the
    event has at most (None: not checked). ``{"problem": "no_win"}`` where the winner has not
    won more games; ``{"problem": "too_many", "won": int, "most": int}`` where more games are
    won than the match has. A draw may stand at any score within the match (an agreed draw).
    The server refuses such a record and the app asks this same function (the worker's
    ``result_problem`` action) on screen before making it."""
    if not games:
        return None
    loser = {"A": "B", "B": "A"}.get(result)
    if loser and games[result] <= games[loser]:
        return {"problem": "no_win"}
    won = games["A"] + games["B"]
    if most is not None and won > most:
        return {"problem": "too_many", "won": won, "most": most}
    return None


def table_results(records: list[dict]) -> list[dict]:
    """``[{"round", "table", "result": "A" | "B" | "draw", "games": {"A", "B"} | null,
    "record", "type", "device", "judge", "created_ms", "disputed": [...]}]``, one per table that
    has a result, by round and table: its latest standing result, and in ``disputed`` the
    earlier standing results that disagree with it (another result or score; same keys but
    ``disputed``, oldest first; empty when none). Records are the plain dicts records travel
    as (history.py)."""
    log = ordered(records)
    cancelled = voided_in(log)
    standing: dict[tuple[int, int], list[dict]] = {}
    for r in log:
        payload = r.get("payload")
        if r.get("type") not in RESULT_TYPES or str(r.get("id")) in cancelled or not isinstance(payload, dict) \
                or payload.get("result") not in ("A", "B", "draw"):
            continue
        key = (payload.get("round"), payload.get("table"))
        if not all(isinstance(k, int) and not isinstance(k, bool) for k in key):
            continue
        standing.setdefault(key, []).append({
            "round": key[0], "table": key[1], "result": payload["result"],
            "games": payload.get("games") if isinstance(payload.get("games"), dict) else None,
            "record": r.get("id"), "type": r.get("type"), "device": r.get("device"),
            "judge": r.get("judge"), "created_ms": r.get("created_ms")})
    out = []
    for key in sorted(standing):
        *earlier, latest = standing[key]
        out.append({**latest, "disputed": [e for e in earlier if not _agree(e, latest)]})
    return out


def _agree(one: dict, other: dict) -> bool:
    """Whether two results of a table say the same: the same winner (or a draw), and the same
    score where both give one (a score left out disagrees with none)."""
    return one["result"] == other["result"] and (
        one["games"] is None or other["games"] is None or one["games"] == other["games"])


def deck_checks(records: list[dict]) -> list[dict]:
    """Every deck check of the records, oldest first: ``[{"record" (the started record's id),
    "player", "round", "table", "judge", "started_ms", "finished_ms" | null, "outcome": "ok" |
    "wrong" | null, "mid_game": bool}]``; ``finished_ms`` null while the check is open. Voided
    records count for nothing; a finished record whose started record is not there is left out."""
    log = ordered(records)
    cancelled = voided_in(log)
    live = [r for r in log if r.get("type") == "deck_check" and str(r.get("id")) not in cancelled
            and isinstance(r.get("payload"), dict)]
    finished = {str(r["payload"].get("started")): r for r in live if r["payload"].get("phase") == "finished"}
    out = []
    for r in live:
        p = r["payload"]
        if p.get("phase") != "started":
            continue
        end = finished.get(str(r.get("id")))
        out.append({"record": r.get("id"), "player": p.get("player"), "round": p.get("round"),
                    "table": p.get("table"), "judge": r.get("judge"), "started_ms": r.get("created_ms"),
                    "finished_ms": end.get("created_ms") if end else None,
                    "outcome": end["payload"].get("outcome") if end else None,
                    "mid_game": bool((end or r)["payload"].get("mid_game"))})
    return out


def open_deck_checks(records: list[dict]) -> set[tuple]:
    """``{(round, table)}`` of the tables under a deck check now (see deck_checks)."""
    return {(c["round"], c["table"]) for c in deck_checks(records) if c["finished_ms"] is None}
