"""Outbox leases: who sends an entry and until when (the process that stored it, then one that
claimed it to send it again), how often it was tried, and when a platform refused it for good
(issue 26). Entries stored before have no owner and are free to claim.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("owner", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(
            sa.Column("tries", sa.Integer(), nullable=False, server_default=sa.text("0"))
        )
        batch_op.add_column(sa.Column("refused_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("refused_at")
        batch_op.drop_column("tries")
        batch_op.drop_column("lease_until")
        batch_op.drop_column("owner")
