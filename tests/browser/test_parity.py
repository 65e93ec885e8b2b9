"""Parity: every case in shared_rules/cases/ gives the same answer from window.judge.evaluate
in the browser (Pyodide in the worker) as from the engine in CPython, compared as JSON."""

import json

from shared_rules import RuleError, evaluate
from shared_rules.cases import load_case_files

from .conftest import ROOT, wait_python


def cpython_answer(request):
    try:
        return {"answer": json.loads(json.dumps(evaluate(request)))}
    except RuleError as err:
        return {"error": str(err)}


def test_every_case_gives_the_cpython_answer_in_the_browser(context, static_server):
    cases = [(case.id, case.request)
             for case in load_case_files(sorted((ROOT / "shared_rules" / "cases").glob("*.json")))]
    assert len(cases) > 50, "the case files should hold the catalog's cases"
    page = context.new_page()
    page.goto(static_server.url + "/")
    wait_python(page)
    got = page.evaluate("""async (requests) => Promise.all(requests.map((r) =>
        window.judge.evaluate(r).then((answer) => ({answer}), (err) => ({error: err.message}))))""",
                        [req for _, req in cases])
    mismatches = [(case_id, want, have) for (case_id, req), have in zip(cases, got, strict=True)
                  if (want := cpython_answer(req)) != have]
    assert not mismatches, f"{len(mismatches)} of {len(cases)} differ; first: {mismatches[0]}"

