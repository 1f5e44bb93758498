"""How a process uses its PostgreSQL connections under load (docs/deploy.md, "PostgreSQL"): the connections it
keeps, and the reads of one statement that take no transaction of their own."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from psycopg.pq import TransactionStatus
from sqlalchemy import event, text

from sportmafia.store import Store
from sportmafia.store.accounts import create_session, find_session

# PostgreSQL's pool and transactions: the store fixture of conftest.py on that backend only
on_postgresql = pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)


def _backends_at_once(store: Store, n: int) -> set[int]:
    """The server processes (backend pids) of ``n`` connections held at the same time, then given back."""
    pids: list[int] = []
    barrier = threading.Barrier(n)

    def use() -> None:
        with store.read_conn() as conn:
            pids.append(int(conn.scalar(text("SELECT pg_backend_pid()"))))
            barrier.wait(10)  # every connection is out of the pool at once
    threads = [threading.Thread(target=use) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert len(pids) == n
    return set(pids)


@on_postgresql
def test_a_process_keeps_the_connections_a_loaded_evening_uses_at_once(store: Store) -> None:
    """A dozen requests at once (appends, the sockets' reads, the sessions: bench/cluster.py at 100 tables) take a
    dozen connections; given back, they stay open for the next dozen. With SQLAlchemy's default pool of 5, the
    seven beyond it were closed on their return and opened again the next time: eight new PostgreSQL server
    processes a second at 100 online tables."""
    at_once = 12
    first = _backends_at_once(store, at_once)
    second = _backends_at_once(store, at_once)
    assert second == first, f"{len(second - first)} of {at_once} connections were opened again"


@on_postgresql
def test_a_read_of_one_statement_takes_no_transaction_of_its_own(store: Store) -> None:
    """The reads every request or socket makes (a session, a game's head, its log since a number, its live links)
    are one statement each: they run in autocommit, one round trip, not BEGIN, the statement and COMMIT."""
    key = "k" * 64
    user = store.create_user(store.create_club("Club"), "host", "x", "host")
    create_session(store, key, user.id, "c" * 32, timedelta(hours=1))
    statuses: list[Any] = []

    def seen(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "sessions" in statement:
            statuses.append(conn.connection.dbapi_connection.info.transaction_status)
    event.listen(store.engine, "after_cursor_execute", seen)
    try:
        assert find_session(store, key) is not None
    finally:
        event.remove(store.engine, "after_cursor_execute", seen)
    # autocommit: no transaction left open by the statement (in a transaction block, it would be INTRANS)
    assert statuses == [TransactionStatus.IDLE], statuses
