"""The push stream (Server-Sent Events): the first message, changes delivered (a call, a
pause, a synced record), the pings, the end of a stream, and the cap per process."""

import json
import queue
import threading

import pytest
from conftest import log_in
from server_helpers import Phone, add_event, make_app

from server.extensions import db
from server.stream import hub


def _messages(response, out: queue.Queue):
    """Put each SSE message of a streamed test response (split on blank lines) in `out`."""
    buffer = ""
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            out.put(block)
    out.put(None)


def _change(out: queue.Queue, timeout=10.0) -> dict:
    """The counters of the next `event: change` message (pings and retry skipped)."""
    while True:
        block = out.get(timeout=timeout)
        assert block is not None, "the stream ended before a change came"
        lines = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":"))
        if lines.get("event") == "change":
            return json.loads(lines["data"])


@pytest.fixture
def stream_app(app):
    app.config.update(STREAM_SECONDS=8.0, STREAM_POLL_SECONDS=0.05)
    return app


def _open(app, slug):
    response = app.test_client().get(f"/api/events/{slug}/stream", buffered=False)
    out: queue.Queue = queue.Queue()
    threading.Thread(target=_messages, args=(response, out), daemon=True).start()
    return response, out


def _close(app, out: queue.Queue):
    """End the streams being read in another thread, and wait until the reader has ended."""
    hub(app).stop_all()
    while out.get(timeout=5) is not None:
        pass


def test_the_stream_starts_with_the_counters_and_proxy_headers(stream_app):
    event = add_event(stream_app, ruleset="wotf")
    response, out = _open(stream_app, event["slug"])
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache" and response.headers["X-Accel-Buffering"] == "no"
    assert out.get(timeout=5) == "retry: 1000"
    assert _change(out) == {"clock_version": 0, "records_seq": 0, "calls_seq": 0, "review_seq": 0}
    _close(stream_app, out)
    assert hub(stream_app).open_streams() == 0


def test_a_call_a_pause_and_a_synced_record_each_reach_an_open_stream(stream_app):
    event = add_event(stream_app, ruleset="wotf")
    client = stream_app.test_client()
    response, out = _open(stream_app, event["slug"])
    first = _change(out)
    client.post(f"/api/events/{event['slug']}/calls", json={"table": 4})
    assert _change(out) == {**first, "calls_seq": 1}
    organiser = log_in(stream_app.test_client())
    organiser.form(f"/organiser/events/{event['slug']}/round", action="start", round_minutes="40")
    started = _change(out)
    assert started["clock_version"] == 1
    organiser.form(f"/organiser/events/{event['slug']}/round", action="pause")
    assert _change(out)["clock_version"] == 2
    phone = Phone(client, event)
    phone.sync([phone.record("time_extension", {"table": 4, "round": 1, "minutes": 2, "reason": "ruling"})])
    assert _change(out)["records_seq"] == 1
    _close(stream_app, out)


def test_a_stream_ends_by_itself_and_pings_meanwhile(tmp_path, request):
    app = make_app("sqlite", tmp_path, request, STREAM_SECONDS=0.6, STREAM_PING_SECONDS=0.2)
    with app.app_context():
        db.create_all()
    event = add_event(app, ruleset="wotf")
    out: queue.Queue = queue.Queue()
    _messages(app.test_client().get(f"/api/events/{event['slug']}/stream", buffered=False), out)
    blocks = []
    while (block := out.get(timeout=1)) is not None:
        blocks.append(block)
    assert blocks[0] == "retry: 1000" and blocks[1].startswith("event: change")
    assert blocks.count(": ping") >= 2
    assert hub(app).open_streams() == 0


def test_a_process_over_its_streams_answers_503_and_a_closed_stream_frees_its_place(tmp_path, request):
    app = make_app("sqlite", tmp_path, request, STREAM_MAX=1, STREAM_SECONDS=5.0)
    with app.app_context():
        db.create_all()
    event = add_event(app, ruleset="wotf")
    client = app.test_client()
    held = client.get(f"/api/events/{event['slug']}/stream", buffered=False)
    refused = client.get(f"/api/events/{event['slug']}/stream", buffered=False)
    assert refused.status_code == 503 and refused.get_json()["error"]["message"].endswith("poll instead")
    held.close()  # never read: its place is freed all the same
    again = client.get(f"/api/events/{event['slug']}/stream", buffered=False)
    assert again.status_code == 200
    again.close()
    assert client.get("/api/events/nothere/stream").status_code == 404
