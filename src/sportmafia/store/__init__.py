"""The storage layer: games as append-only event logs in SQLite (default) or PostgreSQL.

See ``docs/store.md``. The usual start::

    store = open_store()   # $SPORTMAFIA_DATABASE_URL, else ./var/sportmafia.db
    upgrade(store.engine)  # apply the shipped migrations
"""

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
from .store import Store, open_store

__all__ = [
    "UNAVAILABLE_ERRORS", "USER_ROLES", "Append", "AppendResult", "Base", "Club", "ClubNotFound", "ClubPlayer",
    "CorrectionRecord", "CorruptLog",
    "GameEvent", "GameIndex", "GameLocked", "GameNotFound", "GameSummary", "LoginTaken", "PlayerMerge", "RatingExclusion", "RosterPlayer", "Season", "SeatIndex", "StaleSequence",
    "Store", "StoreError", "StoredGame", "User", "UserRecord", "VariantRecord", "VariantTaken", "current_revision",
    "database_url", "head_revision", "make_engine", "open_store", "unavailable", "upgrade",
]
