"""Server fixtures: the app on SQLite (a file of the test process) and, where
TEST_POSTGRES_URL is set, on PostgreSQL (a schema of its own), emptied after each test; a
settable server clock; a small client for the JSON API."""

import html
import os
import re
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


class SharedApps:
    """One app per database backend for each test process, its tables made once, and put back
    as new after each test: its tables emptied (ids start at 1 again), its settings as they were
    made, the process's per-app caches and rate limit counts gone. Making an app and its tables
    for each test was a third of the server tests' time. A test that needs other settings from
    the start calls make_app itself."""

    def __init__(self, folder_factory):
        self.folder_factory = folder_factory
        self.apps = {}

    def get(self, backend, request):
        if backend not in self.apps:
            app = make_app(backend, self.folder_factory.mktemp(f"app-{backend}"), request)
            with app.app_context():
                db.create_all()
                emptying = self._emptying(backend)
            self.apps[backend] = (app, dict(app.config), set(app.extensions), emptying)
        return self.apps[backend][0]

    @staticmethod
    def _emptying(backend) -> list[str]:
        """The statements that empty every table and start its ids at 1 again: on PostgreSQL one
        (one round trip; a DELETE per table is a quarter of TRUNCATE's time on tables this
        small), on SQLite one each (sqlite3 runs one statement per call)."""
        tables = list(reversed(db.metadata.sorted_tables))
        sql = [f'DELETE FROM "{t.name}"' for t in tables]
        with db.engine.connect() as conn:
            if backend == "postgres":
                for table in tables:
                    for column in table.primary_key.columns:
                        sequence = conn.execute(sa.text("SELECT pg_get_serial_sequence(:t, :c)"),
                                                {"t": table.name, "c": column.name}).scalar()
                        if sequence:
                            sql.append(f"ALTER SEQUENCE {sequence} RESTART")
            elif conn.execute(sa.text("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'")).first():
                sql.append("DELETE FROM sqlite_sequence")
        return [";\n".join(sql)] if backend == "postgres" else sql

    def reset(self, backend):
        app, config, extensions, emptying = self.apps[backend]
        app.config.clear()
        app.config.update(config)
        for key in set(app.extensions) - extensions:  # what the process kept for this app (the clock's cache)
            del app.extensions[key]
        app.extensions["client_limiter"].reset()
        with app.app_context():
            db.session.remove()
            with db.engine.begin() as conn:
                for statement in emptying:
                    conn.exec_driver_sql(statement)

    def close(self):
        for app, *_ in self.apps.values():
            with app.app_context():
                db.engine.dispose()


@pytest.fixture(scope="session")
def shared_apps(tmp_path_factory):
    apps = SharedApps(tmp_path_factory)
    yield apps
    apps.close()


@pytest.fixture(params=BACKENDS)
def app(request, shared_apps):
    """The app on each database backend, with its tables created and empty (SharedApps)."""
    yield shared_apps.get(request.param, request)
    shared_apps.reset(request.param)


@pytest.fixture
def sqlite_app(request, shared_apps):
    """The app on SQLite only (for what does not touch the database's behaviour)."""
    yield shared_apps.get("sqlite", request)
    shared_apps.reset("sqlite")


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




LOGIN = {"username": "organiser", "password": "letmein"}  # the first account (made from ORGANISER_PASSWORD)


def log_in(client, username="organiser", password="letmein"):
    """Log the test client in to the organiser pages (the first account, an admin, unless
    another login is given); `client.form(path, **data)` then posts a form with the
    session's token and follows the redirect."""
    res = client.post("/organiser/login", data={"username": username, "password": password})
    assert res.status_code == 302, res.get_data(as_text=True)
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


def replace_tables(client, slug, round_number, text, **fields):
    """Replace a round's tables through the pages as an organiser does: upload `text` (the
    pairings form's paste field), then confirm the preview. Returns the event page after."""
    preview = client.form(f"/organiser/events/{slug}/pairings", round=str(round_number), csv=text, **fields)
    return confirm_preview(client, preview)


def confirm_preview(client, preview):
    """Send the Confirm form of a pairings preview page (its hidden fields as they are)."""
    page = preview.get_data(as_text=True)
    form = page[page.index('id="confirm-form"'):]
    data = {name: html.unescape(value) for name, value in re.findall(r'name="(\w+)" value="([^"]*)"', form)}
    action = re.search(r'action="([^"]+)" id="confirm-form"', page).group(1)
    return client.post(action, data=data, follow_redirects=True)


def staff_client(app, organiser, event, name, role, login=None, password="correct horse battery"):
    """A new test client logged in as a person the `organiser` client invited to `event`
    (a dict with "slug") with `role`, who then chose `login` (their name in lower case by
    default) and `password` on their one-time link, as people do. Has `.form` (see log_in),
    `.account` (the account's id) and `.login`."""
    page = organiser.form(f"/organiser/events/{event['slug']}/staff", name=name, role=role).get_data(as_text=True)
    link = re.search(r'<code class="link">[^<]*(/organiser/welcome/[^<]+)</code>', page).group(1)
    client = app.test_client()
    client.get(link)
    with client.session_transaction() as session:
        token = session["csrf"]
    login = login or name.lower().replace(" ", ".")
    res = client.post(link, data={"csrf": token, "username": login, "password": password, "repeat": password})
    assert res.status_code == 302, html.unescape(res.get_data(as_text=True))
    log_in(client, login, password)
    client.account = int(re.search(r'data-account="(\d+)"[^>]*>\s*<td[^>]*class="lead">' + re.escape(name),
                                   organiser.get(f"/organiser/events/{event['slug']}").get_data(as_text=True)).group(1))
    client.login = login
    return client
