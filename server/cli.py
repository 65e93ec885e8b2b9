"""Commands: `flask --app server demo [--serve]`, `flask --app server export SLUG`,
`flask --app server password-link LOGIN`. (`flask --app server db upgrade` comes from
Flask-Migrate.)"""

import json
import secrets
from pathlib import Path

import click
from flask import Flask, current_app
from flask_migrate import upgrade
from werkzeug.security import check_password_hash
from werkzeug.serving import run_simple

from . import demo_decks
from .accounts import BOOTSTRAP_LOGIN, bootstrap, issue_link, normal_login
from .events import create_event, export_json, get_event, import_players, penalties_csv
from .extensions import db
from .imports import import_pairings
from .models import Account, Event
from .rules import rulesets
from .urls import join_url, phones_cannot_reach

DEMO_PLAYERS = ["Ada Brook", "Ben Carter", "Chloe Diaz", "Dev Evans", "Ella Fox", "Finn Gray",
                "Gina Hale", "Hugo Ives"]
DEMO_PREFIX = "Demo: "


def demo_events() -> list[Event]:
    """One demo event per ruleset (made once; later calls return the same events), each with
    eight players and round 1's four tables; then the decklist event (demo_decks.py: 32
    players with registered lists, for deck checks)."""
    existing = {e.name: e for e in db.session.scalars(
        db.select(Event).where(Event.name.startswith(DEMO_PREFIX)))}
    events = []
    for info in rulesets():
        name = DEMO_PREFIX + (info["title"] or info["id"])
        event = existing.get(name)
        if event is None:
            levels = [lvl["id"] for lvl in info["levels"]]
            event = create_event(name, info["id"], level=levels[-1] if levels else None)
            if event.round_minutes is None:  # the ruleset states no length: the demo organiser picks 50
                event.round_minutes = 50
            import_players(event, "name\n" + "\n".join(DEMO_PLAYERS) + "\n")
            pairs = [(DEMO_PLAYERS[i], DEMO_PLAYERS[i + 4]) for i in range(4)]
            import_pairings(event, 1, "table,player_a,player_b\n"
                            + "".join(f"{n},{a},{b}\n" for n, (a, b) in enumerate(pairs, 1)))
        events.append(event)
    events.append(existing.get(demo_decks.NAME) or demo_decks.deck_event())
    return events


def ensure_organiser_password(app: Flask) -> str:
    """The first account's password: from the environment, else the instance file (made
    once); the account is made from it while nobody has one (accounts.bootstrap)."""
    if not app.config.get("ORGANISER_PASSWORD"):
        path = Path(app.instance_path) / "organiser_password"
        path.write_text(secrets.token_urlsafe(9) + "\n", encoding="utf-8")
        app.config["ORGANISER_PASSWORD"] = path.read_text(encoding="utf-8").strip()
    return app.config["ORGANISER_PASSWORD"]


def register_commands(app: Flask) -> None:
    @app.cli.command("demo")
    @click.option("--serve", is_flag=True, help="then run the server")
    @click.option("--host", default="127.0.0.1", show_default=True)
    @click.option("--port", default=5000, show_default=True)
    def demo(serve, host, port):
        """Migrate the database and load one demo event per ruleset (players and round 1's
        tables); print each event's join code and links (at PUBLIC_URL when set) and the
        first organiser account's login and password."""
        app = current_app._get_current_object()
        upgrade(directory=app.extensions["migrate"].directory)
        password = ensure_organiser_password(app)
        bootstrap()
        base = app.config["PUBLIC_URL"] or f"http://{host}:{port}"
        for event in demo_events():
            click.echo(f"{event.name}\n  join code {event.join_code}   join link {join_url(event.join_code, base)}\n"
                       f"  players' page {base}/#/event/{event.slug}   organiser {base}/organiser/events/{event.slug}")
        if phones_cannot_reach(base):
            click.echo("Phones cannot open these links: they name this computer only. Serve on the network "
                       "(--host 0.0.0.0) and set PUBLIC_URL to the address phones use, e.g. "
                       "PUBLIC_URL=https://judges.example.org (see the README, \"Running it at a venue\").")
        first = db.session.scalar(db.select(Account).where(Account.login == BOOTSTRAP_LOGIN))
        if first is not None and first.password_hash and check_password_hash(first.password_hash, password):
            click.echo(f"Organiser pages: {base}/organiser/  login: {BOOTSTRAP_LOGIN}  password: {password}")
        else:  # the account's password was changed since: the setting no longer opens it
            click.echo(f"Organiser pages: {base}/organiser/  log in with your account "
                       f"(flask --app server password-link LOGIN makes a new password link)")
        if serve:
            # app.run() refuses to block inside a flask command; serve with werkzeug directly
            run_simple(host, port, app, threaded=True)

    @app.cli.command("password-link")
    @click.argument("login")
    @click.option("--base", default=None, help="the server's address (default PUBLIC_URL, else http://127.0.0.1:5000)")
    def password_link(login, base):
        """Print a one-time link (7 days) on which the account LOGIN sets a new password: for
        someone locked out, the last administrator too. Every session of the account ends
        when it is used."""
        account = db.session.scalar(db.select(Account).where(Account.login == normal_login(login)))
        if account is None or account.revoked_ms is not None:
            raise click.ClickException(f"no live account has the login {login!r}")
        base = base or current_app.config["PUBLIC_URL"] or "http://127.0.0.1:5000"
        click.echo(f"{base}/organiser/welcome/{issue_link(account, 'password')}")

    @app.cli.command("export")
    @click.argument("slug")
    @click.option("--format", "fmt", type=click.Choice(["json", "csv"]), default="json",
                  show_default=True)
    def export(slug, fmt):
        """Print an event's penalties (JSON: {"event", "penalties"}; or CSV)."""
        event = get_event(slug)
        if fmt == "csv":
            click.echo(penalties_csv(event), nl=False)
        else:
            click.echo(json.dumps(export_json(event), indent=2))
