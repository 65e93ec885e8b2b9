"""Device tokens, roles, join rate limiting, and the organiser's password session.

A device token is 32 random bytes (URL-safe text); only its SHA-256 is stored, so a leaked
database does not leak working tokens. Join codes and slugs use an alphabet without
look-alike characters.
"""

import hashlib
import hmac
import secrets
import threading
from collections import defaultdict, deque
from functools import wraps

from flask import current_app, g, redirect, request, session, url_for

from . import roles, timeutil
from .errors import ApiError
from .extensions import db
from .models import Device, Event

CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # 32 symbols, no 0/O/1/I
SLUG_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


def new_join_code(length: int = 8) -> str:
    """A join code: 8 symbols from 32, about 10^12 possibilities."""
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


class RateLimiter:
    """Counts failures per key over a sliding window of `window` seconds, in this process's
    memory; a key with `limit` failures in the window is blocked until the oldest ages out.

    Enough for one server process (a venue laptop, one PaaS dyno); several processes each
    keep their own count.
    """

    def __init__(self):
        self._hits: dict[str, deque] = defaultdict(deque)
        self._lock = threading.Lock()

    def _recent(self, key: str, window: float, now: float) -> deque:
        hits = self._hits[key]
        while hits and hits[0] <= now - window:
            hits.popleft()
        return hits

    def blocked(self, key: str, limit: int, window: float) -> bool:
        """True when the key has `limit` or more failures within the window."""
        now = timeutil.now_ms() / 1000
        with self._lock:
            blocked = len(self._recent(key, window, now)) >= limit
            if not self._hits[key]:
                del self._hits[key]
            return blocked

    def fail(self, key: str, window: float) -> None:
        """Count one failure for the key."""
        now = timeutil.now_ms() / 1000
        with self._lock:
            self._recent(key, window, now).append(now)
            if len(self._hits) > 10_000:  # forget addresses whose window has passed
                for stale in [k for k, v in self._hits.items() if not v or v[-1] <= now - window]:
                    del self._hits[stale]


def _limiter() -> tuple[RateLimiter, int, float]:
    limit, window = current_app.config["JOIN_RATE_LIMIT"]
    return current_app.extensions.setdefault("join_limiter", RateLimiter()), limit, window


def _key(kind: str) -> str:
    return f"{kind}:{request.remote_addr or '?'}"


def attempt_allowed(kind: str) -> bool:
    """False when this client address has had JOIN_RATE_LIMIT failed join or login attempts
    (failures per window of seconds); successful attempts do not count."""
    limiter, limit, window = _limiter()
    return not limiter.blocked(_key(kind), limit, window)


def note_failed_attempt(kind: str) -> None:
    """Count a failed join (wrong code) or login (wrong password) from this address."""
    limiter, _limit, window = _limiter()
    limiter.fail(_key(kind), window)


def check_join_rate() -> None:
    """Raise ApiError 429 when this client address made too many failed join attempts."""
    if not attempt_allowed("join"):
        limit, window = current_app.config["JOIN_RATE_LIMIT"]
        raise ApiError.rate_limited(
            f"too many wrong join codes: at most {limit} per {window} seconds")


# --- organiser session (server-rendered pages) -------------------------------------------

def organiser_password() -> str | None:
    return current_app.config.get("ORGANISER_PASSWORD")


def check_organiser_password(given: str) -> bool:
    expected = organiser_password()
    return bool(expected) and hmac.compare_digest(given.encode(), expected.encode())


def csrf_token() -> str:
    """The session's form token (put in every organiser form as `csrf`)."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(16)
    return session["csrf"]


def organiser_required(view):
    """Pages: redirect to the login page unless logged in; POSTs must carry the form token."""

    @wraps(view)
    def wrapped(*args, **kwargs):
        if not session.get("organiser"):
            return redirect(url_for("organiser.login", next=request.path))
        if request.method == "POST":
            sent = request.form.get("csrf", "")
            if not hmac.compare_digest(sent.encode(), session.get("csrf", "").encode() or b"-"):
                return "The form expired; go back and reload the page.", 400
        return view(*args, **kwargs)

    return wrapped
