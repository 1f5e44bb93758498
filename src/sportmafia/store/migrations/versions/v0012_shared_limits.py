"""Rate limits shared by every server process: ``rate_limits`` (the limits' records when they are kept in the
database), ``installation`` (this installation's random id, the prefix of its Redis keys) and
``join_requests.requester`` (a keyed hash of the requester's address: one pending request per address and the
cooldown after a denial hold whichever process answers).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.String(length=96), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_rate_limits")),
    )
    op.create_index(op.f("ix_rate_limits_expires_at"), "rate_limits", ["expires_at"], unique=False)
    installation = op.create_table(
        "installation",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.String(length=128), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_installation")),
    )
    op.bulk_insert(installation, [{"name": "id", "value": secrets.token_hex(16)}])
    # a nullable column: no table copy on SQLite (see 0008); requests made before it have no requester
    op.add_column("join_requests", sa.Column("requester", sa.String(length=64), nullable=True))
    op.create_index("ix_join_requests_game_id_requester", "join_requests", ["game_id", "requester"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_join_requests_game_id_requester", table_name="join_requests")
    with op.batch_alter_table("join_requests") as batch:
        batch.drop_column("requester")
    op.drop_table("installation")
    op.drop_index(op.f("ix_rate_limits_expires_at"), table_name="rate_limits")
    op.drop_table("rate_limits")
