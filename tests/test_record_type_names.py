"""The Sync screen names every type of record the server keeps in the judge's words, both as
the record itself and as the record another one names ("Void of deck check …"), never by the
type's code ("deck_check")."""

import re
from pathlib import Path

from server.records import PAYLOADS

SYNCVIEW = Path(__file__).resolve().parents[1] / "pwa" / "src" / "js" / "ui" / "syncview.js"


def _cases(function_name):
    source = SYNCVIEW.read_text(encoding="utf-8")
    body = source.split(f"function {function_name}(", 1)[1].split("\n}\n", 1)[0]
    return set(re.findall(r'case "([a-z_]+)":', body))


def test_every_record_type_has_a_name_on_the_sync_screen():
    assert _cases("typeName") == set(PAYLOADS)


def test_every_record_type_can_be_named_by_another_record():
    assert _cases("ofRecord") == set(PAYLOADS)
