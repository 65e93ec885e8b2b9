"""Appeals to the head judge with their decisions, for the organiser's export.

An appeal record (a player appeals a floor judge's ruling, WotF §3.9) and the head judge's
appeal_decision naming it (the latest one no void cancels) make one row; the record order
and the void rule are shared_rules.history's, as on the phones.
"""

from shared_rules.history import latest_naming, ordered, voided_in

from .events import stored_records, utc_iso, write_csv
from .models import Event
from .records import plain

APPEAL_COLUMNS = ["id", "round", "table", "player", "player_name", "ruling", "ruled_by", "recorded_by",
                  "penalty_record", "call", "created_utc", "created_ms", "status", "decided_by",
                  "decided_utc", "decided_ms", "new_ruling", "consulted"]


def appeal_rows(event: Event) -> list[dict]:
    """Every readable appeal of the event, oldest first: `{column of APPEAL_COLUMNS: value}`;
    `status` is "waiting", "confirmed", "changed" (the head judge's outcome) or "voided";
    `new_ruling` the head judge's ruling when changed; times as epoch ms and UTC ISO 8601."""
    records, _ = stored_records(event, ("appeal", "appeal_decision", "void"))
    log = ordered([plain(r) for r in records])
    voided = voided_in(log)
    decided = latest_naming(log, "appeal_decision", "appeal")
    names = {p.id: p.name for p in event.players}
    rows = []
    for r in log:
        if r["type"] != "appeal":
            continue
        p, decision = r["payload"], decided.get(str(r["id"]))
        d = decision["payload"] if decision else {}
        player = p.get("player")
        rows.append({
            "id": r["id"], "round": p.get("round"), "table": p.get("table"), "player": player,
            "player_name": names.get(player, str(player)) if isinstance(player, int) else player,
            "ruling": p.get("ruling"), "ruled_by": p.get("ruled_by"), "recorded_by": r.get("judge"),
            "penalty_record": p.get("penalty") or "", "call": p.get("call") or "",
            "created_utc": utc_iso(r.get("created_ms")), "created_ms": r.get("created_ms"),
            "status": "voided" if str(r["id"]) in voided else d.get("outcome", "waiting"),
            "decided_by": decision.get("judge") if decision else "",
            "decided_utc": utc_iso(decision.get("created_ms")) if decision else "",
            "decided_ms": decision.get("created_ms") if decision else "",
            "new_ruling": d.get("ruling") or "", "consulted": d.get("consulted") or ""})
    return rows


def appeals_csv(event: Event) -> str:
    """appeal_rows as CSV (APPEAL_COLUMNS; every cell quoted, formula-like text neutralised as
    in the penalty export)."""
    return write_csv(APPEAL_COLUMNS, appeal_rows(event))
