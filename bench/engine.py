"""Engine benchmark: microseconds per query type (median, p99), and the time to load and compile
every ruleset.

Run: .venv/bin/python bench/engine.py [--repeat N]
Each case of every case file (the package's and SHARED_RULES_PATH folders') is a request; every
request is evaluated N times (default 200) after one warm-up call, and the timings are grouped
by query type. Requests whose answer needed more than one evaluation (a missing fact tried with
each value, or walked past with a stand-in: a partial answer) are counted in the table's
"searched" column, and timed together on a line of their own. Budget (BUDGETS): penalty median at most
20 µs, time_call at most 15 µs; the table's budget column says whether each median is within
it. The machine's load average is printed with the table: on a shared machine, run it several
times and take the median. This is a benchmark, not a test: it prints a table and asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shared_rules import case_files, engine, evaluate, library  # noqa: E402
from shared_rules.cases import load_case_files  # noqa: E402
from shared_rules.errors import RuleError  # noqa: E402

BUDGETS = {"penalty": 20.0, "time_call": 15.0}  # median microseconds


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def load_time_ms(rounds: int = 20) -> float:
    """Median milliseconds to read, parse and compile every ruleset file from disk."""
    samples = []
    for _ in range(rounds):
        library.clear_caches()
        start = time.perf_counter()
        for ruleset_id in library.ruleset_ids():
            engine.compiled_ruleset(ruleset_id)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def branched(request: dict) -> bool:
    """Whether answering took more than one evaluation (needs or not_needed)."""
    answer = evaluate(request)
    return "not_needed" in answer or len(answer.get("needs", [])) > 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    cases = load_case_files(case_files())
    timings: dict[str, list[float]] = defaultdict(list)
    searched: dict[str, int] = defaultdict(int)
    partial: list[float] = []  # the requests that searched (a partial answer, or a missing fact not needed)
    for case in cases:
        request = case.request
        try:
            was_searched = branched(request)
        except RuleError:
            continue
        searched[request["query"]] += was_searched
        for _ in range(args.repeat):
            start = time.perf_counter()
            evaluate(request)
            timings[request["query"]].append((time.perf_counter() - start) * 1e6)
            if was_searched:
                partial.append(timings[request["query"]][-1])
    load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "not known"
    print(f"Python {sys.version.split()[0]}, {len(cases)} cases x {args.repeat} calls, load average {load}")
    print(f"{'query':<18}{'calls':>8}{'median us':>12}{'p99 us':>10}{'searched':>10}{'budget':>10}")
    for query in sorted(timings):
        values = timings[query]
        median = statistics.median(values)
        budget = "" if query not in BUDGETS else "within" if median <= BUDGETS[query] else "OVER"
        print(f"{query:<18}{len(values):>8}{median:>12.1f}{percentile(values, 0.99):>10.1f}"
              f"{searched[query]:>10}{budget:>10}")
    if partial:
        print(f"searched requests, every query: median {statistics.median(partial):.1f} us, "
              f"p99 {percentile(partial, 0.99):.1f} us ({len(partial) // args.repeat} requests)")
    print(f"load and compile all rulesets: {load_time_ms():.2f} ms (median of 20)")


if __name__ == "__main__":
    main()
