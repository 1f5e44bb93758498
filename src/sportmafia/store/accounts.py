"""Accounts' storage beyond creating a user: server-side login sessions, password changes, disabling a user,
and a club's list of users (docs/api.md, "Accounts and sessions").

A session's secret lives only in the browser's cookie; the web layer stores a keyed hash of it (``key``), so a
copy of the database opens no session. A session is live while it is not revoked, not expired, and its user
is not disabled; every check here reads what is committed, so a revocation made by any process is seen by the
next lookup of every process.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, select, update

from .models import LoginSession, User, as_utc, utcnow
from .records import UserRecord, user_record
from .store import Store

SESSIONS = cast(Table, LoginSession.__table__)
USERS = cast(Table, User.__table__)
REVOKED_KEPT = timedelta(days=1)
"""How long a revoked session's row is kept before it is purged (expired ones go at once)."""


@dataclass(frozen=True, slots=True)
class SessionRecord:
    key: str
    user_id: int
    csrf: str
    created_at: datetime
    last_seen: datetime
    expires_at: datetime
    user: UserRecord | None = None
    """The session's user as committed when the session was read (:func:`find_session`); None when made here."""


_USER_COLUMNS = (USERS.c.id.label("u_id"), USERS.c.club_id.label("u_club_id"), USERS.c.login.label("u_login"),
                 USERS.c.password_hash.label("u_password_hash"), USERS.c.role.label("u_role"),
                 USERS.c.created_at.label("u_created_at"), USERS.c.player_id.label("u_player_id"),
                 USERS.c.disabled_at.label("u_disabled_at"))
_FIND_SESSION = (select(SESSIONS.c.key, SESSIONS.c.user_id, SESSIONS.c.csrf, SESSIONS.c.created_at,
                        SESSIONS.c.last_seen, SESSIONS.c.expires_at, *_USER_COLUMNS)
                 .join(USERS, USERS.c.id == SESSIONS.c.user_id)
                 .where(SESSIONS.c.key == bindparam("key"), SESSIONS.c.revoked_at.is_(None),
                        SESSIONS.c.expires_at > bindparam("now"), USERS.c.disabled_at.is_(None)))
"""A live session with its user, in one indexed query (the session's primary key, the user's)."""


def _session(row: Any) -> SessionRecord:
    user = UserRecord(row.u_id, row.u_club_id, row.u_login, row.u_password_hash, row.u_role,
                      as_utc(row.u_created_at), row.u_player_id, as_utc(row.u_disabled_at))
    return SessionRecord(row.key, row.user_id, row.csrf, as_utc(row.created_at), as_utc(row.last_seen),
                         as_utc(row.expires_at), user)


def create_session(store: Store, key: str, user_id: int, csrf: str, lifetime: timedelta, *,
                   replaces: str | None = None, now: datetime | None = None) -> SessionRecord:
    """A new live session of ``user_id`` under ``key``; the session ``replaces`` (the browser's previous one)
    is revoked, and the rows of expired sessions and of sessions revoked over a day ago are purged."""
    now = now or utcnow()
    with store.write_conn() as conn:
        if replaces is not None:
            conn.execute(update(SESSIONS).where(SESSIONS.c.key == replaces, SESSIONS.c.revoked_at.is_(None))
                         .values(revoked_at=now))
        conn.execute(delete(SESSIONS).where((SESSIONS.c.expires_at <= now)
                                            | (SESSIONS.c.revoked_at <= now - REVOKED_KEPT)))
        conn.execute(SESSIONS.insert().values(key=key, user_id=user_id, csrf=csrf, created_at=now, last_seen=now,
                                              expires_at=now + lifetime, revoked_at=None))
    return SessionRecord(key, user_id, csrf, now, now, now + lifetime)


def find_session(store: Store, key: str, *, now: datetime | None = None) -> SessionRecord | None:
    """The live session with this key and its user as committed now, or None (unknown, revoked, expired, or its
    user disabled)."""
    with store.read_one() as conn:
        row = conn.execute(_FIND_SESSION, {"key": key, "now": now or utcnow()}).one_or_none()
    return None if row is None else _session(row)


def touch_session(store: Store, key: str, lifetime: timedelta, *, now: datetime | None = None) -> None:
    """Record that the session was used now: it expires ``lifetime`` after this use."""
    now = now or utcnow()
    with store.write_conn() as conn:
        conn.execute(update(SESSIONS).where(SESSIONS.c.key == key, SESSIONS.c.revoked_at.is_(None))
                     .values(last_seen=now, expires_at=now + lifetime))


def revoke_session(store: Store, key: str) -> None:
    with store.write_conn() as conn:
        conn.execute(update(SESSIONS).where(SESSIONS.c.key == key, SESSIONS.c.revoked_at.is_(None))
                     .values(revoked_at=utcnow()))


def revoke_user_sessions(store: Store, user_id: int, *, keep: str | None = None) -> list[str]:
    """Revoke every live session of the user but ``keep``; returns the keys revoked."""
    now = utcnow()
    where = [SESSIONS.c.user_id == user_id, SESSIONS.c.revoked_at.is_(None)]
    if keep is not None:
        where.append(SESSIONS.c.key != keep)
    with store.write_conn() as conn:
        keys = [str(k) for k in conn.scalars(select(SESSIONS.c.key).where(*where))]
        conn.execute(update(SESSIONS).where(*where).values(revoked_at=now))
    return keys


def live_sessions(store: Store, user_id: int) -> int:
    """How many live sessions the user has."""
    now = utcnow()
    with store.read_conn() as conn:
        keys = conn.scalars(select(SESSIONS.c.key).where(SESSIONS.c.user_id == user_id,
                                                         SESSIONS.c.revoked_at.is_(None),
                                                         SESSIONS.c.expires_at > now))
        return len(list(keys))


def set_password(store: Store, user_id: int, password_hash: str, *, keep_session: str | None) -> list[str]:
    """Store the user's new password hash and revoke all his sessions but ``keep_session`` (one transaction);
    returns the keys revoked."""
    now = utcnow()
    where = [SESSIONS.c.user_id == user_id, SESSIONS.c.revoked_at.is_(None)]
    if keep_session is not None:
        where.append(SESSIONS.c.key != keep_session)
    with store.write_conn() as conn:
        conn.execute(update(USERS).where(USERS.c.id == user_id).values(password_hash=password_hash))
        keys = [str(k) for k in conn.scalars(select(SESSIONS.c.key).where(*where))]
        conn.execute(update(SESSIONS).where(*where).values(revoked_at=now))
    store.forget_user(user_id)
    return keys


def set_disabled(store: Store, user_id: int, disabled: bool) -> list[str]:
    """Disable the user (and revoke all his sessions, in the same transaction) or enable him again; returns
    the keys revoked."""
    now = utcnow()
    keys: list[str] = []
    with store.write_conn() as conn:
        conn.execute(update(USERS).where(USERS.c.id == user_id).values(disabled_at=now if disabled else None))
        if disabled:
            where = [SESSIONS.c.user_id == user_id, SESSIONS.c.revoked_at.is_(None)]
            keys = [str(k) for k in conn.scalars(select(SESSIONS.c.key).where(*where))]
            conn.execute(update(SESSIONS).where(*where).values(revoked_at=now))
    store.forget_user(user_id)
    return keys


def club_users(store: Store, club_id: int) -> list[UserRecord]:
    """The club's users, by login."""
    with store.read_conn() as conn:
        rows = conn.execute(select(USERS.c.id, USERS.c.club_id, USERS.c.login, USERS.c.password_hash,
                                   USERS.c.role, USERS.c.created_at, USERS.c.player_id, USERS.c.disabled_at)
                            .where(USERS.c.club_id == club_id).order_by(USERS.c.login))
        return [user_record(row) for row in rows]


def user_by_id(store: Store, user_id: int) -> UserRecord | None:
    """The user's row as it is committed now (no kept copy)."""
    store.forget_user(user_id)
    return store.get_user(user_id)
