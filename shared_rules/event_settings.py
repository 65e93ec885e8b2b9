"""Event settings the organiser chooses where a policy leaves the choice open, applied to the
engine's answers the same way for every ruleset.

``head_judge_from`` (queries.json, the event context): from this penalty up, the head judge
confirms a penalty, on top of what the policy itself reserves to the head judge. A ruleset
lists its penalties mildest first, so "from this penalty up" is its place in that list; a
ruleset whose policy names no head-judge step may state a default (its ``defaults``).
"""

from __future__ import annotations

from .vocabulary import words as vocab_words


def apply(answer: dict, event: dict, ruleset: dict, words: dict[str, str] | None = None) -> dict:
    """The answer of a ``penalty`` query with ``head_judge`` set (and a line to read out)
    when its penalty, or one of several, is at or above the event's ``head_judge_from``;
    other answers unchanged. ``ruleset`` is the ruleset's data (its ``penalties``), ``words``
    the engine's words in its language (queries.json ``words.head_judge_setting_line``)."""
    threshold = event.get("head_judge_from")
    if answer.get("query") != "penalty" or threshold is None or answer.get("head_judge") or answer.get("needs"):
        return answer
    order = [p["id"] for p in ruleset.get("penalties", [])]
    given = answer.get("penalty")
    given = given if isinstance(given, list) else [given]
    if threshold in order and any(p in order and order.index(p) >= order.index(threshold) for p in given):
        name = next((p.get("name") or p["id"] for p in ruleset["penalties"] if p["id"] == threshold), threshold)
        answer["head_judge"] = True
        line = (words or vocab_words())["head_judge_setting_line"]
        answer["explain"] = [*answer.get("explain", []), line.format(name=name)]
    return answer
