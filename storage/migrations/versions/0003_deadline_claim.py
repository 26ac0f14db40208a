"""Deadline claims: each reminder, timeout and due AI move is acted on by one process.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deadline_claim",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("owner", sa.String(length=200), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
            name=op.f("fk_deadline_claim_game_id_game"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "turn", "kind", name=op.f("pk_deadline_claim")),
    )


def downgrade() -> None:
    op.drop_table("deadline_claim")
