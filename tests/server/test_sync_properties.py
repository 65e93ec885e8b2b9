"""Sync properties: whatever the interleaving, batch sizes, repeats and lost responses,
afterwards every device holds exactly the server's records, none lost, none doubled."""

import threading

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import Phone, add_event

from server.extensions import db
from server.models import Record

# one step: (device index, how many outbox records to push, repeat already-sent ones,
#            response lost on the way back)
steps = st.lists(st.tuples(st.integers(0, 3), st.integers(1, 6), st.booleans(), st.booleans()),
                 max_size=12)
# per device, the records it makes offline: ("penalty" | "extension" | "void of my n-th")
made = st.lists(st.lists(st.one_of(st.just("penalty"), st.just("extension"), st.integers(0, 5)),
                         min_size=1, max_size=6), min_size=2, max_size=4)


def make_record(phone, kind, mine):
    if isinstance(kind, int):
        targets = [r for r in mine if r["type"] != "void"]
        if targets:
            target = targets[kind % len(targets)]
            return phone.record("void", {"record": target["id"], "reason": "entered in error"})
        kind = "penalty"
    if kind == "penalty":
        return phone.penalty("Ada Brook", penalty="warning")
    return phone.record("time_extension", {"table": 1 + len(mine), "round": 1, "minutes": 2,
                                           "reason": "ruling"})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(made=made, steps=steps)
def test_devices_converge_on_the_servers_records(app, client, made, steps):
    event = add_event(app)  # a fresh event per example keeps examples apart
    phones = [Phone(client, event, name=f"phone {i}") for i in range(len(made))]
    outboxes, sent = [], []
    for phone, kinds in zip(phones, made, strict=True):
        mine = []
        for kind in kinds:
            mine.append(make_record(phone, kind, mine))
        outboxes.append(list(mine))
        sent.append([])
    created = {r["id"] for box in outboxes for r in box}

    for index, size, repeat, lost in steps:
        i = index % len(phones)
        phone = phones[i]
        batch = (sent[i][-2:] if repeat else []) + outboxes[i][:size]  # outbox order is kept
        if lost:  # the server stores the batch but the phone never hears back
            client.post(f"/api/events/{event['slug']}/sync", headers=phone.headers,
                        json={"device": phone.id, "cursor": phone.cursor, "records": batch})
            continue
        body = phone.sync(batch)
        assert {r["status"] for r in body["results"]} <= {"accepted", "duplicate"}
        done = {r["id"] for r in body["results"]}
        sent[i] += [r for r in outboxes[i] if r["id"] in done]
        outboxes[i] = [r for r in outboxes[i] if r["id"] not in done]

    for phone, box in zip(phones, outboxes, strict=True):
        results = phone.sync_all(box)["results"]
        assert {r["status"] for r in results} <= {"accepted", "duplicate"}
    for phone in phones:
        phone.sync_all()

    with app.app_context():
        rows = db.session.scalars(db.select(Record).where(Record.event_id == event["id"])).all()
    assert {r.id for r in rows} == created and len(rows) == len(created)
    assert sorted(r.seq for r in rows) == list(range(1, len(rows) + 1))
    for phone in phones:
        assert set(phone.held) == created
        assert sorted(r["seq"] for r in phone.held.values()) == list(range(1, len(rows) + 1))


def test_the_same_records_pushed_from_several_threads_leave_one_row_each(app, client):
    """Four threads push the same 60 records at once (as a phone retrying on several
    connections would); each record is stored once and numbered once."""
    event = add_event(app)
    phone = Phone(client, event)
    records = [phone.penalty("Ada Brook") for _ in range(60)]
    statuses, errors = [], []
    barrier = threading.Barrier(4)

    def push():
        try:
            with app.test_client() as c:
                barrier.wait()
                res = c.post(f"/api/events/{event['slug']}/sync", headers=phone.headers,
                             json={"device": phone.id, "cursor": 0, "records": records})
                statuses.append([r["status"] for r in res.get_json()["results"]])
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=push) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(statuses) == 4
    # each record was accepted by exactly one of the four requests
    for column in zip(*statuses, strict=True):
        assert sorted(column) == ["accepted", "duplicate", "duplicate", "duplicate"]
    with app.app_context():
        seqs = db.session.scalars(db.select(Record.seq).where(Record.event_id == event["id"])).all()
    assert sorted(seqs) == list(range(1, 61))


def test_a_cursor_reader_misses_nothing_while_devices_push_at_once(app, client):
    """Three devices push 20 batches each while a fourth pulls with its cursor the whole
    time: the reader ends up with every record, so no record became visible below a
    cursor the reader had already passed."""
    event = add_event(app)
    writers = [Phone(client, event, name=f"writer {i}") for i in range(3)]
    reader = Phone(client, event, name="reader")
    done = threading.Event()
    errors = []

    def write(phone):
        try:
            with app.test_client() as c:
                for _ in range(20):
                    batch = [phone.penalty("Ada Brook") for _ in range(5)]
                    res = c.post(f"/api/events/{event['slug']}/sync", headers=phone.headers,
                                 json={"device": phone.id, "cursor": 0, "records": batch})
                    assert {r["status"] for r in res.get_json()["results"]} == {"accepted"}
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    def read():
        with app.test_client() as c:
            reader.client = c
            while not done.is_set():
                reader.sync()

    threads = [threading.Thread(target=write, args=(p,)) for p in writers]
    pulling = threading.Thread(target=read)
    pulling.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.set()
    pulling.join()
    assert errors == []
    reader.client = client
    reader.sync_all()
    assert len(reader.held) == 300
    assert sorted(r["seq"] for r in reader.held.values()) == list(range(1, 301))
