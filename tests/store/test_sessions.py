"""Server-side sessions in the store (store/accounts.py), on SQLite and PostgreSQL: a session is live until
revoked, expired, or its user is disabled; a password change revokes the user's other sessions; expired rows
are purged when someone logs in."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from sportmafia.store import Store, open_store
from sportmafia.store import accounts as db
from sportmafia.store.models import LoginSession, utcnow

DAY = timedelta(days=1)


def _rows(store: Store) -> int:
    with store.read() as s:
        return int(s.scalar(select(func.count()).select_from(LoginSession)) or 0)


def test_sessions_live_revoked_expired_and_purged(store: Store, db_url: str) -> None:
    club = store.create_club("Club")
    user = store.create_user(club, "host1", "$argon2id$fake", "host")
    other = store.create_user(club, "host2", "$argon2id$fake", "host")
    a = db.create_session(store, "a" * 64, user.id, "csrf-a", 14 * DAY)
    db.create_session(store, "b" * 64, user.id, "csrf-b", 14 * DAY)
    db.create_session(store, "c" * 64, other.id, "csrf-c", 14 * DAY)
    found = db.find_session(store, a.key)
    assert found is not None and (found.user_id, found.csrf) == (user.id, "csrf-a")
    assert db.find_session(store, "x" * 64) is None
    # another process (another store on the database) sees a revocation at once
    with open_store(db_url) as second:
        db.revoke_session(second, a.key)
    assert db.find_session(store, a.key) is None
    # a new login of the same browser revokes the session it replaces
    d = db.create_session(store, "d" * 64, user.id, "csrf-d", 14 * DAY, replaces="b" * 64)
    assert db.find_session(store, "b" * 64) is None and db.find_session(store, d.key) is not None
    # a password change: every session of the user but the one kept
    e = db.create_session(store, "e" * 64, user.id, "csrf-e", 14 * DAY)
    revoked = db.set_password(store, user.id, "$argon2id$new", keep_session=e.key)
    assert revoked == [d.key]
    assert db.find_session(store, e.key) is not None and db.find_session(store, d.key) is None
    assert store.get_user(user.id).password_hash == "$argon2id$new"  # type: ignore[union-attr]
    assert db.find_session(store, "c" * 64) is not None  # another user's session is untouched
    # disabling: every session ends, and none is live while disabled
    assert db.set_disabled(store, other.id, True) == ["c" * 64]
    assert db.find_session(store, "c" * 64) is None
    assert store.get_user(other.id).disabled_at is not None  # type: ignore[union-attr]
    assert [u.login for u in db.club_users(store, club)] == ["host1", "host2"]
    db.set_disabled(store, other.id, False)
    assert store.get_user(other.id).disabled_at is None  # type: ignore[union-attr]
    assert db.find_session(store, "c" * 64) is None  # enabling again does not bring sessions back
    # expiry, and its sliding on use
    now = utcnow()
    db.create_session(store, "f" * 64, user.id, "csrf-f", timedelta(seconds=60), now=now - timedelta(seconds=50))
    assert db.find_session(store, "f" * 64, now=now) is not None
    assert db.find_session(store, "f" * 64, now=now + timedelta(seconds=11)) is None
    db.touch_session(store, "f" * 64, timedelta(seconds=60), now=now)
    assert db.find_session(store, "f" * 64, now=now + timedelta(seconds=59)) is not None
    assert db.live_sessions(store, user.id) == 2  # e and f
    # purged on the next login: expired rows at once, revoked ones a day after their revocation
    before = _rows(store)
    db.create_session(store, "g" * 64, user.id, "csrf-g", 14 * DAY, now=now + timedelta(seconds=61))
    assert _rows(store) == before  # f (expired) went, g came; the revoked rows stay for a day
    db.create_session(store, "h" * 64, user.id, "csrf-h", 14 * DAY, now=now + DAY + timedelta(seconds=61))
    assert _rows(store) == 3  # e, g, h: every revoked row is over a day old now
