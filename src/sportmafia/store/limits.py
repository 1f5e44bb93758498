"""The rate limits' records when they are kept in the database (docs/security.md, "Rate limits"; migration 0012),
and this installation's id.

A record is a key (a keyed hash of what is counted: the web layer hashes it, so no address or login is stored)
and a short text (the limit's numbers, as JSON) with the moment it expires (seconds since the epoch). What a
record means, and every decision, is the web layer's (``web.limits``); here it is only read, and changed in
one transaction that holds every key it reads: on PostgreSQL under an advisory lock per key (taken in one
order, so two decisions never deadlock), on SQLite in the store's write transaction (``BEGIN IMMEDIATE``, one
writer at a time). Expired rows are pruned.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from sqlalchemy import Connection, bindparam, delete, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from .models import InstallationFact, RateLimit
from .store import Store

R = TypeVar("R")
Write = tuple[str, float] | None
"""A record's new text and the moment it expires; None: delete it."""
Change = Callable[[list[str | None]], tuple[Mapping[str, Write], R]]
"""Given the records' texts (None: no record), the records to write (the keys it leaves out stay as they are)
and the decision."""

_READ = select(RateLimit.key, RateLimit.value, RateLimit.expires_at).where(
    RateLimit.key.in_(bindparam("keys", expanding=True)))
_LOCK = text("SELECT pg_advisory_xact_lock(:k)")


def lock_number(key: str) -> int:
    """A signed 64-bit number for ``key`` (a PostgreSQL advisory lock's key)."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)


def lock_keys(conn: Connection, keys: Sequence[str]) -> None:
    """Hold ``keys`` to the end of the transaction: on PostgreSQL an advisory lock per key, in one order; on
    SQLite nothing (its write transaction already excludes every other writer)."""
    if conn.dialect.name != "postgresql":
        return
    for number in sorted({lock_number(k) for k in keys}):
        conn.execute(_LOCK, {"k": number})


def _texts(conn: Connection, keys: Sequence[str], now: float) -> list[str | None]:
    found = {row.key: row.value for row in conn.execute(_READ, {"keys": list(keys)}) if row.expires_at > now}
    return [found.get(k) for k in keys]


def read_records(store: Store, keys: Sequence[str], now: float) -> list[str | None]:
    """The records' texts (None where there is none, or it expired before ``now``), read in one statement."""
    with store.read_conn() as conn:
        return _texts(conn, keys, now)


def update_records(store: Store, keys: Sequence[str], change: Change[R], now: float,
                   prune: bool = False) -> R:
    """Read the records of ``keys``, apply ``change`` and write what it returns, all in one transaction that
    holds the keys; with ``prune``, delete every expired record too. The decision's result."""
    with store.write_conn() as conn:
        lock_keys(conn, keys)
        writes, result = change(_texts(conn, keys, now))
        for key, write in writes.items():
            if write is None:
                conn.execute(delete(RateLimit).where(RateLimit.key == key))
                continue
            value, expires_at = write
            done = conn.execute(update(RateLimit).where(RateLimit.key == key).values(
                value=value, expires_at=expires_at))
            if not done.rowcount:
                conn.execute(insert(RateLimit).values(key=key, value=value, expires_at=expires_at))
        if prune:
            conn.execute(delete(RateLimit).where(RateLimit.expires_at <= now))
        return result


def count_records(store: Store, keys: Sequence[str]) -> int:
    """How many of ``keys`` have a record (expired ones not yet pruned included)."""
    with store.read_conn() as conn:
        return len(conn.execute(select(RateLimit.key).where(RateLimit.key.in_(list(keys)))).all())


# --- this installation --------------------------------------------------------------------------------------
_INSTALLATION_IDS: weakref.WeakKeyDictionary[Store, str] = weakref.WeakKeyDictionary()
_IDS_LOCK = threading.Lock()


def installation_id(store: Store) -> str:
    """This installation's id: 32 random hex digits made once (by migration 0012, or here on first use) and kept
    in the database, so that every process on it has the same one and another installation another. Read once
    per store. Keys an installation keeps outside its database (Redis) start with it."""
    with _IDS_LOCK:
        known = _INSTALLATION_IDS.get(store)
    if known is not None:
        return known
    query = select(InstallationFact.value).where(InstallationFact.name == "id")
    with store.read_conn() as conn:
        found = conn.execute(query).scalar_one_or_none()
    if found is None:
        try:
            with store.write_conn() as conn:
                conn.execute(insert(InstallationFact).values(name="id", value=secrets.token_hex(16)))
        except IntegrityError:
            pass  # another process made it first
        with store.read_conn() as conn:
            found = conn.execute(query).scalar_one()
    with _IDS_LOCK:
        _INSTALLATION_IDS[store] = found
    return found
