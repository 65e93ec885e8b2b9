"""The push channel: Server-Sent Events carrying an event's change counters, fanned out to
every server process through the database.

Each process has one `Hub`. While it holds at least one stream, a watcher thread reads the
counters (`clock_version`, `last_seq`, `calls_seq`, `review_seq`) of the events its streams
follow, every STREAM_POLL_SECONDS (0.4 s) and at once after any commit made in this process
(a SQLAlchemy `after_commit` hook), and wakes the streams whose counters moved. So a change
made by any process (pause in one, call in another) reaches every process's streams within
one poll, with no broker beside the database, on SQLite and PostgreSQL alike. The watcher
stops when the last stream ends; with no stream open it costs nothing.

A stream sends `retry: 1000`, then `event: change` with the counters on connect and on every
change, a comment line every STREAM_PING_SECONDS (15 s), and ends after STREAM_SECONDS (60 s)
so that proxies and worker threads are freed (EventSource reconnects by itself). A process
holds at most STREAM_MAX streams (each holds a worker thread): beyond, 503.
"""

from __future__ import annotations

import json
import threading
import time
import weakref

from flask import Flask, current_app, has_app_context
from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session

from .extensions import db
from .models import Event

COUNTERS = {"clock_version": Event.clock_version, "records_seq": Event.last_seq,
            "calls_seq": Event.calls_seq, "review_seq": Event.review_seq}


def read_counters(event_ids) -> dict[int, dict]:
    """`{event id: {"clock_version", "records_seq", "calls_seq", "review_seq"}}` from the
    database (an app context is needed)."""
    rows = db.session.execute(db.select(Event.id, *COUNTERS.values()).where(Event.id.in_(list(event_ids)))).all()
    return {row[0]: dict(zip(COUNTERS, (int(v or 0) for v in row[1:]), strict=True)) for row in rows}


def message(counters: dict) -> str:
    """One SSE message: `event: change` and the counters as JSON."""
    return f"event: change\ndata: {json.dumps(counters, separators=(',', ':'))}\n\n"


class Hub:
    """The streams of one process and the watcher thread that feeds them."""

    def __init__(self, app: Flask):
        self.app = app
        self.cond = threading.Condition()
        self.followers: dict[int, int] = {}  # event id -> open streams
        self.counters: dict[int, dict] = {}
        self.poke = threading.Event()
        self.watcher: threading.Thread | None = None
        self.live: weakref.WeakSet[Stream] = weakref.WeakSet()

    def open_streams(self) -> int:
        with self.cond:
            return sum(self.followers.values())

    def join(self, event_id: int, first: dict) -> bool:
        """Count a new stream of `event_id` (False when the process holds STREAM_MAX)."""
        with self.cond:
            if sum(self.followers.values()) >= self.app.config["STREAM_MAX"]:
                return False
            self.followers[event_id] = self.followers.get(event_id, 0) + 1
            self.counters.setdefault(event_id, first)
            if self.watcher is None or not self.watcher.is_alive():
                self.watcher = threading.Thread(target=self._watch, name="stream-watcher", daemon=True)
                self.watcher.start()
            return True

    def leave(self, event_id: int) -> None:
        with self.cond:
            self.followers[event_id] -= 1
            if not self.followers[event_id]:
                del self.followers[event_id]
                self.counters.pop(event_id, None)

    def wait(self, event_id: int, last: dict, timeout: float, stop=lambda: False) -> dict:
        """The event's counters once they differ from `last`, or `last` after `timeout` s
        (or once `stop()` is true)."""
        with self.cond:
            self.cond.wait_for(lambda: stop() or self.counters.get(event_id, last) != last, timeout)
            return self.counters.get(event_id, last)

    def _watch(self) -> None:
        interval = self.app.config["STREAM_POLL_SECONDS"]
        while True:
            with self.cond:
                ids = list(self.followers)
                if not ids:
                    self.watcher = None
                    return
            try:
                with self.app.app_context():
                    fresh = read_counters(ids)
                    db.session.remove()
            except Exception:  # noqa: BLE001 - a database hiccup: streams keep their last counters
                self.app.logger.exception("stream watcher: reading the counters failed")
                fresh = {}
            with self.cond:
                changed = False
                for eid, counters in fresh.items():
                    if eid in self.followers and self.counters.get(eid) != counters:
                        self.counters[eid] = counters
                        changed = True
                if changed:
                    self.cond.notify_all()
            self.poke.wait(interval)
            self.poke.clear()

    def stream(self, event_id: int, first: dict) -> Stream:
        """The SSE body of one stream `join`ed before (needs no app context)."""
        body = Stream(self, event_id, first)
        self.live.add(body)
        return body

    def stop_all(self) -> None:
        """End every stream of this process at once (clients reconnect)."""
        with self.cond:
            for body in list(self.live):
                body.stopping = True
            self.cond.notify_all()


class Stream:
    """A stream's body: an iterable of SSE text whose `close` (called by the WSGI server when
    the response ends or the client goes) frees its place in the hub, started or not."""

    def __init__(self, hub: Hub, event_id: int, first: dict):
        self.hub, self.event_id, self.first = hub, event_id, first
        self.messages = self._messages()
        self.stopping = False
        self.left = False
        self.lock = threading.Lock()

    def __iter__(self):
        return self

    def __next__(self) -> str:
        try:
            return next(self.messages)
        except StopIteration:
            self._leave()
            raise

    def close(self) -> None:
        self.stopping = True
        with self.hub.cond:
            self.hub.cond.notify_all()
        try:
            self.messages.close()
        except ValueError:
            return  # being read in another thread: it stops at once and frees its place then
        self._leave()

    def _leave(self) -> None:
        with self.lock:
            if self.left:
                return
            self.left = True
        self.hub.leave(self.event_id)

    def _messages(self):
        config, hub, last = self.hub.app.config, self.hub, self.first
        yield "retry: 1000\n\n" + message(last)
        start = time.monotonic()
        end, ping = start + config["STREAM_SECONDS"], start + config["STREAM_PING_SECONDS"]
        while not self.stopping and (now := time.monotonic()) < end:
            counters = hub.wait(self.event_id, last, min(end, ping) - now, lambda: self.stopping)
            if counters != last:
                last = counters
                yield message(counters)
            elif time.monotonic() >= ping:
                ping = time.monotonic() + config["STREAM_PING_SECONDS"]
                yield ": ping\n\n"


def hub(app: Flask) -> Hub:
    return app.extensions["stream_hub"]


def _after_commit(_session) -> None:
    """Any commit in this process pokes its app's watcher (when it has streams)."""
    if has_app_context():
        h = current_app.extensions.get("stream_hub")
        if h is not None and h.followers:
            h.poke.set()


def register_stream_hub(app: Flask) -> None:
    """One Hub per app; the commit hook is registered once per process."""
    app.extensions["stream_hub"] = Hub(app)
    if not sa_event.contains(Session, "after_commit", _after_commit):
        sa_event.listen(Session, "after_commit", _after_commit)
