"""Result sheets (B.sheet): a game is signed by its host (and then locked), and corrected by a judge or an
admin with a reason; every correction is kept.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("signed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("signed_by", sa.Integer(), nullable=True))
        batch.create_foreign_key(op.f("fk_games_signed_by_users"), "users", ["signed_by"], ["id"])
    op.create_table(
        "sheet_corrections",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_sheet_corrections_game_id_games"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_sheet_corrections_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sheet_corrections")),
    )
    op.create_index(op.f("ix_sheet_corrections_game_id"), "sheet_corrections", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_sheet_corrections_game_id"), table_name="sheet_corrections")
    op.drop_table("sheet_corrections")
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint(op.f("fk_games_signed_by_users"), type_="foreignkey")
        batch.drop_column("signed_by")
        batch.drop_column("signed_at")
