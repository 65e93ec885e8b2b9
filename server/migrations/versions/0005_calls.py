"""calls: judge calls from the tables, events.call_escalate_seconds and calls_seq

Revision ID: 0005_calls
Revises: 0004_review
Create Date: 2026-12-01 23:30:00
"""
import sqlalchemy as sa
from alembic import op

revision = '0005_calls'
down_revision = '0004_review'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('events') as batch_op:
        batch_op.add_column(sa.Column('call_escalate_seconds', sa.Integer(), server_default='120', nullable=False))
        batch_op.add_column(sa.Column('calls_seq', sa.BigInteger(), server_default='0', nullable=False))
    op.create_table('calls',
                    sa.Column('id', sa.String(length=36), nullable=False),
                    sa.Column('event_id', sa.Integer(), nullable=False),
                    sa.Column('table_number', sa.Integer(), nullable=False),
                    sa.Column('reason', sa.String(length=32), nullable=True),
                    sa.Column('caller', sa.String(length=16), nullable=False),
                    sa.Column('status', sa.String(length=8), nullable=False),
                    sa.Column('created_ms', sa.BigInteger(), nullable=False),
                    sa.Column('taken_ms', sa.BigInteger(), nullable=True),
                    sa.Column('taken_by', sa.String(length=100), nullable=True),
                    sa.Column('taken_device_id', sa.Integer(), nullable=True),
                    sa.Column('closed_ms', sa.BigInteger(), nullable=True),
                    sa.Column('ruling', sa.String(length=2000), nullable=True),
                    sa.Column('closed_by', sa.String(length=100), nullable=True),
                    sa.ForeignKeyConstraint(['event_id'], ['events.id'], ondelete='CASCADE'),
                    sa.ForeignKeyConstraint(['taken_device_id'], ['devices.id'], ondelete='SET NULL'),
                    sa.PrimaryKeyConstraint('id'))
    op.create_index('ix_calls_event_table', 'calls', ['event_id', 'table_number'], unique=False)
    op.create_index('uq_calls_open_table', 'calls', ['event_id', 'table_number'], unique=True,
                    sqlite_where=sa.text("status != 'closed'"), postgresql_where=sa.text("status != 'closed'"))


def downgrade():
    op.drop_index('uq_calls_open_table', table_name='calls')
    op.drop_index('ix_calls_event_table', table_name='calls')
    op.drop_table('calls')
    with op.batch_alter_table('events') as batch_op:
        batch_op.drop_column('calls_seq')
        batch_op.drop_column('call_escalate_seconds')
