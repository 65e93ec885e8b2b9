"""Event settings the organiser chooses where a policy leaves the choice open, applied to the
engine's answers the same way for every ruleset.

``head_judge_from`` (queries.json, the event context): from this penalty up, the head judge
confirms a penalty, on top of what the policy itself reserves to the head judge. A ruleset
lists its penalties mildest first, so "from this penalty up" is its place in that list; a
ruleset whose policy names no head-judge step may state a default (its ``defaults``).
"""

from __future__ import annotations

from .vocabulary import words as vocab_words

# what the settings applied here read, per query and answer field (feeds.py follows it)
FEEDS = {"penalty": {"head_judge": ("answer.penalty", "event.head_judge_from")}}


def apply(answer: dict, event: dict, ruleset: dict, words: dict[str, str] | None = None) -> dict:
    """The answer of a ``penalty`` query with ``head_judge`` set (and a line to read out)
    when its penalty, or one of several, is at or above the event's ``head_judge_from``;
    other answers unchanged. ``ruleset`` is the ruleset's data (its ``penalties``), ``words``
    the engine's words in its language (queries.json ``words.head_judge_setting_line``).

    A partial answer (engine.py: ``pending``, each pending field's ``facts`` and ``outcomes``)
    whose penalty is decided is treated like a complete one, and a ``head_judge`` that waited
    on facts is then decided by the setting where it reaches the threshold. While the penalty
    itself is pending, ``head_judge`` is decided true where every outcome reaches the
    threshold, else pending on the penalty's facts where some outcome (or an unknown one) may.
    """
    threshold = event.get("head_judge_from")
    if answer.get("query") != "penalty" or threshold is None or answer.get("head_judge") is True:
        return answer
    if threshold not in [p["id"] for p in ruleset.get("penalties", [])]:
        return answer

    def reaches(penalty) -> bool:
        return confirmed_by_setting(penalty, event, ruleset)

    pending = answer.get("pending") or {}
    waiting = pending.get("penalty")
    if waiting is not None:
        outcomes = waiting.get("outcomes")
        if outcomes is not None and not any(reaches(o["value"]) for o in outcomes):
            return answer
        if outcomes is None or not all(reaches(o["value"]) for o in outcomes):
            before = pending.get("head_judge", {}).get("facts", [])
            pending["head_judge"] = {"facts": list(dict.fromkeys([*waiting["facts"], *before]))}
            answer["head_judge"] = False
            return answer
    elif not reaches(answer.get("penalty")):
        return answer
    pending.pop("head_judge", None)
    name = next((p.get("name") or p["id"] for p in ruleset["penalties"] if p["id"] == threshold), threshold)
    answer["head_judge"] = True
    line = (words or vocab_words())["head_judge_setting_line"]
    answer["explain"] = [*answer.get("explain", []), line.format(name=name)]
    return answer


def confirmed_by_setting(penalty, event: dict, ruleset: dict) -> bool:
    """Whether the event's ``head_judge_from`` reserves ``penalty`` (a penalty id, or a list of
    ids: any of them) to the head judge: it is that penalty or a harsher one of the ruleset's
    ``penalties`` (mildest first). False with no setting, or for an id the ruleset does not list.
    The review list asks it of every penalty recorded, so a penalty recorded on a phone that
    had not yet heard of the setting (offline when the organiser changed it) still goes to the
    head judge."""
    threshold = event.get("head_judge_from")
    order = [p["id"] for p in ruleset.get("penalties", [])]
    if threshold not in order:
        return False
    given = penalty if isinstance(penalty, list) else [penalty]
    return any(isinstance(p, str) and p in order and order.index(p) >= order.index(threshold) for p in given)
