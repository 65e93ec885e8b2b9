"""Device tokens, roles, rate limits on joining and logging in, and the organiser's
password session.

A device token is 32 random bytes (URL-safe text); only its SHA-256 is stored, so a leaked
database does not leak working tokens. Join codes and slugs use an alphabet without
look-alike characters.
"""

import hashlib
import hmac
import secrets
from functools import partial, wraps

from flask import current_app, g, redirect, request, session, url_for
from flask.sessions import SecureCookieSessionInterface
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from . import roles, timeutil
from .errors import ApiError
from .extensions import db
from .models import Device, Event, OrganiserSession

CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # 32 symbols, no 0/O/1/I
SLUG_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


def new_join_code(length: int = 8) -> str:
    """A join code: 8 symbols from 32, 2^40 (about 1.1 × 10^12) possibilities."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def new_slug(length: int = 8) -> str:
    """A public event slug (lower case, no look-alikes)."""
    return "".join(secrets.choice(SLUG_ALPHABET) for _ in range(length))


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bearer_device(event: Event) -> Device:
    """The device whose bearer token authorises this request for `event`.

    Raises ApiError 401 when the header is missing, the token unknown, revoked, or issued
    for another event.
    """
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError.unauthorized("missing bearer token")
    device = db.session.scalar(
        db.select(Device).where(Device.token_hash == hash_token(token.strip())))
    if device is None or device.event_id != event.id:
        raise ApiError.unauthorized("unknown token")
    if device.revoked_ms is not None:
        raise ApiError.unauthorized("this device was revoked by the organiser")
    g.device = device
    return device


def authorize(event: Event, action: str) -> Device:
    """The bearer token's device, allowed by roles.ACTIONS to do `action` in `event`.
    Raises ApiError 401 as `bearer_device` does, 403 when the device's role may not."""
    device = bearer_device(event)
    if not roles.may(device.role, action):
        raise ApiError.forbidden(roles.needed(roles.ACTIONS[action]))
    return device


# --- rate limits (Flask-Limiter; storage from RATELIMIT_STORAGE_URI) ---------------------
#
# Only failures count: a wrong join code (404) or a wrong organiser password (401) from
# one client address. While an address is over its limits every attempt from it is 429,
# the right code too (otherwise the answer would still tell a guesser when a guess is
# right); the limits are set so that a room of judges behind one address stays far below
# them (README: "Join codes and rate limits").


def _limit_text(key: str) -> str:
    return current_app.config[key]


def _refusal(what: str, key: str):
    return lambda: (f"too many {what} from this address (at most {_limit_text(key)}); "
                    "wait and try again")


# endpoint -> (its limits' setting, the status of a failure, what a failure is)
LIMITED = {"public.join": ("JOIN_LIMITS", 404, "wrong join codes"),
           "organiser.login": ("LOGIN_LIMITS", 401, "wrong passwords"),
           "decklists.my_decklist": ("DECKLIST_LIMITS", 404, "wrong decklist codes"),
           "decklists.submit_decklist": ("DECKLIST_LIMITS", 404, "wrong decklist codes")}


def register_limits(app) -> Limiter:
    """Flask-Limiter for `app` (one per app; storage from RATELIMIT_STORAGE_URI), counting
    the failures of each endpoint in LIMITED per client address (TRUST_PROXY decides which
    address that is)."""
    limiter = Limiter(get_remote_address, app=app)
    app.extensions["client_limiter"] = limiter
    for endpoint, (key, status, what) in LIMITED.items():
        limit = limiter.limit(partial(_limit_text, key), methods=["post"],
                              deduct_when=lambda response, status=status: response.status_code == status,
                              error_message=_refusal(what, key))
        app.view_functions[endpoint] = limit(app.view_functions[endpoint])
    return limiter


def client_limiter():
    """The rate limiter's strategy (`limits`' `test`/`hit`, on RATELIMIT_STORAGE_URI) for
    limits a view counts itself (judge calls: calls.py)."""
    return current_app.extensions["client_limiter"].limiter


# --- organiser session (server-rendered pages) -------------------------------------------
#
# The signed cookie holds a random session id; the database keeps its SHA-256 and expiry,
# so logging out (or the expiry) ends the session on the server: a copied cookie stops
# working. The cookie is Secure whenever the request came over HTTPS (behind a proxy, as
# TRUST_PROXY lets X-Forwarded-Proto say).


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, marked Secure on HTTPS requests."""

    def get_cookie_secure(self, app) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or (request and request.is_secure))


def organiser_password() -> str | None:
    return current_app.config.get("ORGANISER_PASSWORD")


def check_organiser_password(given: str) -> bool:
    expected = organiser_password()
    return bool(expected) and hmac.compare_digest(given.encode(), expected.encode())


def start_organiser_session() -> None:
    """Log the organiser in: a new server-side session (any older cookie's id is dropped),
    lasting PERMANENT_SESSION_LIFETIME. Expired sessions are deleted on the way."""
    now = timeutil.now_ms()
    db.session.execute(db.delete(OrganiserSession).where(OrganiserSession.expires_ms <= now))
    sid = new_token()
    lifetime = current_app.permanent_session_lifetime
    db.session.add(OrganiserSession(sid_hash=hash_token(sid), created_ms=now,
                                    expires_ms=now + int(lifetime.total_seconds() * 1000)))
    db.session.commit()
    session.clear()
    session.permanent = True
    session["sid"] = sid


def end_organiser_session() -> None:
    """Log out: the session is deleted on the server and the cookie cleared."""
    sid = session.get("sid")
    if isinstance(sid, str):
        db.session.execute(db.delete(OrganiserSession).where(
            OrganiserSession.sid_hash == hash_token(sid)))
        db.session.commit()
    session.clear()


def organiser_logged_in() -> bool:
    """Whether this request carries a live organiser session (see start_organiser_session)."""
    if "organiser_session" not in g:
        sid = session.get("sid")
        row = db.session.get(OrganiserSession, hash_token(sid)) if isinstance(sid, str) else None
        g.organiser_session = row is not None and row.expires_ms > timeutil.now_ms()
    return g.organiser_session


def csrf_token() -> str:
    """The session's form token (put in every organiser form as `csrf`)."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(16)
    return session["csrf"]


def organiser_required(view):
    """Pages: redirect to the login page unless logged in (roles.ACTIONS
    "organiser_pages"); POSTs must carry the form token."""

    @wraps(view)
    def wrapped(*args, **kwargs):
        if not roles.may("organiser" if organiser_logged_in() else None, "organiser_pages"):
            return redirect(url_for("organiser.login", next=request.path))
        if request.method == "POST":
            sent = request.form.get("csrf", "")
            if not hmac.compare_digest(sent.encode(), session.get("csrf", "").encode() or b"-"):
                return "The form expired; go back and reload the page.", 400
        return view(*args, **kwargs)

    return wrapped
