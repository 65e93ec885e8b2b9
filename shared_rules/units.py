"""Answer fields given in steps: a number answer field may declare its ``unit`` (queries.json,
or the ruleset's own answer declaration, which overrides it), and a value between two steps
is then rounded up to the next step, never below what the policy gives, with a line saying
so. Time extensions are given in whole minutes this way (``extension.extension_minutes``,
unit 1: none of the four documents states a finer step; a ruleset whose document does
declares its own unit). The same for every ruleset and language.
"""

from __future__ import annotations

import math

# a value this close to a step counts as on it (7.000000001 minutes is 7, not 8)
_EPSILON = 1e-9


def of_query(answer_words: dict[str, dict]) -> list[tuple[str, float, str]]:
    """``[(field, unit, label)]`` of a query's answer fields that declare a unit
    (vocabulary.for_ruleset's ``queries.<q>.answer``), compiled once per query."""
    return [(field, spec["unit"], spec.get("label") or field) for field, spec in answer_words.items()
            if spec.get("unit") is not None]


def step_up(value: float, unit: float) -> float:
    """``value`` rounded up to a whole number of ``unit`` (an int when both are whole):
    7.3 in steps of 1 is 8, 2.2 in steps of 0.5 is 2.5, 7 stays 7."""
    steps = math.ceil(value / unit - _EPSILON)
    out = steps * unit
    return int(out) if float(out).is_integer() else out


def apply(answer: dict, units: list[tuple[str, float, str]], line: str) -> dict:
    """The answer with each field of ``units`` (of_query) that holds a number given in whole
    steps; a field changed gets ``line`` (queries.json ``words.unit_line``: ``{label}``,
    ``{unit}``, ``{value}``) in ``explain``. Pending fields (a partial answer) and fields the
    answer leaves null are left as they are."""
    pending = answer.get("pending") or {}
    for field, unit, label in units:
        value = answer.get(field)
        if field in pending or type(value) not in (int, float) or isinstance(value, bool):
            continue
        stepped = step_up(value, unit)
        if stepped != value:
            answer[field] = stepped
            answer["explain"] = [*answer.get("explain", []),
                                 line.format(label=label, unit=_number(unit), value=_number(stepped))]
    return answer


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
