"""Message slots: the ids of the lobby, table, rack and panel messages, edited in place.

Revision ID: 0004
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "message_slot",
        sa.Column("platform", sa.String(length=32), nullable=False),
        sa.Column("channel_id", sa.String(length=128), nullable=False),
        sa.Column("slot", sa.String(length=32), nullable=False),
        sa.Column("owner", sa.String(length=128), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.Column("parts", sa.JSON(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint(
            "platform", "channel_id", "slot", "owner", name=op.f("pk_message_slot")
        ),
    )


def downgrade() -> None:
    op.drop_table("message_slot")
