"""The app ships a trimmed Python standard library (pwa/build/python-stdlib.txt): this runs
Pyodide under Node with the full library, does what the app's engine worker does and runs
every case, and fails naming any module Python read that the trimmed library leaves out."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

PWA = Path(__file__).resolve().parent.parent / "pwa"


def test_the_engine_imports_no_module_left_out_of_the_trimmed_standard_library():
    if not shutil.which("node") or not (PWA / "node_modules" / "pyodide").exists():
        pytest.fail("node and pwa/node_modules are needed (bash .ci/setup installs them)")
    run = subprocess.run(["node", "build/stdlib-imports.mjs"], cwd=PWA, capture_output=True, text=True,
                         timeout=300)
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["missing"] == [], (
        f"the engine imports {report['missing']}, left out of pwa/build/python-stdlib.txt "
        "(node build/stdlib-imports.mjs --write lists them)")
    assert run.returncode == 0, run.stderr
    assert {"json", "re", "encodings.cp437"} <= set(report["used"])
