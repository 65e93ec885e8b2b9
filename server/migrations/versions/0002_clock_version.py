"""events.clock_version: a counter bumped by every change to an event's clock

Revision ID: 0002_clock_version
Revises: 75bef6d6d8a0
Create Date: 2026-11-29 21:40:00
"""
import sqlalchemy as sa
from alembic import op

revision = '0002_clock_version'
down_revision = '75bef6d6d8a0'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('events') as batch_op:
        batch_op.add_column(sa.Column('clock_version', sa.Integer(), server_default='0', nullable=False))


def downgrade():
    with op.batch_alter_table('events') as batch_op:
        batch_op.drop_column('clock_version')
