"""A judge's first visit on a network that drops: while the offline copy downloads, look-ups
are answered by the organiser's server; the network drops in the middle of the Python
runtime; the status says the download paused and never says "Ready offline" before the
cache holds every file; when the network returns the download resumes in the same page (no
reload), fetches only what it did not have, and ends "Ready offline"; Python then answers on
the phone the same as the server did, and the app reloads and works with the network cut."""

import json
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
    for `held` until `drop()`, which sends part of the file and then breaks the connection
    (a network that drops mid-download)."""

    def __init__(self, app, held):
        self.app, self.held = app, held
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
            if path == self.held and self._holding:
                self._holding = False
                self.arrived.set()
                self._drop.wait(60)
                yield next(iter(body))
                environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)
                return
            count = 0
            for chunk in body:
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
