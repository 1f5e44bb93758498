"""Online play: a game's online table (its code and the judge's delayed open stream), the seats' personal
links (hashed tokens) and the join requests made with the table code.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "online_tables",
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("stream_hash", sa.String(length=64), nullable=True),
        sa.Column("stream_delay", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_online_tables_game_id_games"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], name=op.f("fk_online_tables_created_by_users")),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_online_tables")),
        sa.UniqueConstraint("code", name=op.f("uq_online_tables_code")),
        sa.UniqueConstraint("stream_hash", name=op.f("uq_online_tables_stream_hash")),
    )
    op.create_table(
        "seat_tokens",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_seat_tokens_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_seat_tokens_token_hash")),
    )
    op.create_index(op.f("ix_seat_tokens_game_id"), "seat_tokens", ["game_id"], unique=False)
    op.create_table(
        "join_requests",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('pending', 'approved', 'denied', 'claimed')",
                           name=op.f("ck_join_requests_status")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_join_requests_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_join_requests")),
        sa.UniqueConstraint("secret_hash", name=op.f("uq_join_requests_secret_hash")),
    )
    op.create_index(op.f("ix_join_requests_game_id"), "join_requests", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_join_requests_game_id"), table_name="join_requests")
    op.drop_table("join_requests")
    op.drop_index(op.f("ix_seat_tokens_game_id"), table_name="seat_tokens")
    op.drop_table("seat_tokens")
    op.drop_table("online_tables")
