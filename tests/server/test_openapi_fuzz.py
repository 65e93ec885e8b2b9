"""Schemathesis against the app: requests made from the OpenAPI document (valid ones and
ones that break it), without a token and with a judge's token, on the event's real slug and
on made-up ones. No answer may be a 5xx or differ from the document (status, content type,
body schema), and a request the document calls invalid must be refused."""

import json
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from server_helpers import Phone, add_event

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance, negative_data_rejection]
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "60"))  # per run below; 8 runs


@pytest.fixture
def target(sqlite_app):
    sqlite_app.config["STREAM_SECONDS"] = 0.2  # a push stream ends soon (it answers 200 and then holds on)
    event = add_event(sqlite_app, players=("Ada Brook", "Ben Carter"))
    phone = Phone(sqlite_app.test_client(), event, judge="Jo Judge")
    return sqlite_app, event, phone


RUNS = [(auth, mode, slug) for auth in ("anonymous", "judge")
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE) for slug in ("real", "made up")]


@pytest.mark.parametrize(("auth", "mode", "slug"), RUNS, ids=[f"{a}-{m.value}-{s}" for a, m, s in RUNS])
def test_the_api_matches_its_openapi_document(target, auth, mode, slug, root):
    app, event, phone = target
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    headers = phone.headers if auth == "judge" else {}
    fixed = {"slug": event["slug"]} if slug == "real" else None
    tried = []

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def run(data):
        case = data.draw(schema.as_strategy(generation_mode=mode, path_parameters=fixed))
        if fixed and "slug" in case.path_parameters:
            case.path_parameters["slug"] = event["slug"]
        tried.append(f"{case.method} {case.operation.path}")
        case.call_and_validate(headers=headers, checks=CHECKS)

    run()
    assert len(tried) == EXAMPLES
    counts = root / "test-artifacts" / "schemathesis.json"
    counts.parent.mkdir(exist_ok=True)
    known = json.loads(counts.read_text()) if counts.exists() else {}
    known[f"{auth}-{mode.value}-{slug}"] = {"examples": len(tried), "failures": 0,
                                            "operations": len(set(tried))}
    counts.write_text(json.dumps(known, indent=1, sort_keys=True))
