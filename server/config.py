"""Configuration read from the environment.

`DATABASE_URL` picks the database (SQLite in the instance folder when unset; a
`postgres://` or `postgresql://` URL is rewritten to the psycopg 3 driver). `SECRET_KEY`
signs the organiser's session cookie; when unset, a random key is made once and kept in the
instance folder (`secret_key`). `ORGANISER_PASSWORD` opens the organiser pages; when unset,
the file `organiser_password` in the instance folder is read (the demo command writes one);
a login lasts `ORGANISER_SESSION_HOURS` (12). `RATELIMIT_STORAGE_URI` says where failed
join and login attempts are counted (`memory://` by default; Redis or Memcached where
several processes serve); `TRUST_PROXY` is the number of proxies in front whose
X-Forwarded-For/-Proto/-Host are believed (0: none).
`PUBLIC_URL` is the address phones use for join links and QR codes (see urls.py).
`DECKLIST_LIMITS`: wrong decklist codes per client address on the players' page.
"""

import os
from datetime import timedelta


def database_url(instance_path: str) -> str:
    """The SQLAlchemy URL from `DATABASE_URL`, else SQLite file `judge.sqlite3` in the
    instance folder. Heroku-style `postgres://` URLs get the psycopg 3 driver name."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return "sqlite:///" + os.path.join(instance_path, "judge.sqlite3")
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


class Config:
    """Defaults for every environment; `create_app` fills the database URL."""

    SECRET_KEY = os.environ.get("SECRET_KEY")
    ORGANISER_PASSWORD = os.environ.get("ORGANISER_PASSWORD")
    # werkzeug's method for new password hashes (accounts.password_hash); None: its default,
    # scrypt. Not read from the environment: the test suite sets a cheap one.
    PASSWORD_HASH_METHOD = None
    SQLALCHEMY_ENGINE_OPTIONS = {"pool_pre_ping": True}
    MAX_CONTENT_LENGTH = 8 * 1024 * 1024  # bytes; larger bodies get 413
    MAX_FORM_MEMORY_SIZE = 1_000_000  # bytes of one form field (a pasted CSV); more gets 413
    SYNC_MAX_RECORDS = 500  # records per sync request; more get 413
    SYNC_PULL_LIMIT = 2000  # records returned per sync response at most
    # Failed attempts per client address (Flask-Limiter notation; see auth.py, README):
    # wrong join codes, wrong organiser passwords. Successes do not count.
    JOIN_LIMITS = os.environ.get("JOIN_LIMITS", "60 per 10 minutes; 300 per day")
    LOGIN_LIMITS = os.environ.get("LOGIN_LIMITS", "10 per 10 minutes; 50 per day")
    # wrong decklist codes on the players' page (each of its two endpoints counts its own)
    DECKLIST_LIMITS = os.environ.get("DECKLIST_LIMITS", "30 per 10 minutes; 200 per day")
    # where the counts live: memory:// (one process), redis://host:6379 or
    # memcached://host:11211 (shared by several processes or machines)
    RATELIMIT_STORAGE_URI = os.environ.get("RATELIMIT_STORAGE_URI", "memory://")
    RATELIMIT_STRATEGY = "sliding-window-counter"
    # if that storage stops answering, each process counts in its own memory meanwhile
    RATELIMIT_IN_MEMORY_FALLBACK_ENABLED = True
    RATELIMIT_KEY_PREFIX = os.environ.get("RATELIMIT_KEY_PREFIX", "judge")
    # Judge calls made per table (event:table) and per client address (see api_calls.py);
    # a tap while the table's call is open returns that call and does not count.
    CALL_TABLE_LIMITS = os.environ.get("CALL_TABLE_LIMITS", "6 per 10 minutes")
    CALL_ADDRESS_LIMITS = os.environ.get("CALL_ADDRESS_LIMITS", "20 per 10 minutes")
    # The push stream (stream.py): streams one process holds at most (each holds a worker
    # thread: keep it below gunicorn's --threads), how long one lasts, the ping, the poll.
    STREAM_MAX = int(os.environ.get("STREAM_MAX", "48"))
    STREAM_SECONDS = float(os.environ.get("STREAM_SECONDS", "60"))
    STREAM_PING_SECONDS = 15.0
    STREAM_POLL_SECONDS = float(os.environ.get("STREAM_POLL_SECONDS", "0.4"))
    CLOCK_MAX_AGE = 2  # seconds a clock response may be cached
    TRUST_PROXY = int(os.environ.get("TRUST_PROXY", "0"))  # X-Forwarded-* hops to trust
    PWA_DIST = os.environ.get("PWA_DIST")  # folder of the built judge app (default pwa/dist)
    PUBLIC_URL = os.environ.get("PUBLIC_URL")  # e.g. https://judges.example.org (join links, QR codes)
    API_TITLE = "Judge's companion: organiser server"
    API_VERSION = "1"
    OPENAPI_VERSION = "3.0.3"
    OPENAPI_URL_PREFIX = "/api"
    OPENAPI_JSON_PATH = "openapi.json"
    SESSION_COOKIE_SAMESITE = "Lax"
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SECURE = False  # True forces it; otherwise Secure whenever served over HTTPS
    PERMANENT_SESSION_LIFETIME = timedelta(hours=float(os.environ.get("ORGANISER_SESSION_HOURS", "12")))
