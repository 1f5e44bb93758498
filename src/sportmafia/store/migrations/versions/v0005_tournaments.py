"""Tournaments: settings, participants, staff, seating plans, the games of each round and table with the
judge's acceptance of their sheets, and sanctions beyond a game.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=True),
        sa.Column("ends_on", sa.Date(), nullable=True),
        sa.Column("ruleset", sa.String(length=64), nullable=False),
        sa.Column("ruleset_options", sa.JSON(), nullable=False),
        sa.Column("scoring", sa.JSON(), nullable=False),
        sa.Column("tie_breaks", sa.JSON(), nullable=False),
        sa.Column("final_settings", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("published", sa.Boolean(), nullable=False),
        sa.Column("seating", sa.JSON(), nullable=True),
        sa.Column("finalists", sa.JSON(), nullable=True),
        sa.Column("final_seating", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("status IN ('setup', 'running', 'final', 'finished')", name=op.f("ck_tournaments_status")),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name=op.f("fk_tournaments_club_id_clubs")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_index(op.f("ix_tournaments_club_id"), "tournaments", ["club_id"], unique=False)
    op.create_table(
        "tournament_participants",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("nickname", sa.String(length=64), nullable=False),
        sa.Column("club", sa.String(length=200), nullable=True),
        sa.Column("team", sa.String(length=200), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "status IN ('active', 'removed-from-round', 'removed-from-tournament', 'disqualified')",
            name=op.f("ck_tournament_participants_status")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_participants_tournament_id_tournaments"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_tournament_participants_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_participants")),
        sa.UniqueConstraint("tournament_id", "nickname", name=op.f("uq_tournament_participants_tournament_id_nickname")),
    )
    op.create_index(op.f("ix_tournament_participants_tournament_id"), "tournament_participants", ["tournament_id"],
                    unique=False)
    op.create_table(
        "tournament_staff",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.CheckConstraint("role IN ('host', 'judge')", name=op.f("ck_tournament_staff_role")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_staff_tournament_id_tournaments"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_tournament_staff_user_id_users")),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", "role", name=op.f("pk_tournament_staff")),
    )
    op.create_table(
        "tournament_games",
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(length=8), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=True),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("accepted_by", sa.Integer(), nullable=True),
        sa.CheckConstraint("stage IN ('main', 'final')", name=op.f("ck_tournament_games_stage")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_tournament_games_game_id_games"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_games_tournament_id_tournaments"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["host_id"], ["users.id"], name=op.f("fk_tournament_games_host_id_users")),
        sa.ForeignKeyConstraint(["accepted_by"], ["users.id"], name=op.f("fk_tournament_games_accepted_by_users")),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_tournament_games")),
        sa.UniqueConstraint("tournament_id", "stage", "round", "table_no",
                            name=op.f("uq_tournament_games_tournament_id_stage_round_table_no")),
    )
    op.create_index(op.f("ix_tournament_games_tournament_id"), "tournament_games", ["tournament_id"], unique=False)
    op.create_table(
        "tournament_sanctions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("participant_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('round', 'tournament', 'disqualification')",
                           name=op.f("ck_tournament_sanctions_kind")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_sanctions_tournament_id_tournaments"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["participant_id"], ["tournament_participants.id"],
                                name=op.f("fk_tournament_sanctions_participant_id_tournament_participants"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_tournament_sanctions_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_sanctions")),
    )
    op.create_index(op.f("ix_tournament_sanctions_tournament_id"), "tournament_sanctions", ["tournament_id"],
                    unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_tournament_sanctions_tournament_id"), table_name="tournament_sanctions")
    op.drop_table("tournament_sanctions")
    op.drop_index(op.f("ix_tournament_games_tournament_id"), table_name="tournament_games")
    op.drop_table("tournament_games")
    op.drop_table("tournament_staff")
    op.drop_index(op.f("ix_tournament_participants_tournament_id"), table_name="tournament_participants")
    op.drop_table("tournament_participants")
    op.drop_index(op.f("ix_tournaments_club_id"), table_name="tournaments")
    op.drop_table("tournaments")
