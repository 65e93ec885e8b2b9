"""A PostgreSQL schema of its own for one benchmark run, dropped afterwards."""

from __future__ import annotations

import contextlib
import secrets

import sqlalchemy as sa


@contextlib.contextmanager
def postgres_config(url: str):
    """Yields the app configuration (database URI and search path) for a fresh schema on the
    server at `url`; the schema and everything in it are dropped on leaving."""
    schema = f"jc_bench_{secrets.token_hex(3)}"
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield {"SQLALCHEMY_DATABASE_URI": url,
               "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={schema}"}}}
    finally:
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()
