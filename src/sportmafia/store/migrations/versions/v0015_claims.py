"""Bots at online tables: ``claims`` (what the seats said in their speeches, kept beside the games' logs) and
``table_bots`` (which seats of an online table bots play, and whether the server plays the host's part).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "claims",
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("n", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("at", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("target", sa.Integer(), nullable=True),
        sa.Column("role", sa.String(length=16), nullable=True),
        sa.Column("color", sa.String(length=8), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_claims_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "n", name=op.f("pk_claims")),
    )
    op.create_table(
        "table_bots",
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("agents", sa.JSON(), nullable=False),
        sa.Column("runs_table", sa.Boolean(), nullable=False),
        sa.Column("pace", sa.String(length=16), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("practice", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("runner", sa.String(length=40), nullable=True),
        sa.Column("lease_until", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_table_bots_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_table_bots")),
    )


def downgrade() -> None:
    op.drop_table("table_bots")
    op.drop_table("claims")
