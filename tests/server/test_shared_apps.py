"""The server tests share one app per backend in each test process (conftest.SharedApps): what a
test leaves in it must be gone before the next test."""

import pytest
from conftest import BACKENDS, SharedApps
from server_helpers import Phone, add_event

from server.clock import cached_clock_state
from server.extensions import db
from server.models import Event


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_reset_app_has_empty_tables_its_settings_and_no_counts_or_caches(backend, request, tmp_path_factory):
    apps = SharedApps(tmp_path_factory)
    try:
        app = apps.get(backend, request)
        client = app.test_client()
        event = add_event(app)
        Phone(client, event)
        wrong = {"code": "NOPE0000", "device_name": "p", "judge_name": "j"}
        # the default limit (JOIN_LIMITS: 60 per 10 minutes) reached
        assert [client.post("/api/join", json=wrong).status_code for _ in range(61)][-2:] == [404, 429]
        limits = app.config["JOIN_LIMITS"]
        app.config["JOIN_LIMITS"] = "1 per hour"
        with app.app_context():
            cached_clock_state(db.session.get(Event, event["id"]))
        assert "clock_cache" in app.extensions

        apps.reset(backend)

        assert apps.get(backend, request) is app
        assert app.config["JOIN_LIMITS"] == limits
        assert "clock_cache" not in app.extensions
        assert client.post("/api/join", json=wrong).status_code == 404  # the count started again
        with app.app_context():
            assert db.session.scalars(db.select(Event)).all() == []
        assert add_event(app)["id"] == 1  # ids start again
    finally:
        apps.close()
