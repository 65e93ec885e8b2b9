"""Rule texts in other languages: data beside each ruleset, the English rule data the source.

A translation file is ``translations/<name>.<language>.json`` in any rule-data folder
(library.py: the package, then each SHARED_RULES_PATH folder), where ``<name>`` is a ruleset
id or ``queries`` (the shared words of queries.json, the engine's own words among them)::

    {"ruleset": "yugioh", "language": "de",
     "lines": {"<path>": {"en": "<the English text translated>", "text": "<translation>"}}}

A path addresses one text for people (``text_paths``): keys joined by ``.``, a list item by
its ``id`` where it has one (``infractions[<id>].rules[<id>].explain``),
else by its index (``explain[1]``), so reordering a list does not mismatch. Ids, sources and
section names (citations), expressions (``when``, ``set``) and the ``document`` block are
data and are never translated.

A line is used only while its ``en`` is the English text at that path now and its ``text`` is
not empty; a stale line (the English changed) or a missing one shows the English. Those
English texts carry ``MARK`` in the translated data, and ``unmark`` takes it out of an answer
and lists where it was (``english``), so a screen can mark those lines and set lang="en" on
them. Numbers, penalty names and values come from the data through the placeholders
(``{path}``, ``{penalty:path}``, ``{label}``...), which must be the same in a translation as
in its English (``placeholder_problems``; the check and a test read every file).
"""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import library
from .errors import RuleError

ENGLISH = "en"
# the languages a request may ask for (the app's languages); English is the rule data itself
LANGUAGES = ("en", "de", "fr", "it", "es", "pt")
SHARED = "queries"  # the name of the shared words' translation files (queries.json)
MARK = "\ue000"  # a private-use character: begins a text shown in English in translated data

TEXT_KEYS = frozenset({"title", "level_label", "name", "summary", "explain", "note", "text", "resolution",
                       "remedy", "label", "condition", "question", "answer_text"})
NAME_MAPS = frozenset({"values", "names"})  # {value: its name} where the value is text
DATA_KEYS = frozenset({"document", "when", "set", "source", "sources", "id", "keywords", "show_with",
                       "$comment"})
_PLACEHOLDERS = re.compile(r"\{[^{}]*\}")


def check_language(language: Any) -> str:
    """The request's ``language`` (absent: English). Raises RuleError naming the known codes
    for anything else: a wrong code is a mistake of the caller, not a wish for English."""
    if language is None:
        return ENGLISH
    if language not in LANGUAGES:
        raise RuleError(f"unknown language {language!r}", field="language", allowed=list(LANGUAGES))
    return language


def text_paths(data: Any) -> dict[str, str]:
    """``{path: English text}`` of every text for people in a ruleset's (or queries.json's) data."""
    out: dict[str, str] = {}
    _walk(data, "", out)
    return out


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _walk(node: Any, path: str, out: dict[str, str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in DATA_KEYS:
                continue
            at = _join(path, key)
            if key in TEXT_KEYS and isinstance(value, str):
                out[at] = value
            elif key == "explain" and isinstance(value, list):
                for i, line in enumerate(value):
                    if isinstance(line, str):
                        out[f"{at}[{i}]"] = line
            elif key in NAME_MAPS and isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
                for name, text in value.items():
                    out[f"{at}.{name}"] = text
            else:
                _walk(value, at, out)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            key = item.get("id") if isinstance(item, dict) and isinstance(item.get("id"), str) else i
            _walk(item, f"{path}[{key}]", out)


def _set(data: Any, path: str, text: str) -> None:
    """Write ``text`` at ``path`` (a path of ``text_paths``) in ``data``, in place."""
    parts = re.findall(r"\[([^\]]*)\]|([^.\[\]]+)", path)
    node = data
    steps = [(index, key) for index, key in parts]
    for n, (index, key) in enumerate(steps):
        last = n == len(steps) - 1
        if key:
            if last:
                node[key] = text
            else:
                node = node[key]
            continue
        if isinstance(node, list):
            at = next((i for i, item in enumerate(node) if isinstance(item, dict) and item.get("id") == index), None)
            at = int(index) if at is None else at
            if last:
                node[at] = text
            else:
                node = node[at]


def files() -> dict[tuple[str, str], Path]:
    """``{(name, language): path}`` of every translation file over the rule-data folders.
    Raises RuleError for one (name, language) in two folders."""
    return _files(library.variable_state())


@lru_cache(maxsize=8)
def _files(_state: object) -> dict[tuple[str, str], Path]:
    found: dict[tuple[str, str], Path] = {}
    for folder in library.folders():
        for path in sorted((folder / "translations").glob("*.*.json")):
            name, language = path.name[:-len(".json")].rsplit(".", 1)
            if (name, language) in found:
                raise RuleError(f"translation {path.name} is in two folders: {found[name, language]} and {path}",
                                field="language")
            found[name, language] = path
    return found


FILE_KEYS = frozenset({"ruleset", "language", "lines"})  # what a translation file holds


@lru_cache(maxsize=64)
def read(path: Path) -> dict:
    """A translation file parsed (cached): ``{"ruleset", "language", "lines"}``. Raises
    RuleError for unreadable JSON or lines of the wrong shape."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RuleError(f"{path}: cannot read translation file: {error}", field="language") from None
    if isinstance(data, dict) and not data.keys() <= FILE_KEYS:
        unknown = sorted(set(data) - FILE_KEYS)[0]
        raise RuleError(f"{path}: unknown key {unknown!r} (a line belongs inside \"lines\")", field="language",
                        allowed=sorted(FILE_KEYS))
    lines = data.get("lines") if isinstance(data, dict) else None
    if not isinstance(lines, dict) or not all(
            isinstance(v, dict) and isinstance(v.get("en"), str) and isinstance(v.get("text"), str)
            for v in lines.values()):
        raise RuleError(f"{path}: lines must be {{path: {{\"en\", \"text\"}}}}", field="language")
    return data


def lines(name: str, language: str) -> dict[str, dict]:
    """The lines of one translation (empty where there is no file)."""
    path = files().get((name, language))
    return read(path)["lines"] if path is not None else {}


# Rule data already translated, handed in by the caller (give): {(name, language): data}.
_given: dict[tuple[str, str], dict] = {}
_served: set[str] = set()  # the languages translated() has answered in since the caches were cleared


def give(language: str, texts: dict[str, dict]) -> bool:
    """Take ``texts``, ``{name: data}`` (a ruleset id or SHARED: that data as ``translated``
    gives it in ``language``, MARK kept, as ``python -m shared_rules texts`` writes it), as
    the translations of ``language`` in place of translation files: the app's worker hands
    the engine the rule texts the app's catalog carries, so the engine package carries no
    translation file. Returns whether anything changed; when it did and the language has
    been used, every compiled ruleset is dropped (library.clear_caches). Raises RuleError
    for an unknown or English language or texts that are not objects."""
    if check_language(language) == ENGLISH:
        raise RuleError("English is the rule data itself: no texts to give", field="language",
                        allowed=[x for x in LANGUAGES if x != ENGLISH])
    if not isinstance(texts, dict) or not all(isinstance(v, dict) for v in texts.values()):
        raise RuleError("texts must be {name: translated data}", field="texts")
    changed = any(_given.get((name, language)) != data for name, data in texts.items())
    for name, data in texts.items():
        _given[name, language] = data
    if changed and language in _served:
        library.clear_caches()
    return changed


def translated(data: dict, name: str, language: str) -> dict:
    """A deep copy of ``data`` (a ruleset or queries.json) with every text whose translation is
    current replaced by it, and every other text (stale, missing) kept in English with MARK
    in front; where texts were given (give), a copy of those. English: ``data`` itself.
    Raises RuleError when given texts do not have ``data``'s texts (another version of it)."""
    if language == ENGLISH:
        return data
    _served.add(language)
    given = _given.get((name, language))
    if given is not None:
        if text_paths(given).keys() != text_paths(data).keys():
            raise RuleError(f"the {language} texts given for {name} do not fit its data (another version)",
                            field="language")
        return copy.deepcopy(given)
    out = copy.deepcopy(data)
    have = lines(name, language)
    for path, english in text_paths(data).items():
        line = have.get(path)
        if line is not None and line["en"] == english and line["text"]:
            _set(out, path, line["text"])
        else:
            _set(out, path, MARK + english)
    return out


def status(name: str, data: dict, language: str) -> dict[str, list[str]]:
    """``{"translated", "stale", "missing", "unknown"}``: the paths of one language's file by
    state (``unknown``: a line whose path the data no longer has)."""
    have = lines(name, language)
    out: dict[str, list[str]] = {"translated": [], "stale": [], "missing": [], "unknown": []}
    current = text_paths(data)
    for path, english in current.items():
        line = have.get(path)
        if line is None or not line["text"]:
            out["missing"].append(path)
        elif line["en"] != english:
            out["stale"].append(path)
        else:
            out["translated"].append(path)
    out["unknown"] = [p for p in have if p not in current]
    return out


def placeholder_problems(name: str, language: str) -> list[str]:
    """Lines of one translation whose placeholders differ from those of the English they
    translate (the same placeholders, each as often; order may differ)."""
    problems = []
    for path, line in lines(name, language).items():
        if not line["text"]:
            continue
        if sorted(_PLACEHOLDERS.findall(line["en"])) != sorted(_PLACEHOLDERS.findall(line["text"])):
            problems.append(f"{path}: placeholders {sorted(_PLACEHOLDERS.findall(line['text']))} "
                            f"differ from the English {sorted(_PLACEHOLDERS.findall(line['en']))}")
    return problems


def template(name: str, data: dict, language: str, folder: Path | None = None) -> Path:
    """Write (or update) the translation file of ``name`` in ``language``: every text path with
    its current English; a line already translated keeps its text and the English it
    translates (so a stale line stays visible as stale). Lines whose path is gone are
    dropped. Returns the file's path (the existing file's, else under ``folder`` or the
    package's ``translations``)."""
    if language == ENGLISH or language not in LANGUAGES:
        raise RuleError(f"no translation file for language {language!r}", field="language",
                        allowed=[x for x in LANGUAGES if x != ENGLISH])
    path = files().get((name, language)) or (folder or library.PACKAGE) / "translations" / f"{name}.{language}.json"
    have = read(path)["lines"] if path.exists() else {}
    out = {}
    for at, english in text_paths(data).items():
        line = have.get(at)
        out[at] = {"en": line["en"], "text": line["text"]} if line and line["text"] else {"en": english, "text": ""}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"ruleset": name, "language": language, "lines": out}, indent=1,
                               ensure_ascii=False) + "\n", encoding="utf-8")
    clear_caches()
    return path


def split_marks(value: Any, path: str = "") -> tuple[Any, list[str]]:
    """``(value without MARK, where it was)``: ``value`` (texts, lists and objects of them) with
    MARK taken out of every text, and the paths of the texts that carried it (shown in
    English because their translation is missing or stale), e.g. ``["title",
    "levels[0].name", "explain[2]", "needs[0].values[3].name"]``. The one walk that takes
    MARK out (strip, unmark, shared_rules.list_rulesets and the server's API replies use it)."""
    english: list[str] = []

    def clean(node: Any, where: str) -> Any:
        if isinstance(node, str):
            if MARK not in node:
                return node
            english.append(where)
            return node.replace(MARK, "")
        if isinstance(node, list):
            return [clean(item, f"{where}[{i}]") for i, item in enumerate(node)]
        if isinstance(node, dict):
            return {key: clean(item, f"{where}.{key}" if where else key) for key, item in node.items()}
        return node

    return clean(value, path), english


def unmark(answer: dict) -> dict:
    """The answer of a translated ruleset with MARK taken out of every text, and ``english``
    listing where it was (split_marks): ``["explain[2]", "notes[0]", "options[1].condition",
    "needs[0].label", "needs[0].values[3].name", "not_needed[0].label"]``."""
    clean, english = split_marks(answer)
    return {**clean, "english": english}


def strip(value: Any) -> Any:
    """``value`` (texts, lists and objects of them) with MARK taken out (split_marks), for
    data handed on whole (a translated ruleset's words for the app's forms)."""
    return split_marks(value)[0]


def clear_caches() -> None:
    """Forget the translation files found and read (library.clear_caches calls it); texts
    given (give) are kept."""
    _files.cache_clear()
    read.cache_clear()
    _served.clear()
