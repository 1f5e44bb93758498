"""Clubs, games and game events.

Revision ID: 0001
Revises:
Create Date: 2026-11-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_clubs")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("ruleset", sa.String(length=64), nullable=False),
        sa.Column("ruleset_options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("winner", sa.String(length=16), nullable=True),
        sa.Column("result", sa.String(length=64), nullable=True),
        sa.Column("next_seq", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("status IN ('dealing', 'playing', 'over')", name=op.f("ck_games_status")),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name=op.f("fk_games_club_id_clubs")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index(op.f("ix_games_club_id"), "games", ["club_id"], unique=False)
    op.create_table(
        "game_events",
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("type", sa.String(length=32), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("command_id", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_game_events_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_game_events")),
        sa.UniqueConstraint("game_id", "command_id", name=op.f("uq_game_events_game_id_command_id")),
    )


def downgrade() -> None:
    op.drop_table("game_events")
    op.drop_index(op.f("ix_games_club_id"), table_name="games")
    op.drop_table("games")
    op.drop_table("clubs")
