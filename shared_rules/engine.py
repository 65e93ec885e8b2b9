"""``evaluate(request)``: the one entry point that answers every query of every ruleset.

The CLI (``python -m shared_rules eval``), the server's evaluate endpoint and the browser
worker all call this function, so the same request gets the same answer everywhere.

An answer needs only the facts it depends on, and each answer field is decided on its own.
When the rules read a fact (or an event setting) the request did not give, the engine tries
each value the fact can take (true and false, each player, each level or penalty of the
ruleset, each value of a list) and evaluates again, up to ``MAX_EVALUATIONS`` evaluations per
request. A fact whose values cannot be listed (a number, a text, a per-player value), or one
met once the budget is spent, is given a stand-in value instead: the rules walk on, and the
fields the fact feeds (the ruleset's ``queries.<q>.feeds``, checked by lint against the rules,
feeds.py) are left open, as are the lines it shapes.

- A field that every possible answer gives the same value is decided: it is in the answer.
- A deciding field that still depends on a missing fact is *pending*: ``pending`` names it
  with the facts it waits on, the values it can take and on which answers (``outcomes``,
  where the facts could be tried), and a sentence saying so; the field itself keeps its
  default (or is left out).
- ``needs`` lists the facts some pending field waits on, in the order the rules read them
  (each with the fields it decides); a missing fact no pending field waits on is named in
  ``not_needed`` with a line saying every possible answer gives the same result.

Decision fields are the query's answer fields that decide (queries.json and the ruleset's
``answer`` declarations; those marked ``"decides": false`` only describe), ``options`` and
``stated``. A field that only describes is given where every answer agrees, else its default
(or left out), and is never pending. ``explain``, ``notes`` and ``sources`` keep the entries
every possible answer has, in order. Errors (``RuleError``) stay for malformed input only:
unknown ids, wrong types, values out of range, unknown fact names.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import event_settings, feeds, library, translations, units
from . import vocabulary as vocab
from .errors import MissingFact, RuleError
from .expr import ABSENT, split_path
from .facts import check_groups, checker, clone, copier
from .program import Compiler, locate, penalty_text

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
        self.units = units.of_query(words["answer"])  # answer fields given in steps
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
        self.answer_specs = words["answer"]
        # fields saying what to do before the next question: in a partial answer, as the rules
        # had them when they first read the fact asked first (never pending)
        self.as_asked = [f for f, spec in words["answer"].items() if spec.get("as_asked")]
        # what each fact the rules may ask feeds, as the ruleset declares it (feeds.py)
        self.feeds: dict[str, list[str]] = {path: list(fields) for path, fields in program.get("feeds", {}).items()}
        self._inputs = (ruleset, words, event_words, own_words)
        self._tagged: _Tagged | None = None
        self._compared: dict[str, list] | None = None

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

    def fresh(self) -> dict:
        """The answer an evaluation starts from: ruleset and query (where no rule uses those
        keys), then the defaults (lists and objects copied)."""
        answer = dict(self.start)
        for field, value, copy_of in self.container_defaults:
            answer[field] = copy_of(value)
        return answer

    def walk_standing_in(self, event: dict, facts: dict, stand_ins: tuple[str, ...]) -> tuple[Walk, MissingFact | None]:
        """``walk`` where the facts at the rooted paths ``stand_ins`` hold stand-in values: the
        lines, notes, sources and options those facts shape are left out (feeds.Flow.site_facts)."""
        tagged = self.tagged()
        infraction, programs = tagged.chosen.get(facts.get("infraction"), _NO_INFRACTION) if tagged.chosen \
            else _NO_INFRACTION
        answer = self.fresh()
        written: tuple[list, list, list, list] = ([], [], [], [])
        missing = None
        try:
            tagged.program(event, facts, answer, infraction, programs, *written)
        except MissingFact as stopped:
            missing = stopped
        except RuleError as error:
            raise locate(error) from None
        shaped = tagged.shaped.get(stand_ins)
        if shaped is None:
            shaped = tagged.shaped[stand_ins] = [any(feeds.related(fact, path) for fact in facts_ for path in stand_ins)
                                                 for facts_ in tagged.site_facts]
        explain, sources, notes, options = ([entry for entry, site in items if not shaped[site]] for items in written)
        return (answer, explain, dict.fromkeys(sources), dict.fromkeys(notes), options), missing

    def tagged(self) -> _Tagged:
        """The rules compiled with each line's site (program.Compiler ``tagged``) and the query's
        Flow, made the first time an answer needs a stand-in value."""
        if self._tagged is None:
            ruleset, words, event_words, own_words = self._inputs
            compiler = Compiler(ruleset, words["facts"], event_words, f"{ruleset.get('id')} {self.name} (tagged)",
                                list(self.defaults), own_words, tagged=True)
            program = compiler.function(ruleset["queries"][self.name].get("steps", []), f"queries.{self.name}.steps")
            chosen = {}
            for key, (infraction, _) in self.chosen.items():
                chosen[key] = (infraction, {name: compiler.function(value, f"infractions[{key}].{name}", infraction)
                                            for name, value in infraction.items() if name in ("rules", "then")})
            flow = feeds.Flow(ruleset, self.name, words, event_words)
            unknown = [tag for tag in compiler.tags if tag not in flow.sites]
            if unknown:  # feeds.py and program.py name sites alike; a line it cannot place is never kept blind
                raise RuleError(f"{self.ruleset_id} {self.name}: no site {unknown[0]} in the feeds analysis",
                                field=unknown[0][0])
            self._tagged = _Tagged(program, chosen, [flow.site_facts(*tag) for tag in compiler.tags], flow,
                                   frozenset(feeds.declared_fields(words)))
        return self._tagged

    def compared(self, path: str) -> list | None:
        """Values that try every way a number or per-player fact the rules only compare can be
        (feeds.stand_for), or None for a fact used otherwise."""
        if self._compared is None:
            ruleset, words, _, _ = self._inputs
            self._compared = feeds.stand_for(ruleset, self.name, words["facts"])
        return self._compared.get(path)

    def fed_by(self, path: str) -> list[str]:
        """The answer fields a missing fact leaves open: those the ruleset declares it feeds
        (``queries.<q>.feeds``; where it declares none, those the rules show), and the working
        fields it feeds."""
        tagged = self.tagged()
        fed = tagged.fed.get(path)
        if fed is None:
            found = tagged.flow.feeds(path)
            declared = self.feeds.get(path)
            if declared is None:
                declared = [f for f in found if f in tagged.declared]
            fed = tagged.fed[path] = declared + [f for f in found if f not in tagged.declared and f not in declared]
        return fed


class _Tagged:
    """A query's rules compiled with tags, its chosen infractions' the same, the facts behind
    each tag's site, its Flow and the fields a feeds declaration names; remembered: which sites
    each set of stand-ins shapes, and the fields each fact leaves open."""

    __slots__ = ("program", "chosen", "site_facts", "flow", "declared", "shaped", "fed")

    def __init__(self, program, chosen: dict, site_facts: list, flow: feeds.Flow, declared: frozenset):
        self.program, self.chosen, self.site_facts, self.flow, self.declared = \
            program, chosen, site_facts, flow, declared
        self.shaped: dict[tuple[str, ...], list[bool]] = {}
        self.fed: dict[str, list[str]] = {}


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
    (head-judge choices ``{"penalty", "condition", "source"}``) and ``option_penalties``.
    Where facts are missing, each field is decided on its own (see the module docstring):
    ``pending`` (``{field: {"facts": [paths], "outcomes"?: [{"value", "if": [{path: value}],
    "stated"?}], "text"?}}``) names each deciding field that still waits on them, ``needs``
    (``[{"path", "type", "label", "values"?, "minimum"?, "whole"?}]``) the facts they wait
    on in the order read, and ``not_needed`` (``[{"path", "label"}]``) the missing facts no
    field depends on.

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
        answer = search.answer(search.branch(event, facts, walk, missing), event)
    if query.units:
        answer = units.apply(answer, query.units, ruleset.words["words"]["unit_line"])
    if language == translations.ENGLISH:
        return answer
    answer["language"] = language
    return answer if marked else translations.unmark(answer)


def _required_text(request: dict, key: str) -> str:
    value = request.get(key)
    if type(value) is not str or not value:
        raise RuleError(f"request.{key} is required", field=key)
    return value


class _Part:
    """A pending answer field in the outcome of a search: ``waits``, the facts it waits on in
    the order read; ``cases``, ``[(value, unstated, alternatives)]``, each alternative the
    facts' values ``((path, value), ...)`` that give it, or None where a stand-in value hides
    them. A decided field is its value itself (ABSENT where no evaluation sets it)."""

    __slots__ = ("waits", "cases")

    def __init__(self, waits: tuple[str, ...], cases: list | None = None):
        self.waits, self.cases = waits, cases

    def __eq__(self, other: object) -> bool:
        return type(other) is _Part and self.waits == other.waits and self.cases == other.cases

    __hash__ = None  # type: ignore[assignment]


def _same(a: Any, b: Any) -> bool:
    """Whether two fields of outcomes are alike: the same decided value, or pending alike."""
    if a is b:
        return True
    if a is ABSENT or b is ABSENT or (type(a) is _Part) is not (type(b) is _Part):
        return False
    return a == b


class _Outcome:
    """What one branch of the search found: each field's part, and the explain lines, sources
    and notes every answer under it has."""

    __slots__ = ("fields", "explain", "sources", "notes")

    def __init__(self, fields: dict[str, _Part], explain: list, sources: list, notes: list):
        self.fields, self.explain, self.sources, self.notes = fields, explain, sources, notes


class _Search:
    def __init__(self, ruleset: Ruleset, query: Query):
        self.ruleset, self.query = ruleset, query
        self.evaluations = 0
        self.found: dict[str, MissingFact] = {}  # every missing fact met, in the order read
        self.asked_at: dict[str, dict] = {}  # the as-asked fields when each was first met
        self.names: dict[str, dict] = {}  # the names of each missing fact's values, by value
        self.behind_stand_ins: set[str] = set()  # missing facts first met past a stand-in value

    def explore(self, event: dict, facts: dict, stand_ins: tuple[str, ...] = ()) -> _Outcome:
        self.evaluations += 1
        walk, missing = self.query.walk_standing_in(event, facts, stand_ins) if stand_ins \
            else self.query.walk(event, facts)
        if missing is None:
            return self.leaf(walk, stand_ins)
        return self.branch(event, facts, walk, missing, stand_ins)

    def branch(self, event: dict, facts: dict, walk: Walk, missing: MissingFact,
               stand_ins: tuple[str, ...] = ()) -> _Outcome:
        """The outcome of a walk that stopped at ``missing``: each of its values tried in turn,
        or, where they cannot be listed or the budget is spent, one stand-in value."""
        if missing.path not in self.found:
            self.found[missing.path] = missing
            self.asked_at[missing.path] = {f: walk[0].get(f, ABSENT) for f in self.query.as_asked}
            if stand_ins:  # read only because of a stand-in value, perhaps: never said to be not needed
                self.behind_stand_ins.add(missing.path)
        values = vocab.enumerate_values(missing.spec)
        compared = values is None and self.query.compared(missing.path)
        if compared:  # a number the rules only compare: one value on each side of each comparison
            values = compared
        if values and self.evaluations + len(values) <= MAX_EVALUATIONS:
            return self.merge(missing.path, values, [self.explore(*self.assume(event, facts, missing.path, value),
                                                                  stand_ins) for value in values], bool(compared))
        try:
            return self.explore(*self.assume(event, facts, missing.path, values[0] if values and not compared
                                             else vocab.stand_in(missing.spec)), (*stand_ins, missing.path))
        except RuleError:  # the rules refuse the stand-in value: every field waits on the fact
            fields = {f: _Part((missing.path,)) for f in [*walk[0], *self.query.answer_specs, *feeds.ENGINE_FIELDS]}
            return _Outcome(fields, list(walk[1]), list(walk[2]), list(walk[3]))

    def leaf(self, walk: Walk, stand_ins: tuple[str, ...]) -> _Outcome:
        fields, explain, sources, notes, options = walk
        parts = dict(fields)
        parts["options"] = options
        for path in stand_ins:
            for field in self.query.fed_by(path):
                before = parts.get(field)
                parts[field] = _Part((*before.waits, path) if type(before) is _Part else (path,))
        return _Outcome(parts, explain, list(sources), list(notes))

    def merge(self, path: str, values: list, children: list[_Outcome], hidden: bool = False) -> _Outcome:
        """The outcome of trying each of ``values`` at the rooted ``path``: a field is decided
        where every child decides it alike, else pending on ``path`` and what it waits on below.
        ``hidden``: the values stand for ranges (Query.compared), so the outcomes are not named."""
        fields: dict[str, Any] = {}
        first, rest = children[0].fields, [child.fields for child in children[1:]]
        for key in dict.fromkeys(k for child in children for k in child.fields):
            known = first.get(key, ABSENT)
            if all(_same(known, other.get(key, ABSENT)) for other in rest):
                fields[key] = known
                continue
            parts = [child.fields.get(key, ABSENT) for child in children]
            waits = tuple(dict.fromkeys((path, *(w for part in parts if type(part) is _Part for w in part.waits))))
            cases: list | None = None if hidden else []
            penalty = (self.query.answer_specs.get(key) or {}).get("type") in vocab.PENALTY_TYPES
            for value, part, child in zip(values, parts, children, strict=True):
                if cases is None:
                    break
                assumed = ((path, value),)
                if type(part) is _Part:
                    if part.cases is None:
                        cases = None
                        break
                    for v, unstated, alts in part.cases:
                        _add_case(cases, v, unstated, tuple(assumed + alt for alt in alts))
                else:  # a penalty the policy does not state (null, with stated false) is not "no penalty"
                    _add_case(cases, part, penalty and part is None and child.fields.get("stated") is False,
                              (assumed,))
            fields[key] = _Part(waits, cases)
        explain, sources, notes = (_common([getattr(c, kind) for c in children]) for kind in ("explain", "sources",
                                                                                             "notes"))
        return _Outcome(fields, explain, sources, notes)

    def assume(self, event: dict, facts: dict, path: str, value: Any) -> tuple[dict, dict]:
        """(event, facts) with the value at the rooted ``path`` set, checked again (defaults filled).
        A value tried is one the fact's spec allows (vocab.enumerate_values, vocab.stand_in), so at
        the top level, where the fact was absent, the checked dict is the old one with the value added."""
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

    def answer(self, outcome: _Outcome, event: dict) -> dict:
        """The answer dict of a search (see the module docstring), event settings applied."""
        query = self.query
        fields: dict = {}
        for key, part in outcome.fields.items():
            if key == "options":
                continue
            if type(part) is not _Part:
                if part is not ABSENT:
                    fields[key] = part
            elif key in query.defaults:
                fields[key] = copy.deepcopy(query.defaults[key])
        options = outcome.fields.get("options")
        options = [dict(o) for o in options] if type(options) is list else []
        pending = {name: self.outcome_of(name, outcome.fields[name]) for name in [*query.decisions, "options"]
                   if type(outcome.fields.get(name)) is _Part}
        answer = _answer(query, fields, outcome.explain, outcome.sources, outcome.notes, options)
        if pending:
            answer["pending"] = pending
        answer = event_settings.apply(answer, event, self.ruleset.data, self.ruleset.words["words"])
        return self.finish(answer)

    def outcome_of(self, field: str, part: _Part) -> dict:
        """A pending field's entry: ``{"facts", "outcomes"?}``, each outcome ``{"value", "if":
        [{path: value, ...}, ...], "stated"?: false}`` (a value no evaluation sets is the
        field's default, or null); ``options`` and ``stated`` name their facts only."""
        entry: dict = {"facts": list(part.waits)}
        if part.cases is not None and field in self.query.answer_specs:  # (not options, stated)
            cases: list = []
            for value, unstated, alts in part.cases:
                _add_case(cases, self.query.defaults.get(field) if value is ABSENT else value, unstated, alts)
            entry["outcomes"] = [{"value": clone(value), "if": [{p: v for p, v in alt} for alt in alts],
                                  **({"stated": False} if unstated else {})} for value, unstated, alts in cases]
        return entry

    def finish(self, answer: dict) -> dict:
        """``needs``, ``not_needed`` (and their lines) and each pending field's text, from
        ``pending``; the keys in the answer's order."""
        pending = answer.pop("pending", {})
        pending = {name: pending[name] for name in [*self.query.decisions, "options"]
                   if name in pending and name not in self.query.as_asked}
        order = list(self.found)
        waited = sorted({p for entry in pending.values() for p in entry["facts"]}, key=order.index)
        for field in self.query.as_asked if waited else ():
            value = self.asked_at[waited[0]][field]
            if value is ABSENT:
                answer.pop(field, None)
            else:
                answer[field] = value
        needs = [self.describe(self.found[p]) for p in waited]
        not_needed = [m for p, m in self.found.items() if p not in waited and p not in self.behind_stand_ins]
        words = self.ruleset.words["words"]
        explain = answer.pop("explain") + [words["not_needed_line"].format(label=self.label(m)) for m in not_needed]
        for field, entry in pending.items():
            text = self.pending_text(field, entry)
            if text is not None:
                entry["text"] = text
        tail = {key: answer.pop(key) for key in ("sources", "notes", "options", "option_penalties")}
        if pending:
            answer["pending"] = pending
        if needs:
            answer["needs"] = needs
        if not_needed:
            answer["not_needed"] = [{"path": m.path, "label": self.label(m)} for m in not_needed]
        answer["explain"] = explain
        answer.update(tail)
        return answer

    def pending_text(self, field: str, entry: dict) -> str | None:
        """The sentence saying what a pending field depends on ("Penalty: Game Loss if ...: no;
        Disqualification if ...: yes."), in the ruleset's words; None for a field with no label."""
        spec = self.query.answer_specs.get(field) or {}
        label = spec.get("label")
        if not label:
            return None
        words = self.ruleset.words["words"]
        if "outcomes" not in entry:
            facts = ", ".join(self.label(self.found[p]) for p in entry["facts"])
            return words["pending_open"].format(label=label, facts=facts)
        outcomes = entry["outcomes"]
        if spec.get("type") in vocab.PENALTY_TYPES:
            outcomes = sorted(outcomes, key=self.severity)
        joiner = f", {words['or']} "
        cases = "; ".join(words["pending_case"].format(
            value=self.value_text(spec, o["value"], o.get("stated") is False),
            condition=joiner.join(self.condition_text(alt) for alt in o["if"])) for o in outcomes)
        return words["pending_cases"].format(label=label, cases=cases)

    def severity(self, outcome: dict) -> int:
        """Where an outcome's penalty stands in the ruleset's list, mildest first (none first)."""
        order = [p["id"] for p in self.ruleset.data.get("penalties", [])]
        value = outcome["value"]
        last = value[-1] if isinstance(value, list) and value else value
        return order.index(last) + 1 if last in order else 0

    def value_text(self, spec: dict, value: Any, unstated: bool = False) -> str:
        """An answer field's or a fact's value in the ruleset's words."""
        words = self.ruleset.words["words"]
        kind = spec.get("type")
        if value is None and unstated:
            return words["not_stated"]
        if kind in vocab.PENALTY_TYPES:
            names = {p["id"]: p.get("name", p["id"]) for p in self.ruleset.data.get("penalties", [])}
            return penalty_text(value, {None: words["no_penalty"], **names})
        if value is None:
            return words["nobody"] if kind in ("player", "player_or_null") else words["none"]
        if isinstance(value, bool):
            return words["yes"] if value else words["no"]
        if kind in ("player", "player_or_null", "result") and value in ("A", "B"):
            return words["player_value"].format(player=value)
        if kind == "result" and value == "draw":
            return words["draw"]
        if kind == "per_player" and isinstance(value, dict):
            return words["score"].format(A=value.get("A"), B=value.get("B"))
        named = (spec.get("values") or {}) if isinstance(spec.get("values"), dict) else {}
        if str(value) in named:
            return named[str(value)]
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    def condition_text(self, alternative: dict) -> str:
        """One way the facts can be for an outcome: "<fact>: <value> and <fact>: <value>"."""
        words = self.ruleset.words["words"]
        parts = []
        for path, value in alternative.items():
            missing = self.found[path]
            named = self.names.get(path)
            if named is None:
                named = self.names[path] = {v["id"]: v["name"] for v in self.describe(missing).get("values", [])}
            shown = named[value] if value in named and not isinstance(value, bool) \
                else self.value_text(missing.spec, value)
            parts.append(words["condition_fact"].format(label=self.label(missing), value=shown))
        return f" {words['and']} ".join(parts)

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
            options: list) -> dict:
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
    out["explain"] = explain
    out["sources"] = list(sources)
    out["notes"] = list(notes)
    out["options"] = options  # made afresh by this evaluation
    out["option_penalties"] = sorted({p for o in options for p in _as_list(o["penalty"]) if p}) if options else []
    return out


def _add_case(cases: list, value: Any, unstated: bool, alternatives: tuple) -> None:
    """Add the alternatives giving ``value`` to a pending field's cases (one case per value)."""
    for i, (known, known_unstated, known_alts) in enumerate(cases):
        if known_unstated == unstated and (known is value or (known is not ABSENT and value is not ABSENT
                                                              and known == value)):
            cases[i] = (known, unstated, known_alts + alternatives)
            return
    cases.append((value, unstated, alternatives))


def _common(lists: list[Iterable[str]]) -> list[str]:
    """Entries of the first list that every other list also has, in the first list's order."""
    others = [set(items) for items in lists[1:]]
    return [item for item in lists[0] if all(item in other for other in others)]


def _as_list(value: Any) -> list:
    return value if isinstance(value, list) else [value]
