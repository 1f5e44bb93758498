"""Seasons: persons across games (``club_players.merged_into``, ``player_merges``,
``tournament_participants.player_id``), how a tournament weighs in the ratings (``tournaments.rating_kind``),
the index of finished games read by statistics and ratings (``game_index``, ``seat_index``), the games left
out of the ratings (``rating_exclusions``) and seasons (``seasons``).

The index starts empty: ``sportmafia serve`` (and ``sportmafia reindex``) fill it from the logs of the games
that ended before (``services.seasons.reindex``).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _add_reference(table: str, column: str, target: str) -> None:
    """A nullable integer column referring to ``target.id`` (no table copy on SQLite, as in 0008)."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute(f"ALTER TABLE {table} ADD COLUMN {column} INTEGER REFERENCES {target} (id)")
    else:
        op.add_column(table, sa.Column(column, sa.Integer(), nullable=True))
        op.create_foreign_key(op.f(f"fk_{table}_{column}_{target}"), table, target, [column], ["id"])


def upgrade() -> None:
    _add_reference("club_players", "merged_into", "club_players")
    _add_reference("tournament_participants", "player_id", "club_players")
    op.add_column("tournaments", sa.Column("rating_kind", sa.String(length=16), server_default="tournament",
                                           nullable=False))
    op.add_column("clubs", sa.Column("index_version", sa.Integer(), server_default="0", nullable=False))
    op.create_table(
        "game_index",
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ruleset", sa.String(length=64), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("winner", sa.String(length=16), nullable=True),
        sa.Column("result", sa.String(length=64), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=True),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("table_no", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("detail", sa.Boolean(), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("source_id", sa.String(length=64), nullable=False),
        sa.Column("facts", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name=op.f("fk_game_index_club_id_clubs")),
        sa.ForeignKeyConstraint(["host_id"], ["users.id"], name=op.f("fk_game_index_host_id_users")),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_index")),
        sa.UniqueConstraint("club_id", "source", "source_id", name=op.f("uq_game_index_club_id_source_source_id")),
    )
    op.create_index(op.f("ix_game_index_club_id"), "game_index", ["club_id"], unique=False)
    op.create_index(op.f("ix_game_index_ended_at"), "game_index", ["ended_at"], unique=False)
    op.create_index(op.f("ix_game_index_tournament_id"), "game_index", ["tournament_id"], unique=False)
    op.create_table(
        "seat_index",
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("team", sa.String(length=8), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=True),
        sa.Column("facts", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name=op.f("fk_seat_index_club_id_clubs")),
        sa.ForeignKeyConstraint(["game_id"], ["game_index.game_id"], name=op.f("fk_seat_index_game_id_game_index"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["club_players.id"],
                                name=op.f("fk_seat_index_player_id_club_players")),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_seat_index")),
    )
    op.create_index(op.f("ix_seat_index_club_id"), "seat_index", ["club_id"], unique=False)
    op.create_index("ix_seat_index_player_id_ended_at", "seat_index", ["player_id", "ended_at"], unique=False)
    op.create_table(
        "player_merges",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("from_id", sa.Integer(), nullable=False),
        sa.Column("into_id", sa.Integer(), nullable=False),
        sa.Column("from_name", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name=op.f("fk_player_merges_club_id_clubs")),
        sa.ForeignKeyConstraint(["from_id"], ["club_players.id"], name=op.f("fk_player_merges_from_id_club_players")),
        sa.ForeignKeyConstraint(["into_id"], ["club_players.id"], name=op.f("fk_player_merges_into_id_club_players")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_player_merges_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_merges")),
    )
    op.create_index(op.f("ix_player_merges_club_id"), "player_merges", ["club_id"], unique=False)
    op.create_table(
        "rating_exclusions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lifted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lifted_by", sa.Integer(), nullable=True),
        sa.Column("lift_reason", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name=op.f("fk_rating_exclusions_club_id_clubs")),
        sa.ForeignKeyConstraint(["lifted_by"], ["users.id"], name=op.f("fk_rating_exclusions_lifted_by_users")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_rating_exclusions_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_exclusions")),
    )
    op.create_index(op.f("ix_rating_exclusions_game_id"), "rating_exclusions", ["game_id"], unique=False)
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=False),
        sa.Column("ends_on", sa.Date(), nullable=False),
        sa.Column("standings", sa.String(length=16), nullable=False),
        sa.Column("series_points", sa.JSON(), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_by", sa.Integer(), nullable=True),
        sa.Column("final", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name=op.f("fk_seasons_club_id_clubs")),
        sa.ForeignKeyConstraint(["closed_by"], ["users.id"], name=op.f("fk_seasons_closed_by_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seasons")),
    )
    op.create_index(op.f("ix_seasons_club_id"), "seasons", ["club_id"], unique=False)


def downgrade() -> None:
    op.drop_table("seasons")
    op.drop_table("rating_exclusions")
    op.drop_table("player_merges")
    op.drop_table("seat_index")
    op.drop_table("game_index")
    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("rating_kind")
    with op.batch_alter_table("clubs") as batch:
        batch.drop_column("index_version")
    for table, column in (("tournament_participants", "player_id"), ("club_players", "merged_into")):
        with op.batch_alter_table(table) as batch:
            if not sqlite:
                batch.drop_constraint(op.f(f"fk_{table}_{column}_club_players"), type_="foreignkey")
            batch.drop_column(column)
