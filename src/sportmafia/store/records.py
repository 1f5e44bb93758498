"""What the store hands out: its errors and the records of its rows (frozen dataclasses, never ORM objects),
with the functions that make a record of a row."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select

from ..engine import Command, Event, Rng
from .models import ClubVariant, User, as_utc


class StoreError(Exception):
    """Base of the store's own errors."""


class GameNotFound(StoreError, LookupError):
    """No game with this id."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game with id {game_id!r}")
        self.game_id = game_id


class ClubNotFound(StoreError, LookupError):
    """No club with this id."""

    def __init__(self, club_id: int) -> None:
        super().__init__(f"no club with id {club_id!r}")
        self.club_id = club_id


class StaleSequence(StoreError):
    """The game has moved on: the command was written against ``expected`` but the log is at
    ``next_seq`` (another device got there first). Nothing was written; reload and decide again."""

    def __init__(self, game_id: str, expected: int, next_seq: int) -> None:
        super().__init__(f"game {game_id}: expected seq {expected}, but the log is at {next_seq}")
        self.game_id = game_id
        self.expected = expected
        self.next_seq = next_seq


class LoginTaken(StoreError):
    """Another user already has this login."""

    def __init__(self, login: str) -> None:
        super().__init__(f"the login {login!r} is taken")
        self.login = login


class VariantTaken(StoreError):
    """The club already has a variant with this name."""

    def __init__(self, name: str) -> None:
        super().__init__(f"the variant name {name!r} is taken")
        self.name = name


class CorruptLog(StoreError):
    """The stored log does not hang together (a gap in ``seq``, or ``next_seq`` that disagrees)."""


class GameLocked(StoreError):
    """The game's result sheet is signed (B.sheet): the game takes no more commands. Nothing was written."""

    def __init__(self, game_id: str, signed_at: datetime) -> None:
        super().__init__(f"game {game_id} is locked: its result sheet was signed at {signed_at.isoformat()}")
        self.game_id = game_id
        self.signed_at = signed_at


@dataclass(frozen=True, slots=True)
class Append:
    """One command to append to a game, with what :meth:`Store.append` takes beside it (its arguments of the
    same names), for :meth:`Store.append_many`."""

    command: Command
    expected_seq: int
    command_id: str
    rng: Rng | None = None
    actor: int | None = None
    rebase: Callable[[Sequence[Event]], bool] | None = None
    check: Callable[[Any], None] | None = None
    feed_of: int | None = None
    judge: Callable[[Any], Exception | None] | None = None


@dataclass(frozen=True, slots=True)
class AppendResult:
    """What an append wrote (or, when ``replayed``, what the first try with this command id wrote).

    ``events`` have the seqs ``first_seq .. next_seq - 1``. ``head_seq`` is the game's next seq now: equal to
    ``next_seq``, unless this is a replayed answer and the game has moved on since. ``after``: what the
    append's ``after`` callable made of the game as committed (None when not asked, and for a replay).
    """

    events: tuple[Event, ...]
    first_seq: int
    next_seq: int
    head_seq: int
    replayed: bool = False
    after: Any = None

    def numbered(self) -> list[tuple[int, Event]]:
        return list(enumerate(self.events, self.first_seq))


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game's row, without its log."""

    id: str
    club_id: int
    ruleset: str
    players: int
    names: tuple[str, ...]
    status: str
    winner: str | None
    result: str | None
    next_seq: int
    created_at: datetime
    updated_at: datetime
    signed_at: datetime | None = None
    """When the result sheet was signed (the game is locked since), or None."""
    signed_by: int | None = None
    """The id of the user who signed it."""


@dataclass(frozen=True, slots=True)
class CorrectionRecord:
    """A stored correction of a result sheet: who, when, why, and each change with its old value."""

    id: int
    game_id: str
    user_id: int
    login: str
    reason: str
    changes: tuple[dict[str, Any], ...]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class UserRecord:
    """A user's row. ``password_hash`` is what the web layer stored (argon2); never a password."""

    id: int
    club_id: int
    login: str
    password_hash: str
    role: str
    created_at: datetime
    player_id: int | None = None
    """The club roster player this account is (``users.player_id``), or None."""
    disabled_at: datetime | None = None
    """When an admin disabled the account (store/accounts.py); None while it is enabled."""


@dataclass(frozen=True, slots=True)
class RosterPlayer:
    """A name on a club's roster."""

    id: int
    club_id: int
    name: str


@dataclass(frozen=True, slots=True)
class VariantRecord:
    """A club's saved rule set: ``options`` are a whole ``RuleSet.options()``."""

    id: int
    club_id: int
    name: str
    options: dict[str, Any]
    created_at: datetime


def variant_record(row: ClubVariant) -> VariantRecord:
    return VariantRecord(row.id, row.club_id, row.name, dict(row.options), as_utc(row.created_at))


USER_BY_ID = select(User.id, User.club_id, User.login, User.password_hash, User.role, User.created_at,
                    User.player_id, User.disabled_at).where(User.id == bindparam("user_id"))
"""A user's row by id (the columns of :func:`user_record`), built once."""


def user_record(row: Any) -> UserRecord:
    """A ``User``, or a row of ``USER_BY_ID``, as a record."""
    return UserRecord(row.id, row.club_id, row.login, row.password_hash, row.role, as_utc(row.created_at),
                      row.player_id, as_utc(row.disabled_at))


def game_summary(row: Any) -> GameSummary:
    """A ``StoredGame``, or a row of the store's summary statement, as a summary."""
    return GameSummary(row.id, row.club_id, row.ruleset, row.players, tuple(row.names), row.status, row.winner,
                       row.result, row.next_seq, as_utc(row.created_at), as_utc(row.updated_at),
                       as_utc(row.signed_at), row.signed_by)
