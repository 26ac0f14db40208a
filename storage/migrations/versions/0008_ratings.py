"""Skill ratings and ``notify`` subscriptions; every finished game so far is rated, in the
order the games finished, so an upgraded database starts with the ratings live updates would
have given.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating",
        sa.Column("platform", sa.String(length=32), nullable=False),
        sa.Column("scope", sa.String(length=160), nullable=False),
        sa.Column("entity", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("platform", "scope", "entity", name=op.f("pk_rating")),
    )
    op.create_table(
        "rating_event",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=32), nullable=False),
        sa.Column("scope", sa.String(length=160), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("entity", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_rating_event")),
    )
    with op.batch_alter_table("rating_event", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_rating_event_platform_scope_entity_seq"),
            ["platform", "scope", "entity", "seq"],
            unique=False,
        )
        batch_op.create_index(
            batch_op.f("ix_rating_event_platform_scope_seq"),
            ["platform", "scope", "seq"],
            unique=False,
        )
    op.create_table(
        "rating_scope",
        sa.Column("platform", sa.String(length=32), nullable=False),
        sa.Column("scope", sa.String(length=160), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("platform", "scope", name=op.f("pk_rating_scope")),
    )
    op.create_table(
        "channel_server",
        sa.Column("platform", sa.String(length=32), nullable=False),
        sa.Column("channel_id", sa.String(length=128), nullable=False),
        sa.Column("server", sa.String(length=128), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("platform", "channel_id", name=op.f("pk_channel_server")),
    )
    op.create_table(
        "notify_subscription",
        sa.Column("platform", sa.String(length=32), nullable=False),
        sa.Column("channel_id", sa.String(length=128), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint(
            "platform", "channel_id", "user_id", name=op.f("pk_notify_subscription")
        ),
    )
    with op.batch_alter_table("notify_subscription", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_notify_subscription_platform_channel_id_created_at"),
            ["platform", "channel_id", "created_at"],
            unique=False,
        )
    # The history, rated with the same model and order as the live updates (storage.ratings).
    from storage.ratings import rate_history

    rate_history(op.get_bind())


def downgrade() -> None:
    with op.batch_alter_table("notify_subscription", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_notify_subscription_platform_channel_id_created_at"))
    op.drop_table("notify_subscription")
    op.drop_table("channel_server")
    op.drop_table("rating_scope")
    with op.batch_alter_table("rating_event", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rating_event_platform_scope_seq"))
        batch_op.drop_index(batch_op.f("ix_rating_event_platform_scope_entity_seq"))
    op.drop_table("rating_event")
    op.drop_table("rating")
