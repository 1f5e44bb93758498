"""Where the database is and how to connect to it."""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import orjson
from sqlalchemy import Engine, create_engine, event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL, make_url
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

URL_ENV = "SPORTMAFIA_DATABASE_URL"
DATA_ENV = "SPORTMAFIA_DATA"
SYNC_ENV = "SPORTMAFIA_SQLITE_SYNC"
DEFAULT_DATA = "./var/"
SQLITE_FILE = "sportmafia.db"
BUSY_TIMEOUT_MS = 15_000
"""How long a SQLite writer waits for another writer's transaction before giving up."""
CONNECT_TIMEOUT = 5
"""Seconds a new PostgreSQL connection may take (libpq's ``connect_timeout``, unless the URL sets one): a server
that does not answer refuses a request within this time instead of holding it for the system's TCP timeout."""

POOL_SIZE = 15
"""PostgreSQL connections a process keeps open. Under load a process uses a dozen at once (appends, the sockets'
reads, the sessions); with fewer kept (SQLAlchemy's default of 5), every use past them opened a connection and
closed it again (8 a second at 100 online tables, each a server process forked by PostgreSQL: bench/cluster.py)."""
POOL_OVERFLOW = 10
"""Connections a process may open beyond ``POOL_SIZE`` at a peak (closed again when given back)."""

CHECKPOINT_SECONDS = 1.0
"""How often a store's own thread copies SQLite's write-ahead log into the database file (see Checkpointer)."""

log = logging.getLogger("sportmafia.store")
K = TypeVar("K")
V = TypeVar("V")

IMMEDIATE = "sportmafia_sqlite_immediate"
"""Execution option: on SQLite, begin the transaction with ``BEGIN IMMEDIATE`` (take the write lock first)."""


def database_url(url: str | None = None) -> str:
    """The database to use: ``url``, else ``$SPORTMAFIA_DATABASE_URL``, else the SQLite file
    ``sportmafia.db`` in ``$SPORTMAFIA_DATA`` (default ``./var/``, created if missing)."""
    if url:
        return url
    env = os.environ.get(URL_ENV)
    if env:
        return env
    folder = Path(os.environ.get(DATA_ENV) or DEFAULT_DATA).expanduser()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return f"sqlite:///{(folder / SQLITE_FILE).resolve()}"


def sqlite_sync() -> str:
    """SQLite's ``synchronous`` setting: ``$SPORTMAFIA_SQLITE_SYNC`` (``normal`` or ``full``), default ``normal``.

    In WAL mode ``normal`` syncs the WAL at checkpoints rather than on every commit: the file never corrupts,
    and a crash or SIGKILL of the server loses nothing committed; a power cut or a crash of the operating system
    may lose the last commits. ``full`` waits for the disk on every commit (one fsync per append: ~4 ms here,
    20 ms at the 99th percentile under load, which the console benchmark's p99 could not afford). Where a power
    cut must not lose an acknowledged action, use ``full`` or PostgreSQL."""
    value = os.environ.get(SYNC_ENV, "normal").strip().lower()
    if value not in ("normal", "full"):
        raise ValueError(f"{SYNC_ENV} is 'normal' or 'full', not {value!r}")
    return value.upper()


def normalize_url(url: str | URL) -> URL:
    """``postgresql://`` and ``postgres://`` URLs use psycopg 3 (the driver this package installs)."""
    if isinstance(url, str) and url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    parsed = make_url(url)
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def make_engine(url: str | URL | None = None, **kwargs: Any) -> Engine:
    """An engine for ``url`` (see :func:`database_url`). SQLite files run in WAL mode with foreign keys
    on and a busy timeout, and SQLAlchemy (not the sqlite3 module) emits ``BEGIN``, so that reads are
    transactional and writers can take the lock first."""
    parsed = normalize_url(url if url is not None else database_url())
    if parsed.get_backend_name() == "sqlite":
        memory = parsed.database in (None, "", ":memory:") or str(parsed.database).startswith("file:")
        if not memory:
            private_file(Path(str(parsed.database)))
        # JSON columns read with orjson (several times faster than the json module: a player's page parses each of
        # his seats' facts, bench/seasons.py); written as before
        kwargs.setdefault("json_deserializer", orjson.loads)
        engine = create_engine(parsed, **kwargs)
        _configure_sqlite(engine, memory=parsed.database in (None, "", ":memory:"))
        return engine
    # pre_ping: a pooled connection that a restart of the server left dead is found (and replaced) before a
    # request's statement uses it; it costs one round trip per checkout (docs/store.md, "When the database goes
    # away")
    kwargs.setdefault("pool_pre_ping", True)
    kwargs.setdefault("pool_size", POOL_SIZE)
    kwargs.setdefault("max_overflow", POOL_OVERFLOW)
    kwargs.setdefault("json_deserializer", orjson.loads)
    if "connect_timeout" not in parsed.query:
        kwargs["connect_args"] = {"connect_timeout": CONNECT_TIMEOUT, **kwargs.get("connect_args", {})}
    return create_engine(parsed, **kwargs)


UNAVAILABLE_ERRORS: tuple[type[Exception], ...] = (sa_exc.DBAPIError, sa_exc.TimeoutError)
"""The exceptions among which :func:`unavailable` finds the database's absence (for a handler to catch)."""


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database is not answering (stopped, restarting, unreachable, a connection it
    dropped, every pooled connection busy past the pool's timeout, SQLite's write lock held past its busy
    timeout): the same request may succeed in a few seconds (a command sent again with its id is applied at
    most once, whether or not the failed attempt's commit reached the server). A refused statement (a
    constraint, a syntax error, a missing table) is not that."""
    if isinstance(exc, sa_exc.TimeoutError):
        return True
    if not isinstance(exc, sa_exc.DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    if not isinstance(exc, sa_exc.OperationalError | sa_exc.InterfaceError):
        return False
    if isinstance(exc.orig, sqlite3.Error):
        text = str(exc.orig)
        return "locked" in text or "busy" in text
    return True


def private_file(path: Path) -> None:
    """Make the SQLite file ``path``, when it does not exist yet, readable by its owner only (mode 0600) before
    SQLite opens it: SQLite gives its ``-wal`` and ``-shm`` files the database file's mode, so they are private
    too. An existing file keeps the mode it has; a missing folder is left to SQLite's own error (the default
    folder, ``$SPORTMAFIA_DATA``, is made by ``database_url`` with mode 0700). See docs/deploy.md, "Files"."""
    if not path.parent.is_dir():
        return
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _set_wal(cursor: Any) -> None:
    """Switch the database to WAL. SQLite answers "database is locked" at once, without waiting on the busy
    timeout, when another connection holds the file while a new database changes its journal mode (two
    processes starting at once): try again until the busy timeout has passed."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _configure_sqlite(engine: Engine, memory: bool) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        dbapi_connection.isolation_level = None  # sqlite3 emits no BEGIN of its own; see _on_begin
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            if not memory:
                _set_wal(cursor)
                cursor.execute(f"PRAGMA synchronous={sqlite_sync()}")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        immediate = conn.get_execution_options().get(IMMEDIATE, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def sqlite_file(engine: Engine) -> bool:
    """Whether ``engine`` is a SQLite database in a file (not in memory)."""
    return engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:")


def _no_autocheckpoint(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA wal_autocheckpoint=0")
    finally:
        cursor.close()


class Checkpointer:
    """SQLite's checkpoints (copying the write-ahead log into the database file, and the file's fsync) in a
    thread of their own, every ``every`` seconds, instead of in whichever commit crossed SQLite's 1,000-page
    mark. That commit is often an append made on the web app's event loop, which then waited 10 to 20 ms for
    the disk (two fsyncs) with every socket of the process behind it (bench/online.py). A passive checkpoint
    takes no lock that writers or readers wait for. The connections of ``engine`` made from now on check
    nothing in themselves (``wal_autocheckpoint=0``); the pool's older ones are closed. ``stop()`` ends the
    thread after one last checkpoint."""

    def __init__(self, engine: Engine, every: float | None = None) -> None:
        self.engine = engine
        self.every = CHECKPOINT_SECONDS if every is None else every
        self.runs = 0
        self.last: tuple[int, int, int] | None = None
        """The last checkpoint's answer: (1 if it could not start, frames in the log, frames copied)."""
        event.listen(engine, "connect", _no_autocheckpoint)
        engine.dispose()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sportmafia-checkpoint", daemon=True)
        self._thread.start()

    def checkpoint(self, mode: str = "PASSIVE") -> tuple[int, int, int]:
        """One checkpoint now (``PASSIVE``: as far as the readers let it, waiting for nobody)."""
        if mode not in ("PASSIVE", "FULL", "RESTART", "TRUNCATE"):
            raise ValueError(mode)
        raw = self.engine.raw_connection()
        try:
            cursor = raw.cursor()
            try:
                cursor.execute(f"PRAGMA wal_checkpoint({mode})")
                row: Any = cursor.fetchone()
                busy, frames, copied = row
            finally:
                cursor.close()
        finally:
            raw.close()
        self.runs += 1
        self.last = (int(busy), int(frames), int(copied))
        return self.last

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.checkpoint()
            except Exception as exc:  # the next period tries again; the log only grows meanwhile
                log.warning("store: a SQLite checkpoint failed: %s", exc)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        try:
            self.checkpoint()
        except Exception as exc:
            log.warning("store: the last SQLite checkpoint failed: %s", exc)


def bounded(cache: OrderedDict[K, V], items: Sequence[tuple[K, V]], bound: int) -> None:
    """Put ``items`` last in ``cache`` and drop its oldest entries beyond ``bound`` (under the caller's lock)."""
    for key, value in items:
        cache[key] = value
        cache.move_to_end(key)
    while len(cache) > bound:
        cache.popitem(last=False)


class QueuedWriter:
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
