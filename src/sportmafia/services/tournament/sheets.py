"""A tournament's result sheets: the judge's inbox of signed sheets, their corrections and acceptance, and the
sanctions he records beyond a game."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from ...i18n import msg, pmsg
from ...store import UserRecord
from ...store import tournaments as db
from ...store.tournaments import AlreadyAccepted, SanctionRecord, TournamentRecord
from .. import sheets as game_sheets
from ..discipline import Discipline
from ..errors import Refusal, conflict, invalid
from ..sheets import Sheet
from .base import TournamentBase

_NOT_SIGNED = msg("The host has not signed this game's sheet yet.")


class Sheets(TournamentBase):
    """The judge's desk: the sheets of the tournament's games, their acceptance, corrections and sanctions."""

    def sheet(self, t: TournamentRecord, game_id: str) -> Sheet:
        link = db.game(self.store, game_id)
        if link is None or link.tournament_id != t.id:
            raise Refusal("not-found", "not-found", msg("No such game in this tournament."))
        return self.link_sheet(link)

    def inbox(self, user: UserRecord, t: TournamentRecord) -> list[Sheet]:
        """The signed games of the tournament whose sheets are not accepted yet, oldest signature first."""
        self.require_judge(user, t)
        sheets = [self.link_sheet(g) for g in db.games(self.store, t.id) if g.accepted_at is None]
        signed = [s for s in sheets if s.signed_at is not None]
        return sorted(signed, key=lambda s: s.signed_at or datetime.min.replace(tzinfo=UTC))

    def accept(self, user: UserRecord, t: TournamentRecord, game_id: str) -> Sheet:
        self.require_judge(user, t)
        sheet = self.sheet(t, game_id)
        if sheet.signed_at is None or sheet.result is None:
            raise conflict("not-signed", _NOT_SIGNED)
        try:
            link = db.accept(self.store, game_id, user.id)
        except AlreadyAccepted:
            raise conflict("accepted", msg("This sheet is accepted already.")) from None
        # a removal from the tournament (or a ban) on the sheet takes the participant out of later seating
        for p in sheet.result.players:
            status = {"tournament": "removed-from-tournament", "ban": "disqualified"}.get(p.removed or "")
            if status is not None:
                db.set_participant_status(self.store, t.id, int(p.participant), status)
        Discipline(self).after_accept(user, t, game_id)  # bans on the sheet; steps due by repetition
        return dataclasses.replace(sheet, link=link)

    def correct(self, user: UserRecord, t: TournamentRecord, game_id: str, reason: str,
                changes: Sequence[Mapping[str, Any]]) -> Sheet:
        """The judge's correction of a signed sheet (before it is accepted), with its reason."""
        self.require_judge(user, t)
        if not reason or not reason.strip():
            raise invalid("reason-required", pmsg("tournament sheet", "A correction needs a reason."))
        sheet = self.sheet(t, game_id)
        assert sheet.link is not None
        if sheet.link.accepted_at is not None:
            raise conflict("accepted", msg("This sheet is accepted already; it is not corrected any more."))
        if sheet.signed_at is None or sheet.result is None:
            raise conflict("not-signed", _NOT_SIGNED)
        game_sheets.correct(self.store, game_id, user.id, reason, [dict(c) for c in changes])  # SheetRefused: B.sheet
        return self.sheet(t, game_id)

    # --- sanctions ----------------------------------------------------------------------------------
    def add_sanction(self, user: UserRecord, t: TournamentRecord, participant_id: int, kind: str, reason: str,
                     round_: int | None = None) -> SanctionRecord:
        self.require_judge(user, t)
        self.participant(t, participant_id)
        if not reason or not reason.strip():
            raise invalid("reason-required", msg("A sanction needs a reason."))
        if kind == "round":
            rounds = int((t.seating or {}).get("rounds", 0))
            if round_ is None or not 1 <= round_ <= max(rounds, 1):
                raise invalid("bad-sanction", msg("A removal from a round names the round."))
        elif round_ is not None:
            raise invalid("bad-sanction", msg("Only a removal from a round names a round."))
        return db.add_sanction(self.store, t.id, participant_id, kind, reason.strip(), user.id, round_)
