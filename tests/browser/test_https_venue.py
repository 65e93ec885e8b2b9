"""The venue set-up the README gives: the server behind a router that terminates HTTPS (as a
PaaS does) and forwards plain HTTP with X-Forwarded-* headers, TRUST_PROXY=1 and PUBLIC_URL
set. A phone opening the https:// address keeps the app offline, gets the Brotli copies, and
the organiser page's join link and QR point at the public address."""

import base64
import hashlib
import shutil
import ssl
import subprocess
import threading

from werkzeug.serving import make_server

from .conftest import CHROMIUM_ARGS, PHONE, free_port, organiser_app

PUBLIC = "https://judges.example.org"


class Router:
    """What a TLS-terminating router hands the app: plain HTTP plus X-Forwarded-Proto,
    -Host and -For. Notes the Content-Encoding of each response."""

    def __init__(self, app):
        self.app = app
        self.encodings = {}

    def __call__(self, environ, start_response):
        environ["HTTP_X_FORWARDED_PROTO"] = environ["wsgi.url_scheme"]
        environ["HTTP_X_FORWARDED_HOST"] = environ["HTTP_HOST"]
        environ["HTTP_X_FORWARDED_FOR"] = environ["REMOTE_ADDR"]
        environ["wsgi.url_scheme"] = "http"
        path = environ["PATH_INFO"]

        def note(status, headers, *rest):
            self.encodings[path] = dict(headers).get("Content-Encoding")
            return start_response(status, headers, *rest)

        return self.app(environ, note)


def spki_sha256(cert_pem):
    """base64 SHA-256 of the certificate's public key: Chromium trusts a certificate with that
    key as if a public authority had signed it (the router's certificate, on a PaaS)."""
    der = ssl.PEM_cert_to_DER_cert(cert_pem.read_text())
    key = subprocess.run(["openssl", "x509", "-inform", "der", "-pubkey", "-noout"], input=der,
                         capture_output=True, check=True).stdout
    spki = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=key,
                          capture_output=True, check=True).stdout
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


def test_behind_an_https_router_the_app_installs_and_join_links_use_public_url(browser, dist, tmp_path):
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
                   check=True, capture_output=True)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    router = Router(organiser_app(tmp_path, dist, PUBLIC_URL=PUBLIC, TRUST_PROXY=1))
    httpd = make_server("127.0.0.1", free_port(), router, threaded=True, ssl_context=tls)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"https://127.0.0.1:{httpd.server_port}"
    # Service workers register only from a certificate the browser trusts.
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=shutil.which("chromium"), headless=True, viewport=PHONE,
        args=[*CHROMIUM_ARGS, f"--ignore-certificate-errors-spki-list={spki_sha256(tmp_path / 'cert.pem')}"])
    try:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.goto(url + "/#/join")
        assert page.evaluate("() => window.isSecureContext") is True
        page.wait_for_selector("#offline[data-phase=ready]", timeout=60_000)
        assert router.encodings["/pyodide/pyodide.asm.wasm"] == "br"

        page.goto(url + "/organiser/login")
        page.fill("input[name=username]", "organiser")
        page.fill("input[name=password]", "browser-tests")
        page.click("button")
        page.fill("input[name=name]", "Venue Open")
        page.click("form[action$='/organiser/events'] button")
        # Read from the new event's page only once it has loaded: the click
        # navigates, and the page before it has no join code.
        code = page.text_content("#join-code").strip()
        assert page.text_content("#join-url").strip() == f"{PUBLIC}/#/join/{code}"
        assert page.locator("#join-unreachable, #join-insecure").count() == 0
    finally:
        ctx.close()
        httpd.shutdown()
