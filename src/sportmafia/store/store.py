"""`Store`: games as append-only event logs in a SQL database (SQLite or PostgreSQL).

Every change to a game is :meth:`Store.append`: one command, executed by the engine on the game folded
from the stored log, its events inserted with consecutive ``seq`` numbers, in one transaction. The caller
names the ``seq`` it expects the first new event to get (optimistic concurrency: two devices acting on the
same state cannot both win) and gives the command an id of its own (a retry after a lost answer is
answered again, not applied twice).
"""

from __future__ import annotations

import dataclasses
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ..engine import Command, Event, Game, Rng, event_from_json, to_record
from ..rules import RuleSet, get_ruleset
from . import season_index
from . import statements as st
from .bursts import Burst
from .db import IMMEDIATE, Checkpointer, QueuedWriter, bounded, sqlite_file
from .models import USER_ROLES, Club, ClubPlayer, ClubVariant, GameEvent, StoredGame, User, as_utc, utcnow
from .records import (
    USER_BY_ID,
    Append,
    AppendResult,
    ClubNotFound,
    CorruptLog,
    GameNotFound,
    GameSummary,
    LoginTaken,
    RosterPlayer,
    StaleSequence,
    UserRecord,
    VariantRecord,
    VariantTaken,
    game_summary,
    user_record,
    variant_record,
)

PARSED_GAMES = 512
"""How many games' parsed logs a store keeps in memory (the games played or watched last)."""

class Store:
    """Games, clubs and event logs in one database. Thread-safe; any number of processes may share the
    database. Every call reads what is committed; only what never changes once committed, or is checked
    against what is, is kept between calls: a game's log as parsed and the game its last append here left
    (both checked against the row's ``next_seq``), a game's club, user rows (see docs/store.md).

    >>> from sportmafia.store import open_store
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
        self._write = QueuedWriter(writer, self._writer_lock) if self._writer_lock is not None else writer
        # plain connections (no ORM session) for the statements every request makes
        self._reader_engine, self._writer_engine = reader, immediate
        self._single_engine = engine.execution_options(isolation_level="AUTOCOMMIT") \
            if engine.dialect.name == "postgresql" else reader
        self._parsed: OrderedDict[str, tuple[Event, ...]] = OrderedDict()
        self._parsed_lock = threading.Lock()
        # the folded game each append left, for the next append of that game (taken out while in use)
        self._writable: OrderedDict[str, Game] = OrderedDict()
        self._clubs: OrderedDict[str, int] = OrderedDict()
        self._users: OrderedDict[int, UserRecord] = OrderedDict()
        self.keeps_users = True
        """Whether users' rows are kept in memory between calls (:meth:`get_user`). False when other processes
        share the database (``web.create_app(shared=True)``): a role changed or a user disabled by another
        process would never be seen here, so every call reads the row."""
        self._facts: OrderedDict[str, Any] = OrderedDict()  # store.access.GameFacts of the games asked last
        # SQLite file: its checkpoints in a thread of their own, not in an append's commit (see Checkpointer)
        self.checkpointer = Checkpointer(engine) if sqlite_file(engine) else None

    # --- transactions (public: every repository module of this package works through them) -----------------
    def read(self) -> Session:
        """A read session: ``with store.read() as s:`` sees one snapshot of what is committed (PostgreSQL:
        REPEATABLE READ) and writes nothing."""
        return self._read()

    def write(self) -> AbstractContextManager[Session]:
        """A write transaction: ``with store.write() as s:`` commits at the end of the block, or rolls back
        what an exception left. SQLite: ``BEGIN IMMEDIATE``, after this process's other writers (a lock)."""
        return self._write.begin()

    @contextmanager
    def read_conn(self) -> Iterator[Connection]:
        """A read transaction on a plain connection (one snapshot, like :meth:`read`): for the statements
        every request makes, without an ORM session."""
        with self._reader_engine.begin() as conn:
            yield conn

    @contextmanager
    def read_one(self) -> Iterator[Connection]:
        """A connection for ONE read statement, its own snapshot: on PostgreSQL in autocommit, one round trip, not
        three (``BEGIN``, it, ``COMMIT``). Statements that must see one snapshot together: :meth:`read_conn`."""
        with self._single_engine.connect() as conn:
            yield conn

    @contextmanager
    def write_conn(self) -> Iterator[Connection]:
        """A write transaction on a plain connection, queued like :meth:`write` (SQLite: this process's writers
        take turns on a lock before ``BEGIN IMMEDIATE``)."""
        if self._writer_lock is None:
            with self._writer_engine.begin() as conn:
                yield conn
        else:
            with self._writer_lock, self._writer_engine.begin() as conn:
                yield conn

    # --- what is kept in memory between calls ------------------------------------------------------------
    def kept_facts(self, game_id: str) -> Any:
        """The ``store.access.GameFacts`` of the game kept by :meth:`keep_facts`, or None."""
        with self._parsed_lock:
            return self._facts.get(game_id)

    def keep_facts(self, facts: Sequence[tuple[str, Any]]) -> None:
        """Keep games' ``store.access.GameFacts`` (``(game_id, facts)`` pairs), for the games asked about last."""
        with self._parsed_lock:
            bounded(self._facts, facts, 4 * PARSED_GAMES)

    def keep_user(self, user: UserRecord) -> None:
        """Keep a user's record as it is now committed (after changing its row), for :meth:`get_user`."""
        if not self.keeps_users:
            return
        with self._parsed_lock:
            bounded(self._users, [(user.id, user)], PARSED_GAMES)

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
        with self.write() as s:
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
        with self.write() as s:
            if s.get(Club, club_id) is None:
                raise ClubNotFound(club_id)
            s.add(StoredGame(
                id=new_id, club_id=club_id, ruleset=rules.name, ruleset_options=rules.options(), players=players,
                names=list(game.names), status=st.status_of(game), winner=None, result=None, next_seq=0,
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
        with self.read_one() as s:
            stored = s.scalar(st.CLUB_OF_GAME, {"game_id": game_id})
        if stored is None:
            raise GameNotFound(game_id)
        club = int(stored)
        with self._parsed_lock:
            bounded(self._clubs, [(game_id, club)], 4 * PARSED_GAMES)
        return club

    def game(self, game_id: str) -> GameSummary:
        """The game's summary row (a plain statement: every socket that opens asks it)."""
        with self.read_one() as conn:
            row = conn.execute(st.SUMMARY, {"game_id": game_id}).one_or_none()
        if row is None:
            raise GameNotFound(game_id)
        return game_summary(row)

    def heads(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The next seq of each of these games that exists, in one read (how the live hub finds out, while it has
        no Redis link, that another process appended to the games its sockets follow)."""
        if not game_ids:
            return {}
        with self.read_one() as conn:
            rows = conn.execute(select(st.GAMES.c.id, st.GAMES.c.next_seq).where(st.GAMES.c.id.in_(list(game_ids))))
            return {str(game_id): int(next_seq) for game_id, next_seq in rows}

    def list_games(self, club_id: int) -> list[GameSummary]:
        """The club's games, newest first."""
        with self._read() as s:
            rows = s.scalars(select(StoredGame).where(StoredGame.club_id == club_id)
                             .order_by(StoredGame.created_at.desc(), StoredGame.id))
            return [game_summary(row) for row in rows]

    # --- users and rosters ----------------------------------------------------------------------------
    def create_user(self, club_id: int, login: str, password_hash: str, role: str) -> UserRecord:
        """A new user of the club. ``password_hash`` is already hashed by the caller; ``role`` is one of
        ``admin``, ``host``, ``judge``. Raises :class:`ClubNotFound` or :class:`LoginTaken`."""
        if role not in USER_ROLES:
            raise ValueError(f"a role is one of {', '.join(USER_ROLES)}, not {role!r}")
        try:
            with self.write() as s:
                if s.get(Club, club_id) is None:
                    raise ClubNotFound(club_id)
                if s.scalar(select(User.id).where(User.login == login)) is not None:
                    raise LoginTaken(login)
                user = User(club_id=club_id, login=login, password_hash=password_hash, role=role,
                            created_at=utcnow())
                s.add(user)
                s.flush()
                return user_record(user)
        except IntegrityError:
            raise LoginTaken(login) from None

    def find_user(self, login: str) -> UserRecord | None:
        """The user with this login, or None."""
        with self._read() as s:
            row = s.scalar(select(User).where(User.login == login))
            return None if row is None else user_record(row)

    def get_user(self, user_id: int) -> UserRecord | None:
        """The user with this id, or None. Asked on every request that needs a login, so the users asked about
        last are kept (see :meth:`known_user`); a change of a user's row (store/accounts.py, and the roster player
        linked by ``store.access.link_player``) forgets it or changes it here too (:meth:`forget_user`). Whether a
        request is logged in is decided by its session (docs/api.md)."""
        known = self.known_user(user_id)
        if known is not None:
            return known
        with self.read_one() as s:
            row = s.execute(USER_BY_ID, {"user_id": user_id}).one_or_none()
        if row is None:
            return None
        user = user_record(row)
        self.keep_user(user)
        return user

    def forget_user(self, user_id: int) -> None:
        """Drop the kept copy of a user's row (after changing it)."""
        with self._parsed_lock:
            self._users.pop(user_id, None)

    def known_user(self, user_id: int) -> UserRecord | None:
        """The user with this id if :meth:`get_user` has read it before (no database read), else None (always,
        when users are not kept: ``keeps_users``)."""
        if not self.keeps_users:
            return None
        with self._parsed_lock:
            return self._users.get(user_id)

    def count_users(self) -> int:
        with self._read() as s:
            return int(s.scalar(select(func.count()).select_from(User)) or 0)

    def add_club_players(self, club_id: int, names: Sequence[str]) -> list[int]:
        """Put names on the club's roster; returns their ids in order. Raises :class:`ClubNotFound`."""
        with self.write() as s:
            if s.get(Club, club_id) is None:
                raise ClubNotFound(club_id)
            rows = [ClubPlayer(club_id=club_id, name=name) for name in names]
            s.add_all(rows)
            s.flush()
            season_index.bump(s.connection(), club_id)  # the club's players page lists them
            return [row.id for row in rows]

    def club_players(self, club_id: int) -> list[RosterPlayer]:
        """The club's roster, in the order the names were added (duplicates merged into another left out)."""
        with self._read() as s:
            rows = s.scalars(select(ClubPlayer).where(ClubPlayer.club_id == club_id, ClubPlayer.merged_into.is_(None))
                             .order_by(ClubPlayer.id))
            return [RosterPlayer(row.id, row.club_id, row.name) for row in rows]

    # --- saved variants -------------------------------------------------------------------------------
    def save_variant(self, club_id: int, name: str, options: dict[str, Any]) -> VariantRecord:
        """Save a rule set (``RuleSet.options()``, checked by the caller) under a name new in the club.
        Raises :class:`ClubNotFound` or :class:`VariantTaken`."""
        try:
            with self.write() as s:
                if s.get(Club, club_id) is None:
                    raise ClubNotFound(club_id)
                taken = select(ClubVariant.id).where(ClubVariant.club_id == club_id, ClubVariant.name == name)
                if s.scalar(taken) is not None:
                    raise VariantTaken(name)
                row = ClubVariant(club_id=club_id, name=name, options=dict(options), created_at=utcnow())
                s.add(row)
                s.flush()
                return variant_record(row)
        except IntegrityError:
            raise VariantTaken(name) from None

    def club_variants(self, club_id: int) -> list[VariantRecord]:
        """The club's saved variants, by name."""
        with self._read() as s:
            rows = s.scalars(select(ClubVariant).where(ClubVariant.club_id == club_id)
                             .order_by(ClubVariant.name, ClubVariant.id))
            return [variant_record(row) for row in rows]

    def variant(self, club_id: int, variant_id: int) -> VariantRecord | None:
        """The club's variant with this id, or None (also for another club's variant)."""
        with self._read() as s:
            row = s.get(ClubVariant, variant_id)
            return None if row is None or row.club_id != club_id else variant_record(row)

    # --- reading logs ---------------------------------------------------------------------------------
    def load(self, game_id: str) -> Game:
        """The game as its stored log folds (raises :class:`GameNotFound`)."""
        with self._read() as s:
            row = self.game_row(s, game_id)
            return self.folded(s, row)

    def events_since(self, game_id: str, seq: int = 0) -> list[tuple[int, Event]]:
        """The events numbered ``seq`` and later, as ``(seq, event)``: a client that holds events up to
        ``n - 1`` asks for ``events_since(game_id, n)``."""
        with self._read() as s:
            self.game_row(s, game_id)
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

    def log_since(self, game_id: str, seq: int) -> tuple[Event, ...]:
        """The events from ``seq`` on, as committed: how a process's sockets follow a game another process appends
        to. One statement on a plain connection, for the rows after what this process holds (then kept)."""
        with self._parsed_lock:
            known = self._parsed.get(game_id)
        start = len(known) if known is not None and seq <= len(known) else seq
        with self.read_one() as conn:
            rows = conn.execute(st.LOG_SINCE, {"game_id": game_id, "seq": start}).all()
        if any(n != start + i for i, (n, _) in enumerate(rows)):
            raise CorruptLog(f"game {game_id}: the events from {start} on are not contiguous")
        new = tuple(event_from_json(data) for _, data in rows)
        if known is None or start != len(known):
            return new
        events = known + new
        if new:
            self._remember(game_id, events)
        return events[seq:]

    def learn(self, game_id: str, first: int, events: Sequence[Event]) -> bool:
        """Events another process committed (sent with its signal): kept when they continue the log held here
        (then nothing is read for them), else dropped. A committed log only grows: what is kept is the log."""
        with self._parsed_lock:
            known = self._parsed.get(game_id)
            if known is None or first != len(known) or not events:
                return False
            self._parsed[game_id] = known + tuple(events)
            self._parsed.move_to_end(game_id)
        return True

    def timeline(self, game_id: str) -> list[tuple[int, Event, datetime]]:
        """The whole log as ``(seq, event, created_at)``: when each event was recorded (UTC)."""
        with self._read() as s:
            self.game_row(s, game_id)
            rows = s.execute(select(GameEvent.seq, GameEvent.data, GameEvent.created_at)
                             .where(GameEvent.game_id == game_id).order_by(GameEvent.seq))
            return [(n, event_from_json(data), as_utc(at)) for n, data, at in rows]

    def record(self, game_id: str, meta: dict[str, Any] | None = None) -> dict[str, Any]:
        """The game record (``docs/game-record.md``), with the game and club ids in its ``meta``."""
        with self._read() as s:
            row = self.game_row(s, game_id)
            game = self.folded(s, row)
            club_id = row.club_id
        return to_record(game, {"game_id": game_id, "club_id": club_id, **(meta or {})})

    # --- appending ------------------------------------------------------------------------------------
    def append(self, game_id: str, command: Command, *, expected_seq: int, command_id: str,
               rng: Rng | None = None, actor: int | None = None,
               rebase: Callable[[Sequence[Event]], bool] | None = None,
               check: Callable[[Connection], None] | None = None,
               after: Callable[[Game], Any] | None = None, feed_of: int | None = None,
               judge: Callable[[Game], Exception | None] | None = None) -> AppendResult:
        """Execute ``command`` on the stored game and append its events, in one transaction.

        - ``command_id`` already applied to this game: the first answer again, nothing applied
          (``st.replayed=True``);
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
        ``judge``: called under the write lock with the game as it stands, just before the command is executed
        (after a retry's first answer and a stale sequence are told); the exception it returns refuses the
        command with nothing written (who at the table may make it, where that depends on the game).
        """
        [out] = self.append_many(game_id, [Append(command, expected_seq, command_id, rng, actor, rebase, check,
                                                  feed_of, judge)], after=after)
        if isinstance(out, Exception):
            raise out
        return out

    def append_many(self, game_id: str, appends: Sequence[Append],
                    after: Callable[[Game], Any] | None = None) -> list[AppendResult | Exception]:
        """Each of ``appends`` in turn, as :meth:`append` would execute them one after another, in one
        transaction: one lock of the game's row, one fold, one insert of every event and one commit for a
        burst of commands of one game (a vote's hands raised at once). Each gets its own answer: its
        :class:`AppendResult`, or the exception that refused it (with nothing of it written; the others
        stand). A failure of the database itself refuses them all (it is raised). ``after`` as in
        :meth:`append`, with the game the last of them leaves."""
        for a in appends:
            if not a.command_id or len(a.command_id) > st.COMMAND_ID_MAX:
                raise ValueError(f"a command id is a non-empty string of at most {st.COMMAND_ID_MAX} characters")
        try:
            with self.write_conn() as s:
                # PostgreSQL: FOR NO KEY UPDATE makes appenders of one game wait for each other.
                # SQLite: BEGIN IMMEDIATE (the write session) has already taken the database's write lock.
                # Plain statements rather than ORM objects: this is the hot path of every host's action.
                head = s.execute(st.HEAD, {"game_id": game_id}).one_or_none()
                if head is None:
                    return [GameNotFound(game_id) for _ in appends]
                batch = Burst(self._take_folded, s, head)
                for a in appends:
                    batch.run(a)
                game = batch.game
                if batch.rows:
                    now = utcnow()
                    s.execute(st.INSERT_EVENTS, [{**row, "created_at": now} for row in batch.rows])
                    assert game is not None
                    s.execute(st.MOVE_HEAD, {"game_id": game_id, "new_next_seq": batch.next_seq,
                                           "new_status": st.status_of(game), "new_winner": game.winner,
                                           "new_result": game.result if game.over else None,
                                           "new_updated_at": now})
                    if game.over or head.status == "over":  # ended, or reopened or changed after its end
                        season_index.keep(s, game_id, game if game.over else None, now)
            if game is None:
                return batch.answers(batch.next_seq)
            if batch.rows:
                self._remember(game_id, tuple(game.log))  # committed: the next fold reads nothing of the log
            try:
                made = after(game) if after is not None and batch.rows else None
            finally:
                self._keep_folded(game_id, game)
            answers = batch.answers(batch.next_seq)
            if made is not None and isinstance(answers[-1], AppendResult):
                answers[-1] = dataclasses.replace(answers[-1], after=made)
            return answers
        except IntegrityError:
            # Lost a race that the lock did not prevent: the (game_id, seq) key or a command id is taken.
            pass
        if len(appends) > 1:  # each on its own, to tell which of them lost it
            return [out for a in appends for out in self.append_many(game_id, [a])]
        [a] = appends
        with self._read() as s:
            row = self.game_row(s, game_id)
            prior = st.seq_of_command(s, game_id, a.command_id)
            if prior is not None:
                return [st.replayed(s, game_id, row.next_seq, prior)]
            last = s.scalar(select(func.max(GameEvent.seq)).where(GameEvent.game_id == game_id))
            at = max(row.next_seq, -1 if last is None else last + 1)
        return [StaleSequence(game_id, a.expected_seq, at)]

    # --- helpers --------------------------------------------------------------------------------------
    game_row = staticmethod(st.game_row)

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
        """The game as folded by the last append here (then nobody else holds it: it is taken out of the cache
        until this append is committed), brought forward with the events appended since by another process, if
        any; else folded from the log."""
        with self._parsed_lock:
            game = self._writable.pop(row.id, None)
        if game is not None and len(game.log) == row.next_seq:
            return game
        if game is not None and len(game.log) < row.next_seq:
            # another process appended since (its players' sockets, its host): fold only what it added
            events = self._events(s, row)  # only the rows after what this process has parsed are read
            n = len(game.log)
            if n == 0 or events[n - 1] == game.log[-1]:  # a committed log only grows: a check of its joint
                game.fold_in(events[n:])
                return game
        return self.folded(s, row)

    def _keep_folded(self, game_id: str, game: Game) -> None:
        with self._parsed_lock:
            bounded(self._writable, [(game_id, game)], PARSED_GAMES)

    def folded(self, s: Session | Connection, row: Any) -> Game:
        """The game of ``row`` (a ``StoredGame``) as its log, read in ``s``, folds."""
        rules = RuleSet.from_options({**row.ruleset_options, "name": row.ruleset})
        return Game.from_events(rules, row.players, list(self._events(s, row)), row.names)

