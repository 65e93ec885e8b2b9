"""Strict marshmallow fields for everything a client sends: records, join requests, forms.

JSON allows text no database or page can hold: lone UTF-16 surrogates (`"\\udfff"`), NUL,
and other control characters; Python's `int` has no bound and `True` is an `int`. These
fields refuse all of that with a message naming what is wrong, before the database sees it.
"""

import math
import numbers
import unicodedata

from markupsafe import Markup
from marshmallow import ValidationError, fields

MAX_BIGINT = 2**63 - 1  # the database's largest integer (sequence numbers, ids, times)
MULTILINE = frozenset("\n\r\t")  # control characters free text (notes, comments) may hold
# marks that turn the direction of the text around them (a name could be made to read as another)
DIRECTION = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# in one-line text (names, codes): invisible characters that make two equal-looking names
INVISIBLE = frozenset("\u200b\u2060\ufeff")


def text_problem(value: str, multiline: bool = False) -> str | None:
    """Why `value` cannot be stored or shown as text, or None: a lone surrogate, NUL, another
    control character (line breaks and tabs are allowed where `multiline`), a mark that turns
    the text's direction (U+202A-202E, U+2066-2069), or in one-line text an invisible
    character (zero-width space, word joiner, byte-order mark)."""
    for ch in value:
        if "\ud800" <= ch <= "\udfff":
            return f"holds a lone surrogate (U+{ord(ch):04X}), which is not text"
        if ch == "\0":
            return "holds a NUL character"
        if unicodedata.category(ch) == "Cc" and not (multiline and ch in MULTILINE):
            return f"holds a control character (U+{ord(ch):04X})"
        if ch in DIRECTION:
            return f"holds a mark that turns the text's direction (U+{ord(ch):04X})"
        if ch in INVISIBLE and not multiline:
            return f"holds an invisible character (U+{ord(ch):04X})"
    return None


def clean_text(value: str) -> str:
    """`value` with lone surrogates and NUL replaced by U+FFFD, so it can always be written
    as UTF-8 (pages, CSV); for showing stored text, never for storing it. Markup (text the
    page marked safe) is returned as Markup."""
    if value.isascii() and "\0" not in value:
        return value
    cleaned = "".join("\ufffd" if ch == "\0" or "\ud800" <= ch <= "\udfff" else ch for ch in value)
    # markup the page marked safe (a translated sentence with <code> in it) stays markup
    return Markup(cleaned) if isinstance(value, Markup) else cleaned


class Text(fields.String):
    """A string of `min_length` to `max_length` characters that is valid text (see
    `text_problem`), not only spaces where `min_length` is 1 or more; numbers, booleans and
    null are refused (null where `allow_none`)."""

    def __init__(self, max_length: int, min_length: int = 1, multiline: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.min_length, self.max_length, self.multiline = min_length, max_length, multiline
        self.metadata.setdefault("minLength", min_length)
        self.metadata.setdefault("maxLength", max_length)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str):
            raise ValidationError("must be text")
        problem = text_problem(value, self.multiline)
        if problem:
            raise ValidationError(problem)
        if self.min_length and not value.strip():
            raise ValidationError("must not be blank")
        if not self.min_length <= len(value) <= self.max_length:
            raise ValidationError(f"must have {self.min_length} to {self.max_length} characters, "
                                  f"not {len(value)}")
        return value


class Int(fields.Integer):
    """A JSON integer within [low, high]: no "5", no 5.5, no true/false."""

    def __init__(self, low: int = 0, high: int = MAX_BIGINT, **kwargs):
        super().__init__(strict=True, **kwargs)
        self.low, self.high = low, high
        self.metadata.setdefault("minimum", low)
        self.metadata.setdefault("maximum", high)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise ValidationError(f"must be a whole number from {self.low} to {self.high}")
        if not self.low <= value <= self.high:
            raise ValidationError(f"must be from {self.low} to {self.high}")
        return int(value)


class Number(fields.Float):
    """A finite JSON number (integer or decimal) within the range; no strings or booleans.
    `low_open` makes the lower bound exclusive."""

    def __init__(self, low: float, high: float, low_open: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.low, self.high, self.low_open = low, high, low_open
        self.metadata.setdefault("minimum", low)
        self.metadata.setdefault("maximum", high)
        if low_open:
            self.metadata.setdefault("exclusiveMinimum", True)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValidationError("must be a number")
        if isinstance(value, float) and not math.isfinite(value):
            raise ValidationError("must be a finite number")
        above = value > self.low if self.low_open else value >= self.low
        if not (above and value <= self.high):
            low = "above" if self.low_open else "from"
            raise ValidationError(f"must be {low} {self.low:g} and at most {self.high:g}")
        return value


class Bool(fields.Boolean):
    """true or false only (no 1, "yes", ...)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("must be true or false")
        return value


class RuleId(Text):
    """An id from the rule data (infraction, level): letters, digits, `_`, `-`, `.`."""

    def __init__(self, **kwargs):
        super().__init__(64, metadata={"pattern": r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"}, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        value = super()._deserialize(value, attr, data, **kwargs)
        if not (value[0].isascii() and value[0].isalnum()) or \
                not all(ch.isascii() and (ch.isalnum() or ch in "_.-") for ch in value):
            raise ValidationError("must be an id of letters, digits, _, - and .")
        return value


class Choice(Text):
    """One of a fixed list of short texts."""

    def __init__(self, choices, **kwargs):
        self.choices = tuple(choices)
        super().__init__(max(len(c) for c in self.choices), metadata={"enum": list(self.choices)},
                         **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or value not in self.choices:
            raise ValidationError("must be one of: " + ", ".join(self.choices))
        return value


class Json(fields.Dict):
    """A JSON object of bounded size whose every key and string is valid text (at most
    `max_text` characters), every number finite (integers within 64 bits), nested at most
    `max_depth` levels with at most `max_items` values in all."""

    def __init__(self, max_depth: int = 6, max_items: int = 500, max_text: int = 2000, **kwargs):
        super().__init__(**kwargs)
        self.max_depth, self.max_items, self.max_text = max_depth, max_items, max_text

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, dict):
            raise ValidationError("must be a JSON object")
        problem = self.problem(value)
        if problem:
            raise ValidationError(problem)
        return value

    def problem(self, value) -> str | None:
        """Why `value` is not acceptable JSON content, or None (iterative: no recursion)."""
        stack, count = [(value, 1, "")], 0
        while stack:
            item, depth, path = stack.pop()
            count += 1
            if count > self.max_items:
                return f"more than {self.max_items} values"
            where = f" at {path}" if path else ""
            if isinstance(item, dict | list):
                if depth > self.max_depth:
                    return f"nested more than {self.max_depth} levels"
                pairs = item.items() if isinstance(item, dict) else enumerate(item)
                for key, child in pairs:
                    if isinstance(key, str):
                        bad = text_problem(key) or (len(key) > 64 and "a key longer than 64 characters")
                        if bad:
                            return f"key {key[:20]!r}{where}: {bad}"
                    stack.append((child, depth + 1, f"{path}.{key}" if path else str(key)))
            elif isinstance(item, str):
                bad = text_problem(item, multiline=True)
                if bad or len(item) > self.max_text:
                    return f"text{where} {bad or f'longer than {self.max_text} characters'}"
            elif isinstance(item, float) and not math.isfinite(item):
                return f"number{where} is not finite"
            elif isinstance(item, int) and not isinstance(item, bool) \
                    and not -MAX_BIGINT - 1 <= item <= MAX_BIGINT:
                return f"number{where} is beyond 64 bits"
        return None
