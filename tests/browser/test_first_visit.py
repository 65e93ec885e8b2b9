"""A judge's first visit on a network that drops: while the offline copy downloads, look-ups
are answered by the organiser's server; the network drops in the middle of the Python
runtime; the status says the download paused and never says "Ready offline" before the
cache holds every file; when the network returns the download resumes in the same page (no
reload), fetches only what it did not have, and ends "Ready offline"; Python then answers on
the phone the same as the server did, and the app reloads and works with the network cut."""

import json
import re
import socket
import threading
import time
from collections import Counter

from .conftest import PHONE, organiser_app, serving, wait_python
from .helpers import look_up_penalty

RUNTIME = "/pyodide/pyodide.asm.wasm"


class Gate:
    """WSGI middleware in front of the organiser server. It notes when each path was last
    sent in full (status 200, every byte of its Content-Length), and holds the first request
    for `held` once it has sent `part` bytes of it until `drop()`, which sends one more piece
    of the file and then breaks the connection (a network that drops mid-download)."""

    def __init__(self, app, held, part=0):
        self.app, self.held, self.part = app, held, part
        self.full = Counter()      # path -> responses sent in full
        self.done_ms = {}          # path -> when the last one was (epoch ms)
        self.arrived = threading.Event()
        self._drop = threading.Event()
        self._holding = True

    def drop(self):
        self._drop.set()

    def __call__(self, environ, start_response):
        path = environ["PATH_INFO"]
        sent = {}

        def note_start(status, headers, *rest):
            sent["status"], sent["length"] = status, dict(headers).get("Content-Length")
            return start_response(status, headers, *rest)

        body = self.app(environ, note_start)
        try:
            holding = path == self.held and self._holding
            self._holding = self._holding and not holding
            count = 0
            for chunk in body:
                if holding and count >= self.part:
                    self.arrived.set()
                    self._drop.wait(60)
                    yield chunk
                    environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)
                    return
                count += len(chunk)
                yield chunk
            if sent["status"].startswith("200") and str(count) == str(sent["length"] or count):
                self.full[path] += 1
                self.done_ms[path] = time.time() * 1000
        finally:
            if hasattr(body, "close"):
                body.close()


# Every text the status pill shows, with the time it showed it (epoch ms).
RECORD_STATUS = """
window.__offlineLog = [];
new MutationObserver(() => {
  const pill = document.getElementById('offline');
  if (!pill) return;
  const last = window.__offlineLog[window.__offlineLog.length - 1];
  if (!last || last.text !== pill.textContent) window.__offlineLog.push({text: pill.textContent, ms: Date.now()});
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_first_visit_survives_a_dropped_network_and_answers_from_the_server_meanwhile(
        browser, dist, tmp_path):
    app = organiser_app(tmp_path, dist)
    gate = Gate(app, RUNTIME)
    precached = [f["url"] for f in json.loads((dist / "precache.json").read_text())["files"]]
    with serving(app, gate) as server:
        event = server.make_event("dci-upg", "competitive")
        player = event["players"][1]["id"]
        ctx = browser.new_context(viewport=PHONE)
        ctx.add_init_script(RECORD_STATUS)
        try:
            page = ctx.new_page()
            page.goto(server.url + "/#/join")
            page.evaluate("() => { window.__samePage = true; }")
            page.fill("#join-code", event["code"])
            page.fill("#judge-name", "Noor")
            page.click("#join-btn")
            page.wait_for_selector("main[data-screen=clock]")
            assert gate.arrived.wait(60), "the service worker never asked for the Python runtime"
            page.wait_for_function("() => /^Offline copy \\d/.test(document.getElementById('offline').textContent)")
            assert page.evaluate("() => window.judge.state.started_ms") is None

            # While the runtime downloads, the server answers, and the card says so.
            card = look_up_penalty(page, "slow", "slow_play", player)
            assert page.get_attribute("#pen-card [data-answered-by]", "data-answered-by") == "server"
            request = {"ruleset": "dci-upg", "query": "penalty", "event": {"level": "competitive"},
                       "facts": {"infraction": "slow_play", "history": [{"infraction": "slow_play",
                                                                         "penalty": "warning"}]}}
            by_server = page.evaluate(ANSWER, request)
            assert by_server["by"] == "server"

            # The network drops mid-file: the download pauses and says what to do.
            ctx.set_offline(True)
            gate.drop()
            page.wait_for_selector("#offline[data-phase=paused]")
            assert "when the network returns" in page.text_content("#offline-note")
            assert page.is_visible("#offline-note")
            # A look-up now waits for the phone's engine and says why.
            page.click("#pen-decide")
            page.wait_for_selector("#pen-answer >> text=Python is not downloaded yet")

            # The network returns: the same page resumes and ends ready offline.
            ctx.set_offline(False)
            page.wait_for_selector("#offline[data-phase=ready]", timeout=60_000)
            assert page.text_content("#offline") == "Ready offline"
            assert page.is_hidden("#offline-note")
            assert page.evaluate("() => window.__samePage") is True
            wait_python(page)
            # The waiting look-up is answered: by the server if the network came back before its
            # first engine call went out, else by the phone's engine; the same penalty either way
            # (the look-up below is the phone's for certain).
            page.wait_for_selector("#pen-card")
            assert page.get_attribute("#pen-penalty", "data-penalty") == card["penalty"]

            # No file came twice; every file came once (index.html as the page itself).
            full = Counter({("/index.html" if p == "/" else p): n for p, n in gate.full.items()})
            assert {f"/{u}" for u in precached} <= set(full), "a precached file never came"
            assert max(full[f"/{u}"] for u in precached) == 1, full

            # The status never said ready before the last file had come in full.
            log = page.evaluate("() => window.__offlineLog")
            texts = [e["text"] for e in log]
            assert any(t.startswith("Offline copy paused") for t in texts), texts
            first_ready = next(i for i, t in enumerate(texts) if t == "Ready offline")
            assert all(t != "Ready offline" for t in texts[:first_ready])
            assert log[first_ready]["ms"] >= max(gate.done_ms[f"/{u}"] for u in precached if f"/{u}" in gate.done_ms)

            # The phone's engine now answers, the same as the server did.
            by_phone = page.evaluate(ANSWER, request)
            assert by_phone["by"] == "phone"
            assert by_phone["answer"] == by_server["answer"]
            again = look_up_penalty(page, "slow", "slow_play", player)
            assert again["penalty"] == card["penalty"]
            assert page.locator("#pen-card [data-answered-by]").count() == 0

            # And the app works with the network cut.
            ctx.set_offline(True)
            page.reload()
            page.wait_for_selector("#offline[data-phase=ready]")
            wait_python(page)
            assert page.evaluate(ANSWER, request) == by_phone
        finally:
            ctx.close()


ANSWER = """async (request) => {
  const answer = await window.judge.evaluate(request);
  return {answer, by: window.judge.answeredBy(answer)};
}"""


class Cut(Gate):
    """A Gate that cuts the network in front of the organiser server while the browser still
    believes it is online (navigator.onLine stays true, no "offline" event: a phone whose
    Wi-Fi stays up while the venue's uplink drops). `drop()` breaks the held response (sent
    600 KiB into `held`), and until `restore()` every request has its connection broken
    before any answer. It counts the requests refused and those that came after restore()."""

    def __init__(self, app, held):
        super().__init__(app, held, part=600 * 1024)
        self.refused = Counter()       # path -> requests refused during the cut
        self.after = Counter()         # path -> requests that came after restore()
        self.changed = threading.Condition()
        self.is_cut = self.restored = False

    def drop(self):
        with self.changed:
            self.is_cut = True
        super().drop()

    def restore(self):
        with self.changed:
            self.is_cut, self.restored = False, True

    def wait_for(self, predicate, timeout):
        """Wait until `predicate()` holds (checked at every request); False on timeout."""
        with self.changed:
            return self.changed.wait_for(predicate, timeout)

    def __call__(self, environ, start_response):
        path = environ["PATH_INFO"]
        with self.changed:
            refused = self.is_cut
            if refused or self.restored:
                (self.refused if refused else self.after)[path] += 1
                self.changed.notify_all()
        if refused:
            environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)
            start_response("503 Service Unavailable", [("Content-Length", "0")])
            return
        yield from super().__call__(environ, start_response)


# Every text the status pill and the note under it showed (the note only while visible).
RECORD_NOTES = """
window.__shown = [];
new MutationObserver(() => {
  const pill = document.getElementById('offline');
  const note = document.getElementById('offline-note');
  const text = document.getElementById('offline-note-text');
  if (!pill || !note) return;
  const now = {phase: pill.dataset.phase, pill: pill.textContent, note: note.hidden ? '' : text.textContent};
  const last = window.__shown[window.__shown.length - 1];
  if (!last || last.pill !== now.pill || last.note !== now.note) window.__shown.push(now);
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""
# What a browser's or the service worker's own error text looks like (Chromium's words).
RAW_ERROR = re.compile(r"Failed to|ServiceWorker|Cache\b|Cache\.put|TypeError|net::|network error|"
                       r"fetching|sw\.js|pyodide|no data for|scope")


def test_first_visit_goes_on_by_itself_soon_after_a_cut_the_browser_does_not_notice(browser, dist, tmp_path):
    app = organiser_app(tmp_path, dist)
    cut = Cut(app, RUNTIME)
    precached = [f["url"] for f in json.loads((dist / "precache.json").read_text())["files"]]
    with serving(app, cut) as server:
        ctx = browser.new_context(viewport=PHONE, locale="en-US")
        ctx.add_init_script(RECORD_NOTES)
        try:
            page = ctx.new_page()
            page.goto(server.url + "/#/join")
            page.evaluate("() => { window.__samePage = true; }")
            assert cut.arrived.wait(60), "the service worker never got far into the Python runtime"
            page.wait_for_function("() => /^Offline copy [1-9]/.test(document.getElementById('offline').textContent)")

            # The link dies mid-file; the browser still says it is online.
            cut.drop()
            page.wait_for_selector("#offline[data-phase=paused]")
            assert page.evaluate("() => navigator.onLine") is True
            note = page.text_content("#offline-note-text")
            assert "The download was interrupted; it goes on by itself when the network is back" in note
            assert not RAW_ERROR.search(note), note
            # The browser's own words are kept, folded away, for whoever wants them.
            assert page.is_visible("#offline-detail summary")
            assert page.text_content("#offline-detail summary") == "Technical details"
            # It probes for the network meanwhile, more than once, and touches nothing.
            assert cut.wait_for(lambda: cut.refused["/sw.js"] >= 2, 30), cut.refused

            # The link returns: within the probe's longest wait (10 s, and a margin) the
            # download goes on, with no tap, in the same page, and ends ready offline.
            cut.restore()
            assert cut.wait_for(lambda: cut.after[RUNTIME] >= 1, 15), cut.after
            page.wait_for_selector("#offline[data-phase=ready]", timeout=60_000)
            assert page.text_content("#offline") == "Ready offline"
            assert page.is_hidden("#offline-note")
            assert page.evaluate("() => window.__samePage") is True

            shown = page.evaluate("() => window.__shown")
            during = [s for s in shown if s["phase"] == "paused"]
            assert during, shown
            for s in shown:
                assert not RAW_ERROR.search(s["note"]), s
                assert not RAW_ERROR.search(s["pill"]), s
            # The progress never went backwards.
            sizes = [float(m.group(1)) for s in shown if (m := re.search(r"(\d+\.\d) MiB of", s["pill"]))]
            assert sizes == sorted(sizes), sizes
            # Only the file cut in the middle came again: every file came in full once.
            full = Counter({("/index.html" if p == "/" else p): n for p, n in cut.full.items()})
            assert {f"/{u}" for u in precached} <= set(full), "a precached file never came"
            assert max(full[f"/{u}"] for u in precached) == 1, full
        finally:
            ctx.close()
