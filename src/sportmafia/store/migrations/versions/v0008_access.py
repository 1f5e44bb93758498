"""Who hosts and who sits: a game's host (``games.host_id``, the user who created it), the roster player at
each of its seats (``games.seat_players``), and the roster player a user account is (``users.player_id``,
unique in the club).

Existing games: a tournament game gets its table's host; any other keeps no recorded host (null). The seats of
an existing game are matched to the club's roster by name (a name that is on the roster exactly once).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_games = sa.table("games", sa.column("id", sa.String()), sa.column("club_id", sa.Integer()),
                  sa.column("names", sa.JSON()), sa.column("host_id", sa.Integer()),
                  sa.column("seat_players", sa.JSON()))
_links = sa.table("tournament_games", sa.column("game_id", sa.String()), sa.column("host_id", sa.Integer()))
_roster = sa.table("club_players", sa.column("id", sa.Integer()), sa.column("club_id", sa.Integer()),
                   sa.column("name", sa.String()))


def upgrade() -> None:
    # Not batch mode: on SQLite it copies the table and drops the old one, and with foreign keys on, dropping
    # ``games`` deletes every row that cascades from it (events, tournament links, online tables) and dropping
    # ``users`` is refused while rows refer to it. A column added with its reference needs no copy.
    _add_reference("games", "host_id", "users")
    op.add_column("games", sa.Column("seat_players", sa.JSON(), nullable=True))
    _add_reference("users", "player_id", "club_players")
    op.create_index(op.f("uq_users_club_id_player_id"), "users", ["club_id", "player_id"], unique=True)
    conn = op.get_bind()
    hosts = dict(conn.execute(sa.select(_links.c.game_id, _links.c.host_id)
                              .where(_links.c.host_id.is_not(None))).all())
    rosters = _club_rosters(conn)
    for game_id, club_id, names in conn.execute(sa.select(_games.c.id, _games.c.club_id, _games.c.names)).all():
        values: dict[str, object] = {}
        if game_id in hosts:
            values["host_id"] = hosts[game_id]
        else:
            roster = rosters.get(club_id, {})
            seats = [roster.get(name) for name in names or []]
            if any(p is not None for p in seats):
                values["seat_players"] = seats
        if values:
            conn.execute(sa.update(_games).where(_games.c.id == game_id).values(**values))


def _add_reference(table: str, column: str, target: str) -> None:
    """A nullable integer column referring to ``target.id``."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute(f"ALTER TABLE {table} ADD COLUMN {column} INTEGER REFERENCES {target} (id)")
    else:
        op.add_column(table, sa.Column(column, sa.Integer(), nullable=True))
        op.create_foreign_key(op.f(f"fk_{table}_{column}_{target}"), table, target, [column], ["id"])


def _club_rosters(conn: sa.Connection) -> dict[int, dict[str, int]]:
    """Each club's roster as name -> player id, for the names on it exactly once."""
    rows = conn.execute(sa.select(_roster.c.club_id, _roster.c.name, _roster.c.id)).all()
    counts = Counter((club, name) for club, name, _ in rows)
    out: dict[int, dict[str, int]] = {}
    for club, name, pid in rows:
        if counts[(club, name)] == 1:
            out.setdefault(club, {})[name] = pid
    return out


def downgrade() -> None:
    op.drop_index(op.f("uq_users_club_id_player_id"), table_name="users")
    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table("users") as batch:
        if not sqlite:  # SQLite's reference has no name: batch mode drops it with the column
            batch.drop_constraint(op.f("fk_users_player_id_club_players"), type_="foreignkey")
        batch.drop_column("player_id")
    with op.batch_alter_table("games") as batch:
        if not sqlite:
            batch.drop_constraint(op.f("fk_games_host_id_users"), type_="foreignkey")
        batch.drop_column("seat_players")
        batch.drop_column("host_id")
