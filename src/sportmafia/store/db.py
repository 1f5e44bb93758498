"""Where the database is and how to connect to it."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.pool import ConnectionPoolEntry

URL_ENV = "SPORTMAFIA_DATABASE_URL"
DATA_ENV = "SPORTMAFIA_DATA"
SYNC_ENV = "SPORTMAFIA_SQLITE_SYNC"
DEFAULT_DATA = "./var/"
SQLITE_FILE = "sportmafia.db"
BUSY_TIMEOUT_MS = 15_000
"""How long a SQLite writer waits for another writer's transaction before giving up."""

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
    folder.mkdir(parents=True, exist_ok=True)
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
        engine = create_engine(parsed, **kwargs)
        _configure_sqlite(engine, memory=parsed.database in (None, "", ":memory:"))
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    return create_engine(parsed, **kwargs)


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
