"""Server fixtures: an app per test on SQLite (a file in tmp_path) and, where
TEST_POSTGRES_URL is set, on PostgreSQL (a schema of its own, emptied after each test); a
settable server clock; a small client for the JSON API."""

import os
import secrets

import pytest
import sqlalchemy as sa
from server_helpers import T0, make_app

from server import timeutil
from server.extensions import db

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(scope="session")
def pg_url():
    """(URL, schema) of a fresh schema in the test PostgreSQL database, dropped at the end."""
    url = os.environ.get("TEST_POSTGRES_URL")
    if not url:
        pytest.skip("TEST_POSTGRES_URL is not set")
    schema = f"jc_server_{os.getpid()}_{secrets.token_hex(3)}"
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    yield url, schema
    with engine.begin() as conn:
        conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
    engine.dispose()


@pytest.fixture(params=BACKENDS)
def app(request, tmp_path):
    """The app on each database backend, with its tables created."""
    app = make_app(request.param, tmp_path, request)
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        if request.param == "postgres":
            names = ", ".join(f'"{t.name}"' for t in db.metadata.sorted_tables)
            db.session.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
            db.session.commit()
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def sqlite_app(tmp_path, request):
    """The app on SQLite only (for what does not touch the database's behaviour)."""
    app = make_app("sqlite", tmp_path, request)
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def now(monkeypatch):
    """The server clock, frozen at T0; `now.advance(ms)` moves it on."""

    class Clock:
        ms = T0

        def advance(self, ms):
            self.ms += ms

    clock = Clock()
    monkeypatch.setattr(timeutil, "now_ms", lambda: clock.ms)
    return clock


@pytest.fixture
def client(app):
    return app.test_client()




def log_in(client):
    """Log the test client in to the organiser pages; `client.form(path, **data)` then
    posts a form with the session's token and follows the redirect."""
    client.post("/organiser/login", data={"password": "letmein"})
    client.get("/organiser/")  # makes the session's form token
    with client.session_transaction() as session:
        token = session["csrf"]

    def post(path, data=None, **fields):
        return client.post(path, data={"csrf": token, **(data or {}), **fields}, follow_redirects=True)

    client.form = post
    return client


@pytest.fixture
def organiser(client, now):
    """The test client, logged in to the organiser pages (see log_in), on the frozen
    server clock (the session's expiry follows it)."""
    return log_in(client)
