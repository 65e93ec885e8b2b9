"""Device tokens, roles, rate limits on joining and logging in, and people's sessions on the
organiser pages (Flask-Login).

A device token is 32 random bytes (URL-safe text); only its SHA-256 is stored, so a leaked
database does not leak working tokens. Join codes and slugs use an alphabet without
look-alike characters.
"""

import hashlib
import hmac
import secrets
from functools import partial, wraps

from flask import current_app, g, redirect, render_template, request, session, url_for
from flask.sessions import SecureCookieSessionInterface
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager, UserMixin, current_user, login_user, logout_user

from . import roles, timeutil
from .errors import ApiError
from .extensions import db
from .models import Account, Device, Event, OrganiserSession

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
# Only failures count: a wrong join code (404) or a wrong login or password (401) from
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
           "account.join_with_link": ("JOIN_LIMITS", 404, "wrong join links"),
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


# --- people's sessions on the organiser pages (Flask-Login) -------------------------------
#
# Flask-Login keeps the logged-in "user" in the signed session cookie by its id; here that id
# is a random session token whose SHA-256, account and expiry are in the database
# (organiser_sessions). So logging out (or a password change, which deletes every session of
# the account, or revoking the person) ends the session on the server: a copied cookie stops
# working. The cookie is Secure whenever the request came over HTTPS (behind a proxy, as
# TRUST_PROXY lets X-Forwarded-Proto say).


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, marked Secure on HTTPS requests."""

    def get_cookie_secure(self, app) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or (request and request.is_secure))


class Staff(UserMixin):
    """Flask-Login's user: a live session of an account. `get_id()` is the session token."""

    def __init__(self, sid: str, account: Account):
        self.sid, self.account = sid, account

    def get_id(self) -> str:
        return self.sid


login_manager = LoginManager()
login_manager.login_view = "organiser.login"
login_manager.session_protection = None  # the session row is what is checked (proxies move addresses)


@login_manager.user_loader
def _load_session(sid: str) -> Staff | None:
    """The account of a live session token (not expired, account not revoked), or None."""
    row = db.session.get(OrganiserSession, hash_token(sid)) if isinstance(sid, str) and len(sid) < 100 else None
    if row is None or row.expires_ms <= timeutil.now_ms():
        return None
    account = db.session.get(Account, row.account_id)
    return Staff(sid, account) if account is not None and account.revoked_ms is None else None


def start_session(account: Account) -> None:
    """Log `account` in here: a new server-side session (any older cookie's session is
    dropped from this browser), lasting PERMANENT_SESSION_LIFETIME. Expired sessions are
    deleted on the way."""
    now = timeutil.now_ms()
    db.session.execute(db.delete(OrganiserSession).where(OrganiserSession.expires_ms <= now))
    sid = new_token()
    lifetime = current_app.permanent_session_lifetime
    db.session.add(OrganiserSession(sid_hash=hash_token(sid), account_id=account.id, created_ms=now,
                                    expires_ms=now + int(lifetime.total_seconds() * 1000)))
    db.session.commit()
    session.clear()
    session.permanent = True
    login_user(Staff(sid, account))


def end_session() -> None:
    """Log out: the session is deleted on the server and the cookie cleared."""
    if current_user.is_authenticated:
        db.session.execute(db.delete(OrganiserSession).where(
            OrganiserSession.sid_hash == hash_token(current_user.sid)))
        db.session.commit()
    logout_user()
    session.clear()


def current_account() -> Account | None:
    """The account logged in on this request's organiser session, or None."""
    return current_user.account if current_user.is_authenticated else None


def csrf_token() -> str:
    """The session's form token (put in every organiser form as `csrf`)."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(16)
    return session["csrf"]


def csrf_ok() -> bool:
    """Whether a POST carries the session's form token."""
    sent = request.form.get("csrf", "")
    return hmac.compare_digest(sent.encode(), session.get("csrf", "").encode() or b"-")


def page_access(action: str):
    """Organiser pages: the login page unless logged in; 403 (a page saying so) unless the
    account may do `action` (roles.PAGES) in the view's event (its `slug` argument, when it
    has one; a slug that names no event is 404); POSTs must carry the form token. Sets
    `g.event_role` (the account's role in that event, or None)."""

    def decorate(view):
        @wraps(view)
        def wrapped(*args, **kwargs):
            from .accounts import event_role
            from .events import get_event

            account = current_account()
            if account is None:
                return redirect(url_for("organiser.login", next=request.path))
            g.event_role = event_role(account, get_event(kwargs["slug"])) if "slug" in kwargs else None
            if not roles.may_page(g.event_role, account.admin, action):
                return render_template("organiser/refused.html"), 403
            if request.method == "POST" and not csrf_ok():
                return "The form expired; go back and reload the page.", 400
            return view(*args, **kwargs)

        wrapped.page_action = action
        return wrapped

    return decorate


def may(action: str) -> bool:
    """Template global: whether the logged-in account may do the page `action` (roles.PAGES)
    in the page's event (g.event_role)."""
    account = current_account()
    return account is not None and roles.may_page(g.get("event_role"), account.admin, action)
