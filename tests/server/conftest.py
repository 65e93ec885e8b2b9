"""Server fixtures: an app per test on SQLite (a file in tmp_path) and, where
TEST_POSTGRES_URL is set, on PostgreSQL (a schema of its own, emptied after each test); a
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
