"""Sanctions across a tournament and bans carried forward (B.sanctions): the judge's records of offences of the
sanctions table (``tournament_offences``), the club's list of players banned from its later tournaments
(``club_bans``) and the judge's registrations despite a ban (``ban_overrides``). New tables only.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournament_offences",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("participant_id", sa.Integer(), nullable=False),
        sa.Column("offence", sa.String(length=32), nullable=False),
        sa.Column("step", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=True),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_offences_tournament_id_tournaments"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["participant_id"], ["tournament_participants.id"],
                                name=op.f("fk_tournament_offences_participant_id_tournament_participants"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_tournament_offences_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_offences")),
    )
    op.create_index(op.f("ix_tournament_offences_tournament_id"), "tournament_offences", ["tournament_id"],
                    unique=False)
    op.create_table(
        "club_bans",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("nickname", sa.String(length=64), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lifted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lifted_by", sa.Integer(), nullable=True),
        sa.Column("lift_reason", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name=op.f("fk_club_bans_club_id_clubs"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_club_bans_user_id_users")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_club_bans_tournament_id_tournaments"), ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], name=op.f("fk_club_bans_created_by_users")),
        sa.ForeignKeyConstraint(["lifted_by"], ["users.id"], name=op.f("fk_club_bans_lifted_by_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_bans")),
    )
    op.create_index(op.f("ix_club_bans_club_id"), "club_bans", ["club_id"], unique=False)
    op.create_table(
        "ban_overrides",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("ban_id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("nickname", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["ban_id"], ["club_bans.id"], name=op.f("fk_ban_overrides_ban_id_club_bans"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_ban_overrides_tournament_id_tournaments"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_ban_overrides_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ban_overrides")),
    )
    op.create_index(op.f("ix_ban_overrides_ban_id"), "ban_overrides", ["ban_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_ban_overrides_ban_id"), table_name="ban_overrides")
    op.drop_table("ban_overrides")
    op.drop_index(op.f("ix_club_bans_club_id"), table_name="club_bans")
    op.drop_table("club_bans")
    op.drop_index(op.f("ix_tournament_offences_tournament_id"), table_name="tournament_offences")
    op.drop_table("tournament_offences")
