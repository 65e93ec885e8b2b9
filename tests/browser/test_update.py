"""Updates: when a new build's service worker is waiting, the app says so, and "Reload now"
switches to it."""

import shutil
import subprocess

from .conftest import PHONE, ROOT, StaticServer, wait_controlled
from .helpers import settled


def test_a_new_build_is_announced_and_taken_on_reload(browser, tmp_path):
    out = tmp_path / "dist"
    subprocess.run(["node", str(ROOT / "pwa" / "build.mjs"), "--out", str(out)], check=True,
                   capture_output=True)
    server = StaticServer(out)
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        wait_controlled(page)
        settled(page)
        assert page.is_hidden("#update")

        sw = out / "sw.js"
        sw.write_text(sw.read_text(encoding="utf-8") + "\n// the next build\n", encoding="utf-8")
        page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.update())")
        page.wait_for_selector("#update", state="visible", timeout=30_000)
        assert "new version" in page.text_content("#update")

        with page.expect_navigation(timeout=30_000):
            page.click("#update-btn")
        wait_controlled(page)
        state = page.evaluate("""() => navigator.serviceWorker.getRegistration()
            .then((r) => ({waiting: r.waiting !== null, active: r.active.state}))""")
        assert state == {"waiting": False, "active": "activated"}
        assert page.is_hidden("#update")
        names = page.evaluate("() => caches.keys()")
        assert len(names) == 1 and names[0].startswith("judge-companion-precache"), names
        cached = page.evaluate("""(name) => caches.open(name).then((c) => c.keys())
            .then((reqs) => reqs.map((r) => new URL(r.url).pathname))""", names[0])
        assert {"/index.html", "/pyodide/pyodide.asm.wasm", "/engine/shared_rules.zip",
                "/rules/queries.json"} <= set(cached)
    finally:
        ctx.close()
        server.stop()
        shutil.rmtree(out, ignore_errors=True)
