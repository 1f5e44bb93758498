"""The storage layer: games as append-only event logs in SQLite (default) or PostgreSQL.

See ``docs/store.md``. The usual start::

    store = open_store()   # $SPORTMAFIA_DATABASE_URL, else ./var/sportmafia.db
    upgrade(store.engine)  # apply the shipped migrations
"""

from typing import Any

from .db import UNAVAILABLE_ERRORS, database_url, make_engine, unavailable
from .migrate import current_revision, head_revision, upgrade
from .models import USER_ROLES, Base, Club, ClubPlayer, GameEvent, StoredGame, User
from .records import (
    Append,
    AppendResult,
    ClubNotFound,
    CorrectionRecord,
    CorruptLog,
    GameLocked,
    GameNotFound,
    GameSummary,
    LoginTaken,
    RosterPlayer,
    StaleSequence,
    StoreError,
    UserRecord,
    VariantRecord,
    VariantTaken,
)
from .season_tables import GameIndex, PlayerMerge, RatingExclusion, Season, SeatIndex
from .store import Store

__all__ = [
    "UNAVAILABLE_ERRORS", "USER_ROLES", "Append", "AppendResult", "Base", "Club", "ClubNotFound", "ClubPlayer",
    "CorrectionRecord", "CorruptLog",
    "GameEvent", "GameIndex", "GameLocked", "GameNotFound", "GameSummary", "LoginTaken", "PlayerMerge", "RatingExclusion", "RosterPlayer", "Season", "SeatIndex", "StaleSequence",
    "Store", "StoreError", "StoredGame", "User", "UserRecord", "VariantRecord", "VariantTaken", "current_revision",
    "database_url", "head_revision", "make_engine", "open_store", "unavailable", "upgrade",
]


def open_store(url: str | None = None, *, migrate: bool = False, **engine_options: Any) -> Store:
    """A :class:`Store` on ``url``, else ``$SPORTMAFIA_DATABASE_URL``, else ``$SPORTMAFIA_DATA/sportmafia.db``
    (SQLite; the folder defaults to ``./var/`` and is created). ``migrate=True`` also runs
    :func:`~sportmafia.store.upgrade` first (the app does this on start)."""
    engine = make_engine(url, **engine_options)
    if migrate:
        upgrade(engine)
    return Store(engine)
