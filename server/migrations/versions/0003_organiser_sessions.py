"""organiser_sessions: server-side organiser sessions (logging out ends them)

Revision ID: 0003_organiser_sessions
Revises: 0002_clock_version
Create Date: 2026-12-01 10:00:00
"""
import sqlalchemy as sa
from alembic import op

revision = '0003_organiser_sessions'
down_revision = '0002_clock_version'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('organiser_sessions',
                    sa.Column('sid_hash', sa.String(length=64), nullable=False),
                    sa.Column('created_ms', sa.BigInteger(), nullable=False),
                    sa.Column('expires_ms', sa.BigInteger(), nullable=False),
                    sa.PrimaryKeyConstraint('sid_hash'))
    op.create_index(op.f('ix_organiser_sessions_expires_ms'), 'organiser_sessions', ['expires_ms'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_organiser_sessions_expires_ms'), table_name='organiser_sessions')
    op.drop_table('organiser_sessions')
