"""Users (admin, host, judge accounts of a club) and club rosters.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-08
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "club_players",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name=op.f("fk_club_players_club_id_clubs")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_players")),
    )
    op.create_index(op.f("ix_club_players_club_id"), "club_players", ["club_id"], unique=False)
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("login", sa.String(length=64), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("role IN ('admin', 'host', 'judge')", name=op.f("ck_users_role")),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name=op.f("fk_users_club_id_clubs")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("login", name=op.f("uq_users_login")),
    )
    op.create_index(op.f("ix_users_club_id"), "users", ["club_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_users_club_id"), table_name="users")
    op.drop_table("users")
    op.drop_index(op.f("ix_club_players_club_id"), table_name="club_players")
    op.drop_table("club_players")
