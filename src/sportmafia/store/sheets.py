"""Result sheets in the store (B.sheet; migration 0003): a game's signature (``games.signed_at``/``signed_by``)
and the judge's corrections (``sheet_corrections``), each with its reason and the changes' old values.

Persistence only: what a sheet shows, whether it may be signed, and which corrections it allows is decided in
:mod:`sportmafia.services.sheets`, inside the transaction it opens with :meth:`Store.write` (so that a
correction is checked against the sheet as it stands while no other correction of the game is written).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..engine import Game
from .models import SheetCorrection, User, as_utc, utcnow
from .records import CorrectionRecord, GameSummary, game_summary
from .store import Store


@dataclass(frozen=True, slots=True)
class StoredSheet:
    """What the store holds of a game's result sheet: the game's row, and (when asked) the game its log folds
    to, the signer's login and the corrections in the order they were made."""

    game: GameSummary
    played: Game | None = None
    signed_by_login: str | None = None
    corrections: tuple[CorrectionRecord, ...] = ()


def stored_sheet(store: Store, s: Session, game_id: str, *, lock: bool = False, whole: bool = True) -> StoredSheet:
    """The game's sheet as stored, read in ``s`` (raises ``GameNotFound``). ``lock``: the game's row is locked
    (waits for a running append of the game; a writer of the game's sheet waits for this transaction).
    ``whole``: also the folded game, the signer and the corrections (of a finished game only)."""
    row = store.game_row(s, game_id, lock=lock)
    summary = game_summary(row)
    if not whole or row.status != "over":
        return StoredSheet(summary)
    signer = None if row.signed_by is None else s.get(User, row.signed_by)
    return StoredSheet(summary, store.folded(s, row), signer.login if signer else None,
                       tuple(corrections_in(s, game_id)))


def club_login(s: Session, game: GameSummary, user_id: int) -> str:
    """The login of the user ``user_id``, who must be of the game's club (else ``ValueError``)."""
    user = s.get(User, user_id)
    if user is None or user.club_id != game.club_id:
        raise ValueError(f"user {user_id} is not of the club of game {game.id}")
    return user.login


def mark_signed(store: Store, s: Session, game_id: str, user_id: int) -> GameSummary:
    """Record the signature (now, by ``user_id``): from now on :meth:`Store.append` refuses the game."""
    row = store.game_row(s, game_id)
    row.signed_at = utcnow()
    row.signed_by = user_id
    s.flush()
    return game_summary(row)


def add_correction(s: Session, game_id: str, user_id: int, login: str, reason: str,
                   changes: Sequence[dict[str, Any]]) -> CorrectionRecord:
    """Record a correction (its changes already checked, with their old values)."""
    record = SheetCorrection(game_id=game_id, user_id=user_id, reason=reason, changes=list(changes),
                             created_at=utcnow())
    s.add(record)
    s.flush()
    return CorrectionRecord(record.id, game_id, user_id, login, record.reason, tuple(record.changes),
                            as_utc(record.created_at))


def corrections_in(s: Session, game_id: str) -> list[CorrectionRecord]:
    """The game's corrections, oldest first, with the logins of their authors."""
    rows = s.execute(select(SheetCorrection, User.login).join(User, User.id == SheetCorrection.user_id)
                     .where(SheetCorrection.game_id == game_id)
                     .order_by(SheetCorrection.id)).all()
    return [CorrectionRecord(c.id, c.game_id, c.user_id, login, c.reason, tuple(c.changes), as_utc(c.created_at))
            for c, login in rows]


def corrections(store: Store, game_id: str) -> list[CorrectionRecord]:
    """The game's corrections, oldest first (raises ``GameNotFound``)."""
    with store.read() as s:
        store.game_row(s, game_id)
        return corrections_in(s, game_id)
