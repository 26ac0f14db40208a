"""Initial schema: games and their action log, matches, channel settings, player stats.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "channel_settings",
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=32), nullable=False),
        sa.Column("channel_id", sa.String(length=128), nullable=False),
        sa.Column("opening_threshold", sa.Integer(), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=False),
        sa.Column("edition", sa.String(length=16), nullable=False),
        sa.Column("hints", sa.Boolean(), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("async_mode", sa.Boolean(), nullable=False),
        sa.Column("match_games", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("platform", "channel_id", name=op.f("pk_channel_settings")),
    )
    op.create_table(
        "match",
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=32), nullable=False),
        sa.Column("channel_id", sa.String(length=128), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("games_planned", sa.Integer(), nullable=False),
        sa.Column("games_played", sa.Integer(), nullable=False),
        sa.Column("standings", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match")),
    )
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_match_platform_channel_id_created_at"),
            ["platform", "channel_id", "created_at"],
            unique=False,
        )

    op.create_table(
        "player_stat",
        sa.Column("platform", sa.String(length=32), nullable=False),
        sa.Column("channel_id", sa.String(length=128), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("display_name", sa.String(length=200), nullable=False),
        sa.Column("games_played", sa.Integer(), nullable=False),
        sa.Column("games_won", sa.Integer(), nullable=False),
        sa.Column("total_score", sa.Integer(), nullable=False),
        sa.Column("best_score", sa.Integer(), nullable=True),
        sa.Column("matches_played", sa.Integer(), nullable=False),
        sa.Column("matches_won", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("platform", "channel_id", "user_id", name=op.f("pk_player_stat")),
    )
    with op.batch_alter_table("player_stat", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_player_stat_platform_channel_id_games_won_total_score"),
            ["platform", "channel_id", "games_won", "total_score"],
            unique=False,
        )

    op.create_table(
        "game",
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=32), nullable=False),
        sa.Column("channel_id", sa.String(length=128), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("game_index", sa.Integer(), nullable=True),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("setup", sa.Text(), nullable=False),
        sa.Column("snapshot", sa.Text(), nullable=False),
        sa.Column("action_count", sa.Integer(), nullable=False),
        sa.Column("draft", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_game_match_id_match"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game")),
    )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_game_finished_at_deadline"), ["finished_at", "deadline"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_game_platform_channel_id_finished_at"),
            ["platform", "channel_id", "finished_at"],
            unique=False,
        )
        batch_op.create_index(
            "uq_game_active_channel",
            ["platform", "channel_id"],
            unique=True,
            sqlite_where=sa.text("finished_at IS NULL"),
            postgresql_where=sa.text("finished_at IS NULL"),
        )

    op.create_table(
        "game_action",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_game_action_game_id_game"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_game_action")),
    )
    op.create_table(
        "match_game",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("game_index", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_match_game_game_id_game"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["match.id"],
            name=op.f("fk_match_game_match_id_match"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", "game_index", name=op.f("pk_match_game")),
    )


def downgrade() -> None:
    op.drop_table("match_game")
    op.drop_table("game_action")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_game_active_channel",
            sqlite_where=sa.text("finished_at IS NULL"),
            postgresql_where=sa.text("finished_at IS NULL"),
        )
        batch_op.drop_index(batch_op.f("ix_game_platform_channel_id_finished_at"))
        batch_op.drop_index(batch_op.f("ix_game_finished_at_deadline"))

    op.drop_table("game")
    with op.batch_alter_table("player_stat", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_stat_platform_channel_id_games_won_total_score"))

    op.drop_table("player_stat")
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_match_platform_channel_id_created_at"))

    op.drop_table("match")
    op.drop_table("channel_settings")
