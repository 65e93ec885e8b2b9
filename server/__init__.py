"""The organiser's server: rules API, events and round clocks, devices and roles, sync,
organiser pages. `create_app(config)` builds it; `flask --app server ...` finds it."""

import os
import secrets
from pathlib import Path

import sqlalchemy as sa
from flask import Flask
from flask_babel import LazyString
from werkzeug.middleware.proxy_fix import ProxyFix

from .auth import register_limits
from .config import Config, database_url
from .errors import register_error_handlers
from .extensions import api, babel, db, migrate
from .fields import clean_text
from .urls import check_public_url

MIGRATIONS = str(Path(__file__).resolve().parent / "migrations")


def _shown(value):
    """A value as a page shows it (Jinja's finalize, before escaping): a stored value that is not
    text (lone surrogate, NUL) as U+FFFD, never a 500; a lazily translated message as plain
    text, so it is escaped. (Flask-Babel's LazyString says it is HTML already, and its
    placeholders may hold what a user typed: a decklist's line, a file's player name.)"""
    if isinstance(value, LazyString):
        value = str(value)
    return clean_text(value) if isinstance(value, str) else value


def create_app(config: dict | None = None, instance_path: str | None = None) -> Flask:
    """The app. `config` (a mapping) overrides `Config` and the environment, e.g. in tests
    `{"SQLALCHEMY_DATABASE_URI": ..., "TESTING": True}`; `instance_path` replaces Flask's
    instance folder (default `instance/` beside the package)."""
    app = Flask(__name__, instance_relative_config=True, static_folder=None,
                instance_path=instance_path)
    app.config.from_object(Config)
    app.jinja_env.finalize = _shown
    os.makedirs(app.instance_path, exist_ok=True)
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app.instance_path)
    if config:
        app.config.update(config)
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        # a pre-ping per request buys nothing on a local file
        options = dict(app.config["SQLALCHEMY_ENGINE_OPTIONS"])
        options.pop("pool_pre_ping", None)
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    app.config["PUBLIC_URL"] = check_public_url(app.config.get("PUBLIC_URL"))
    _organiser_password_from_instance(app)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret_key(app)
    if app.config["TRUST_PROXY"]:
        hops = app.config["TRUST_PROXY"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)

    register_extensions(app)
    register_blueprints(app)
    register_limits(app)
    register_error_handlers(app)
    from .cli import register_commands

    register_commands(app)
    return app


def _organiser_password_from_instance(app: Flask) -> None:
    """Without ORGANISER_PASSWORD in the environment, use the instance folder's
    `organiser_password` file (written by `flask demo`): the first account's password, read
    only while there is no account (accounts.bootstrap)."""
    path = Path(app.instance_path) / "organiser_password"
    if not app.config.get("ORGANISER_PASSWORD") and path.exists():
        app.config["ORGANISER_PASSWORD"] = path.read_text(encoding="utf-8").strip()


def _instance_secret_key(app: Flask) -> str:
    """A random session key kept in the instance folder, made by the first process that
    needs it (created atomically, so workers starting together agree on one key)."""
    path = Path(app.instance_path) / "secret_key"
    if not path.exists():
        tmp = path.with_name(f"secret_key.{os.getpid()}")
        tmp.write_text(secrets.token_hex(32), encoding="utf-8")
        try:
            os.link(tmp, path)  # fails if another process got there first
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    return path.read_text(encoding="utf-8").strip()


def register_extensions(app: Flask) -> None:
    db.init_app(app)
    migrate.init_app(app, db, directory=MIGRATIONS)
    api.init_app(app)
    from .i18n import select_locale

    babel.init_app(app, locale_selector=select_locale)
    from .auth import SessionInterface, login_manager

    app.session_interface = SessionInterface()
    login_manager.init_app(app)
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite:///"):
        with app.app_context():
            sa.event.listen(db.engine, "connect", _sqlite_pragmas)


def _sqlite_pragmas(connection, _record) -> None:
    """Readers (clock polls) go on while a sync writes; a writer waits up to 10 s for another."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def register_blueprints(app: Flask) -> None:
    from . import (  # noqa: F401 (routes)
        api_account,
        api_calls,
        api_decklists,
        api_device,
        api_public,
        organiser,
        organiser_accounts,
        organiser_audit,
        organiser_calls,
        organiser_decklists,
        organiser_imports,
        pwa,
    )
    from .records import PAYLOADS, RecordSchema
    from .stream import register_stream_hub

    api.register_blueprint(api_public.bp)
    api.register_blueprint(api_device.bp)
    api.register_blueprint(api_calls.bp)
    api.register_blueprint(api_decklists.bp)
    api.register_blueprint(api_account.bp)
    register_stream_hub(app)
    api.spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    # record bodies are checked one by one in the sync view; list their shapes for readers
    api.spec.components.schema("RecordIn", schema=RecordSchema)
    for name, schema in PAYLOADS.items():
        api.spec.components.schema(f"{name.title().replace('_', '')}Payload", schema=schema)
    app.register_blueprint(organiser.bp)
    app.register_blueprint(pwa.bp)
    pwa.serve_app_files(app)
