"""The app as a whole: configuration, OpenAPI document, error shape, migrations, the judge
app's files, and the CLI."""

import gzip
import json

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from conftest import log_in
from flask_migrate import upgrade
from server_helpers import Phone, add_event, make_app

import shared_rules
from server import create_app
from server.config import database_url
from server.extensions import db


@pytest.mark.parametrize(("given", "expected"), [
    (None, "sqlite:////inst/judge.sqlite3"),
    ("postgres://u:p@h/db", "postgresql+psycopg://u:p@h/db"),
    ("postgresql://u@h/db", "postgresql+psycopg://u@h/db"),
    ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
])
def test_database_url_comes_from_the_environment(monkeypatch, given, expected):
    if given is None:
        monkeypatch.delenv("DATABASE_URL", raising=False)
    else:
        monkeypatch.setenv("DATABASE_URL", given)
    assert database_url("/inst") == expected


def test_sqlite_files_use_wal_so_clock_reads_go_on_during_a_sync(sqlite_app):
    with sqlite_app.app_context():
        assert db.session.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(sa.text("PRAGMA busy_timeout")).scalar() == 10000


def test_without_secret_key_one_random_key_is_made_and_kept(tmp_path):
    from types import SimpleNamespace

    from server import _instance_secret_key

    app = SimpleNamespace(instance_path=str(tmp_path))
    first = _instance_secret_key(app)
    assert len(first) == 64 and _instance_secret_key(app) == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret_key"]


def test_the_openapi_document_lists_the_api(sqlite_app):
    spec = sqlite_app.test_client().get("/api/openapi.json").get_json()
    assert {"/api/time", "/api/rulesets", "/api/rulesets/{ruleset_id}", "/api/rulesets/{ruleset_id}/evaluate",
            "/api/events/{slug}/clock", "/api/join", "/api/events/{slug}", "/api/events/{slug}/sync"} \
        <= set(spec["paths"])
    schemas = spec["components"]["schemas"]
    assert {"SyncIn", "RecordIn", "PenaltyPayload", "TimeExtensionPayload", "VoidPayload"} <= set(schemas)
    assert schemas["TimeExtensionPayload"]["properties"]["reason"]["enum"] == [
        "judge_pause", "deck_check", "tardiness", "ruling"]


def test_unknown_api_paths_and_methods_use_the_error_shape(sqlite_app):
    client = sqlite_app.test_client()
    assert client.get("/api/nothing").get_json()["error"]["code"] == "not_found"
    res = client.delete("/api/time")
    assert (res.status_code, res.get_json()["error"]["code"]) == (405, "method_not_allowed")
    res = client.post("/api/join", data="{not json", content_type="application/json")
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "bad_request")


def test_a_body_over_the_size_limit_is_413(sqlite_app):
    sqlite_app.config["MAX_CONTENT_LENGTH"] = 1000
    res = sqlite_app.test_client().post("/api/join", json={"code": "x" * 2000})
    assert res.status_code == 413
    assert res.get_json()["error"]["code"] == "too_large"


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_migrations_build_the_schema_the_models_describe(tmp_path, request, backend):
    from server_helpers import make_app

    if backend == "postgres":
        url, _ = request.getfixturevalue("pg_url")
        schema = "jc_migrate_test"
        engine = sa.create_engine(url)
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE; CREATE SCHEMA "{schema}"'))
        app = create_app({"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url, "SQLALCHEMY_ENGINE_OPTIONS": {
            "connect_args": {"options": f"-csearch_path={schema}"}}})
    else:
        app = make_app("sqlite", tmp_path, request)
    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)
        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
        db.engine.dispose()
    if backend == "postgres":
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()
    assert diff == []


def test_the_player_key_migration_folds_the_names_of_stored_records_and_back(tmp_path, request):
    from flask_migrate import downgrade

    app = make_app("sqlite", tmp_path, request)
    directory = app.extensions["migrate"].directory
    with app.app_context():
        upgrade(directory=directory)
    event = add_event(app)
    phone = Phone(app.test_client(), event)
    typed, listed = phone.penalty("Ada  BROOK"), phone.penalty(event["players"]["Ben Carter"])
    extension = phone.record("time_extension", {"table": 1, "round": 1, "minutes": 3, "reason": "deck_check"})
    assert [r["status"] for r in phone.sync([typed, listed, extension])["results"]] == ["accepted"] * 3

    def column():
        with db.engine.connect() as conn:
            return dict(conn.execute(sa.text("SELECT id, player FROM records")).all())

    ben = str(event["players"]["Ben Carter"])
    with app.app_context():
        written = column()
        downgrade(directory=directory, revision="0005_calls")
        before = column()
        upgrade(directory=directory)
        after = column()
        db.engine.dispose()
    assert written == after == {typed["id"]: "name:ada brook", listed["id"]: ben, extension["id"]: None}
    assert before == {typed["id"]: "Ada  BROOK", listed["id"]: ben, extension["id"]: None}


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_the_accounts_migration_goes_down_and_up_again(tmp_path, request, backend):
    """0007_accounts both ways with data in its tables: down drops the accounts, roles,
    links, audit log and mappings, ends the sessions and keeps every device (without its
    account); up again builds what the models describe."""
    from flask_migrate import downgrade

    from server.accounts import invite
    from server.models import Device, Event

    if backend == "postgres":
        url, _ = request.getfixturevalue("pg_url")
        schema = "jc_migrate_accounts"
        engine = sa.create_engine(url)
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE; CREATE SCHEMA "{schema}"'))
        app = create_app({"SECRET_KEY": "test", "ORGANISER_PASSWORD": "letmein", "SQLALCHEMY_DATABASE_URI": url,
                          "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={schema}"}}})
    else:
        app = make_app("sqlite", tmp_path, request)
    directory = app.extensions["migrate"].directory
    with app.app_context():
        upgrade(directory=directory)
    event = add_event(app)
    organiser = log_in(app.test_client())
    organiser.form(f"/organiser/events/{event['slug']}/join-code")  # an audit entry
    with app.app_context():
        account, _ = invite(db.session.get(Event, event["id"]), "Sam Score", "scorekeeper")
        phone = Device(event_id=event["id"], name="p", judge_name="Sam Score", role="scorekeeper",
                       created_ms=1, account_id=account.id)
        db.session.add(phone)
        db.session.commit()
        phone_id, account_id = phone.id, account.id
        db.session.remove()  # no transaction of this session may hold a lock the migration needs

        def tables():
            return set(sa.inspect(db.engine).get_table_names())

        downgrade(directory=directory, revision="0006_player_keys")
        down = tables()
        with db.engine.connect() as conn:
            sessions = conn.execute(sa.text("SELECT count(*) FROM organiser_sessions")).scalar()
            devices = conn.execute(sa.text("SELECT id, judge_name FROM devices ORDER BY id")).all()
        upgrade(directory=directory)
        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
        db.engine.dispose()
    if backend == "postgres":
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()
    assert not down & {"accounts", "staff_roles", "account_links", "audit_entries", "csv_mappings"}
    assert sessions == 0 and (phone_id, "Sam Score") in devices and account_id
    assert diff == []


@pytest.fixture
def dist(tmp_path):
    folder = tmp_path / "dist"
    (folder / "assets").mkdir(parents=True)
    (folder / "index.html").write_text("<!doctype html><title>app</title>")
    (folder / "sw.js").write_text("self.addEventListener('fetch', () => {});")
    (folder / "assets" / "pyodide.asm.wasm").write_bytes(b"\0asm")
    (folder / "assets" / "pyodide.mjs").write_text("export {};")
    return folder


def test_the_judge_app_is_served_at_the_root_with_the_right_types(tmp_path, request, dist):
    client = make_app("sqlite", tmp_path, request, PWA_DIST=str(dist)).test_client()

    def fetch(path, **headers):
        with client.get(path, headers=headers) as res:  # closes the file the response streams
            return res.status_code, res.mimetype, res.headers.get("Cache-Control"), res.get_data()

    assert fetch("/") == (200, "text/html", "no-cache", b"<!doctype html><title>app</title>")
    assert fetch("/index.html") == (200, "text/html", "no-cache", b"<!doctype html><title>app</title>")
    assert fetch("/sw.js")[:3] == (200, "text/javascript", "no-cache")
    assert fetch("/assets/pyodide.asm.wasm")[:2] == (200, "application/wasm")
    assert fetch("/assets/pyodide.mjs")[:2] == (200, "text/javascript")
    assert fetch("/missing.js")[0] == 404
    assert fetch("/../server/__init__.py")[0] == 404
    assert fetch("/api/time")[0] == 200  # the API still answers behind the app files


def test_the_gzip_copy_goes_to_browsers_that_accept_it(tmp_path, request, dist):
    body = b"export const x = 1;\n" * 400
    (dist / "assets" / "big.mjs").write_bytes(body)
    (dist / "assets" / "big.mjs.gz").write_bytes(gzip.compress(body))
    client = make_app("sqlite", tmp_path, request, PWA_DIST=str(dist)).test_client()
    with client.get("/assets/big.mjs", headers={"Accept-Encoding": "gzip"}) as res:
        assert (res.status_code, res.mimetype, res.headers.get("Content-Encoding")) == (200, "text/javascript", "gzip")
        assert gzip.decompress(res.get_data()) == body
    with client.get("/assets/big.mjs") as res:
        assert res.headers.get("Content-Encoding") is None and res.get_data() == body


def test_the_brotli_copy_goes_to_browsers_that_accept_it_and_gzip_to_the_others(tmp_path, request, dist):
    body = b"export const y = 2;\n" * 400
    (dist / "assets" / "big.mjs").write_bytes(body)
    (dist / "assets" / "big.mjs.gz").write_bytes(gzip.compress(body))
    packed = b"the build's Brotli copy"  # WhiteNoise sends it as it is; the browser decodes it
    (dist / "assets" / "big.mjs.br").write_bytes(packed)
    client = make_app("sqlite", tmp_path, request, PWA_DIST=str(dist)).test_client()
    with client.get("/assets/big.mjs", headers={"Accept-Encoding": "gzip, deflate, br, zstd"}) as res:
        assert (res.headers.get("Content-Encoding"), res.get_data()) == ("br", packed)
    with client.get("/assets/big.mjs", headers={"Accept-Encoding": "gzip, deflate"}) as res:
        assert res.headers.get("Content-Encoding") == "gzip" and gzip.decompress(res.get_data()) == body


def test_without_a_build_the_root_says_so(tmp_path, request):
    client = make_app("sqlite", tmp_path, request, PWA_DIST=str(tmp_path / "none")).test_client()
    assert b"not built" in client.get("/").data


def test_demo_loads_one_event_per_ruleset_once_and_prints_join_codes(tmp_path, monkeypatch):
    """One event per ruleset (eight players, four tables), and the decklist event (32 players,
    sixteen tables: demo_decks.py)."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/demo.sqlite3")
    monkeypatch.delenv("ORGANISER_PASSWORD", raising=False)
    app = create_app({"TESTING": True}, instance_path=str(tmp_path))
    out = app.test_cli_runner().invoke(args=["demo"]).output
    assert out.count("join code ") == len(shared_rules.ruleset_ids()) + 1
    password = out.rsplit("password: ", 1)[1].strip()
    assert (tmp_path / "organiser_password").read_text().strip() == password
    again = app.test_cli_runner().invoke(args=["demo"]).output
    codes = sorted(line.split("join code ")[1].split()[0] for line in out.splitlines() if "join code" in line)
    assert codes == sorted(line.split("join code ")[1].split()[0] for line in again.splitlines()
                           if "join code" in line)
    with app.app_context():
        count = len(shared_rules.ruleset_ids())
        assert db.session.execute(sa.text("select count(*) from events")).scalar() == count + 1
        assert db.session.execute(sa.text("select count(*) from pairings")).scalar() == 4 * count + 16
        db.engine.dispose()


def test_demo_serve_runs_the_server_after_loading(tmp_path, monkeypatch):
    import server.cli

    served = []
    monkeypatch.setattr(server.cli, "run_simple", lambda *args, **kw: served.append(args))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/demo.sqlite3")
    app = create_app({"TESTING": True, "ORGANISER_PASSWORD": "pw"}, instance_path=str(tmp_path))
    result = app.test_cli_runner().invoke(args=["demo", "--serve", "--host", "0.0.0.0", "--port", "8123"])
    assert "http://0.0.0.0:8123/organiser/  login: organiser  password: pw" in result.output
    assert served == [("0.0.0.0", 8123, app)]
    with app.app_context():
        minutes = dict(db.session.execute(sa.text("select ruleset, round_minutes from events")).all())
        db.engine.dispose()
    # wotf states 50 minutes; where a ruleset states no length the demo organiser picks 50
    assert minutes == {"dci-upg": 50, "judicial-guidelines": 50, "wotf": 50, "yugioh": 50}


def test_export_prints_an_events_penalties(sqlite_app):
    event = add_event(sqlite_app)
    phone = Phone(sqlite_app.test_client(), event, judge="Jo Judge")
    rec = phone.penalty("Ada Brook", infraction="slow_play", penalty="warning")
    phone.sync([rec])
    runner = sqlite_app.test_cli_runner()
    data = json.loads(runner.invoke(args=["export", event["slug"]]).output)
    assert [(p["id"], p["player_name"], p["penalty"], p["judge"]) for p in data["penalties"]] == \
        [(rec["id"], "Ada Brook", "warning", "Jo Judge")]
    text = runner.invoke(args=["export", event["slug"], "--format", "csv"]).output
    rules = shared_rules.load_ruleset("dci-upg")
    infraction = next(i["name"] for i in rules["infractions"] if i["id"] == "slow_play")
    penalty = next(p["name"] for p in rules["penalties"] if p["id"] == "warning")
    assert text.splitlines()[1].startswith(
        f'"1","{rec["id"]}","1","1","Ada Brook","Ada Brook","slow_play","{infraction}",'
        f'"warning","{penalty}",')  # the ruleset's names beside the ids


def test_the_documented_error_shape_is_the_one_sent(sqlite_app):
    import jsonschema

    client = sqlite_app.test_client()
    spec = client.get("/api/openapi.json").get_json()
    error_schema = {**spec["components"]["schemas"]["ErrorOut"], "components": spec["components"]}
    responses = spec["paths"]["/api/join"]["post"]["responses"]
    assert set(responses) == {"200", "400", "404", "413", "429"}
    sent = client.post("/api/join", json={"code": "NOPE0000", "device_name": "p", "judge_name": "j"})
    assert sent.status_code == 404
    jsonschema.validate(sent.get_json(), error_schema)
    assert sent.get_json() == {"error": {"code": "not_found", "message": "join code not found"}}
    with pytest.raises(jsonschema.ValidationError):  # flask-smorest's own shape would not pass
        jsonschema.validate({"code": 404, "status": "Not Found", "message": "x"}, error_schema)
