"""`Store`: games as append-only event logs in a SQL database (SQLite or PostgreSQL).

Every change to a game is :meth:`Store.append`: one command, executed by the engine on the game folded
from the stored log, its events inserted with consecutive ``seq`` numbers, in one transaction. The caller
names the ``seq`` it expects the first new event to get (optimistic concurrency: two devices acting on the
same state cannot both win) and gives the command an id of its own (a retry after a lost answer is
answered again, not applied twice).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ..engine import Command, Event, Game, event_from_json, to_record
from ..engine.game import Rng
from ..rules import RuleSet, get_ruleset
from .db import IMMEDIATE, make_engine
from .models import USER_ROLES, Club, ClubPlayer, GameEvent, StoredGame, User, utcnow

COMMAND_ID_MAX = 64
"""The longest command id the store keeps (a UUID is 36 characters)."""


class StoreError(Exception):
    """Base of the store's own errors."""


class GameNotFound(StoreError, LookupError):
    """No game with this id."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game with id {game_id!r}")
        self.game_id = game_id


class ClubNotFound(StoreError, LookupError):
    """No club with this id."""

    def __init__(self, club_id: int) -> None:
        super().__init__(f"no club with id {club_id!r}")
        self.club_id = club_id


class StaleSequence(StoreError):
    """The game has moved on: the command was written against ``expected`` but the log is at
    ``next_seq`` (another device got there first). Nothing was written; reload and decide again."""

    def __init__(self, game_id: str, expected: int, next_seq: int) -> None:
        super().__init__(f"game {game_id}: expected seq {expected}, but the log is at {next_seq}")
        self.game_id = game_id
        self.expected = expected
        self.next_seq = next_seq


class LoginTaken(StoreError):
    """Another user already has this login."""

    def __init__(self, login: str) -> None:
        super().__init__(f"the login {login!r} is taken")
        self.login = login


class CorruptLog(StoreError):
    """The stored log does not hang together (a gap in ``seq``, or ``next_seq`` that disagrees)."""


@dataclass(frozen=True, slots=True)
class AppendResult:
    """What an append wrote (or, when ``replayed``, what the first try with this command id wrote).

    ``events`` have the seqs ``first_seq .. next_seq - 1``. ``head_seq`` is the game's next seq now: equal to
    ``next_seq``, unless this is a replayed answer and the game has moved on since.
    """

    events: tuple[Event, ...]
    first_seq: int
    next_seq: int
    head_seq: int
    replayed: bool = False

    def numbered(self) -> list[tuple[int, Event]]:
        return list(enumerate(self.events, self.first_seq))


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game's row, without its log."""

    id: str
    club_id: int
    ruleset: str
    players: int
    names: tuple[str, ...]
    status: str
    winner: str | None
    result: str | None
    next_seq: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class UserRecord:
    """A user's row. ``password_hash`` is what the web layer stored (argon2); never a password."""

    id: int
    club_id: int
    login: str
    password_hash: str
    role: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class RosterPlayer:
    """A name on a club's roster."""

    id: int
    club_id: int
    name: str


def _user(row: User) -> UserRecord:
    return UserRecord(row.id, row.club_id, row.login, row.password_hash, row.role, _utc(row.created_at))


def _status(game: Game) -> str:
    if game.over:
        return "over"
    return "dealing" if game.step == "deal" else "playing"


def _utc(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes; every time the store writes is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _summary(row: StoredGame) -> GameSummary:
    return GameSummary(row.id, row.club_id, row.ruleset, row.players, tuple(row.names), row.status, row.winner,
                       row.result, row.next_seq, _utc(row.created_at), _utc(row.updated_at))


class Store:
    """Games, clubs and event logs in one database. Thread-safe; any number of processes may share the
    database. Nothing is cached: every call reads what is committed.

    >>> store = open_store("sqlite://", migrate=True)   # an in-memory database
    >>> club = store.create_club("Demo club")
    >>> game_id = store.create_game(club, "club", 10)
    >>> import random
    >>> from sportmafia.engine import DealCards
    >>> result = store.append(game_id, DealCards(), expected_seq=0, command_id="c1", rng=random.Random(1))
    >>> (result.first_seq, result.next_seq, result.replayed)
    (0, 2, False)
    >>> store.append(game_id, DealCards(), expected_seq=0, command_id="c1").replayed
    True
    >>> store.load(game_id).step
    'meet_black'
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # Reads see one snapshot: on PostgreSQL REPEATABLE READ (READ COMMITTED would let the summary row
        # and the log come from two different commits); a SQLite transaction is a snapshot already.
        reader = engine.execution_options(isolation_level="REPEATABLE READ") \
            if engine.dialect.name == "postgresql" else engine
        self._read = sessionmaker(reader, expire_on_commit=False)
        self._write = sessionmaker(engine.execution_options(**{IMMEDIATE: True}), expire_on_commit=False)

    def close(self) -> None:
        """Close the pooled connections."""
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- clubs and games ------------------------------------------------------------------------------
    def create_club(self, name: str) -> int:
        with self._write.begin() as s:
            club = Club(name=name, created_at=utcnow())
            s.add(club)
            s.flush()
            return club.id

    def create_game(self, club_id: int, ruleset: RuleSet | str, players: int,
                    names: Sequence[str] | None = None, *, game_id: str | None = None) -> str:
        """A new game at the deal; returns its id (a new UUID unless ``game_id`` is given). The rule set is
        stored whole, so later changes to a club's variant do not change a game already created."""
        rules = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        game = Game(rules, players, names)  # checks the table size and the names
        new_id = game_id or str(uuid.uuid4())
        now = utcnow()
        with self._write.begin() as s:
            if s.get(Club, club_id) is None:
                raise ClubNotFound(club_id)
            s.add(StoredGame(
                id=new_id, club_id=club_id, ruleset=rules.name, ruleset_options=rules.options(), players=players,
                names=list(game.names), status=_status(game), winner=None, result=None, next_seq=0,
                created_at=now, updated_at=now,
            ))
        return new_id

    def game(self, game_id: str) -> GameSummary:
        """The game's summary row."""
        with self._read() as s:
            return _summary(self._get(s, game_id))

    def list_games(self, club_id: int) -> list[GameSummary]:
        """The club's games, newest first."""
        with self._read() as s:
            rows = s.scalars(select(StoredGame).where(StoredGame.club_id == club_id)
                             .order_by(StoredGame.created_at.desc(), StoredGame.id))
            return [_summary(row) for row in rows]

    # --- users and rosters ----------------------------------------------------------------------------
    def create_user(self, club_id: int, login: str, password_hash: str, role: str) -> UserRecord:
        """A new user of the club. ``password_hash`` is already hashed by the caller; ``role`` is one of
        ``admin``, ``host``, ``judge``. Raises :class:`ClubNotFound` or :class:`LoginTaken`."""
        if role not in USER_ROLES:
            raise ValueError(f"a role is one of {', '.join(USER_ROLES)}, not {role!r}")
        try:
            with self._write.begin() as s:
                if s.get(Club, club_id) is None:
                    raise ClubNotFound(club_id)
                if s.scalar(select(User.id).where(User.login == login)) is not None:
                    raise LoginTaken(login)
                user = User(club_id=club_id, login=login, password_hash=password_hash, role=role,
                            created_at=utcnow())
                s.add(user)
                s.flush()
                return _user(user)
        except IntegrityError:
            raise LoginTaken(login) from None

    def find_user(self, login: str) -> UserRecord | None:
        """The user with this login, or None."""
        with self._read() as s:
            row = s.scalar(select(User).where(User.login == login))
            return None if row is None else _user(row)

    def get_user(self, user_id: int) -> UserRecord | None:
        """The user with this id, or None."""
        with self._read() as s:
            row = s.get(User, user_id)
            return None if row is None else _user(row)

    def count_users(self) -> int:
        with self._read() as s:
            return int(s.scalar(select(func.count()).select_from(User)) or 0)

    def add_club_players(self, club_id: int, names: Sequence[str]) -> list[int]:
        """Put names on the club's roster; returns their ids in order. Raises :class:`ClubNotFound`."""
        with self._write.begin() as s:
            if s.get(Club, club_id) is None:
                raise ClubNotFound(club_id)
            rows = [ClubPlayer(club_id=club_id, name=name) for name in names]
            s.add_all(rows)
            s.flush()
            return [row.id for row in rows]

    def club_players(self, club_id: int) -> list[RosterPlayer]:
        """The club's roster, in the order the names were added."""
        with self._read() as s:
            rows = s.scalars(select(ClubPlayer).where(ClubPlayer.club_id == club_id).order_by(ClubPlayer.id))
            return [RosterPlayer(row.id, row.club_id, row.name) for row in rows]

    # --- reading logs ---------------------------------------------------------------------------------
    def load(self, game_id: str) -> Game:
        """The game as its stored log folds (raises :class:`GameNotFound`)."""
        with self._read() as s:
            row = self._get(s, game_id)
            return self._fold(row, self._log(s, row))

    def events_since(self, game_id: str, seq: int = 0) -> list[tuple[int, Event]]:
        """The events numbered ``seq`` and later, as ``(seq, event)``: a client that holds events up to
        ``n - 1`` asks for ``events_since(game_id, n)``."""
        with self._read() as s:
            self._get(s, game_id)
            rows = s.execute(select(GameEvent.seq, GameEvent.data)
                             .where(GameEvent.game_id == game_id, GameEvent.seq >= seq)
                             .order_by(GameEvent.seq))
            return [(n, event_from_json(data)) for n, data in rows]

    def record(self, game_id: str, meta: dict[str, Any] | None = None) -> dict[str, Any]:
        """The game record (``docs/game-record.md``), with the game and club ids in its ``meta``."""
        with self._read() as s:
            row = self._get(s, game_id)
            game = self._fold(row, self._log(s, row))
            club_id = row.club_id
        return to_record(game, {"game_id": game_id, "club_id": club_id, **(meta or {})})

    # --- appending ------------------------------------------------------------------------------------
    def append(self, game_id: str, command: Command, *, expected_seq: int, command_id: str,
               rng: Rng | None = None, actor: int | None = None) -> AppendResult:
        """Execute ``command`` on the stored game and append its events, in one transaction.

        - ``command_id`` already applied to this game: the first answer again, nothing applied
          (``replayed=True``);
        - ``expected_seq`` is not the game's next seq: :class:`StaleSequence` (carrying the next seq);
        - the command is not legal now: the engine's ``RuleViolation``;
        - none of these write anything. Otherwise the events are inserted as seqs ``expected_seq, ...``,
          the command id on the first (the action event), and the game's summary columns updated.

        ``rng`` draws the chance commands' outcomes; ``actor`` is a seat acting from his own device (None
        for the host or judge), as in ``Game.execute``.
        """
        if not command_id or len(command_id) > COMMAND_ID_MAX:
            raise ValueError(f"a command id is a non-empty string of at most {COMMAND_ID_MAX} characters")
        try:
            with self._write.begin() as s:
                # PostgreSQL: FOR NO KEY UPDATE makes appenders of one game wait for each other.
                # SQLite: BEGIN IMMEDIATE (the write session) has already taken the database's write lock.
                row = self._get(s, game_id, lock=True)
                prior = self._seq_of_command(s, game_id, command_id)
                if prior is not None:
                    return self._replayed(s, row, prior)
                if expected_seq != row.next_seq:
                    raise StaleSequence(game_id, expected_seq, row.next_seq)
                game = self._fold(row, self._log(s, row))
                events = game.execute(command, rng=rng, actor=actor)  # RuleViolation: rolled back, nothing written
                first = row.next_seq
                now = utcnow()
                s.add_all([
                    GameEvent(game_id=game_id, seq=first + i, type=ev.type, data=ev.to_json(),
                              command_id=command_id if i == 0 else None, created_at=now)
                    for i, ev in enumerate(events)
                ])
                row.next_seq = first + len(events)
                row.status = _status(game)
                row.winner = game.winner
                row.result = game.result if game.over else None
                row.updated_at = now
            return AppendResult(tuple(events), first, first + len(events), first + len(events))
        except IntegrityError:
            # Lost a race that the lock did not prevent: the (game_id, seq) key or the command id is taken.
            pass
        with self._read() as s:
            row = self._get(s, game_id)
            prior = self._seq_of_command(s, game_id, command_id)
            if prior is not None:
                return self._replayed(s, row, prior)
            last = s.scalar(select(func.max(GameEvent.seq)).where(GameEvent.game_id == game_id))
            head = max(row.next_seq, -1 if last is None else last + 1)
        raise StaleSequence(game_id, expected_seq, head)

    # --- helpers --------------------------------------------------------------------------------------
    @staticmethod
    def _get(s: Session, game_id: str, lock: bool = False) -> StoredGame:
        row = s.get(StoredGame, game_id, with_for_update={"key_share": True} if lock else None)
        if row is None:
            raise GameNotFound(game_id)
        return row

    @staticmethod
    def _log(s: Session, row: StoredGame) -> list[dict[str, Any]]:
        rows = s.execute(select(GameEvent.seq, GameEvent.data).where(GameEvent.game_id == row.id)
                         .order_by(GameEvent.seq)).all()
        if len(rows) != row.next_seq or (rows and rows[-1][0] != len(rows) - 1):
            last = rows[-1][0] if rows else None
            raise CorruptLog(f"game {row.id}: {len(rows)} events (last seq {last}), next_seq {row.next_seq}")
        return [data for _, data in rows]

    @staticmethod
    def _fold(row: StoredGame, log: list[dict[str, Any]]) -> Game:
        rules = RuleSet.from_options({**row.ruleset_options, "name": row.ruleset})
        return Game.from_events(rules, row.players, [event_from_json(d) for d in log], row.names)

    @staticmethod
    def _seq_of_command(s: Session, game_id: str, command_id: str) -> int | None:
        return s.scalar(select(GameEvent.seq).where(GameEvent.game_id == game_id,
                                                    GameEvent.command_id == command_id))

    @staticmethod
    def _replayed(s: Session, row: StoredGame, first: int) -> AppendResult:
        """The events of the command whose action event is ``first``: it and the consequences after it."""
        rows = s.scalars(select(GameEvent.data).where(GameEvent.game_id == row.id, GameEvent.seq >= first)
                         .order_by(GameEvent.seq))
        events: list[Event] = []
        for data in rows:
            ev = event_from_json(data)
            if events and ev.action:
                break
            events.append(ev)
        return AppendResult(tuple(events), first, first + len(events), row.next_seq, replayed=True)


def open_store(url: str | None = None, *, migrate: bool = False, **engine_options: Any) -> Store:
    """A :class:`Store` on ``url``, else ``$SPORTMAFIA_DATABASE_URL``, else ``$SPORTMAFIA_DATA/sportmafia.db``
    (SQLite; the folder defaults to ``./var/`` and is created). ``migrate=True`` also runs
    :func:`~sportmafia.store.upgrade` first (the app does this on start)."""
    engine = make_engine(url, **engine_options)
    if migrate:
        from .migrate import upgrade

        upgrade(engine)
    return Store(engine)
