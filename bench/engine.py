"""Engine benchmark: microseconds per query type (median, p99) and the time to load every ruleset.

Run: .venv/bin/python bench/engine.py [--repeat N]
Each case of shared_rules/cases/*.json is a request; every request is evaluated N times
(default 200) after one warm-up call, and the timings are grouped by query type.
This is a benchmark, not a test: it prints a table and asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shared_rules import engine, evaluate  # noqa: E402
from shared_rules.cases import load_case_files  # noqa: E402
from shared_rules.errors import RuleError  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def load_time_ms(rounds: int = 20) -> float:
    """Median milliseconds to read and parse every ruleset file and the vocabulary from disk."""
    samples = []
    for _ in range(rounds):
        engine.load_ruleset.cache_clear()
        engine.vocabulary.cache_clear()
        start = time.perf_counter()
        for ruleset_id in engine.ruleset_ids():
            engine.load_ruleset(ruleset_id)
        engine.vocabulary()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    cases = load_case_files(sorted((ROOT / "shared_rules/cases").glob("*.json")))
    timings: dict[str, list[float]] = defaultdict(list)
    for case in cases:
        request = case.request
        try:
            evaluate(request)
        except RuleError:
            continue
        for _ in range(args.repeat):
            start = time.perf_counter()
            evaluate(request)
            timings[request["query"]].append((time.perf_counter() - start) * 1e6)
    print(f"Python {sys.version.split()[0]}, {len(cases)} cases x {args.repeat} calls")
    print(f"{'query':<18}{'calls':>8}{'median us':>12}{'p99 us':>10}")
    for query in sorted(timings):
        values = timings[query]
        print(f"{query:<18}{len(values):>8}{statistics.median(values):>12.1f}{percentile(values, 0.99):>10.1f}")
    print(f"load all rulesets: {load_time_ms():.2f} ms (median of 20)")


if __name__ == "__main__":
    main()
