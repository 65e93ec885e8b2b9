"""The interpreter's memory snapshot: kept only while its heap fits what the pinned Pyodide can
restore (the runtime's initial memory, read from the wasm at build time); a snapshot that
fails to restore gives a plain start, says so in window.judge.state, and is made again."""

import json
import shutil
import subprocess

from .conftest import PHONE, ROOT, StaticServer, wait_python

SNAPSHOT_KEPT = "() => window.judge.state.snapshot_bytes > 0"
CORRUPT = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open('judge-engine', 1);
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const tx = open.result.transaction('snapshots', 'readwrite');
    const store = tx.objectStore('snapshots');
    const keys = store.getAllKeys();
    keys.onsuccess = () => {
      for (const key of keys.result) store.put(new Uint8Array(4096).fill(7), key);
      tx.oncomplete = () => resolve(keys.result.length);
    };
  };
})"""
ASK = """() => window.judge.evaluate({ruleset: 'wotf', query: 'extension', event: {level: 'competitive'},
                                   facts: {deck_check_minutes: 6}})"""


def test_a_snapshot_that_fails_to_restore_gives_a_plain_start_and_is_made_again(context, static_server, dist):
    limit = json.loads((dist / "version.json").read_text())["snapshot_heap_limit"]
    assert limit == 30 * 1024 * 1024  # 480 pages of 64 KiB: Pyodide 314.0.x's initial memory
    page = context.new_page()
    page.goto(static_server.url + "/")
    wait_python(page)
    page.wait_for_function(SNAPSHOT_KEPT, timeout=60_000)
    kept = page.evaluate("() => window.judge.state")
    assert kept["snapshot_error"] is None and kept["snapshot_bytes"] - limit < 4096
    answer = page.evaluate(ASK)

    assert page.evaluate(CORRUPT) == 1
    page.reload()
    wait_python(page)
    state = page.evaluate("() => window.judge.state")
    assert state["from"] == "fresh"
    assert "could not be restored" in state["snapshot_error"]
    assert page.evaluate(ASK) == answer

    page.wait_for_function(SNAPSHOT_KEPT, timeout=60_000)
    page.reload()
    wait_python(page)
    assert page.evaluate("() => [window.judge.state.from, window.judge.state.snapshot_error]") == ["snapshot", None]


def test_a_heap_larger_than_the_runtime_can_restore_is_never_kept(browser, tmp_path):
    out = tmp_path / "dist"
    subprocess.run(["node", str(ROOT / "pwa" / "build.mjs"), "--out", str(out)], check=True, capture_output=True)
    version = json.loads((out / "version.json").read_text())
    version["snapshot_heap_limit"] = 16 * 1024 * 1024  # as if the runtime restored only 16 MiB
    (out / "version.json").write_text(json.dumps(version))
    server = StaticServer(out)
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        wait_python(page)
        page.wait_for_function("() => window.judge.state.snapshot_error !== null", timeout=60_000)
        state = page.evaluate("() => window.judge.state")
        assert state["snapshot_bytes"] is None
        assert "30.0 MiB" in state["snapshot_error"] and "16.0 MiB" in state["snapshot_error"]
        page.reload()
        wait_python(page)
        assert page.evaluate("() => window.judge.state.from") == "fresh"
    finally:
        ctx.close()
        server.stop()
        shutil.rmtree(out, ignore_errors=True)
