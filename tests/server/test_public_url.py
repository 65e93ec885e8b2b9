"""The address phones use (PUBLIC_URL): the join link and its QR code on the organiser page,
the demo's printed links, behind a TLS-terminating proxy (TRUST_PROXY), and the warnings when
phones cannot reach the address or cannot keep the app offline from it."""

import html
import re

import pytest
from conftest import LOGIN
from server_helpers import add_event, make_app

from server import create_app
from server.extensions import db


def organiser_app(tmp_path, request, **config):
    app = make_app("sqlite", tmp_path, request, **config)
    with app.app_context():
        db.create_all()
    return app


def event_page(app, headers=None, base_url="http://127.0.0.1:5000"):
    """The organiser's event page (logged in) as text, and the event."""
    event = add_event(app)
    client = app.test_client()
    client.post("/organiser/login", data=LOGIN, base_url=base_url, headers=headers)
    page = client.get(f"/organiser/events/{event['slug']}", base_url=base_url, headers=headers)
    assert page.status_code == 200
    return html.unescape(page.get_data(as_text=True)), event


def join_link(text):
    return re.search(r'id="join-url">([^<]+)<', text).group(1)


def test_the_join_link_and_qr_use_public_url(tmp_path, request):
    app = organiser_app(tmp_path, request, PUBLIC_URL="https://judges.example.org/")
    text, event = event_page(app)
    assert join_link(text) == f"https://judges.example.org/#/join/{event['code']}"
    assert "<svg" in text and "join-unreachable" not in text and "join-insecure" not in text


def test_without_public_url_a_loopback_address_is_flagged(tmp_path, request):
    text, event = event_page(organiser_app(tmp_path, request))
    assert join_link(text) == f"http://127.0.0.1:5000/#/join/{event['code']}"
    assert 'id="join-unreachable"' in text and "PUBLIC_URL" in text


def test_a_plain_http_address_on_the_network_says_offline_needs_https(tmp_path, request):
    text, event = event_page(organiser_app(tmp_path, request), base_url="http://192.168.1.20:5000")
    assert join_link(text) == f"http://192.168.1.20:5000/#/join/{event['code']}"
    assert 'id="join-insecure"' in text and 'id="join-unreachable"' not in text


def test_behind_a_tls_terminating_proxy_the_forwarded_https_address_is_used(tmp_path, request):
    app = organiser_app(tmp_path, request, TRUST_PROXY=1)
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "judges.example.org",
                 "X-Forwarded-For": "203.0.113.7"}
    text, event = event_page(app, headers=forwarded, base_url="http://10.0.0.5:8000")
    assert join_link(text) == f"https://judges.example.org/#/join/{event['code']}"
    assert "join-insecure" not in text and "join-unreachable" not in text


@pytest.mark.parametrize("bad", ["judges.example.org", "ftp://judges.example.org", "https://", "https://x.org/?a=1"])
def test_a_public_url_that_is_not_an_address_stops_the_server_at_start(bad, tmp_path):
    with pytest.raises(ValueError, match="PUBLIC_URL must be an http:// or https:// address"):
        create_app({"PUBLIC_URL": bad, "SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=str(tmp_path))


def test_demo_prints_join_links_at_public_url_and_warns_about_loopback(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/demo.sqlite3")
    public = create_app({"TESTING": True, "PUBLIC_URL": "https://judges.example.org"}, instance_path=str(tmp_path))
    out = public.test_cli_runner().invoke(args=["demo"]).output
    codes = re.findall(r"join code (\w+)", out)
    assert len(codes) == 5  # one event per ruleset, and the decklist event
    assert all(f"join link https://judges.example.org/#/join/{c}" in out for c in codes)
    assert "Phones cannot open" not in out
    local = create_app({"TESTING": True}, instance_path=str(tmp_path)).test_cli_runner().invoke(args=["demo"]).output
    assert f"join link http://127.0.0.1:5000/#/join/{codes[0]}" in local and "Phones cannot open" in local
