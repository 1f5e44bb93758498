"""Store tests run the same functions on SQLite (a temp file) and on PostgreSQL.

PostgreSQL: ``$SPORTMAFIA_TEST_POSTGRES_URL`` or ``postgresql+psycopg://postgres@127.0.0.1:5432/test``. Each
test gets a schema of its own (made fresh, dropped afterwards), so runs never collide. When the server
cannot be reached the PostgreSQL cases are skipped with the reason, except when ``CI`` is "true": there
they fail, so that CI never passes without having run them.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from sportmafia.store import Store, open_store

from .templates import migrated_sqlite, postgres_pool

PG_ENV = "SPORTMAFIA_TEST_POSTGRES_URL"
PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
BACKENDS = ("sqlite", "postgresql")

_pg_state: dict[str, str | None] = {}


def pg_url() -> str:
    return os.environ.get(PG_ENV) or PG_DEFAULT


def _spaces_as_percent(url: str) -> str:
    """``url`` with the spaces of its query written ``%20``: SQLAlchemy writes them ``+``, which libpq (psql,
    pg_dump, psycopg given the URL) keeps as a plus (SQLAlchemy writes a real plus ``%2B``)."""
    head, mark, query = url.partition("?")
    return head + mark + query.replace("+", "%20")


def _libpq_dsn(url: str) -> str:
    return _spaces_as_percent(make_url(url).set(drivername="postgresql").render_as_string(hide_password=False))


def pg_unreachable() -> str | None:
    """None when PostgreSQL answers, else why not (asked once per run)."""
    if "reason" not in _pg_state:
        try:
            with psycopg.connect(_libpq_dsn(pg_url()), connect_timeout=3) as conn:
                conn.execute("SELECT 1")
            _pg_state["reason"] = None
        except Exception as exc:
            detail = " ".join(str(exc).split())
            _pg_state["reason"] = f"PostgreSQL at {pg_url()} cannot be reached ({type(exc).__name__}: {detail})"
    return _pg_state["reason"]


def pytest_report_header() -> str:
    reason = pg_unreachable()
    return f"store backends: sqlite, postgresql ({'reachable' if reason is None else reason})"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    reason = _pg_state.get("reason")
    if reason:
        terminalreporter.write_line(f"store tests: PostgreSQL cases not run: {reason}", yellow=True)


def _require_pg() -> None:
    reason = pg_unreachable()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: the PostgreSQL store tests must run)", pytrace=False)
    pytest.skip(reason)


@contextmanager
def database(backend: str, folder: Path) -> Iterator[str]:
    """The URL of an empty database: a SQLite file in ``folder``, or a fresh PostgreSQL schema (dropped
    afterwards; skipped when PostgreSQL cannot be reached, failing under CI=true)."""
    if backend == "sqlite":
        yield f"sqlite:///{folder / 'store.db'}"
        return
    _require_pg()
    schema = f"sm_test_{uuid.uuid4().hex[:12]}"
    dsn = _libpq_dsn(pg_url())
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield _schema_url(schema)
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@contextmanager
def migrated_database(backend: str, folder: Path) -> Iterator[str]:
    """The URL of a database on ``backend`` as the migrations leave an empty one (tests/store/templates.py: a
    copy of a migrated SQLite file, a PostgreSQL schema migrated once and emptied after each test)."""
    if backend == "sqlite":
        with migrated_sqlite(folder) as url:
            yield url
        return
    _require_pg()
    pool = postgres_pool(_libpq_dsn(pg_url()), _schema_url)
    with pool.lend() as url:
        yield url


def _schema_url(schema: str) -> str:
    """The URL of a test's schema. Its commits do not wait for the WAL to reach the disk
    (``synchronous_commit=off``): a commit is still atomic, isolated and seen at once by every connection, and
    only a crash of PostgreSQL itself or of the machine could lose the last ones, which no test does."""
    options = f"-csearch_path={schema} -csynchronous_commit=off"
    return _spaces_as_percent(make_url(pg_url()).update_query_dict({"options": options}).render_as_string(
        hide_password=False))


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a database on each backend: empty, or already migrated when the test also asks for ``store``
    (the store's own database)."""
    made = migrated_database if "store" in request.fixturenames else database
    with made(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """A migrated store on each backend."""
    s = open_store(db_url)
    try:
        yield s
    finally:
        s.close()


@contextmanager
def another_thread_writing(store: Store, timeout: float = 10.0) -> Iterator[None]:
    """Another thread of this process inside a write transaction of ``store`` until the block ends."""
    inside, release = threading.Event(), threading.Event()

    def hold() -> None:
        with store.write_conn():
            inside.set()
            release.wait(timeout)
    thread = threading.Thread(target=hold)
    thread.start()
    assert inside.wait(5)
    try:
        yield
    finally:
        release.set()
        thread.join(timeout)
