"""Lobbies: a table before its deal survives a restart.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lobby",
        sa.Column("platform", sa.String(length=32), nullable=False),
        sa.Column("channel_id", sa.String(length=128), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("platform", "channel_id", name=op.f("pk_lobby")),
    )


def downgrade() -> None:
    op.drop_table("lobby")
