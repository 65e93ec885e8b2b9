"""Parity: every case in shared_rules/cases/ gives the same answer from window.judge.evaluate
in the browser (Pyodide in the worker) as from the engine in CPython, compared as JSON; in
every language too (the phone's engine is handed the rule texts of the app's catalogs, the
server's reads the translation files)."""

import json

from shared_rules import RuleError, evaluate, translations
from shared_rules.cases import load_case_files

from .conftest import PHONE, ROOT, wait_python


def cpython_answer(request):
    try:
        return {"answer": json.loads(json.dumps(evaluate(request)))}
    except RuleError as err:
        return {"error": str(err)}


EVALUATE_ALL = """async (requests) => Promise.all(requests.map((r) =>
    window.judge.evaluate(r).then((answer) => ({answer}), (err) => ({error: err.message}))))"""


def test_every_case_gives_the_cpython_answer_in_the_browser(context, static_server):
    cases = [(case.id, case.request)
             for case in load_case_files(sorted((ROOT / "shared_rules" / "cases").glob("*.json")))]
    assert len(cases) > 50, "the case files should hold the catalog's cases"
    wanted = [cpython_answer(req) for _, req in cases]
    page = context.new_page()
    page.goto(static_server.url + "/")
    wait_python(page)
    assert page.evaluate("() => window.judge.state.from") == "fresh"
    assert_same(cases, wanted, page.evaluate(EVALUATE_ALL, [req for _, req in cases]))

    # A restart restores the interpreter from its memory snapshot: the answers stay the same.
    page.wait_for_function("() => window.judge.state.snapshot_bytes > 0", timeout=60_000)
    page.reload()
    wait_python(page)
    assert page.evaluate("() => window.judge.state.from") == "snapshot"
    assert_same(cases, wanted, page.evaluate(EVALUATE_ALL, [req for _, req in cases]))


def test_every_case_gives_the_cpython_answer_in_each_language_in_the_browser(browser, static_server):
    cases = [(f"{case.id} ({language})", {**case.request, "language": language})
             for case in load_case_files(sorted((ROOT / "shared_rules" / "cases").glob("*.json")))
             for language in translations.LANGUAGES[1:]]
    wanted = [cpython_answer(req) for _, req in cases]
    ctx = browser.returning(static_server.url, viewport=PHONE)
    try:
        page = ctx.new_page()
        page.goto(static_server.url + "/")
        wait_python(page)
        assert_same(cases, wanted, page.evaluate(EVALUATE_ALL, [req for _, req in cases]))
    finally:
        ctx.close()


def assert_same(cases, wanted, got):
    mismatches = [(case_id, want, have)
                  for (case_id, _), want, have in zip(cases, wanted, got, strict=True)
                  if want != have]
    assert not mismatches, f"{len(mismatches)} of {len(cases)} differ; first: {mismatches[0]}"

