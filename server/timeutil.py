"""The server clock. Everything that needs "now" calls `now_ms()` (tests replace it)."""

import time


def now_ms() -> int:
    """Server time in epoch milliseconds."""
    return int(time.time() * 1000)
