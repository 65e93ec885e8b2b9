"""The canonical layout of rule data: ``python -m shared_rules fmt [--check] [FILE...]``.

One layout for every ruleset and case file, so a diff shows what changed in the rules and
not in the brackets: two-space indentation; a value that fits in ``WIDTH`` columns on its
line is written on that line (``{"when": {"==": [{"var": "event.stage"}, "swiss"]}}``),
anything longer is opened one entry per line; the keys of a rule node in the order the
README documents (``id``, ``summary``, ``when``, ``set``, ``options``, ``explain``, ``note``,
``source``, ``stated``, ``run``, ``steps``, ``first``, ``halt``); other objects keep their
key order (the order of ``set`` is the order of evaluation). Text is written as UTF-8.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

WIDTH = 110
RULE_KEYS = ["id", "summary", "when", "set", "options", "explain", "note", "source", "stated", "run", "steps",
             "first", "halt"]
RULE_LISTS = ("steps", "first", "rules", "then")


def layout(data: Any) -> str:
    """The canonical text of a JSON value (with a final newline)."""
    return _write(_ordered(data, False), 0, 0) + "\n"


def _ordered(value: Any, is_rule: bool, parent: str | None = None) -> Any:
    """A copy with rule nodes' keys in the documented order."""
    if isinstance(value, list):
        return [_ordered(v, parent in RULE_LISTS or parent == "procedure") for v in value]
    if isinstance(value, dict):
        keys = list(value)
        if is_rule:
            keys = [k for k in RULE_KEYS if k in value] + [k for k in value if k not in RULE_KEYS]
        out = {}
        for key in keys:
            child = value[key]
            if key == "procedures" and isinstance(child, dict) and not is_rule:
                out[key] = {name: _ordered(body, False, "procedure") for name, body in child.items()}
            else:
                out[key] = _ordered(child, False, key)
        return out
    return value


def _write(value: Any, indent: int, used: int) -> str:
    """``value`` as text, starting ``used`` columns into a line indented by ``indent``."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or not value or used + len(flat) <= WIDTH:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        items = [pad + _write(v, indent + 2, indent + 2) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    items = []
    for key, v in value.items():
        head = f"{pad}{json.dumps(key, ensure_ascii=False)}: "
        items.append(head + _write(v, indent + 2, len(head)))
    return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"


def format_file(path: Path, check: bool = False) -> bool:
    """Rewrite a JSON file in the canonical layout; returns whether it was (or, with
    ``check``, would be) changed. Raises ValueError for a file that is not JSON."""
    text = path.read_text(encoding="utf-8")
    wanted = layout(json.loads(text))
    if wanted == text:
        return False
    if not check:
        path.write_text(wanted, encoding="utf-8")
    return True
