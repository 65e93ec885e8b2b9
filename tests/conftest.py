"""Shared pytest fixtures and the suite's time per folder. Server and browser fixtures live in
their own folders' conftest files."""

import json
import time
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TIMES = ROOT / "test-artifacts" / "suite-times.json"


@pytest.fixture(scope="session")
def root() -> Path:
    """The project's top folder."""
    return ROOT


class SuiteTimes:
    """Seconds spent in each test folder (setup, call and teardown of its tests, summed over
    pytest-xdist's workers) and the run's wall time; written to test-artifacts/suite-times.json
    and printed at the end of the run (bench/suite_times.py runs the suite and reads them)."""

    def __init__(self):
        self.started = time.monotonic()
        self.seconds: dict[str, float] = defaultdict(float)
        self.tests: dict[str, set[str]] = defaultdict(set)

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report):
        folder = str(Path(report.nodeid.split("::")[0]).parent)
        self.seconds[folder] += report.duration
        self.tests[folder].add(report.nodeid)

    def summary(self) -> dict:
        return {"wall_seconds": round(time.monotonic() - self.started, 1),
                "folders": {folder: {"seconds": round(self.seconds[folder], 1), "tests": len(self.tests[folder])}
                            for folder in sorted(self.seconds)}}

    @pytest.hookimpl
    def pytest_terminal_summary(self, terminalreporter):
        out = self.summary()
        TIMES.parent.mkdir(exist_ok=True)
        TIMES.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
        parts = ", ".join(f"{folder} {v['seconds']:.0f} s ({v['tests']} tests)" for folder, v in out["folders"].items())
        terminalreporter.write_line(f"time per folder: {parts}; wall {out['wall_seconds']:.0f} s")


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist) only
        config.pluginmanager.register(SuiteTimes(), "suite-times")
