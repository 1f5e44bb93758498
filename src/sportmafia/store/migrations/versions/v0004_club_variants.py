"""A club's saved rule-set variants: a preset's options with the club's changes, under a name.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "club_variants",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name=op.f("fk_club_variants_club_id_clubs")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_variants")),
        sa.UniqueConstraint("club_id", "name", name=op.f("uq_club_variants_club_id_name")),
    )


def downgrade() -> None:
    op.drop_table("club_variants")
