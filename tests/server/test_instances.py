"""Two real server processes (gunicorn) on one PostgreSQL database (a schema of its own) with
the rate-limit counts in Redis: join limits, the organiser's session, sync (cursor order,
nothing lost or doubled) and the clock agree whichever process answers."""

import http.cookiejar
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa

pytestmark = pytest.mark.postgres
ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _answers(port: int, probe: bytes, expect: bytes) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(probe)
            return s.recv(64).startswith(expect)
    except OSError:
        return False


def _wait_for(check, what: str, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture(scope="module")
def redis_url():
    """The Redis at 127.0.0.1:6379, or one started here on a free port."""
    if _answers(6379, b"PING\r\n", b"+PONG"):
        yield "redis://127.0.0.1:6379"
        return
    server = shutil.which("redis-server")
    if server is None:
        pytest.fail("redis-server is not installed (bash .ci/setup test installs it)")
    port = _free_port()
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for(lambda: _answers(port, b"PING\r\n", b"+PONG"), "redis-server")
        yield f"redis://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def servers(redis_url, tmp_path_factory):
    """Two gunicorn processes sharing SECRET_KEY, the database schema and Redis; migrations
    run once before either starts. Yields their base URLs."""
    base = os.environ.get("TEST_POSTGRES_URL")
    if not base:
        pytest.skip("TEST_POSTGRES_URL is not set")
    schema = f"jc_instances_{os.getpid()}_{secrets.token_hex(3)}"
    engine = sa.create_engine(base)
    with engine.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    url = base + "?" + urllib.parse.urlencode({"options": f"-csearch_path={schema}"})
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": secrets.token_hex(16), "ORGANISER_PASSWORD": "pw",
           "RATELIMIT_STORAGE_URI": redis_url, "RATELIMIT_KEY_PREFIX": f"test-{schema}",
           "JOIN_LIMITS": "5 per minute", "TRUST_PROXY": "1", "STREAM_SECONDS": "4",
           "PWA_DIST": str(tmp_path_factory.mktemp("no-app"))}
    subprocess.run([BIN / "flask", "--app", "server", "db", "upgrade"], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    procs, urls = [], []
    log = (tmp_path_factory.mktemp("logs") / "gunicorn.log").open("w")  # read it when a test fails
    try:
        for _ in range(2):
            port = _free_port()
            procs.append(subprocess.Popen(
                [BIN / "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1", "--threads", "4",
                 "server:create_app()"], cwd=ROOT, env=env, stdout=log, stderr=log))
            urls.append(f"http://127.0.0.1:{port}")
        for url_ in urls:
            _wait_for(lambda u=url_: _status(u + "/api/time") == 200, f"{url_} to answer")
        yield urls
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(10)
        log.close()
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


def _status(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as res:
            return res.status
    except (urllib.error.URLError, OSError) as err:
        return getattr(err, "code", None)


def _call(url, body=None, headers=None, opener=None, form=None):
    """(status, parsed JSON or text, final URL) of a request; never raises for HTTP errors."""
    data, kind = None, None
    if body is not None:
        data, kind = json.dumps(body).encode(), "application/json"
    elif form is not None:
        data, kind = urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded"
    req = urllib.request.Request(url, data=data, headers={**({"Content-Type": kind} if kind else {}),
                                                          **(headers or {})})
    try:
        with (opener or urllib.request.build_opener()).open(req, timeout=30) as res:
            text, status, final = res.read().decode(), res.status, res.url
    except urllib.error.HTTPError as err:
        text, status, final = err.read().decode(), err.code, url
    try:
        return status, json.loads(text), final
    except ValueError:
        return status, text, final


def _organiser(urls):
    """A cookie-keeping opener logged in on the first server, and the form token."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    status, _, _ = _call(urls[0] + "/organiser/login", form={"username": "organiser", "password": "pw"},
                         opener=opener)
    assert status == 200
    _, page, _ = _call(urls[1] + "/organiser/", opener=opener)  # the other process knows the session
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    return opener, token


def _new_event(server, opener, token, name, ruleset_level):
    """(slug, join code) of a new 50-minute event made on the organiser pages of `server`."""
    _, page, final = _call(server + "/organiser/events", form={"csrf": token, "name": name,
                                                                "ruleset_level": ruleset_level,
                                                                "round_minutes": "50"}, opener=opener)
    return final.rsplit("/", 1)[1], re.search(r'id="join-code">(\w+)<', page).group(1)


def test_two_processes_agree_on_sessions_join_limits_sync_and_clock(servers):
    a, b = servers
    opener, token = _organiser(servers)
    slug, code = _new_event(a, opener, token, "Twin Open", "dci-upg|competitive")
    _call(b + f"/organiser/events/{slug}/players", form={"csrf": token, "csv": "name\nAda Brook\nBen Carter\n"},
          opener=opener)

    # join limits: wrong codes from one address count on both processes together
    attacker = {"X-Forwarded-For": "203.0.113.7"}
    wrong = {"code": "WRONG000", "device_name": "p", "judge_name": "x"}
    codes = [_call((a, b)[i % 2] + "/api/join", wrong, attacker)[0] for i in range(6)]
    assert codes == [404] * 5 + [429]
    assert _call(b + "/api/join", {**wrong, "code": code}, attacker)[0] == 429
    assert _call(a + "/api/join", {**wrong, "code": code}, attacker)[0] == 429

    # sync: four phones push through both processes at once, then pull through either
    phones = []
    for i in range(4):
        status, body, _ = _call((a, b)[i % 2] + "/api/join", {"code": code, "device_name": f"phone {i}",
                                                              "judge_name": f"Judge {i}"},
                                {"X-Forwarded-For": f"198.51.100.{i + 1}"})
        assert status == 200
        phones.append(body)
    made = {p["device_id"]: [] for p in phones}

    def push(index, phone):
        for batch in range(5):
            records = [{"id": str(uuid.uuid4()), "type": "time_extension", "device": phone["device_id"],
                        "judge": "?", "event": slug, "created_ms": 1, "payload": {
                            "table": 1 + index, "round": 1, "minutes": 1, "reason": "judge_pause"}}
                       for _ in range(4)]
            made[phone["device_id"]] += [r["id"] for r in records]
            server = (a, b)[(index + batch) % 2]
            for _ in range(2):  # the second send is a retry after a lost answer: all duplicates
                status, body, _ = _call(f"{server}/api/events/{slug}/sync",
                                        {"device": phone["device_id"], "records": records},
                                        {"Authorization": f"Bearer {phone['token']}"})
                assert status == 200
                assert {r["status"] for r in body["results"]} <= {"accepted", "duplicate"}

    threads = [threading.Thread(target=push, args=(i, p)) for i, p in enumerate(phones)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    everything = {rid for ids in made.values() for rid in ids}
    for i, phone in enumerate(phones):
        cursor, seqs, ids = 0, [], []
        while True:
            status, body, _ = _call(f"{(b, a)[i % 2]}/api/events/{slug}/sync",
                                    {"device": phone["device_id"], "cursor": cursor},
                                    {"Authorization": f"Bearer {phone['token']}"})
            assert status == 200
            seqs += [r["seq"] for r in body["records"]]
            ids += [r["id"] for r in body["records"]]
            cursor = body["cursor"]
            if not body["more"]:
                break
        assert seqs == list(range(1, len(everything) + 1))  # in order, no gap, nothing twice
        assert sorted(ids) == sorted(everything)

    # the clock: started on one process, paused on the other, the same on both
    _call(a + f"/organiser/events/{slug}/round", form={"csrf": token, "action": "start"}, opener=opener)
    clocks = [_call(f"{s}/api/events/{slug}/clock")[1] for s in (a, b)]
    assert clocks[0]["round"] == clocks[1]["round"] and clocks[0]["round"]["state"] == "running"
    assert clocks[0]["tables"] == clocks[1]["tables"]
    assert [t["extension_minutes"] for t in clocks[0]["tables"]] == [20] * 4  # 20 × 1 minute each
    _call(b + f"/organiser/events/{slug}/round", form={"csrf": token, "action": "pause"}, opener=opener)
    clocks = [_call(f"{s}/api/events/{slug}/clock")[1] for s in (a, b)]
    assert clocks[0]["round"] == clocks[1]["round"] and clocks[1]["round"]["state"] == "paused"

    # logging out on one process ends the session on both
    _call(b + "/organiser/logout", form={"csrf": token}, opener=opener)
    _, _, final = _call(a + "/organiser/", opener=opener)
    assert "/organiser/login" in final


def _stream_changes(url, out: list, ready: threading.Event, stop: threading.Event):
    """Append the counters of each `event: change` message of the stream at `url` to `out`."""
    with urllib.request.urlopen(url, timeout=30) as res:
        ready.set()
        event = None
        while not stop.is_set():
            line = res.readline().decode()
            if not line:
                return
            if line.startswith("event: "):
                event = line.strip().split(": ", 1)[1]
            elif line.startswith("data: ") and event == "change":
                out.append(json.loads(line.split(": ", 1)[1]))


def test_a_change_made_on_one_process_reaches_the_streams_of_the_other(servers):
    a, b = servers
    opener, token = _organiser(servers)
    slug, _ = _new_event(b, opener, token, "Stream Open", "wotf|competitive")
    seen: list = []
    ready, stop = threading.Event(), threading.Event()
    reader = threading.Thread(target=_stream_changes, args=(f"{a}/api/events/{slug}/stream", seen, ready, stop),
                              daemon=True)
    reader.start()
    assert ready.wait(10)
    _wait_for(lambda: len(seen) == 1, "the first message")
    status, _, _ = _call(b + f"/api/events/{slug}/calls", {"table": 3}, {"X-Forwarded-For": "198.51.100.77"})
    assert status == 201
    _wait_for(lambda: any(c["calls_seq"] == seen[0]["calls_seq"] + 1 for c in seen), "the call on the other process",
              timeout=5)
    _call(b + f"/organiser/events/{slug}/round", form={"csrf": token, "action": "start"}, opener=opener)
    _wait_for(lambda: seen[-1]["clock_version"] > seen[0]["clock_version"], "the round start on the other process",
              timeout=5)
    stop.set()
