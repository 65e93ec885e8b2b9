"""The round board: every table of the current round with its state, its time extensions, the
time it has left and its result; and the event's results as rows for the export.

A table's result is shared_rules.board.table_results: its latest `match_result` or
`time_call` result that no void cancels. States, outstanding tables first: `results differ`
(two standing results of the table disagree, shared_rules.board: the head judge records the
right one, which voids the others), `time called`
(the table's time, with its extensions, is up and no result is in: the end-of-match
procedure is under way), `deck check` (a judge has a player's deck: shared_rules.board
.open_deck_checks), `playing`, then `result in`.
"""

from __future__ import annotations

from shared_rules.board import RESULT_TYPES, open_deck_checks, table_results

from .clock import clock_state
from .events import stored_records, write_csv
from .models import Event
from .records import plain

STATES = ("results differ", "time called", "deck check", "playing", "result in")  # the board's order


def results(event: Event, log: list[dict] | None = None) -> dict[tuple[int, int], dict]:
    """`{(round, table): shared_rules.board.table_results item}` for the event (`log`: its
    result and void records as plain dicts, when already read)."""
    if log is None:
        records, _ = stored_records(event, (*RESULT_TYPES, "void"))
        log = [plain(r) for r in records]
    return {(r["round"], r["table"]): r for r in table_results(log)}


def round_board(event: Event, now_ms: int) -> dict:
    """`{"round": null | {"number", "state"}, "tables": [{"number", "player_a", "player_b"
    (names; null for a bye), "extension_minutes", "end_ms", "left_ms" (null: untimed or
    paused), "state", "result"}], "counts": {state: n}, "all_in": bool}` for the current
    round, outstanding tables first, then by number."""
    clock = clock_state(event)
    rnd = clock["round"]
    if rnd is None:
        return {"round": None, "tables": [], "counts": dict.fromkeys(STATES, 0), "all_in": False}
    names = {p.id: p.name for p in event.players}
    seats = {p.number: p for p in event.pairings if p.round_number == rnd["number"]}
    # one read of the records the board needs (polled every few seconds by the organiser page)
    records, _ = stored_records(event, (*RESULT_TYPES, "deck_check", "void"))
    log = [plain(r) for r in records]
    done = results(event, log)
    checking = open_deck_checks(log)
    paused = rnd["state"] == "paused"
    tables = []
    clocked = {t["number"]: t for t in clock["tables"]}
    for number in sorted({n for r, n in done if r == rnd["number"]} - set(clocked)):
        clocked[number] = {"number": number, "extension_minutes": 0, "end_ms": rnd["end_ms"]}
    for t in sorted(clocked.values(), key=lambda t: t["number"]):
        pairing = seats.get(t["number"])
        result = done.get((rnd["number"], t["number"]))
        left = None if t["end_ms"] is None or paused else t["end_ms"] - now_ms
        if result is not None:
            state = "results differ" if result["disputed"] else "result in"
        elif (rnd["number"], t["number"]) in checking:
            state = "deck check"
        elif left is not None and left <= 0 or rnd["state"] == "ended":
            state = "time called"
        else:
            state = "playing"
        tables.append({
            "number": t["number"],
            "player_a": names.get(pairing.player_a_id) if pairing else None,
            "player_b": names.get(pairing.player_b_id) if pairing and pairing.player_b_id else None,
            "extension_minutes": t["extension_minutes"], "end_ms": t["end_ms"],
            "left_ms": None if left is None else max(0, left), "state": state, "result": result})
    tables.sort(key=lambda t: (STATES.index(t["state"]), t["number"]))
    counts = {s: sum(t["state"] == s for t in tables) for s in STATES}
    return {"round": {"number": rnd["number"], "state": rnd["state"]}, "tables": tables, "counts": counts,
            "all_in": bool(tables) and counts["result in"] == len(tables)}


def results_csv(event: Event) -> str:
    """The results export (RESULT_COLUMNS), quoted and formula-guarded like the penalties'."""
    return write_csv(RESULT_COLUMNS, result_rows(event))


RESULT_COLUMNS = ["round", "table", "player_a", "player_b", "result", "winner", "games_a", "games_b",
                  "entered_as", "judge", "record", "created_ms", "disputed_by"]


def result_rows(event: Event) -> list[dict]:
    """Every table's current result, by round and table, as export rows (RESULT_COLUMNS);
    `disputed_by` names the other standing results that disagree with it (null: none)."""
    names = {p.id: p.name for p in event.players}
    seats = {(p.round_number, p.number): p for p in event.pairings}
    rows = []
    for (rnd, table), r in sorted(results(event).items()):
        pairing = seats.get((rnd, table))
        a = names.get(pairing.player_a_id) if pairing else None
        b = names.get(pairing.player_b_id) if pairing and pairing.player_b_id else None
        games = r["games"] or {}
        rows.append({"round": rnd, "table": table, "player_a": a, "player_b": b, "result": r["result"],
                     "winner": {"A": a, "B": b}.get(r["result"]) or ("draw" if r["result"] == "draw" else None),
                     "games_a": games.get("A"), "games_b": games.get("B"),
                     "entered_as": "end-of-match procedure" if r["type"] == "time_call" else "result",
                     "judge": r["judge"], "record": r["record"], "created_ms": r["created_ms"],
                     # the other standing results that disagree with it: "record id (judge)"
                     "disputed_by": "; ".join(f"{d['record']} ({d['judge'] or ''})" for d in r["disputed"]) or None})
    return rows
