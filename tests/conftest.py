"""Shared pytest fixtures. Server and browser fixtures live in their own folders' conftest files."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def root() -> Path:
    """The project's top folder."""
    return ROOT
