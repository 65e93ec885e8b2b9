"""Browser fixtures: one headless Chromium (Debian's) for the whole run, the built app served
by a small static server or by the real Flask app on a free port, and a helper to save
phone-size screenshots into test-artifacts/."""

import contextlib
import fcntl
import functools
import http.server
import logging
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "pwa" / "dist"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage"]
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 320, "height": 640}
PY_READY_MS = 60_000  # the longest wait for Python to start in a test (milliseconds)

MIME = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
        ".json": "application/json", ".webmanifest": "application/manifest+json",
        ".zip": "application/zip", ".css": "text/css", ".html": "text/html",
        ".png": "image/png", ".svg": "image/svg+xml"}

pytestmark = pytest.mark.browser


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def dist() -> Path:
    """The app, built afresh (about 2 s) so it holds the engine and rule files under test: once
    per run, by whichever pytest-xdist worker gets here first (the others wait on the lock and
    find the run's stamp)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    stamp = ROOT / "pwa" / ".cache" / "tests-built-for"
    stamp.parent.mkdir(parents=True, exist_ok=True)
    with open(stamp.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if run is None or not stamp.exists() or stamp.read_text() != run:
            subprocess.run(["npm", "run", "--prefix", str(ROOT / "pwa"), "--silent", "build"], check=True)
            stamp.write_text(run or "")
    return DIST


class StaticHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the app build with the MIME types Pyodide needs; counts bytes sent."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}

    def log_message(self, *args):
        pass

    def end_headers(self):
        if self.path.split("?")[0] in ("/", "/index.html", "/sw.js"):
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def copyfile(self, source, outputfile):
        data = source.read()
        self.server.bytes_sent += len(data)
        self.server.paths.append(self.path)
        # the page may go away mid-download (a test closed it, or cut it off)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            outputfile.write(data)


class StaticServer:
    """A threaded static server of `folder` on 127.0.0.1; `stop()` cuts it off."""

    def __init__(self, folder: Path):
        handler = functools.partial(StaticHandler, directory=str(folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
        self.httpd.daemon_threads = True
        self.httpd.bytes_sent = 0
        self.httpd.paths = []
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="session")
def static_server(dist):
    """The app build on a static server for the whole run (no API behind it)."""
    server = StaticServer(dist)
    yield server
    server.stop()


def _watch_errors(ctx):
    """Collect the uncaught errors of every page of `ctx` into PAGE_ERRORS, and what each page
    did (its navigations, reloads included, and its console's errors and warnings) into
    PAGE_LOG, shown with a failed test's report."""
    def watch(page):
        name = f"page {len(PAGE_LOG_NAMES) + 1}"
        PAGE_LOG_NAMES.append(name)

        def log(text):
            PAGE_LOG.append(f"{time.monotonic() - PAGE_LOG_START[0]:8.3f} s  {name}: {text}")

        page.on("pageerror", lambda err: PAGE_ERRORS.append(f"{page.url}: {err}"))
        page.on("framenavigated", lambda frame: frame == page.main_frame and log(f"at {frame.url}"))
        page.on("console", lambda msg: msg.type in ("error", "warning") and log(f"console {msg.type}: {msg.text}"))
        page.on("close", lambda _: log("closed"))
    ctx.on("page", watch)
    for page in ctx.pages:
        watch(page)
    return ctx


class ReturningPhones:
    """Phones that have opened the app before: a browser profile per app address, made once per
    run by visiting it until the offline copy is complete and Python has kept its memory snapshot,
    then copied for each phone (its own Chromium, launched on the copy). Such a phone is joined
    and ready in about half the time and a third of the work of a new one (no download, Python
    restored from its snapshot), which is what most tests need; tests of a first visit, the
    install, updates or snapshots keep using `browser.new_context` (a new, empty profile)."""

    def __init__(self, browser_type, exe, folder: Path):
        self.browser_type, self.exe, self.folder = browser_type, exe, folder
        self.templates: dict[str, Path] = {}

    def _launch(self, folder: Path, **kwargs):
        return _watch_errors(self.browser_type.launch_persistent_context(
            str(folder), executable_path=self.exe, args=CHROMIUM_ARGS, headless=True, **kwargs))

    def template(self, origin: str) -> Path:
        """The profile that has opened the app at `origin` once (made on first use)."""
        if origin not in self.templates:
            folder = self.folder / f"template-{len(self.templates)}"
            ctx = self._launch(folder, viewport=PHONE)
            try:
                page = ctx.pages[0] if ctx.pages else ctx.new_page()
                page.goto(origin + "/#/join")
                wait_controlled(page)
                wait_python(page)
                page.wait_for_function("() => window.judge.state.snapshot_bytes > 0", timeout=PY_READY_MS)
            finally:
                ctx.close()
            self.templates[origin] = folder
        return self.templates[origin]

    def context(self, origin: str, **kwargs):
        """A browser context for a phone that has opened the app at `origin` before; `kwargs` as
        for `browser.new_context` (viewport, locale, ...). Close it when done."""
        folder = Path(tempfile.mkdtemp(dir=self.folder, prefix="phone-"))
        shutil.copytree(self.template(origin), folder, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("Singleton*", "*.lock", "LOCK"))
        ctx = self._launch(folder, **{"viewport": PHONE, **kwargs})
        ctx.on("close", lambda _: shutil.rmtree(folder, ignore_errors=True))
        return ctx


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """One headless Chromium for the run. `browser.new_context(...)` gives a new, empty phone;
    `browser.returning(url, ...)` a phone that has opened the app at `url` before
    (ReturningPhones)."""
    from playwright.sync_api import sync_playwright

    exe = shutil.which("chromium")
    if not exe:
        pytest.fail("chromium is not installed (bash .ci/setup test installs it)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
        plain_new_context = b.new_context
        b.new_context = lambda **kwargs: _watch_errors(plain_new_context(**kwargs))
        b.returning = ReturningPhones(pw.chromium, exe, tmp_path_factory.mktemp("profiles")).context
        yield b
        b.close()


PAGE_ERRORS: list[str] = []
PAGE_LOG: list[str] = []  # the running test's pages' navigations and console warnings (_watch_errors)
PAGE_LOG_NAMES: list[str] = []
PAGE_LOG_START = [time.monotonic()]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test's report shows what its pages did (PAGE_LOG): a reload, a screen
    the app moved to or a console error is often the cause of a wait that ran out."""
    report = yield
    if report.failed and PAGE_LOG:
        report.sections.append(("what the pages did", "\n".join(PAGE_LOG[-200:])))
    return report


@pytest.fixture(autouse=True)
def no_uncaught_page_errors(request):
    """Any uncaught exception in an app page during a browser test fails that test."""
    if "browser" not in request.fixturenames:
        yield
        return
    PAGE_ERRORS.clear()
    PAGE_LOG.clear()
    PAGE_LOG_NAMES.clear()
    PAGE_LOG_START[0] = time.monotonic()
    yield
    assert PAGE_ERRORS == [], "uncaught errors in the app"


@pytest.fixture
def context(browser):
    """A fresh browser profile at phone size (its own storage and service workers)."""
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=False,
                              has_touch=True, service_workers="allow")
    yield ctx
    ctx.close()


def wait_python(page, timeout_ms: int = PY_READY_MS):
    """Wait until window.judge.ready has resolved in `page`."""
    page.wait_for_function("() => window.judge && window.judge.ready", timeout=timeout_ms)
    page.evaluate("() => window.judge.ready")
    page.wait_for_selector("#python.ok", timeout=timeout_ms)


def wait_controlled(page, timeout_ms: int = PY_READY_MS):
    """Wait until the service worker controls `page` (the precache is complete)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=timeout_ms)


def shoot(page, name: str, at: str | None = None, sizes=(PHONE, SMALL_PHONE)):
    """Save what a phone shows of `page` (scrolled to the element `at`, if given) at each
    phone size into test-artifacts/<name>-<width>.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    original = page.viewport_size
    for size in sizes:
        page.set_viewport_size(size)
        if at:
            page.eval_on_selector(at, "el => el.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(ARTIFACTS / f"{name}-{size['width']}.png"))
    page.set_viewport_size(original)


def organiser_app(folder: Path, dist: Path, **config):
    """The real organiser server (server.create_app) with a temporary SQLite database in
    `folder`, serving the app build `dist` at `/`; `config` adds settings."""
    server_pkg = pytest.importorskip("server")
    from server_helpers import CHEAP_HASHES

    from server.extensions import db

    app = server_pkg.create_app({
        "TESTING": True, "SECRET_KEY": "browser-tests", "ORGANISER_PASSWORD": "browser-tests",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'judge.sqlite3'}",
        "PWA_DIST": str(dist), "JOIN_LIMITS": "1000 per minute",
        **CHEAP_HASHES,
        **config,
    })
    with app.app_context():
        db.create_all()
    return app


def closed_before_sent(wsgi):
    """`wsgi` whose answers (all but a push stream) are read whole and closed before werkzeug's
    development server sends them. That server leaves an answer unclosed when the browser drops
    the connection while it drains the request (a phone navigating on): the open file of a
    page sent (index.html) then surfaces later as a ResourceWarning in whatever test runs.
    gunicorn, which serves the app for real, closes it either way."""

    def app(environ, start_response):
        said = {}

        def keep(status, headers, exc_info=None):
            said["type"] = dict((k.lower(), v) for k, v in headers).get("content-type", "")
            return start_response(status, headers, exc_info)

        answer = wsgi(environ, keep)
        if said.get("type", "").startswith("text/event-stream"):
            return answer
        try:
            return [b"".join(answer)]
        finally:
            if hasattr(answer, "close"):
                answer.close()

    return app


@contextlib.contextmanager
def serving(app, wsgi=None):
    """Serve `app` (closed_before_sent), or `wsgi`, a wrapper of it, when given, on a free
    port; yields an EventServer."""
    from werkzeug.serving import make_server

    from server.extensions import db

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    # a test's own wrapper (a network that stalls or drops mid-download) streams as it sends
    httpd = make_server("127.0.0.1", free_port(), wsgi or closed_before_sent(app), threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield EventServer(app, f"http://127.0.0.1:{httpd.server_port}")
    finally:
        httpd.shutdown()
        with app.app_context(), contextlib.suppress(Exception):
            db.engine.dispose()


@pytest.fixture(scope="session")
def flask_server(dist, tmp_path_factory):
    """The real organiser server on a free port with a temporary SQLite database, serving the
    app build at `/`. Yields an object with `url`, `app` and helpers to make an event and run
    its rounds."""
    with serving(organiser_app(tmp_path_factory.mktemp("server"), dist)) as server:
        yield server


class EventServer:
    """The running organiser server and a few organiser actions done through its code."""

    def __init__(self, app, url):
        self.app = app
        self.url = url

    def make_event(self, ruleset="dci-upg", level="competitive", players=4, round_minutes=50,
                   games_per_match=3):
        """An event with `players` players and round 1's tables; returns
        {"slug", "code", "players": [{id, name}]}."""
        from server.events import create_event, import_players
        from server.imports import import_pairings

        names = [f"Player {chr(65 + i)}{i + 1}" for i in range(players)]
        with self.app.app_context():
            event = create_event(f"Test {ruleset}", ruleset, level=level,
                                 games_per_match=games_per_match, round_minutes=round_minutes)
            import_players(event, "name\n" + "\n".join(names) + "\n")
            half = players // 2
            import_pairings(event, 1, "table,player_a,player_b\n" + "".join(
                f"{i + 1},{names[i]},{names[i + half]}\n" for i in range(half)))
            return {"slug": event.slug, "code": event.join_code,
                    "players": [{"id": p.id, "name": p.name} for p in event.players]}

    def start_round(self, slug, minutes=None):
        """Start the event's next round now (server time); returns the clock state."""
        from server.clock import clock_state, start_round
        from server.events import get_event

        with self.app.app_context():
            event = get_event(slug)
            start_round(event, round_minutes=minutes)
            return clock_state(event)

    def pause_round(self, slug):
        """Pause the event's running round now; returns the clock state."""
        from server.clock import clock_state, pause_round
        from server.events import get_event

        with self.app.app_context():
            event = get_event(slug)
            pause_round(event)
            return clock_state(event)

    def move_round_start(self, slug, ms):
        """Move the running round's start `ms` milliseconds earlier (its time runs out
        sooner), as if it had started then; the phones hear of it like any clock change."""
        from server.clock import bump, current_round
        from server.events import get_event
        from server.extensions import db

        with self.app.app_context():
            event = get_event(slug)
            current_round(event).started_ms -= ms
            bump(event)
            db.session.commit()

    def end_round(self, slug):
        """End the event's running round now; returns the clock state."""
        from server.clock import clock_state, end_round
        from server.events import get_event

        with self.app.app_context():
            event = get_event(slug)
            end_round(event)
            return clock_state(event)

    def set_stage(self, slug, stage):
        """Move the event to `stage` ("swiss" or "elimination"), as the organiser's page does."""
        from server.clock import bump
        from server.events import get_event
        from server.extensions import db

        with self.app.app_context():
            event = get_event(slug)
            event.stage = stage
            bump(event)
            db.session.commit()

    def set_role(self, slug, judge_name, role):
        """Give the device that joined as `judge_name` a role (as the organiser's page does)."""
        from server.events import get_event, set_role
        from server.extensions import db
        from server.models import Device

        with self.app.app_context():
            event = get_event(slug)
            device = db.session.scalar(db.select(Device).where(
                Device.event_id == event.id, Device.judge_name == judge_name))
            set_role(device, role)

    def revoke(self, slug, judge_name):
        """Revoke the token of the device that joined as `judge_name`; returns the event's
        new join code (revoking changes it)."""
        from server.events import get_event, revoke
        from server.extensions import db
        from server.models import Device

        with self.app.app_context():
            event = get_event(slug)
            return revoke(db.session.scalar(db.select(Device).where(
                Device.event_id == event.id, Device.judge_name == judge_name)))

    def clock(self, slug):
        from server.clock import clock_state
        from server.events import get_event

        with self.app.app_context():
            return clock_state(get_event(slug))

    def records(self, slug):
        """Every record of the event on the server, by seq."""
        from server.events import get_event
        from server.extensions import db
        from server.models import Record

        with self.app.app_context():
            event = get_event(slug)
            rows = db.session.scalars(db.select(Record).where(Record.event_id == event.id)
                                      .order_by(Record.seq)).all()
            return [{"id": r.id, "type": r.type, "payload": r.payload, "judge": r.judge}
                    for r in rows]
