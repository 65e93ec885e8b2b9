"""The judge app's own words (pwa/src/js/i18n.js): every message of the sources is listed by
pwa/build/messages.mjs, every catalog holds a translation of each with the same placeholders,
and the checker itself catches a missing message, a lost placeholder and a call it cannot read."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "pwa" / "build" / "messages.mjs"
CATALOGS = ROOT / "pwa" / "src" / "i18n"
LANGUAGES = ["de", "fr", "it", "es", "pt"]

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js (the app's build)")


def report(*args: str) -> tuple[int, dict]:
    run = subprocess.run(["node", str(TOOL), "--json", *args], capture_output=True, text=True, check=False)
    return run.returncode, json.loads(run.stdout)


def test_the_sources_have_messages_and_every_call_is_readable():
    code, out = report()
    assert out["problems"] == []
    # the app's languages (js/lang.js) are the engine's (shared_rules/translations.py)
    from shared_rules import translations

    assert out["languages"] == [lang for lang in translations.LANGUAGES if lang != translations.ENGLISH] == LANGUAGES
    messages = out["messages"]
    # the status line, the screens' names and the Event screen's settings are among them
    for english in ["Ready offline", "Clock", "Penalty", "Language", "Skip to content"]:
        assert english in messages, english
    counted = {k: v for k, v in messages.items() if v["plural"]}
    assert counted, "no counted message: tn is never used"
    assert all("one" in v and v["one"] != k for k, v in counted.items())


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalog_is_complete_with_the_same_placeholders(language):
    code, out = report()
    catalog = next(c for c in out["catalogs"] if c["language"] == language)
    assert catalog["problems"] == []
    assert catalog["missing"] == []
    assert catalog["obsolete"] == []
    assert catalog["translated"] == len(out["messages"]) > 100
    assert code == 0
    held = json.loads((CATALOGS / f"{language}.json").read_text(encoding="utf-8"))
    assert held["language"] == language
    # a translation is not the English left in place, for most messages
    same = [k for k, v in held["messages"].items() if v == k]
    assert len(same) < len(held["messages"]) / 5, same


def test_the_checker_reports_a_missing_message_and_a_lost_placeholder(tmp_path):
    shutil.copytree(CATALOGS, tmp_path, dirs_exist_ok=True)
    german = json.loads((tmp_path / "de.json").read_text(encoding="utf-8"))
    plain = next(k for k, v in german["messages"].items() if isinstance(v, str) and "{" in k)
    german["messages"][plain] = "Ohne Platzhalter"
    dropped = next(k for k, v in german["messages"].items() if isinstance(v, str) and "{" not in k)
    del german["messages"][dropped]
    german["messages"]["A message no source has"] = "Veraltet"
    (tmp_path / "de.json").write_text(json.dumps(german, ensure_ascii=False), encoding="utf-8")
    code, out = report("--catalogs", str(tmp_path))
    assert code == 1
    de = next(c for c in out["catalogs"] if c["language"] == "de")
    assert de["missing"] == [dropped]
    assert de["obsolete"] == ["A message no source has"]
    assert len(de["problems"]) == 1 and plain in de["problems"][0]
    fr = next(c for c in out["catalogs"] if c["language"] == "fr")
    assert fr["problems"] == [] and fr["missing"] == []


def test_write_keeps_translations_and_adds_new_messages_empty(tmp_path):
    shutil.copytree(CATALOGS, tmp_path, dirs_exist_ok=True)
    german = json.loads((tmp_path / "de.json").read_text(encoding="utf-8"))
    kept = dict(german["messages"])
    gone = next(iter(kept))
    del german["messages"][gone]
    (tmp_path / "de.json").write_text(json.dumps(german, ensure_ascii=False), encoding="utf-8")
    report("--catalogs", str(tmp_path), "--write", "de")
    written = json.loads((tmp_path / "de.json").read_text(encoding="utf-8"))["messages"]
    assert list(written) == sorted(kept)
    empty = "" if isinstance(kept[gone], str) else dict.fromkeys(kept[gone], "")
    assert written[gone] == empty
    assert {k: v for k, v in written.items() if k != gone} == {k: v for k, v in kept.items() if k != gone}
