"""The app and the organiser pages ask in the page, never with the browser's own dialogs
(window.confirm, alert, prompt): those are in the browser's language, not the page's, block
the page (the clock stops drawing) and cannot be styled for a 44 px finger. Leaving an event,
voiding a record, ending a round and revoking a device each ask in the page instead
(tests/browser/test_leave.py, test_organiser_confirm.py show them)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLACES = ["pwa/src/**/*.js", "pwa/src/**/*.html", "pwa/sw/*.js", "server/templates/**/*.html"]
NATIVE = re.compile(r"(?<![\w.])(?:window\.)?(confirm|alert|prompt)\(")


def test_no_page_uses_the_browsers_own_dialogs():
    found = []
    for pattern in PLACES:
        for path in ROOT.glob(pattern):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if NATIVE.search(line) and not line.lstrip().startswith(("//", "*", "/*")):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_check_finds_a_native_dialog():
    assert NATIVE.search('if (!window.confirm(t("Leave?"))) return;')
    assert NATIVE.search("alert('x')")
    assert not NATIVE.search("askVoid(record, row, { confirm: t('Void') })")
    assert not NATIVE.search("dialog.confirmButton(x)")
