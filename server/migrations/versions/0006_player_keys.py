"""player keys: records.player holds shared_rules.history.player_key (typed names folded)

A typed player name was compared as written, so "Ada Brook" and "ada brook" were two players.
The column now holds the player's key; the review items are worked out again
from the records at the next reconciliation.

Revision ID: 0006_player_keys
Revises: 0005_calls
Create Date: 2026-12-02 04:00:00
"""
import json
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = '0006_player_keys'
down_revision = '0005_calls'
branch_labels = None
depends_on = None


def key(player):
    """shared_rules.history.player_key as of this revision (a migration keeps its own copy)."""
    if isinstance(player, str):
        if player.isascii() and player.isdigit():
            return str(int(player))
        folded = " ".join(unicodedata.normalize("NFKC", player).split()).casefold()
        return "name:" + folded[:190]
    return None if player is None else str(player)


def rewrite(to_column):
    """Set records.player of every penalty and appeal to `to_column(payload player)`; rows
    whose payload cannot be read keep their value. The review items are worked out again."""
    bind = op.get_bind()
    records = sa.table('records', sa.column('id', sa.String), sa.column('type', sa.String),
                       sa.column('payload', sa.JSON), sa.column('player', sa.String))
    rows = bind.execute(sa.select(records.c.id, records.c.payload).where(
        records.c.type.in_(('penalty', 'appeal')))).all()
    for ident, payload in rows:
        if isinstance(payload, str):
            try:
                payload = json.loads(payload)
            except ValueError:
                continue
        player = payload.get('player') if isinstance(payload, dict) else None
        if isinstance(player, bool) or not isinstance(player, (int, str)):
            continue
        bind.execute(sa.update(records).where(records.c.id == ident).values(player=to_column(player)))
    op.execute(sa.text('DELETE FROM review_items'))
    op.execute(sa.text('UPDATE events SET review_seq = 0'))


def upgrade():
    rewrite(key)


def downgrade():
    rewrite(lambda player: str(player)[:200])
