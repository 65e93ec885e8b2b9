"""The head judge's review list, worked out from the merged log of every judge's records.

The server and every phone (offline too) run these same functions on the records they hold,
so the same records always give the same list. Three kinds of item (KINDS):

- ``approval``: a penalty that goes to the head judge (``payload.head_judge``: the policy or
  the event's setting reserves it; or the event's current ``head_judge_from`` reserves its
  penalty, for one recorded before the phone heard of the setting), not voided, with no
  decision yet (history.decisions);
- ``conflict``: a penalty decided on a history that missed an earlier penalty of the same
  player, for which the policy gives another penalty once every judge's records are known;
- ``appeal``: a player appealed a judge's ruling (an ``appeal`` record, not voided) and no
  ``appeal_decision`` names it yet: the head judge confirms or changes the ruling, and one who
  made the first ruling consults another judge first (Wonders of the First §3.9,
  004_348b1a1435ac9899.txt; the server refuses the decision without ``consulted``).

Reconciliation (``conflicts``). A penalty record names the records its decision saw
(``payload.history_seen``, from history.seen_ids). For a penalty P of player X, the history
it should have been decided on is every counted penalty of X (history.counted_penalties: not
voided, not refused by the head judge) that P saw, plus every one that comes before P in the
log's order (history.ordered: the time each was made) that P did not see and that did not
see P (nor saw one that saw P: such a record was made after P, whatever its time says): P's
*unseen* records. With no unseen record P is not checked at all (a record P saw counts as
earlier even when its time says otherwise). With some, the engine decides again
from P's own facts (``payload.facts``) and that history, at P's level and stage; when the
penalty differs from the one recorded, or the engine needs a fact P's facts do not hold, P is
flagged. A record without ``history_seen`` is never flagged: there is no telling what it saw.

Resolution: the head judge keeps the penalty as issued (a ``resolution`` record naming it,
with a reason: the flag stays, marked kept) or issues the right one (a void of P and a new
penalty whose ``payload.replaces`` names P and which takes P's place in the order). Nothing
changes by itself.

Rule source: a repeated infraction is upgraded from the player's earlier penalties at the
event (e.g. DCI Penalty Guide §30, Yu-Gi-Oh! judge guide's upgrade table), whichever judge
issued them; the policy texts are the rulesets'.
"""

from __future__ import annotations

from .engine import compiled_ruleset, evaluate
from .errors import RuleError
from .event_settings import confirmed_by_setting
from .history import (
    counted_in,
    decisions_in,
    history_items,
    latest_naming,
    name_key,
    ordered,
    penalty_payload,
    player_key,
    voided_in,
)
from .translations import ENGLISH, MARK, check_language
from .vocabulary import shared_in, spec_at
from .vocabulary import words as shared_words

KINDS = ("approval", "conflict", "appeal")  # the kinds of review item, in the order of the list above
APPEAL_FIELDS = ("ruling", "ruled_by", "call", "penalty")  # what an appeal item adds from its record
EVENT_FIELDS = ("level", "stage")  # what a penalty record keeps of its event (history.penalty_payload)


def conflicts(records: list[dict], ruleset_id: str, event: dict | None = None) -> list[dict]:
    """Every flagged penalty, oldest first (see the module docstring):
    ``[{"record", "player", "judge", "created_ms", "infraction", "recorded", "expected",
    "needs", "unseen": [record ids], "history": [record ids], "resolution": null | {"record",
    "judge", "reason"}}]``.

    ``recorded`` is the penalty as issued and ``expected`` the engine's penalty with every
    judge's records (an id, a list of ids, or null); ``needs`` lists the fact paths the
    penalty itself still waits on (engine.py ``pending``; then ``expected`` is null: a remedy
    left open does not count); ``history`` names the records the decision
    is made again on (a penalty issued in its place keeps them as its ``history_seen``).
    ``event`` is the event's engine context
    (level, stage, games per match); the record's own level and stage take precedence.
    Raises RuleError for an unknown ruleset only: a penalty the engine cannot decide again
    (facts it refuses) is left unflagged.
    """
    return _conflicts(ordered(records), ruleset_id, event)


def _conflicts(log: list[dict], ruleset_id: str, event: dict | None) -> list[dict]:
    counted = counted_in(log)
    kept = latest_naming(log, "resolution")
    by_player: dict[str, list[dict]] = {}
    for r in counted:
        by_player.setdefault(player_key(r["payload"].get("player")), []).append(r)
    out = []
    for penalties in by_player.values():
        seen_by = {str(r["id"]): {str(x) for x in r["payload"].get("history_seen") or [] if isinstance(x, str)}
                   for r in penalties if isinstance(r["payload"].get("history_seen"), list)}
        for position, record in enumerate(penalties):
            flag = _check(record, penalties, position, seen_by, ruleset_id, event or {})
            if flag is None:
                continue
            resolution = kept.get(str(record["id"]))
            flag["resolution"] = None if resolution is None else {
                "record": resolution["id"], "judge": resolution.get("judge"),
                "reason": resolution["payload"].get("reason")}
            out.append(flag)
    return sorted(out, key=lambda f: (f["created_ms"] or 0, str(f["record"])))


def _check(record: dict, penalties: list[dict], position: int, seen_by: dict[str, set[str]], ruleset_id: str,
           event: dict) -> dict | None:
    payload = record["payload"]
    seen = payload.get("history_seen")
    if not isinstance(seen, list):
        return None
    seen = {str(x) for x in seen}
    unseen = [r for r in penalties[:position] if str(r["id"]) not in seen]
    if unseen:  # those made after this one for certain are not unseen, whatever their times
        after = _saw(seen_by, str(record["id"]))
        unseen = [r for r in unseen if str(r["id"]) not in after]
    if not unseen:
        return None
    history = [r for i, r in enumerate(penalties)
               if i != position and (i < position or str(r["id"]) in seen)]
    try:
        answer = _decide_again(record, history, ruleset_id, event)["answer"]
    except RuleError:
        return None
    # the facts the penalty itself still waits on (a remedy left open does not stop the check)
    needs = [p for name in ("penalty", "stated") for p in (answer.get("pending") or {}).get(name, {}).get("facts", [])]
    needs = list(dict.fromkeys(needs))
    expected = None if needs else answer.get("penalty")
    if not needs and expected == payload.get("penalty"):
        return None
    return {"record": record["id"], "player": payload.get("player"), "judge": record.get("judge"),
            "created_ms": record.get("created_ms"), "infraction": payload.get("infraction"),
            "recorded": payload.get("penalty"), "expected": expected, "needs": needs,
            "unseen": [r["id"] for r in unseen], "history": [r["id"] for r in history]}


def _decide_again(record: dict, history: list[dict], ruleset_id: str, event: dict) -> dict:
    """``{"answer", "facts", "event"}``: the engine's decision on penalty ``record`` from its own
    facts (``payload.facts``), with ``history`` (penalty records) as the player's history, at
    the record's level and stage. Raises RuleError where the engine refuses the facts."""
    payload = record["payload"]
    facts = payload.get("facts") if isinstance(payload.get("facts"), dict) else {}
    facts = {**facts, "infraction": payload.get("infraction"), "history": history_items(history, ruleset_id)}
    context = {**event, **{k: payload[k] for k in EVENT_FIELDS if payload.get(k) is not None}}
    answer = evaluate({"ruleset": ruleset_id, "query": "penalty", "event": context, "facts": facts})
    return {"answer": answer, "facts": facts, "event": context}


def replacement(records: list[dict], record_id: str, ruleset_id: str, event: dict | None = None) -> dict:
    """The penalty to issue in place of the flagged penalty ``record_id``: ``{"answer",
    "payload"}``, the engine's answer with every judge's records and the new record's payload
    (history.penalty_payload: the flagged record's player, table, round and notes,
    ``replaces`` naming it and ``history_seen`` the records it was decided on). The caller
    records it and voids the flagged one. Raises RuleError when the penalty is not flagged
    (any more) or the engine still needs a fact to decide."""
    log = ordered(records)
    flag = next((f for f in _conflicts(log, ruleset_id, event) if str(f["record"]) == str(record_id)), None)
    if flag is None:
        raise RuleError(f"penalty {record_id} is not flagged: nothing to issue in its place", field="record")
    if flag["needs"]:
        raise RuleError("the policy needs more facts to decide: " + ", ".join(flag["needs"]), field="needs")
    by_id = {str(r["id"]): r for r in log}
    record = by_id[str(record_id)]
    decision = _decide_again(record, [by_id[str(i)] for i in flag["history"]], ruleset_id, event or {})
    p = record["payload"]
    payload = penalty_payload(decision["answer"], decision["facts"], player=p.get("player"), table=p.get("table"),
                              round=p.get("round"), event=decision["event"], notes=p.get("notes"),
                              history_seen=flag["history"], replaces=str(record_id))
    return {"answer": decision["answer"], "payload": payload}


def _saw(seen_by: dict[str, set[str]], record_id: str) -> set[str]:
    """The ids of the penalties made after ``record_id`` for certain: those that saw it, and
    those that saw one of those, whatever their times say (``seen_by``: each penalty's
    history_seen)."""
    after: set[str] = set()
    frontier = {record_id}
    while frontier:
        frontier = {rid for rid, seen in seen_by.items() if seen & frontier and rid not in after}
        after |= frontier
    return after


def review(records: list[dict], ruleset_id: str, event: dict | None = None, judge: str | None = None,
           language: str | None = None) -> list[dict]:
    """Every item, decided conflicts included, oldest first: ``[{"kind": "approval" |
    "conflict" | "appeal", "record", "player", "judge", "created_ms", "infraction", "penalty", "table",
    "round", "notes", "open_facts", ...}]`` (``open_facts``: the facts still open when the penalty
    was recorded, history.penalty_payload); a conflict item adds ``expected``, ``needs``, ``unseen``,
    ``history`` and ``resolution`` (see conflicts); ``waiting`` says whether the head judge
    still has to decide it (a kept conflict does not wait). An approval item is there while the
    penalty waits for the head judge's decision (a decision or a void of the penalty ends it);
    a conflict item is there while the penalty is flagged (a void ends it; a resolution
    record marks it kept); an appeal item while no decision names the appeal (see appeals;
    ``judge``: the head judge looking, for its ``consult``). With a ``language`` each item also
    says what it shows: a conflict its ``flag`` (flag_text), an item with open facts its
    ``open`` (open_text), in that language."""
    log = ordered(records)
    decided = decisions_in(log)
    items = []
    rules, context = compiled_ruleset(ruleset_id).data, event or {}
    for r in counted_in(log):
        reserved = r["payload"].get("head_judge") or confirmed_by_setting(r["payload"].get("penalty"), context, rules)
        if reserved and str(r["id"]) not in decided:
            items.append({"kind": "approval", **_about(r), "waiting": True})
    by_id = {str(r["id"]): r for r in log}
    items += appeals(log, judge)
    for flag in _conflicts(log, ruleset_id, event):
        items.append({"kind": "conflict", **_about(by_id[str(flag["record"])]),
                      **{k: flag[k] for k in ("expected", "needs", "unseen", "history", "resolution")},
                      "waiting": flag["resolution"] is None})
    if language is not None:
        for item in items:
            if item["kind"] == "conflict":
                item["flag"] = flag_text(item, ruleset_id, language)
            if item.get("open_facts"):
                item["open"] = open_text(item["open_facts"], ruleset_id, language)
    return sorted(items, key=lambda i: (i["created_ms"] or 0, str(i["record"]), i["kind"]))


def same_judge(a, b) -> bool:
    """Whether two judge names are the same judge: compatibility forms (full-width letters),
    runs of spaces and letter case ignored."""
    return isinstance(a, str) and isinstance(b, str) and name_key(a) == name_key(b)


def consult_problem(ruled_by, judge, consulted) -> str | None:
    """Why the head judge ``judge`` may not decide an appeal of a ruling by ``ruled_by``
    naming ``consulted`` as the judge consulted, or None: one who made the first ruling
    consults another judge first (Wonders of the First §3.9, 004_348b1a1435ac9899.txt)."""
    if not same_judge(ruled_by, judge):
        return None
    if not isinstance(consulted, str) or not consulted.strip():
        return "you made the first ruling, so name the judge you consulted"
    if same_judge(consulted, judge):
        return "must be another judge"
    return None


def appeals(log: list[dict], judge: str | None = None) -> list[dict]:
    """The appeal items of records already ``ordered``: every appeal record that no void
    cancels and no appeal decision (not voided) names, ``{"kind": "appeal", "record",
    "player", "judge", "created_ms", "table", "round", "ruling", "ruled_by", "call",
    "penalty", "infraction": null, "notes": null, "waiting": true}`` (``penalty`` is the
    appealed penalty's record id, or null); with ``judge`` (the head judge looking), also
    ``consult``: whether that judge made the ruling and must name the judge consulted."""
    cancelled = voided_in(log)
    decided = latest_naming(log, "appeal_decision", "appeal")
    out = []
    for r in log:
        payload = r.get("payload")
        if r.get("type") != "appeal" or not isinstance(payload, dict) or str(r.get("id")) in cancelled \
                or str(r.get("id")) in decided:
            continue
        out.append({"kind": "appeal", "record": r["id"], "player": payload.get("player"), "judge": r.get("judge"),
                    "created_ms": r.get("created_ms"), "table": payload.get("table"), "round": payload.get("round"),
                    "infraction": None, "notes": None, "open_facts": [], **{k: payload.get(k) for k in APPEAL_FIELDS},
                    "waiting": True})
        if judge is not None:
            out[-1]["consult"] = same_judge(payload.get("ruled_by"), judge)
    return out


def waiting(items: list[dict]) -> list[dict]:
    """The items of ``review`` still waiting for the head judge (kept conflicts left out)."""
    return [i for i in items if i["waiting"]]


def review_items(records: list[dict], ruleset_id: str, event: dict | None = None) -> list[dict]:
    """The head judge's review list: the items of ``review`` still waiting (see waiting)."""
    return waiting(review(records, ruleset_id, event))


def _about(record: dict) -> dict:
    payload = record["payload"]
    return {"record": record["id"], "player": payload.get("player"), "judge": record.get("judge"),
            "created_ms": record.get("created_ms"), "infraction": payload.get("infraction"),
            "penalty": payload.get("penalty"), "table": payload.get("table"), "round": payload.get("round"),
            "notes": payload.get("notes"), "open_facts": payload.get("open_facts") or []}


def flag_text(item: dict, ruleset_id: str, language: str = ENGLISH) -> str:
    """What a flagged penalty (a ``conflict`` item of review(), or review_items') says wherever
    it is shown — the organiser's pages and exports, the head judge's Review screen, a player's
    history on any phone — in ``language`` (translations.LANGUAGES) with the ruleset's names:
    "Recorded Warning; with every judge's records (earlier penalties it did not see: 2) the
    policy gives Match Loss." or, where the policy needs a fact the record does not hold,
    "... the policy needs more to decide: <the facts' questions>." The sentences are
    queries.json's words (``flag_gives``, ``flag_needs``, ``flag_unseen``)."""
    ruleset, words = _texts_of(ruleset_id, language)
    names = {p["id"]: p.get("name") or p["id"] for p in (ruleset.data.get("penalties", []) if ruleset else [])}

    def name(value) -> str:
        issued = value if isinstance(value, list) else [value] if value else []
        return " + ".join(names.get(i, i.replace("_", " ")) for i in issued) or words["no_penalty"]

    said = {"penalty": name(item.get("penalty", item.get("recorded"))),
            "earlier": words["flag_unseen"].format(count=len(item.get("unseen") or []))}
    if item.get("needs"):
        text = words["flag_needs"].format(**said, facts=_questions(ruleset, item["needs"]))
    else:
        text = words["flag_gives"].format(**said, expected=name(item.get("expected")))
    return text.replace(MARK, "")


def open_text(paths: list[str], ruleset_id: str, language: str = ENGLISH) -> str | None:
    """"Still open when recorded: <the facts' questions>." for a penalty recorded while facts of
    its remedy or head-judge step were unanswered (``payload.open_facts``), in ``language``;
    None for none. The one sentence the organiser's pages and the app show."""
    if not paths:
        return None
    ruleset, words = _texts_of(ruleset_id, language)
    return words["open_when_recorded"].format(facts=_questions(ruleset, paths)).replace(MARK, "")


def _texts_of(ruleset_id: str, language: str):
    """(the compiled ruleset in ``language``, or None where the data no longer has it; the
    engine's words in that language)."""
    try:
        ruleset = compiled_ruleset(ruleset_id, language)
        return ruleset, ruleset.words["words"]
    except RuleError:
        return None, shared_words(shared_in(check_language(language)))


def _questions(ruleset, paths: list[str]) -> str:
    """The penalty query's questions for rooted fact paths (each fact's summary in the
    ruleset's language; a fact it no longer declares reads as its name), joined with "; "."""
    facts = ruleset.words["queries"].get("penalty", {}).get("facts", {}) if ruleset else {}
    out = []
    for path in paths:
        parts = path.split(".")[1:] if path.startswith("facts.") else path.split(".")
        spec = spec_at(facts, parts)[1]
        out.append((spec or {}).get("summary") or parts[-1].replace("_", " "))
    return "; ".join(out)
