"""What a database holds, read for ``sportmafia check`` (a database verified after a restore,
:mod:`sportmafia.services.integrity`): the schema's revision, every game's row and its log's seqs, the sheets'
corrections and the tournaments' games. Persistence only, read-only: whether what is read is consistent is
decided by the service."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, inspect, select

from .migrate import current_revision, head_revision
from .models import Club, GameEvent, SheetCorrection, StoredGame, Tournament, TournamentGame, User, as_utc
from .store import Store


@dataclass(frozen=True, slots=True)
class Revision:
    """The schema the database holds: ``tables`` False when it has none of ours (an empty database, or the
    wrong schema or database named), ``current`` its migration revision, ``head`` the code's last one."""

    tables: bool
    current: str | None
    head: str


@dataclass(frozen=True, slots=True)
class Counts:
    clubs: int
    users: int
    games: int
    events: int
    tournaments: int


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game's row as stored: the summary every append rewrites, and the sheet's signature."""

    id: str
    players: int
    status: str
    winner: str | None
    result: str | None
    next_seq: int
    signed_at: datetime | None
    signed_by: int | None
    corrections: int


@dataclass(frozen=True, slots=True)
class TournamentLink:
    """A tournament's game: the participants seated and the judge's acceptance."""

    tournament_id: int
    game_id: str
    seats: tuple[int, ...]
    accepted_at: datetime | None


def revision(store: Store) -> Revision:
    tables = inspect(store.engine).has_table(StoredGame.__tablename__)
    return Revision(tables, current_revision(store.engine) if tables else None, head_revision())


def counts(store: Store) -> Counts:
    with store.read() as s:
        def count(model: type) -> int:
            return int(s.scalar(select(func.count()).select_from(model)) or 0)
        return Counts(count(Club), count(User), count(StoredGame), count(GameEvent), count(Tournament))


def game_rows(store: Store) -> Iterator[GameRow]:
    """Every game's row, oldest first."""
    with store.read() as s:
        fixed = {game_id: int(n) for game_id, n in
                 s.execute(select(SheetCorrection.game_id, func.count()).group_by(SheetCorrection.game_id))}
        rows = s.execute(select(StoredGame.id, StoredGame.players, StoredGame.status, StoredGame.winner,
                                StoredGame.result, StoredGame.next_seq, StoredGame.signed_at, StoredGame.signed_by)
                         .order_by(StoredGame.created_at, StoredGame.id)).all()
    for r in rows:
        yield GameRow(r.id, r.players, r.status, r.winner, r.result, r.next_seq,
                      None if r.signed_at is None else as_utc(r.signed_at), r.signed_by, fixed.get(r.id, 0))


def event_seqs(store: Store, game_id: str) -> list[int]:
    """The seqs of the game's log as stored, in order."""
    with store.read() as s:
        return list(s.scalars(select(GameEvent.seq).where(GameEvent.game_id == game_id).order_by(GameEvent.seq)))


def tournament_links(store: Store) -> list[TournamentLink]:
    with store.read() as s:
        rows = s.execute(select(TournamentGame.tournament_id, TournamentGame.game_id, TournamentGame.seats,
                                TournamentGame.accepted_at)
                         .order_by(TournamentGame.tournament_id, TournamentGame.game_id)).all()
    return [TournamentLink(r.tournament_id, r.game_id, tuple(r.seats), r.accepted_at) for r in rows]


def tournament_ids(store: Store) -> list[int]:
    with store.read() as s:
        return list(s.scalars(select(Tournament.id).order_by(Tournament.id)))
