"""A club's settings: ``clubs.autostart_timer``, whether the host's console starts the speech timer when a
speech begins (on by default, for the clubs there already are too).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # a column with a server default: no table copy on SQLite (see 0008), every existing club gets it on
    op.add_column("clubs", sa.Column("autostart_timer", sa.Boolean(), nullable=False, server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("clubs") as batch:
        batch.drop_column("autostart_timer")
