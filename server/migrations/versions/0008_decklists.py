"""decklists: the organiser's deadline and deck sizes, each player's decklist code

Decklists themselves are records (type `decklist`, one per version), so they need no table.

Revision ID: 0008_decklists
Revises: 0007_accounts
Create Date: 2026-12-06 09:00:00
"""
import sqlalchemy as sa
from alembic import op

revision = '0008_decklists'
down_revision = '0007_accounts'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('events') as batch_op:
        batch_op.add_column(sa.Column('decklist_deadline_ms', sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column('decklist_sizes', sa.JSON(), nullable=True))
    with op.batch_alter_table('players') as batch_op:
        batch_op.add_column(sa.Column('decklist_code', sa.String(length=16), nullable=True))
        batch_op.create_unique_constraint('uq_players_decklist_code', ['decklist_code'])


def downgrade():
    with op.batch_alter_table('players') as batch_op:
        batch_op.drop_constraint('uq_players_decklist_code', type_='unique')
        batch_op.drop_column('decklist_code')
    with op.batch_alter_table('events') as batch_op:
        batch_op.drop_column('decklist_sizes')
        batch_op.drop_column('decklist_deadline_ms')
