"""The engine's one exception type, and the signal for a fact that a rule reads but was not given."""

from __future__ import annotations


class RuleError(Exception):
    """Bad input or bad rule data.

    ``field`` is the dotted name (or JSON path) of the offending value, ``allowed`` the
    accepted values where there is a closed list. ``str(error)`` is a complete sentence
    naming both, fit to show a person or return as an HTTP 400 body.
    """

    def __init__(self, message: str, field: str | None = None, allowed: list | None = None):
        self.message = message
        self.field = field
        self.allowed = list(allowed) if allowed is not None else None
        text = message
        if allowed is not None:
            text = f"{message} (allowed: {', '.join(map(str, allowed)) or 'none'})"
        super().__init__(text)

    def to_dict(self) -> dict:
        """JSON-ready form: ``{"message", "field", "allowed"}``."""
        return {"message": str(self), "field": self.field, "allowed": self.allowed}


class MissingFact(Exception):  # noqa: N818 - a signal, not an error shown as such
    """A rule read a value the request did not give.

    ``path`` is the declared fact to ask for, rooted: ``facts.current_game.winner`` or
    ``event.level`` (a read of ``facts.current_game.stones.A`` asks for the per-player
    ``facts.current_game.stones``); ``spec`` is its vocabulary entry.
    """

    def __init__(self, path: str, spec: dict):
        self.path = path
        self.spec = spec
        super().__init__(path)
