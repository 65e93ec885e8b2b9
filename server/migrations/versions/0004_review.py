"""review: records.player (indexed), review_items, events.review_seq and head_judge_from

Revision ID: 0004_review
Revises: 0003_organiser_sessions
Create Date: 2026-12-01 19:10:00
"""
import json

import sqlalchemy as sa
from alembic import op

revision = '0004_review'
down_revision = '0003_organiser_sessions'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('events') as batch_op:
        batch_op.add_column(sa.Column('review_seq', sa.BigInteger(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('head_judge_from', sa.String(length=64), nullable=True))
    with op.batch_alter_table('records') as batch_op:
        batch_op.add_column(sa.Column('player', sa.String(length=200), nullable=True))
        batch_op.create_index('ix_records_event_player', ['event_id', 'player'], unique=False)
    op.create_table('review_items',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('event_id', sa.Integer(), nullable=False),
                    sa.Column('player', sa.String(length=200), nullable=False),
                    sa.Column('kind', sa.String(length=16), nullable=False),
                    sa.Column('record_id', sa.String(length=36), nullable=False),
                    sa.Column('created_ms', sa.BigInteger(), nullable=True),
                    sa.Column('item', sa.JSON(), nullable=False),
                    sa.ForeignKeyConstraint(['event_id'], ['events.id'], ondelete='CASCADE'),
                    sa.PrimaryKeyConstraint('id'))
    op.create_index('ix_review_items_event_player', 'review_items', ['event_id', 'player'], unique=False)
    # existing penalties get their player column; review items are worked out on first read
    # (events.review_seq starts at 0)
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, payload FROM records WHERE type = 'penalty'")).fetchall()
    for rid, payload in rows:
        data = json.loads(payload) if isinstance(payload, str) else payload
        player = data.get("player") if isinstance(data, dict) else None
        if isinstance(player, (str, int)) and not isinstance(player, bool) and len(str(player)) <= 200:
            conn.execute(sa.text("UPDATE records SET player = :p WHERE id = :id"), {"p": str(player), "id": rid})


def downgrade():
    op.drop_index('ix_review_items_event_player', table_name='review_items')
    op.drop_table('review_items')
    with op.batch_alter_table('records') as batch_op:
        batch_op.drop_index('ix_records_event_player')
        batch_op.drop_column('player')
    with op.batch_alter_table('events') as batch_op:
        batch_op.drop_column('head_judge_from')
        batch_op.drop_column('review_seq')
