"""Where rule data lives: the package's own folder, then every folder named in SHARED_RULES_PATH.

Each folder is laid out like the package: ``rulesets/<id>.json`` (one policy document each)
and ``cases/<name>.json`` (case files). ``SHARED_RULES_PATH`` holds folder paths separated by
``os.pathsep`` (``:`` on Linux and macOS, ``;`` on Windows); empty entries are ignored. A
ruleset id found in two folders is an error (two policies under one name would make saved
events ambiguous), as is a file whose ``id`` differs from its file name.

Lookups are cached per value of the variable, so a test or a process that changes it sees
the new folders at once; ``clear_caches()`` also forgets parsed files (for files rewritten
in place).
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

from .errors import RuleError

PACKAGE = Path(__file__).resolve().parent
PATH_VARIABLE = "SHARED_RULES_PATH"


# os.environ.get raises and catches a KeyError inside when the variable is unset, which costs
# more than a whole small evaluation; the engine reads the variable on every call, so it reads
# the mapping os.environ keeps its raw values in (where the platform's os module has one).
_RAW_ENVIRON = getattr(os.environ, "_data", None)
_RAW_KEY = os.environ.encodekey(PATH_VARIABLE) if _RAW_ENVIRON is not None else None


def variable_state() -> object:
    """A value equal between two calls exactly when SHARED_RULES_PATH is (None when unset)."""
    if _RAW_ENVIRON is None:
        return os.environ.get(PATH_VARIABLE)
    return _RAW_ENVIRON.get(_RAW_KEY)


def folders() -> list[Path]:
    """The package folder, then each folder of SHARED_RULES_PATH, in order."""
    return _folders(os.environ.get(PATH_VARIABLE, ""))


@lru_cache(maxsize=8)
def _folders(variable: str) -> list[Path]:
    extra = [Path(p).expanduser().resolve() for p in variable.split(os.pathsep) if p.strip()]
    return [PACKAGE, *[p for p in dict.fromkeys(extra) if p != PACKAGE]]


def ruleset_files() -> dict[str, Path]:
    """``{ruleset id: path of its JSON file}`` over every folder, sorted by id.

    Raises RuleError naming both files when one id is in two folders.
    """
    return _ruleset_files(os.environ.get(PATH_VARIABLE, ""))


@lru_cache(maxsize=8)
def _ruleset_files(variable: str) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder in _folders(variable):
        for path in sorted((folder / "rulesets").glob("*.json")):
            if path.stem in found:
                raise RuleError(f"ruleset {path.stem!r} is in two folders: {found[path.stem]} and {path}",
                                field="ruleset")
            found[path.stem] = path
    return dict(sorted(found.items()))


def case_files() -> list[Path]:
    """Every case file of every folder (``cases/*.json``), package first."""
    return [p for folder in folders() for p in sorted((folder / "cases").glob("*.json"))]


def ruleset_ids() -> list[str]:
    """Ids of every ruleset found, sorted."""
    return list(ruleset_files())


def ruleset_path(ruleset_id: str) -> Path:
    """Path of a ruleset's JSON file. Raises RuleError for an unknown id (listing the known ones)."""
    files = ruleset_files()
    if ruleset_id not in files:
        raise RuleError(f"unknown ruleset {ruleset_id!r}", field="ruleset", allowed=list(files))
    return files[ruleset_id]


def load_ruleset(ruleset_id: str) -> dict:
    """The parsed ruleset file (cached; callers must not mutate it). Raises RuleError if unknown."""
    return read_ruleset(ruleset_path(ruleset_id))


@lru_cache(maxsize=64)
def read_ruleset(path: Path) -> dict:
    """A ruleset file parsed (cached per path). Raises RuleError for unreadable JSON or a
    file whose ``id`` is not its file name."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RuleError(f"{path}: cannot read ruleset file: {error}", field="ruleset") from None
    if not isinstance(data, dict) or data.get("id") != path.stem:
        got = data.get("id") if isinstance(data, dict) else None
        raise RuleError(f"ruleset file {path.name} declares id {got!r}", field="id")
    return data


def clear_caches() -> None:
    """Forget every cached lookup and parsed or compiled file."""
    from . import engine, translations, vocabulary  # the compiled form is cached beside the evaluator

    for cached in (_folders, _ruleset_files, read_ruleset, engine.compiled):
        cached.cache_clear()
    engine.forget_compiled()
    translations.clear_caches()
    vocabulary._shared_in.cache_clear()
