"""`Store`: games as append-only event logs in a SQL database (SQLite or PostgreSQL).

Every change to a game is :meth:`Store.append`: one command, executed by the engine on the game folded
from the stored log, its events inserted with consecutive ``seq`` numbers, in one transaction. The caller
names the ``seq`` it expects the first new event to get (optimistic concurrency: two devices acting on the
same state cannot both win) and gives the command an id of its own (a retry after a lost answer is
answered again, not applied twice).
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Engine, Table, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ..engine import Command, Event, Game, RuleViolation, event_from_json, feed_events, to_record
from ..engine.describe import RESULT_NAMES
from ..engine.game import Rng
from ..errors import BilingualError
from ..rules import RuleSet, get_ruleset
from ..tournament.groups import TournamentError
from ..tournament.results import GameResult, apply_changes, check_changes, from_game
from .db import IMMEDIATE, Checkpointer, make_engine, sqlite_file
from .models import (
    USER_ROLES,
    Club,
    ClubPlayer,
    ClubVariant,
    GameEvent,
    SheetCorrection,
    StoredGame,
    User,
    as_utc,
    utcnow,
)

PARSED_GAMES = 512
"""How many games' parsed logs a store keeps in memory (the games played or watched last)."""

# The statements every request makes, built once with bound parameters (SQLAlchemy then finds them in its
# compiled cache without building and hashing a new statement each time).
GAMES = cast(Table, StoredGame.__table__)
EVENTS = cast(Table, GameEvent.__table__)
_HEAD = (select(GAMES.c.id, GAMES.c.next_seq, GAMES.c.signed_at, GAMES.c.ruleset, GAMES.c.ruleset_options,
                GAMES.c.players, GAMES.c.names)
         .where(GAMES.c.id == bindparam("game_id")).with_for_update(key_share=True))
"""What an append reads of the game's row, locked (the columns ``_folded`` needs, and where the log stands)."""
_SUMMARY = select(GAMES.c.id, GAMES.c.club_id, GAMES.c.ruleset, GAMES.c.players, GAMES.c.names, GAMES.c.status,
                  GAMES.c.winner, GAMES.c.result, GAMES.c.next_seq, GAMES.c.created_at, GAMES.c.updated_at,
                  GAMES.c.signed_at, GAMES.c.signed_by).where(GAMES.c.id == bindparam("game_id"))
"""The columns of a game's summary (``GameSummary``)."""
_SEQ_OF_COMMAND = select(EVENTS.c.seq).where(EVENTS.c.game_id == bindparam("game_id"),
                                             EVENTS.c.command_id == bindparam("command_id"))
_INSERT_EVENTS = insert(EVENTS)
_MOVE_HEAD = (update(GAMES).where(GAMES.c.id == bindparam("game_id"))
              .values(next_seq=bindparam("new_next_seq"), status=bindparam("new_status"),
                      winner=bindparam("new_winner"), result=bindparam("new_result"),
                      updated_at=bindparam("new_updated_at")))
_CLUB_OF_GAME = select(GAMES.c.club_id).where(GAMES.c.id == bindparam("game_id"))

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


class VariantTaken(StoreError):
    """The club already has a variant with this name."""

    def __init__(self, name: str) -> None:
        super().__init__(f"the variant name {name!r} is taken")
        self.name = name


class CorruptLog(StoreError):
    """The stored log does not hang together (a gap in ``seq``, or ``next_seq`` that disagrees)."""


class GameLocked(StoreError):
    """The game's result sheet is signed (B.sheet): the game takes no more commands. Nothing was written."""

    def __init__(self, game_id: str, signed_at: datetime) -> None:
        super().__init__(f"game {game_id} is locked: its result sheet was signed at {signed_at.isoformat()}")
        self.game_id = game_id
        self.signed_at = signed_at


class SheetRefused(StoreError, BilingualError):
    """A result sheet's signature or correction refused (B.sheet); nothing was written. ``code``:
    ``not-over`` (the game goes on), ``signed`` (signed already), ``unsigned`` (a correction before the
    signature), ``bad-correction`` (no reason, or a change the sheet does not allow)."""

    def __init__(self, code: str, message_en: str, message_ru: str) -> None:
        BilingualError.__init__(self, message_en, message_ru)
        self.code = code


@dataclass(frozen=True, slots=True)
class AppendResult:
    """What an append wrote (or, when ``replayed``, what the first try with this command id wrote).

    ``events`` have the seqs ``first_seq .. next_seq - 1``. ``head_seq`` is the game's next seq now: equal to
    ``next_seq``, unless this is a replayed answer and the game has moved on since. ``after``: what the
    append's ``after`` callable made of the game as committed (None when not asked, and for a replay).
    """

    events: tuple[Event, ...]
    first_seq: int
    next_seq: int
    head_seq: int
    replayed: bool = False
    after: Any = None

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
    signed_at: datetime | None = None
    """When the result sheet was signed (the game is locked since), or None."""
    signed_by: int | None = None
    """The id of the user who signed it."""


@dataclass(frozen=True, slots=True)
class CorrectionRecord:
    """A stored correction of a result sheet: who, when, why, and each change with its old value."""

    id: int
    game_id: str
    user_id: int
    login: str
    reason: str
    changes: tuple[dict[str, Any], ...]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Sheet:
    """A finished game's result sheet (B.sheet): ``result`` is the game's own result with every correction
    applied in order; participant ids are the seats' names (``#<seat> <name>`` when a name is not unique)."""

    game: GameSummary
    result: GameResult
    signed_by_login: str | None
    corrections: tuple[CorrectionRecord, ...]
    roles: tuple[str, ...]
    """The roles of the game's rule set: the values a correction may give a seat."""
    max_fouls: int
    """The most fouls a seat's line may show (the rule set's removing foul)."""


@dataclass(frozen=True, slots=True)
class UserRecord:
    """A user's row. ``password_hash`` is what the web layer stored (argon2); never a password."""

    id: int
    club_id: int
    login: str
    password_hash: str
    role: str
    created_at: datetime
    player_id: int | None = None
    """The club roster player this account is (``users.player_id``), or None."""
    disabled_at: datetime | None = None
    """When an admin disabled the account (store/accounts.py); None while it is enabled."""


@dataclass(frozen=True, slots=True)
class RosterPlayer:
    """A name on a club's roster."""

    id: int
    club_id: int
    name: str


@dataclass(frozen=True, slots=True)
class VariantRecord:
    """A club's saved rule set: ``options`` are a whole ``RuleSet.options()``."""

    id: int
    club_id: int
    name: str
    options: dict[str, Any]
    created_at: datetime


def _variant(row: ClubVariant) -> VariantRecord:
    return VariantRecord(row.id, row.club_id, row.name, dict(row.options), as_utc(row.created_at))


_USER = select(User.id, User.club_id, User.login, User.password_hash, User.role, User.created_at, User.player_id,
               User.disabled_at) \
    .where(User.id == bindparam("user_id"))


def _user(row: Any) -> UserRecord:
    return UserRecord(row.id, row.club_id, row.login, row.password_hash, row.role, as_utc(row.created_at),
                      row.player_id, None if row.disabled_at is None else as_utc(row.disabled_at))


def _status(game: Game) -> str:
    if game.over:
        return "over"
    return "dealing" if game.step == "deal" else "playing"


def _summary(row: Any) -> GameSummary:
    """A ``StoredGame``, or a row of ``_SUMMARY``, as a summary."""
    return GameSummary(row.id, row.club_id, row.ruleset, row.players, tuple(row.names), row.status, row.winner,
                       row.result, row.next_seq, as_utc(row.created_at), as_utc(row.updated_at),
                       None if row.signed_at is None else as_utc(row.signed_at), row.signed_by)


_SHEET_TOP = ("winner", "result", "first_killed", "best_move_black")


def participant_ids(names: Sequence[str]) -> list[str]:
    """The sheet's participant ids for a game's seats: the names, or ``#<seat> <name>`` for a name that is
    not unique at the table (or that is a field name of the sheet)."""
    counts = {name: names.count(name) for name in names}
    return [name if counts[name] == 1 and name not in _SHEET_TOP else f"#{seat} {name}"
            for seat, name in enumerate(names, 1)]


def _sheet_rules(rules: RuleSet, players: int) -> tuple[tuple[str, ...], int]:
    deck = rules.roles_for(players)
    roles = tuple(r for r in dict.fromkeys(("civilian", rules.checker, "mafia", "don")) if r in deck)
    return roles, max(rules.foul_remove, 1)


class _QueuedWriter:
    """SQLite write sessions that queue on a lock of this process before ``BEGIN IMMEDIATE``. SQLite's own busy
    handler makes a waiting writer sleep and retry (sleeps of up to 100 ms), so under a burst the slowest append
    waited far longer than the writers ahead of it; a lock hands over at once. Writers in other processes still
    wait on the busy timeout."""

    def __init__(self, sessions: sessionmaker[Session], lock: threading.RLock) -> None:
        self._sessions = sessions
        self._lock = lock

    @contextmanager
    def begin(self) -> Iterator[Session]:
        with self._lock, self._sessions.begin() as session:
            yield session


class Store:
    """Games, clubs and event logs in one database. Thread-safe; any number of processes may share the
    database. Every call reads what is committed; only what never changes once committed, or is checked
    against what is, is kept between calls: a game's log as parsed and the game its last append here left
    (both checked against the row's ``next_seq``), a game's club, user rows (see docs/store.md).

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
        immediate = engine.execution_options(**{IMMEDIATE: True})
        writer = sessionmaker(immediate, expire_on_commit=False)
        # re-entrant: a thread holding its turn (``write_turn``) takes it again in each write inside
        self._writer_lock = threading.RLock() if engine.dialect.name == "sqlite" else None
        self.local = engine.dialect.name == "sqlite"
        """Whether the database is SQLite (a file, or memory) in this process: its reads wait on no network and,
        in WAL mode, on no writer."""
        self._write = _QueuedWriter(writer, self._writer_lock) if self._writer_lock is not None else writer
        # plain connections (no ORM session) for the statements every request makes
        self._reader_engine, self._writer_engine = reader, immediate
        self._parsed: OrderedDict[str, tuple[Event, ...]] = OrderedDict()
        self._parsed_lock = threading.Lock()
        # the folded game each append left, for the next append of that game (taken out while in use)
        self._writable: OrderedDict[str, Game] = OrderedDict()
        self._clubs: OrderedDict[str, int] = OrderedDict()
        self._users: OrderedDict[int, UserRecord] = OrderedDict()
        self._facts: OrderedDict[str, Any] = OrderedDict()  # store.access.GameFacts of the games asked last
        # SQLite file: its checkpoints in a thread of their own, not in an append's commit (see Checkpointer)
        self.checkpointer = Checkpointer(engine) if sqlite_file(engine) else None

    @contextmanager
    def _read_conn(self) -> Iterator[Connection]:
        """A read transaction on a plain connection (one snapshot, like ``_read``)."""
        with self._reader_engine.begin() as conn:
            yield conn

    @contextmanager
    def _write_conn(self) -> Iterator[Connection]:
        """A write transaction on a plain connection, queued like ``_write`` (SQLite: this process's writers
        take turns on a lock before ``BEGIN IMMEDIATE``)."""
        if self._writer_lock is None:
            with self._writer_engine.begin() as conn:
                yield conn
        else:
            with self._writer_lock, self._writer_engine.begin() as conn:
                yield conn

    @contextmanager
    def write_turn(self, wait: float = 0.0) -> Iterator[bool]:
        """Whether this thread may write now, having waited at most ``wait`` seconds for another of this
        process's writers: on SQLite, True when the process's write lock is (or within ``wait`` becomes) free,
        which it then holds to the end of the block (the writes inside take it again at once); False when
        another thread is still writing, and always on PostgreSQL (whose writers wait on the server, not on this
        process). The web app runs a command's append on its event loop when it gets the turn
        (``live.writes.run_writer``), and in a worker thread otherwise."""
        lock = self._writer_lock
        if lock is None or not (lock.acquire(timeout=wait) if wait > 0 else lock.acquire(blocking=False)):
            yield False
            return
        try:
            yield True
        finally:
            lock.release()

    def close(self) -> None:
        """Stop the checkpoints' thread (SQLite) and close the pooled connections."""
        if self.checkpointer is not None:
            self.checkpointer.stop()
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
                    names: Sequence[str] | None = None, *, game_id: str | None = None, host_id: int | None = None,
                    seat_players: Sequence[int | None] | None = None) -> str:
        """A new game at the deal; returns its id (a new UUID unless ``game_id`` is given). The rule set is
        stored whole, so later changes to a club's variant do not change a game already created. ``host_id``:
        the user who hosts it; ``seat_players``: the club roster player at each seat (None for a typed name)."""
        if seat_players is not None and len(seat_players) != players:
            raise ValueError(f"{len(seat_players)} roster players for {players} seats")
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
                created_at=now, updated_at=now, host_id=host_id,
                seat_players=None if seat_players is None else list(seat_players),
            ))
        return new_id

    def game_club(self, game_id: str) -> int:
        """The club a game belongs to (raises :class:`GameNotFound`). A game never changes club, so the answer
        is kept for the games asked about last."""
        with self._parsed_lock:
            club = self._clubs.get(game_id)
        if club is not None:
            return club
        with self._read_conn() as s:
            stored = s.scalar(_CLUB_OF_GAME, {"game_id": game_id})
        if stored is None:
            raise GameNotFound(game_id)
        club = int(stored)
        with self._parsed_lock:
            self._clubs[game_id] = club
            while len(self._clubs) > 4 * PARSED_GAMES:
                self._clubs.popitem(last=False)
        return club

    def game(self, game_id: str) -> GameSummary:
        """The game's summary row (a plain statement: every socket that opens asks it)."""
        with self._read_conn() as conn:
            row = conn.execute(_SUMMARY, {"game_id": game_id}).one_or_none()
        if row is None:
            raise GameNotFound(game_id)
        return _summary(row)

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
        """The user with this id, or None. Asked on every request that needs a login, so the users asked about
        last are kept (see :meth:`known_user`); a change of a user's row (store/accounts.py, and the roster player
        linked by ``store.access.link_player``) forgets it or changes it here too (:meth:`forget_user`). Whether a
        request is logged in is decided by its session (docs/api.md)."""
        known = self.known_user(user_id)
        if known is not None:
            return known
        with self._read_conn() as s:
            row = s.execute(_USER, {"user_id": user_id}).one_or_none()
        if row is None:
            return None
        user = _user(row)
        with self._parsed_lock:
            self._users[user_id] = user
            while len(self._users) > PARSED_GAMES:
                self._users.popitem(last=False)
        return user

    def forget_user(self, user_id: int) -> None:
        """Drop the kept copy of a user's row (after changing it)."""
        with self._parsed_lock:
            self._users.pop(user_id, None)

    def known_user(self, user_id: int) -> UserRecord | None:
        """The user with this id if :meth:`get_user` has read it before (no database read), else None."""
        with self._parsed_lock:
            return self._users.get(user_id)

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

    # --- saved variants -------------------------------------------------------------------------------
    def save_variant(self, club_id: int, name: str, options: dict[str, Any]) -> VariantRecord:
        """Save a rule set (``RuleSet.options()``, checked by the caller) under a name new in the club.
        Raises :class:`ClubNotFound` or :class:`VariantTaken`."""
        try:
            with self._write.begin() as s:
                if s.get(Club, club_id) is None:
                    raise ClubNotFound(club_id)
                taken = select(ClubVariant.id).where(ClubVariant.club_id == club_id, ClubVariant.name == name)
                if s.scalar(taken) is not None:
                    raise VariantTaken(name)
                row = ClubVariant(club_id=club_id, name=name, options=dict(options), created_at=utcnow())
                s.add(row)
                s.flush()
                return _variant(row)
        except IntegrityError:
            raise VariantTaken(name) from None

    def club_variants(self, club_id: int) -> list[VariantRecord]:
        """The club's saved variants, by name."""
        with self._read() as s:
            rows = s.scalars(select(ClubVariant).where(ClubVariant.club_id == club_id)
                             .order_by(ClubVariant.name, ClubVariant.id))
            return [_variant(row) for row in rows]

    def variant(self, club_id: int, variant_id: int) -> VariantRecord | None:
        """The club's variant with this id, or None (also for another club's variant)."""
        with self._read() as s:
            row = s.get(ClubVariant, variant_id)
            return None if row is None or row.club_id != club_id else _variant(row)

    # --- result sheets (B.sheet) ----------------------------------------------------------------------
    def sign(self, game_id: str, user_id: int) -> GameSummary:
        """The host (or an admin) signs the finished game's result sheet: ``signed_at``/``signed_by`` are
        recorded and the game is locked (:meth:`append` refuses it from now on). Raises
        :class:`SheetRefused` (``signed``, ``not-over``), :class:`GameNotFound`, or ``ValueError`` for a
        user who is not of the game's club; nothing is written then."""
        with self._write.begin() as s:
            row = self._get(s, game_id, lock=True)  # waits for a running append of this game
            self._club_user(s, row, user_id)
            if row.signed_at is not None:
                raise SheetRefused("signed", "The result sheet is signed already.", "Лист результатов уже подписан.")
            if row.status != "over":
                raise SheetRefused("not-over", "The game is not over: there is no result sheet to sign yet.",
                                   "Игра не окончена: подписывать пока нечего.")
            row.signed_at = utcnow()
            row.signed_by = user_id
            s.flush()
            return _summary(row)

    def correct(self, game_id: str, user_id: int, reason: str,
                changes: Sequence[dict[str, Any]]) -> CorrectionRecord:
        """A judge's (or an admin's) correction of a signed result sheet, with its reason (B.sheet).
        ``changes``: ``{"field", "seat" (for a seat's line), "new"}`` each, checked against the sheet as it
        stands (:func:`sportmafia.tournament.results.check_changes`) and kept with their old values.
        Raises :class:`SheetRefused` (``unsigned``, ``bad-correction``, ``not-over``) and writes nothing then."""
        with self._write.begin() as s:
            row = self._get(s, game_id, lock=True)  # corrections of one game are made one after another
            user = self._club_user(s, row, user_id)
            if row.signed_at is None:
                raise SheetRefused("unsigned", "Only a signed result sheet is corrected; sign it first.",
                                   "Исправляют только подписанный лист результатов; сначала подпишите его.")
            if not reason or not reason.strip():
                raise SheetRefused("bad-correction", "A correction needs a reason.",
                                   "Исправление требует указать причину.")
            sheet = self._sheet(s, row)
            try:
                checked = check_changes(sheet.result, changes, roles=sheet.roles, results=tuple(RESULT_NAMES),
                                        max_fouls=sheet.max_fouls)
            except TournamentError as exc:
                raise SheetRefused("bad-correction", f"The correction is refused: {exc.message_en}.",
                                   f"Исправление отклонено: {exc.message_ru}.") from None
            record = SheetCorrection(game_id=game_id, user_id=user_id, reason=reason.strip(), changes=checked,
                                     created_at=utcnow())
            s.add(record)
            s.flush()
            return CorrectionRecord(record.id, game_id, user_id, user.login, record.reason, tuple(checked),
                                    as_utc(record.created_at))

    def corrections(self, game_id: str) -> list[CorrectionRecord]:
        """The game's sheet corrections, oldest first, with the logins of their authors."""
        with self._read() as s:
            self._get(s, game_id)
            return self._corrections(s, game_id)

    def sheet(self, game_id: str) -> Sheet:
        """The finished game's result sheet with every correction applied in order. Raises
        :class:`SheetRefused` (``not-over``) while the game goes on: its roles are not to be seen yet."""
        with self._read() as s:
            return self._sheet(s, self._get(s, game_id))

    def _sheet(self, s: Session, row: StoredGame) -> Sheet:
        if row.status != "over":
            raise SheetRefused("not-over", "The game is not over: its result sheet is made at the end.",
                               "Игра не окончена: лист результатов появится в конце.")
        game = self._folded(s, row)
        result = from_game(game, participant_ids(row.names), game_id=row.id)
        corrections = self._corrections(s, row.id)
        for c in corrections:
            result = apply_changes(result, c.changes, c.reason, by=c.login)
        signer = None if row.signed_by is None else s.get(User, row.signed_by)
        roles, max_fouls = _sheet_rules(game.rules, row.players)
        return Sheet(_summary(row), result, signer.login if signer else None, tuple(corrections), roles, max_fouls)

    @staticmethod
    def _corrections(s: Session, game_id: str) -> list[CorrectionRecord]:
        rows = s.execute(select(SheetCorrection, User.login).join(User, User.id == SheetCorrection.user_id)
                         .where(SheetCorrection.game_id == game_id)
                         .order_by(SheetCorrection.id)).all()
        return [CorrectionRecord(c.id, c.game_id, c.user_id, login, c.reason, tuple(c.changes), as_utc(c.created_at))
                for c, login in rows]

    @staticmethod
    def _club_user(s: Session, row: StoredGame, user_id: int) -> User:
        user = s.get(User, user_id)
        if user is None or user.club_id != row.club_id:
            raise ValueError(f"user {user_id} is not of the club of game {row.id}")
        return user

    # --- reading logs ---------------------------------------------------------------------------------
    def load(self, game_id: str) -> Game:
        """The game as its stored log folds (raises :class:`GameNotFound`)."""
        with self._read() as s:
            row = self._get(s, game_id)
            return self._folded(s, row)

    def events_since(self, game_id: str, seq: int = 0) -> list[tuple[int, Event]]:
        """The events numbered ``seq`` and later, as ``(seq, event)``: a client that holds events up to
        ``n - 1`` asks for ``events_since(game_id, n)``."""
        with self._read() as s:
            self._get(s, game_id)
            rows = s.execute(select(GameEvent.seq, GameEvent.data)
                             .where(GameEvent.game_id == game_id, GameEvent.seq >= seq)
                             .order_by(GameEvent.seq))
            return [(n, event_from_json(data)) for n, data in rows]

    def recent_events(self, game_id: str, seq: int, at_least: int) -> tuple[Event, ...] | None:
        """The events from ``seq`` on, without a database read, if this process has read or appended the log
        up to at least ``at_least`` events (a log only grows: what was committed once stays as it is); else
        None (read them with :meth:`events_since`)."""
        with self._parsed_lock:
            known = self._parsed.get(game_id)
        if known is None or len(known) < at_least or seq > len(known):
            return None
        return known[seq:]

    def timeline(self, game_id: str) -> list[tuple[int, Event, datetime]]:
        """The whole log as ``(seq, event, created_at)``: when each event was recorded (UTC)."""
        with self._read() as s:
            self._get(s, game_id)
            rows = s.execute(select(GameEvent.seq, GameEvent.data, GameEvent.created_at)
                             .where(GameEvent.game_id == game_id).order_by(GameEvent.seq))
            return [(n, event_from_json(data), as_utc(at)) for n, data, at in rows]

    def record(self, game_id: str, meta: dict[str, Any] | None = None) -> dict[str, Any]:
        """The game record (``docs/game-record.md``), with the game and club ids in its ``meta``."""
        with self._read() as s:
            row = self._get(s, game_id)
            game = self._folded(s, row)
            club_id = row.club_id
        return to_record(game, {"game_id": game_id, "club_id": club_id, **(meta or {})})

    # --- appending ------------------------------------------------------------------------------------
    def append(self, game_id: str, command: Command, *, expected_seq: int, command_id: str,
               rng: Rng | None = None, actor: int | None = None,
               rebase: Callable[[Sequence[Event]], bool] | None = None,
               check: Callable[[Connection], None] | None = None,
               after: Callable[[Game], Any] | None = None, feed_of: int | None = None) -> AppendResult:
        """Execute ``command`` on the stored game and append its events, in one transaction.

        - ``command_id`` already applied to this game: the first answer again, nothing applied
          (``replayed=True``);
        - ``expected_seq`` is not the game's next seq: :class:`StaleSequence` (carrying the next seq);
        - the command is not legal now: the engine's ``RuleViolation``;
        - the game's result sheet is signed: :class:`GameLocked` (a retry of a command applied before still gets
          its first answer: nothing acknowledged is refused later);
        - none of these write anything. Otherwise the events are inserted as seqs ``expected_seq, ...``,
          the command id on the first (the action event), and the game's summary columns updated.

        ``rng`` draws the chance commands' outcomes; ``actor`` is a seat acting from his own device (None
        for the host or judge), as in ``Game.execute``. ``rebase``: when the log has moved past
        ``expected_seq``, the events recorded since are passed to it, under the write lock; if it says the
        command still stands on them (say, only other players' hands were raised meanwhile), the command is
        executed on the head instead of being refused, in the same transaction: a burst of hands raised at
        once costs one transaction each, not a round of retries. ``check``: called first, under the write lock,
        with the transaction's connection; whatever it raises refuses the command with nothing written (a
        player's link must still be live when his command is written, not only when it was read). ``after``:
        called once the events are committed, with the game they leave (this append's own fold, read by no one
        else meanwhile: it must not change it); what it returns is the result's ``after``, for an answer that
        shows the game (the console's state) without reading and folding the log again. ``feed_of``: a seat whose
        own feed numbers ``expected_seq`` (a player knows how many entries of his feed he holds, not the log's
        length, which counts what is hidden from him): the entries of his feed since that number are what
        ``rebase`` judges (what is hidden from him changed nothing he saw), and a number beyond his feed is stale.
        """
        if not command_id or len(command_id) > COMMAND_ID_MAX:
            raise ValueError(f"a command id is a non-empty string of at most {COMMAND_ID_MAX} characters")
        try:
            with self._write_conn() as s:
                # PostgreSQL: FOR NO KEY UPDATE makes appenders of one game wait for each other.
                # SQLite: BEGIN IMMEDIATE (the write session) has already taken the database's write lock.
                # Plain statements rather than ORM objects: this is the hot path of every host's action.
                head = s.execute(_HEAD, {"game_id": game_id}).one_or_none()
                if head is None:
                    raise GameNotFound(game_id)
                if check is not None:
                    check(s)
                prior = self._seq_of_command(s, game_id, command_id)
                if prior is not None:
                    return self._replayed(s, game_id, head.next_seq, prior)
                if head.signed_at is not None:
                    raise GameLocked(game_id, as_utc(head.signed_at))
                game = self._take_folded(s, head)
                if feed_of is not None:
                    # what the player saw is his feed: the command stands if every entry of it since he decided is
                    # one that leaves the phase as it was; what is hidden from him (a teammate's shot, the host's
                    # undoing of it) changes nothing he saw and never makes his command stale
                    try:
                        since_seen = feed_events(game, feed_of, expected_seq)
                    except ValueError:
                        since_seen = None
                    if since_seen is None or (since_seen and (rebase is None or not rebase(since_seen))):
                        self._keep_folded(game_id, game)
                        raise StaleSequence(game_id, expected_seq, head.next_seq)
                    expected_seq = head.next_seq
                if expected_seq != head.next_seq and (
                        rebase is None or not 0 <= expected_seq < head.next_seq
                        or not rebase(game.log[expected_seq:])):
                    self._keep_folded(game_id, game)
                    raise StaleSequence(game_id, expected_seq, head.next_seq)
                try:
                    events = game.execute(command, rng=rng, actor=actor)
                except RuleViolation:
                    self._keep_folded(game_id, game)  # the engine changed nothing; rolled back, nothing written
                    raise
                first = head.next_seq
                now = utcnow()
                s.execute(_INSERT_EVENTS, [
                    {"game_id": game_id, "seq": first + i, "type": ev.type, "data": ev.to_json(),
                     "command_id": command_id if i == 0 else None, "created_at": now}
                    for i, ev in enumerate(events)
                ])
                s.execute(_MOVE_HEAD, {"game_id": game_id, "new_next_seq": first + len(events),
                                       "new_status": _status(game), "new_winner": game.winner,
                                       "new_result": game.result if game.over else None, "new_updated_at": now})
            self._remember(game_id, tuple(game.log))  # committed: the next fold reads nothing of the log
            try:
                made = after(game) if after is not None else None
            finally:
                self._keep_folded(game_id, game)
            return AppendResult(tuple(events), first, first + len(events), first + len(events), after=made)
        except IntegrityError:
            # Lost a race that the lock did not prevent: the (game_id, seq) key or the command id is taken.
            pass
        with self._read() as s:
            row = self._get(s, game_id)
            prior = self._seq_of_command(s, game_id, command_id)
            if prior is not None:
                return self._replayed(s, game_id, row.next_seq, prior)
            last = s.scalar(select(func.max(GameEvent.seq)).where(GameEvent.game_id == game_id))
            at = max(row.next_seq, -1 if last is None else last + 1)
        raise StaleSequence(game_id, expected_seq, at)

    # --- helpers --------------------------------------------------------------------------------------
    @staticmethod
    def _get(s: Session, game_id: str, lock: bool = False) -> StoredGame:
        row = s.get(StoredGame, game_id, with_for_update={"key_share": True} if lock else None)
        if row is None:
            raise GameNotFound(game_id)
        return row

    def _events(self, s: Session | Connection, row: Any) -> tuple[Event, ...]:
        """The game's log as events. Logs only grow, so the events parsed before are kept (for the games used
        last) and only the rows after them are read: a log of 400 events took ~8 ms to read and parse whole."""
        cached = self._parsed.get(row.id)
        have = cached if cached is not None and len(cached) <= row.next_seq else ()
        rows = s.execute(select(GameEvent.seq, GameEvent.data)
                         .where(GameEvent.game_id == row.id, GameEvent.seq >= len(have))
                         .order_by(GameEvent.seq)).all()
        if len(have) + len(rows) != row.next_seq or any(seq != len(have) + i for i, (seq, _) in enumerate(rows)):
            last = rows[-1][0] if rows else None
            raise CorruptLog(f"game {row.id}: {len(have) + len(rows)} events (last seq {last}), "
                             f"next_seq {row.next_seq}")
        events = have + tuple(event_from_json(data) for _, data in rows)
        self._remember(row.id, events)
        return events

    def _remember(self, game_id: str, events: tuple[Event, ...]) -> None:
        with self._parsed_lock:
            known = self._parsed.pop(game_id, None)
            # two readers may race: keep the longer log (both are prefixes of the one stored log)
            self._parsed[game_id] = events if known is None or len(events) >= len(known) else known
            while len(self._parsed) > PARSED_GAMES:
                self._parsed.popitem(last=False)

    def _take_folded(self, s: Session | Connection | Connection, row: Any) -> Game:
        """The game as folded by the last append here, if the log has not moved since (then nobody else holds
        it: it is taken out of the cache until this append is committed), else folded from the log."""
        with self._parsed_lock:
            game = self._writable.pop(row.id, None)
        if game is not None and len(game.log) == row.next_seq:
            return game
        return self._folded(s, row)

    def _keep_folded(self, game_id: str, game: Game) -> None:
        with self._parsed_lock:
            self._writable[game_id] = game
            self._writable.move_to_end(game_id)
            while len(self._writable) > PARSED_GAMES:
                self._writable.popitem(last=False)

    def _folded(self, s: Session | Connection, row: Any) -> Game:
        rules = RuleSet.from_options({**row.ruleset_options, "name": row.ruleset})
        return Game.from_events(rules, row.players, list(self._events(s, row)), row.names)

    @staticmethod
    def _seq_of_command(s: Session | Connection, game_id: str, command_id: str) -> int | None:
        return s.scalar(_SEQ_OF_COMMAND, {"game_id": game_id, "command_id": command_id})

    @staticmethod
    def _replayed(s: Session | Connection, game_id: str, next_seq: int, first: int) -> AppendResult:
        """The events of the command whose action event is ``first``: it and the consequences after it."""
        rows = s.scalars(select(GameEvent.data).where(GameEvent.game_id == game_id, GameEvent.seq >= first)
                         .order_by(GameEvent.seq))
        events: list[Event] = []
        for data in rows:
            ev = event_from_json(data)
            if events and ev.action:
                break
            events.append(ev)
        return AppendResult(tuple(events), first, first + len(events), next_seq, replayed=True)


def open_store(url: str | None = None, *, migrate: bool = False, **engine_options: Any) -> Store:
    """A :class:`Store` on ``url``, else ``$SPORTMAFIA_DATABASE_URL``, else ``$SPORTMAFIA_DATA/sportmafia.db``
    (SQLite; the folder defaults to ``./var/`` and is created). ``migrate=True`` also runs
    :func:`~sportmafia.store.upgrade` first (the app does this on start)."""
    engine = make_engine(url, **engine_options)
    if migrate:
        from .migrate import upgrade

        upgrade(engine)
    return Store(engine)
