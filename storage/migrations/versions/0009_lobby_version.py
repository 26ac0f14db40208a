"""Lobby versions: a lobby row counts its writes, and a write names the version it changed, so
two processes changing one lobby at once cannot lose each other's change (issue 26).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("lobby", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("version", sa.Integer(), nullable=False, server_default=sa.text("1"))
        )


def downgrade() -> None:
    with op.batch_alter_table("lobby", schema=None) as batch_op:
        batch_op.drop_column("version")
