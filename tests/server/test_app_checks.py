"""The judge app checks a record's fields on screen before it makes the record
(pwa/src/js/checks.js); its limits are the server's, so a value the screen lets through is
never refused at sync for its size."""

import re
from pathlib import Path

from server import records
from server.schemas import JoinIn

CHECKS = Path(__file__).resolve().parents[2] / "pwa" / "src" / "js" / "checks.js"


def app_limits() -> dict[str, int]:
    text = CHECKS.read_text(encoding="utf-8")
    block = re.search(r"LIMITS = Object\.freeze\(\{(.*?)\}\)", text, re.S).group(1)
    return {name: int(value) for name, value in re.findall(r"(\w+): (\d+)", block)}


def test_the_app_checks_fields_with_the_servers_limits():
    extension = records.TimeExtensionPayload().fields["minutes"]
    join = JoinIn().fields
    assert join["judge_name"].max_length == records.MAX_JUDGE
    assert app_limits() == {"table": records.MAX_TABLE, "name": records.MAX_NAME, "judge": records.MAX_JUDGE,
                            "notes": records.MAX_NOTES, "minutes": extension.high,
                            "device": join["device_name"].max_length, "code": join["code"].max_length,
                            "games": records.MAX_GAMES}
