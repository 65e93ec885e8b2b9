"""``evaluate(request)``: the one entry point that answers every query of every ruleset.

The CLI (``python -m shared_rules eval``), the server's evaluate endpoint and the browser
worker all call this function, so the same request gets the same answer everywhere.

An answer needs only the facts it depends on. When the rules read a fact (or an event
setting) the request did not give, the engine tries each value the fact can take (true and
false, each player, each level or penalty of the ruleset, each value of a list) and
evaluates again, up to ``MAX_EVALUATIONS`` evaluations per request:

- if every branch is complete and agrees on the decision fields, that is the answer; the
  fact is listed in ``not_needed`` and an explain line says it would not change the answer;
- otherwise the answer names what is missing in ``needs``: the fact read first, then the
  facts every branch needs after it, in the order the rules read them. A number, a text or a
  per-player value cannot be tried, so it is named at once.

Decision fields are the query's answer fields that decide (queries.json and the ruleset's
``answer`` declarations; those marked ``"decides": false`` only describe), ``options`` and
``stated``. Where branches differ on a field that does not decide, the answer gives the
field's default (or leaves it out). ``explain``, ``notes`` and ``sources`` keep the entries
every branch has, in order. Errors (``RuleError``) stay for malformed input only: unknown
ids, wrong types, values out of range, unknown fact names.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import event_settings, library, translations
from . import vocabulary as vocab
from .errors import MissingFact, RuleError
from .expr import ABSENT, split_path
from .facts import check_groups, checker, clone, copier
from .program import Compiler, locate

REQUEST_KEYS = ["ruleset", "query", "event", "facts", "language"]
_REQUEST_KEYS = frozenset(REQUEST_KEYS)
MAX_EVALUATIONS = 64


class Query:
    """One query of one ruleset, compiled: its fact checker, program and answer fields."""

    def __init__(self, name: str, ruleset: dict, words: dict, event_words: dict, own_words: dict[str, str]):
        self.name = name
        self.ruleset_id = ruleset.get("id")
        compiler = Compiler(ruleset, words["facts"], event_words, f"{ruleset.get('id')} {name}",
                            [f for f, spec in words["answer"].items() if "default" in spec], own_words)
        program = ruleset["queries"][name]
        self.program = compiler.function(program.get("steps", []), f"queries.{name}.steps")
        self.check_facts = checker(words["facts"], "facts")
        self.groups = words["at_most_one_of"]
        # (field, rules) of each check: the rules halt, saying why, when the facts cannot be so
        self.checks = [(check["field"], compiler.function([{"when": check["when"], "explain": check["text"],
                                                            "halt": True}], f"queries.{name}.checks[{check['id']}]"))
                       for check in words["checks"]]
        self.defaults = {f: spec["default"] for f, spec in words["answer"].items() if "default" in spec}
        self.decisions = [f for f, spec in words["answer"].items() if spec.get("decides", True)] + ["stated"]
        self.infractions: dict[str, dict] = {}
        if name == "penalty":
            for infraction in ruleset.get("infractions", []):
                self.infractions[infraction["id"]] = {
                    key: compiler.function(value, f"infractions[{infraction['id']}].{key}", infraction)
                    for key, value in infraction.items() if key in ("rules", "then")}
        by_id = {i["id"]: i for i in ruleset.get("infractions", [])}
        # the chosen infraction's data and rule lists, by id (the penalty query only)
        self.chosen = {key: (by_id[key], programs) for key, programs in self.infractions.items()}
        # the answer starts as ruleset, query (unless a rule uses those keys), then the defaults
        self.prefilled = not compiler.uses_answer_keys
        self.start = {"ruleset": self.ruleset_id, "query": name} if self.prefilled else {}
        self.start.update(self.defaults)
        self.container_defaults = [(f, v, copier(v)) for f, v in self.defaults.items() if type(v) in _CONTAINERS]
        self.container_fields = sorted(compiler.container_fields(self.defaults))  # the answer copies these

    def refuse_impossible(self, event: dict, facts: dict) -> None:
        """Raise RuleError (the check's text, its ``field``) for the first of the query's
        ``checks`` (vocabulary.py) that holds; a check reading a fact not given does not apply."""
        for field, rules in self.checks:
            said: list[str] = []
            try:
                halted = rules(event, facts, {}, None, {}, said, {}, {}, [])
            except MissingFact:
                continue
            except RuleError as error:
                raise locate(error) from None
            if halted:
                raise RuleError(said[0].replace(translations.MARK, ""), field=field)

    def walk(self, event: dict, facts: dict) -> tuple[Walk, MissingFact | None]:
        """One evaluation of the rules: what they wrote (stopped at a missing fact, if any)."""
        infraction, programs = self.chosen.get(facts.get("infraction"), _NO_INFRACTION) if self.chosen \
            else _NO_INFRACTION
        answer = dict(self.start)
        for field, value, copy_of in self.container_defaults:
            answer[field] = copy_of(value)
        explain: list[str] = []
        sources: dict[str, None] = {}
        notes: dict[str, None] = {}
        options: list[dict] = []
        walk = (answer, explain, sources, notes, options)
        try:
            self.program(event, facts, answer, infraction, programs, explain, sources, notes, options)
        except MissingFact as missing:
            return walk, missing
        except RuleError as error:
            raise locate(error) from None
        return walk, None


# What one evaluation wrote: the answer fields, explain lines, sources and notes (dicts kept as
# ordered sets) and options.
Walk = tuple[dict, list, dict, dict, list]
_NO_INFRACTION: tuple[None, dict] = (None, {})


class Ruleset:
    """A ruleset file, its merged vocabulary and every query compiled once, in one language
    (``data`` then holds the translated texts, translations.py)."""

    def __init__(self, data: dict, language: str = translations.ENGLISH):
        self.language = language
        self.data = translations.translated(data, data.get("id"), language)
        data = self.data
        self.words = vocab.for_ruleset(data, vocab.shared_in(language))
        self.check_event_values = checker(self.words["event"], "event")
        self.events: dict[tuple, dict] = {}  # checked event contexts by names, values and their types
        self.infractions = {i["id"]: i for i in data.get("infractions", [])}
        self.queries = {name: Query(name, data, words, self.words["event"], self.words["words"])
                        for name, words in self.words["queries"].items()}

    def check_event(self, values: Any) -> dict:
        """The event context checked (``checker``), remembered by value: most requests of an
        event carry the same few settings. The rules only read the checked dict. The key is the
        (name, value) pairs, then each value's type (1, 1.0 and True are equal keys); floats
        (0.0 == -0.0), lists and objects are not remembered."""
        if values.__class__ is not dict:
            return self.check_event_values(values)
        key = (*values.items(), *map(type, values.values()))
        try:
            return self.events[key]
        except KeyError:
            if float in key:
                return self.check_event_values(values)
        except TypeError:  # a list or object among the values
            return self.check_event_values(values)
        checked = self.check_event_values(values)
        if len(self.events) >= EVENT_CACHE_SIZE:
            self.events.clear()
        self.events[key] = checked
        return checked


EVENT_CACHE_SIZE = 256


@lru_cache(maxsize=64)
def compiled(path: Path, language: str = translations.ENGLISH) -> Ruleset:
    """The ruleset file at ``path``, compiled in ``language`` (cached). Raises RuleError for
    malformed data."""
    return Ruleset(library.read_ruleset(path), language)


def compiled_ruleset(ruleset_id: str, language: str = translations.ENGLISH) -> Ruleset:
    """The compiled ruleset of this id in ``language`` (translations.LANGUAGES; English by
    default). Raises RuleError for an unknown id or malformed data."""
    key = (library.variable_state(), ruleset_id, language)
    found = _by_id.get(key)
    if found is None:
        found = _by_id[key] = compiled(library.ruleset_path(ruleset_id), language)
    return found


_by_id: dict[tuple[object, str, str], Ruleset] = {}


def forget_compiled() -> None:
    """Drop compiled rulesets looked up by id (library.clear_caches calls it)."""
    _by_id.clear()


def list_rulesets(language: str | None = None) -> list[dict]:
    """``[{"id", "title", "version", "level_label", "levels": [{"id", "name"}], "best_of",
    "defaults", "queries"}]`` for every ruleset found (library.py); with a ``language``
    (translations.LANGUAGES, checked), title, level label and level names in it where
    translated, and ``language`` and ``english`` (the fields shown in English,
    translations.split_marks: ``["title", "levels[0].name"]``) added."""
    out = []
    lang = translations.check_language(language)
    for ruleset_id in library.ruleset_ids():
        data = library.load_ruleset(ruleset_id) if lang == translations.ENGLISH \
            else compiled_ruleset(ruleset_id, lang).data
        entry = {
            "id": ruleset_id,
            "title": data.get("title"),
            "version": data.get("document", {}).get("version"),
            "level_label": data.get("level_label"),
            "levels": [{"id": lv["id"], "name": lv.get("name", lv["id"])} for lv in data.get("levels", [])],
            "best_of": data.get("best_of"),
            "defaults": {k: v for k, v in data.get("defaults", {}).items() if k in vocab.shared()["event"]},
            "queries": sorted(data.get("queries", {})),
        }
        if language is not None:
            entry, english = translations.split_marks(entry)
            entry = {**entry, "language": lang, "english": english}
        out.append(entry)
    return out


def check_event_settings(ruleset_id: str, settings: dict) -> dict:
    """An event's settings checked the way every answer checks its event context, for the
    places that set them (creating an event, changing its stage): ``{"level", "stage",
    "games_per_match", "round_minutes", ...}`` (None for not set) -> the settings with the
    ruleset's defaults filled in. A level is required where the ruleset has levels (an
    event always runs at one). Raises RuleError naming the field (``event.games_per_match``)
    and the allowed values, for an unknown ruleset too.
    """
    ruleset = compiled_ruleset(ruleset_id)
    out = ruleset.check_event_values({k: v for k, v in settings.items() if v is not None})
    level = ruleset.words["event"].get("level")
    if level is not None and "level" not in out:
        raise RuleError(f"event.level is required for ruleset {ruleset_id}", field="event.level",
                        allowed=level["values"])
    return out


def evaluate(request: Any, marked: bool = False) -> dict:
    """Answer one request ``{"ruleset", "query", "event", "facts", "language"?}`` (event and
    facts may be omitted).

    Returns a JSON-ready dict: ``ruleset``, ``query``, the query's answer fields (defaults
    from the vocabulary, then whatever the ruleset's rules set), ``explain`` (lines to read
    out), ``sources`` (document and section of every rule applied), ``notes``, ``options``
    (head-judge choices ``{"penalty", "condition", "source"}``) and ``option_penalties``;
    ``needs`` (``[{"path", "type", "label", "values"?}]``) while a missing fact decides the
    answer, and ``not_needed`` (``[{"path", "label"}]``) for missing facts it does not
    depend on (see the module docstring).

    Raises RuleError for an unknown ruleset, query, level or infraction, a malformed or
    unknown fact, or facts a query's ``checks`` refuse as impossible together (queries.json:
    time_call's game wins beyond what the match allows).

    In a language other than English the answer also has ``language`` and ``english`` (the
    texts shown in English for want of a current translation, translations.unmark); with
    ``marked`` those texts keep translations.MARK in front instead and ``english`` is left
    out, for pages that mark them as translated rule data is marked (the server's pages).
    """
    if type(request) is not dict:
        raise RuleError("a request must be an object", field="request", allowed=REQUEST_KEYS)
    if not request.keys() <= _REQUEST_KEYS:
        unknown = sorted(set(request) - _REQUEST_KEYS)[0]
        raise RuleError(f"unknown request field {unknown!r}", field=unknown, allowed=REQUEST_KEYS)
    language = translations.check_language(request.get("language"))
    ruleset = compiled_ruleset(_required_text(request, "ruleset"), language)
    name = _required_text(request, "query")
    query = ruleset.queries.get(name)
    if query is None:
        if name not in vocab.shared()["queries"]:
            raise RuleError(f"unknown query {name!r}", field="query", allowed=sorted(vocab.shared()["queries"]))
        raise RuleError(f"ruleset {ruleset.data['id']} has no {name!r} query", field="query",
                        allowed=sorted(ruleset.queries))
    event = ruleset.check_event(request.get("event"))
    facts = query.check_facts(request.get("facts"))
    if query.groups:
        check_groups(facts, query.groups)
    query.refuse_impossible(event, facts)
    walk, missing = query.walk(event, facts)
    if missing is None:  # the rules read nothing the request lacks: one evaluation is the answer
        answer = event_settings.apply(_answer(query, *walk), event, ruleset.data, ruleset.words["words"])
    else:
        search = _Search(ruleset, query)
        search.evaluations = 1
        answer = event_settings.apply(search.answer(search.branch(event, facts, walk, missing)), event,
                                      ruleset.data, ruleset.words["words"])
    if language == translations.ENGLISH:
        return answer
    answer["language"] = language
    return answer if marked else translations.unmark(answer)


def _required_text(request: dict, key: str) -> str:
    value = request.get(key)
    if type(value) is not str or not value:
        raise RuleError(f"request.{key} is required", field=key)
    return value


class _Outcome:
    """What one branch of the search found: complete, the walks of every complete answer
    under it (to merge) and the missing facts found not to matter; else the walk stopped at
    the missing fact and what the answer needs."""

    __slots__ = ("walks", "complete", "needs", "not_needed")

    def __init__(self, walks: list[Walk], complete: bool, needs: list[MissingFact],
                 not_needed: list[MissingFact]):
        self.walks, self.complete, self.needs, self.not_needed = walks, complete, needs, not_needed


class _Search:
    def __init__(self, ruleset: Ruleset, query: Query):
        self.ruleset, self.query = ruleset, query
        self.evaluations = 0

    def explore(self, event: dict, facts: dict) -> _Outcome:
        self.evaluations += 1
        walk, missing = self.query.walk(event, facts)
        if missing is None:
            return _Outcome([walk], True, [], [])
        return self.branch(event, facts, walk, missing)

    def branch(self, event: dict, facts: dict, walk: Walk, missing: MissingFact) -> _Outcome:
        """The outcome of a walk that stopped at ``missing``: each of its values tried in turn."""
        values = vocab.enumerate_values(missing.spec)
        if not values or self.evaluations + len(values) > MAX_EVALUATIONS:
            return _Outcome([walk], False, [missing], [])
        branches = [self.explore(*self.assume(event, facts, missing.path, value)) for value in values]
        if all(b.complete for b in branches):
            walks = [w for branch in branches for w in branch.walks]
            if self.agree(walks):
                not_needed = _unique([missing, *(m for b in branches for m in b.not_needed)])
                return _Outcome(walks, True, [], not_needed)
        later = [m for m in branches[0].needs if all(any(n.path == m.path for n in b.needs) for b in branches[1:])]
        # what is known so far is what the walk found before it reached the missing fact
        return _Outcome([walk], False, _unique([missing, *later]), [])

    def assume(self, event: dict, facts: dict, path: str, value: Any) -> tuple[dict, dict]:
        """(event, facts) with the value at the rooted ``path`` set, checked again (defaults filled).
        A value tried is one the fact's spec lists (vocab.enumerate_values), so at the top level,
        where the fact was absent, the checked dict is the old one with the value added."""
        root, parts = split_path(path)
        if len(parts) == 1:
            target = dict(event if root == "event" else facts)
            target[parts[0]] = value
            return (target, facts) if root == "event" else (event, target)
        target = dict(event if root == "event" else facts)
        at = target
        for part in parts[:-1]:
            inner = at.get(part)
            at[part] = dict(inner) if isinstance(inner, dict) else {}
            at = at[part]
        at[parts[-1]] = value
        if root == "event":
            return self.ruleset.check_event(target), facts
        return event, self.query.check_facts(target)

    def agree(self, walks: list[Walk]) -> bool:
        fields = self.query.decisions
        first = walks[0]
        wanted = ([first[0].get(f, ABSENT) for f in fields], first[4])
        return all(([w[0].get(k, ABSENT) for k in fields], w[4]) == wanted for w in walks[1:])

    def answer(self, outcome: _Outcome) -> dict:
        walks = outcome.walks
        if len(walks) == 1:
            fields, explain, sources, notes, options = walks[0]
        else:
            fields = self.merged_fields(walks)
            explain, sources, notes = (_common([w[kind] for w in walks]) for kind in (1, 2, 3))
            options = walks[0][4] if all(w[4] == walks[0][4] for w in walks) else []
            options = [dict(o) for o in options]
        needs = [self.describe(m) for m in outcome.needs]
        not_needed = [{"path": m.path, "label": self.label(m)} for m in outcome.not_needed]
        if not_needed:
            line = self.ruleset.words["words"]["not_needed_line"]
            explain = explain + [line.format(label=self.label(m)) for m in outcome.not_needed]
        return _answer(self.query, fields, explain, sources, notes, options, needs, not_needed)

    def merged_fields(self, walks: list[Walk]) -> dict:
        keys = list(dict.fromkeys(k for w in walks for k in w[0]))
        out = {}
        for key in keys:
            first = walks[0][0].get(key, ABSENT)
            if all(w[0].get(key, ABSENT) == first for w in walks[1:]):
                if first is not ABSENT:
                    out[key] = first
            elif key in self.query.defaults:
                out[key] = copy.deepcopy(self.query.defaults[key])
        return out

    def label(self, missing: MissingFact) -> str:
        if missing.path == "event.level":
            return (self.ruleset.data.get("level_label") or self.ruleset.words["words"]["level"]).lower()
        return missing.spec.get("summary") or missing.path.rsplit(".", 1)[-1].replace("_", " ")

    def describe(self, missing: MissingFact) -> dict:
        """``{"path", "type", "label", "values"?, "minimum"?, "whole"?}`` of a fact the answer
        needs (``minimum`` and ``whole`` for a number or a per-player value)."""
        spec = missing.spec
        entry = {"path": missing.path, "type": spec["type"], "label": self.label(missing)}
        data = self.ruleset.data
        if missing.path == "event.level":
            entry["values"] = [{"id": lv["id"], "name": lv.get("name", lv["id"])} for lv in data.get("levels", [])]
        elif spec["type"] in vocab.PENALTY_TYPES:
            entry["values"] = [{"id": p["id"], "name": p.get("name", p["id"])} for p in data.get("penalties", [])]
        elif spec["type"] == "enum":
            names = spec.get("names", {})
            if missing.path == "facts.infraction":
                names = {i["id"]: i.get("name", i["id"]) for i in data.get("infractions", [])}
            entry["values"] = [{"id": v, "name": names.get(str(v), str(v))} for v in spec["values"]]
        elif spec["type"] in vocab.NUMBER_TYPES:
            entry.update(vocab.number_bounds(spec))
        return entry


_CONTAINERS = (dict, list)


def _answer(query: Query, fields: dict, explain: list, sources: Iterable[str], notes: Iterable[str],
            options: list, needs: list | None = None, not_needed: list | None = None) -> dict:
    """The answer dict: ruleset, query, the fields (lists and objects copied), then what the engine writes."""
    if query.prefilled:
        out = dict(fields)
    else:
        out = {"ruleset": query.ruleset_id, "query": query.name}
        out.update(fields)
    for key in query.container_fields:
        value = fields.get(key)
        if value.__class__ in _CONTAINERS:
            out[key] = clone(value)
    if needs:
        out["needs"] = needs
    if not_needed:
        out["not_needed"] = not_needed
    out["explain"] = explain
    out["sources"] = list(sources)
    out["notes"] = list(notes)
    out["options"] = options  # made afresh by this evaluation
    out["option_penalties"] = sorted({p for o in options for p in _as_list(o["penalty"]) if p}) if options else []
    return out


def _unique(missing: list[MissingFact]) -> list[MissingFact]:
    seen: dict[str, MissingFact] = {}
    for m in missing:
        seen.setdefault(m.path, m)
    return list(seen.values())


def _common(lists: list[Iterable[str]]) -> list[str]:
    """Entries of the first list that every other list also has, in the first list's order."""
    others = [set(items) for items in lists[1:]]
    return [item for item in lists[0] if all(item in other for other in others)]


def _as_list(value: Any) -> list:
    return value if isinstance(value, list) else [value]
