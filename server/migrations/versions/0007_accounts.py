"""accounts: per-person staff accounts, their roles per event, one-time links, the audit
log, remembered pairings CSV mappings; sessions and devices name their account

The shared organiser password becomes the bootstrap of the first account (made at the first
login, not here: the migration does not know the password). Sessions of the shared password
cannot name an account, so they are ended: everyone logs in again.

Revision ID: 0007_accounts
Revises: 0006_player_keys
Create Date: 2026-12-03 09:00:00
"""
import sqlalchemy as sa
from alembic import op

revision = '0007_accounts'
down_revision = '0006_player_keys'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('accounts',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('login', sa.String(length=64), nullable=True),
                    sa.Column('name', sa.String(length=100), nullable=False),
                    sa.Column('password_hash', sa.String(length=256), nullable=True),
                    sa.Column('admin', sa.Boolean(), nullable=False),
                    sa.Column('created_ms', sa.BigInteger(), nullable=False),
                    sa.Column('revoked_ms', sa.BigInteger(), nullable=True),
                    sa.PrimaryKeyConstraint('id'),
                    sa.UniqueConstraint('login'))
    op.create_table('staff_roles',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('account_id', sa.Integer(), nullable=False),
                    sa.Column('event_id', sa.Integer(), nullable=False),
                    sa.Column('role', sa.String(length=16), nullable=False),
                    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], ondelete='CASCADE'),
                    sa.ForeignKeyConstraint(['event_id'], ['events.id'], ondelete='CASCADE'),
                    sa.PrimaryKeyConstraint('id'),
                    sa.UniqueConstraint('account_id', 'event_id'))
    op.create_index(op.f('ix_staff_roles_account_id'), 'staff_roles', ['account_id'], unique=False)
    op.create_index(op.f('ix_staff_roles_event_id'), 'staff_roles', ['event_id'], unique=False)
    op.create_table('account_links',
                    sa.Column('token_hash', sa.String(length=64), nullable=False),
                    sa.Column('kind', sa.String(length=16), nullable=False),
                    sa.Column('account_id', sa.Integer(), nullable=False),
                    sa.Column('event_id', sa.Integer(), nullable=True),
                    sa.Column('created_ms', sa.BigInteger(), nullable=False),
                    sa.Column('expires_ms', sa.BigInteger(), nullable=False),
                    sa.Column('used_ms', sa.BigInteger(), nullable=True),
                    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], ondelete='CASCADE'),
                    sa.ForeignKeyConstraint(['event_id'], ['events.id'], ondelete='CASCADE'),
                    sa.PrimaryKeyConstraint('token_hash'))
    op.create_index(op.f('ix_account_links_account_id'), 'account_links', ['account_id'], unique=False)
    op.create_table('audit_entries',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('event_id', sa.Integer(), nullable=False),
                    sa.Column('at_ms', sa.BigInteger(), nullable=False),
                    sa.Column('kind', sa.String(length=32), nullable=False),
                    sa.Column('account_id', sa.Integer(), nullable=True),
                    sa.Column('device_id', sa.Integer(), nullable=True),
                    sa.Column('actor', sa.String(length=100), nullable=False),
                    sa.Column('changes', sa.JSON(), nullable=False),
                    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], ondelete='SET NULL'),
                    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], ondelete='SET NULL'),
                    sa.ForeignKeyConstraint(['event_id'], ['events.id'], ondelete='CASCADE'),
                    sa.PrimaryKeyConstraint('id'))
    op.create_index('ix_audit_entries_event_id', 'audit_entries', ['event_id', 'id'], unique=False)
    op.create_table('csv_mappings',
                    sa.Column('headers_key', sa.String(length=64), nullable=False),
                    sa.Column('headers', sa.JSON(), nullable=False),
                    sa.Column('mapping', sa.JSON(), nullable=False),
                    sa.Column('updated_ms', sa.BigInteger(), nullable=False),
                    sa.PrimaryKeyConstraint('headers_key'))
    with op.batch_alter_table('devices') as batch:
        batch.add_column(sa.Column('account_id', sa.Integer(), nullable=True))
        batch.create_index(batch.f('ix_devices_account_id'), ['account_id'], unique=False)
        batch.create_foreign_key('fk_devices_account_id_accounts', 'accounts', ['account_id'], ['id'],
                                 ondelete='SET NULL')
    # a session of the shared password names no account: it ends (everyone logs in again)
    op.execute(sa.text('DELETE FROM organiser_sessions'))
    with op.batch_alter_table('organiser_sessions') as batch:
        batch.add_column(sa.Column('account_id', sa.Integer(), nullable=False))
        batch.create_index(batch.f('ix_organiser_sessions_account_id'), ['account_id'], unique=False)
        batch.create_foreign_key('fk_organiser_sessions_account_id_accounts', 'accounts', ['account_id'],
                                 ['id'], ondelete='CASCADE')


def downgrade():
    op.execute(sa.text('DELETE FROM organiser_sessions'))
    with op.batch_alter_table('organiser_sessions') as batch:
        batch.drop_constraint('fk_organiser_sessions_account_id_accounts', type_='foreignkey')
        batch.drop_index(batch.f('ix_organiser_sessions_account_id'))
        batch.drop_column('account_id')
    with op.batch_alter_table('devices') as batch:
        batch.drop_constraint('fk_devices_account_id_accounts', type_='foreignkey')
        batch.drop_index(batch.f('ix_devices_account_id'))
        batch.drop_column('account_id')
    op.drop_table('csv_mappings')
    op.drop_index('ix_audit_entries_event_id', table_name='audit_entries')
    op.drop_table('audit_entries')
    op.drop_index(op.f('ix_account_links_account_id'), table_name='account_links')
    op.drop_table('account_links')
    op.drop_index(op.f('ix_staff_roles_event_id'), table_name='staff_roles')
    op.drop_index(op.f('ix_staff_roles_account_id'), table_name='staff_roles')
    op.drop_table('staff_roles')
    op.drop_table('accounts')
