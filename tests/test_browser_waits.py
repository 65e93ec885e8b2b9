"""The browser tests wait for conditions, never for a fixed time, and never with a wait that
cannot wait: page.wait_for_function takes any promise as true, so an async predicate given to
it passes at once (helpers.wait_resolved waits for one)."""

import re
from pathlib import Path

BROWSER_TESTS = Path(__file__).parent / "browser"
FIXED_WAITS = re.compile(r"\b(wait_for_timeout|time\.sleep)\(")
ASYNC_PREDICATE = re.compile(r"wait_for_function\(\s*(?:f|r)?[\"']{1,3}\s*async\b")


def problems(source: str) -> list[str]:
    """Each fixed wait and each async predicate handed to wait_for_function in `source`, as
    "line N: what"."""
    found = []
    for pattern, what in ((FIXED_WAITS, "a fixed wait"), (ASYNC_PREDICATE, "an async predicate for wait_for_function")):
        for match in pattern.finditer(source):
            found.append(f"line {source.count(chr(10), 0, match.start()) + 1}: {what}")
    return found


def test_the_checks_find_what_they_look_for():
    assert problems('page.wait_for_timeout(500)\nx = 1\n') == ["line 1: a fixed wait"]
    assert problems('x = 1\npage.wait_for_function(\n    "async () => (await f()) === 1")') == \
        ["line 2: an async predicate for wait_for_function"]
    assert problems('page.wait_for_function("() => window.ready")') == []


def test_no_browser_test_waits_a_fixed_time_or_on_a_promise():
    found = {path.name: problems(path.read_text()) for path in sorted(BROWSER_TESTS.glob("*.py"))}
    assert {name: lines for name, lines in found.items() if lines} == {}
