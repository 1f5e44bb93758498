"""What every part of the tournament service needs: the store, the stored tournament, who may act as its
judge, its participants and its games' sheets."""

from __future__ import annotations

import dataclasses

from ...i18n import msg
from ...store import Store, UserRecord
from ...store import tournaments as db
from ...store.tournaments import ParticipantRecord, TournamentGameRecord, TournamentNotFound, TournamentRecord
from .. import sheets
from ..errors import Refusal
from ..sheets import Sheet


class TournamentBase:
    """The judge's and hosts' operations on the tournaments of ``store``: the parts of the service
    (:class:`~sportmafia.services.tournament.TournamentService`) each add theirs."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, tournament_id: int, club_id: int | None = None) -> TournamentRecord:
        """The tournament; "not found" also when it is another club's (``club_id``)."""
        try:
            t = db.tournament(self.store, tournament_id)
        except TournamentNotFound:
            raise Refusal("not-found", "not-found", msg("No such tournament.")) from None
        if club_id is not None and t.club_id != club_id:
            raise Refusal("not-found", "not-found", msg("No such tournament."))
        return t

    def is_judge(self, user: UserRecord, t: TournamentRecord) -> bool:
        """An admin or judge of the club, or a judge of this tournament."""
        if user.club_id != t.club_id:
            return False
        if user.role in ("admin", "judge"):
            return True
        return any(s.user_id == user.id and s.role == "judge" for s in db.staff(self.store, t.id))

    def require_judge(self, user: UserRecord, t: TournamentRecord) -> None:
        if not self.is_judge(user, t):
            raise Refusal("forbidden", "forbidden", msg("Only the tournament's judge or the club's admin may do this."))

    def participant(self, t: TournamentRecord, participant_id: int) -> ParticipantRecord:
        for p in db.participants(self.store, t.id):
            if p.id == participant_id:
                return p
        raise Refusal("not-found", "not-found", msg("No such participant in this tournament."))

    def link_sheet(self, link: TournamentGameRecord) -> Sheet:
        """The sheet of a tournament's game (:func:`sportmafia.services.sheets.sheet`: the game's result, every
        correction applied, once the game is over) with the tournament's participant ids in place of the seats'
        names, and the game's ``link``."""
        summary = self.store.game(link.game_id)
        if summary.status != "over":
            return Sheet(summary, None, link=link)
        stored = sheets.sheet(self.store, link.game_id)
        ids = {seat: str(pid) for seat, pid in enumerate(link.seats, 1)}
        result = stored.final()
        players = tuple(dataclasses.replace(p, participant=ids[p.seat]) for p in result.players)
        return dataclasses.replace(stored, result=dataclasses.replace(result, players=players), link=link)
