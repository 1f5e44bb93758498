"""Announced settings and observers: the changes of the scoring, tie-breaks or final's settings made after
round 1 with the judge's reason (``tournament_rule_changes``, seed B 7.2), and a table closed to observers
(``online_tables.watch_closed_at``, seed B 7.3).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournament_rule_changes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("setting", sa.String(length=32), nullable=False),
        sa.Column("old", sa.JSON(), nullable=True),
        sa.Column("new", sa.JSON(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("login", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_rule_changes_tournament_id_tournaments"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_tournament_rule_changes_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_rule_changes")),
    )
    op.create_index(op.f("ix_tournament_rule_changes_tournament_id"), "tournament_rule_changes", ["tournament_id"],
                    unique=False)
    # a plain nullable column: no table copy on SQLite (see 0008)
    op.add_column("online_tables", sa.Column("watch_closed_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("online_tables") as batch:
        batch.drop_column("watch_closed_at")
    op.drop_index(op.f("ix_tournament_rule_changes_tournament_id"), table_name="tournament_rule_changes")
    op.drop_table("tournament_rule_changes")
