"""The test suite's time per folder, so its growth shows from one change to the next.

Run: .venv/bin/python bench/suite_times.py            # the figures of the last pytest run
     .venv/bin/python bench/suite_times.py --run [ARGS]  # run pytest (as .ci/test does) first
Every pytest run writes test-artifacts/suite-times.json (tests/conftest.py, SuiteTimes): per
folder the seconds its tests took (setup, call and teardown, summed over pytest-xdist's
workers, so they add up to more than the wall time when the workers run side by side), the
number of tests, and the run's wall time. Prints a table; asserts nothing (a benchmark, not a
test). Pass --budget MINUTES to say whether the wall time is within it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMES = ROOT / "test-artifacts" / "suite-times.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", nargs=argparse.REMAINDER, help="run pytest with these arguments first")
    parser.add_argument("--budget", type=float, default=12.0, help="minutes the pytest wall time should stay under")
    args = parser.parse_args()
    if args.run is not None:
        env = {"TEST_POSTGRES_URL": "postgresql+psycopg://postgres@127.0.0.1:5432/test", **os.environ}
        subprocess.run([sys.executable, "-m", "pytest", "-q", *args.run], cwd=ROOT, env=env, check=False)
    if not TIMES.exists():
        print("no run recorded yet: run the tests (or pass --run)", file=sys.stderr)
        return 1
    data = json.loads(TIMES.read_text(encoding="utf-8"))
    folders = data["folders"]
    width = max(len(f) for f in folders)
    print(f"{'folder':<{width}}  {'tests':>6}  {'seconds':>8}  share")
    total = sum(v["seconds"] for v in folders.values()) or 1
    for folder, v in sorted(folders.items(), key=lambda kv: -kv[1]["seconds"]):
        print(f"{folder:<{width}}  {v['tests']:>6}  {v['seconds']:>8.1f}  {v['seconds'] / total:>5.0%}")
    wall = data["wall_seconds"]
    verdict = "within" if wall <= args.budget * 60 else "OVER"
    print(f"pytest wall time {wall / 60:.1f} min ({verdict} the {args.budget:g}-minute budget); "
          f"test time summed over workers {total / 60:.1f} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
