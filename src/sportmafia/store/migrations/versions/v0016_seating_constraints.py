"""The judge's constraints on a tournament's seating: ``tournaments.seating_constraints`` (JSON; docs/tournament.md,
"Seating constraints").

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("seating_constraints", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("seating_constraints")
