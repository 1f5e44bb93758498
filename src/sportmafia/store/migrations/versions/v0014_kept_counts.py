"""Each person's statistics kept up to date as games end (``person_counts``: the sum of his seats' counts), filled
here from the index of finished games (``store.kept_counts.refill``); and the index of a club's seats the
ratings read (club, game, seat, person, team: read from the index alone, in order) and that of a club's games
in the ratings' order with what they read (club, end, id, winner, kind), which take the places of the indexes on the club alone; a person's seats
indexed by (person, end, id), his newest games read from the index's end.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from sportmafia.store.kept_counts import refill

    op.create_table(
        "person_counts",
        sa.Column("player_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("counts", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name=op.f("fk_person_counts_club_id_clubs")),
        sa.ForeignKeyConstraint(["player_id"], ["club_players.id"],
                                name=op.f("fk_person_counts_player_id_club_players")),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_person_counts")),
    )
    op.create_index(op.f("ix_person_counts_club_id"), "person_counts", ["club_id"], unique=False)
    op.create_table(
        "club_counts",
        sa.Column("club_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("counts", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name=op.f("fk_club_counts_club_id_clubs")),
        sa.PrimaryKeyConstraint("club_id", name=op.f("pk_club_counts")),
    )
    refill(op.get_bind())
    op.create_index("ix_seat_index_club_id_game_id", "seat_index", ["club_id", "game_id", "seat", "player_id", "team"],
                    unique=False)
    op.drop_index(op.f("ix_seat_index_club_id"), table_name="seat_index")
    op.drop_index("ix_seat_index_player_id_ended_at", table_name="seat_index")
    op.create_index("ix_seat_index_player_id_ended_at", "seat_index", ["player_id", "ended_at", "game_id"],
                    unique=False)
    op.create_index("ix_game_index_club_id_ended_at", "game_index", ["club_id", "ended_at", "game_id", "winner", "kind"],
                    unique=False)
    op.drop_index(op.f("ix_game_index_club_id"), table_name="game_index")


def downgrade() -> None:
    op.drop_table("club_counts")
    op.create_index(op.f("ix_game_index_club_id"), "game_index", ["club_id"], unique=False)
    op.drop_index("ix_game_index_club_id_ended_at", table_name="game_index")
    op.drop_index("ix_seat_index_player_id_ended_at", table_name="seat_index")
    op.create_index("ix_seat_index_player_id_ended_at", "seat_index", ["player_id", "ended_at"], unique=False)
    op.create_index(op.f("ix_seat_index_club_id"), "seat_index", ["club_id"], unique=False)
    op.drop_index("ix_seat_index_club_id_game_id", table_name="seat_index")
    op.drop_index(op.f("ix_person_counts_club_id"), table_name="person_counts")
    op.drop_table("person_counts")
