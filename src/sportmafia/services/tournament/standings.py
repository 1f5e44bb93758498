"""A tournament's standings over the accepted sheets, the final's, its end, a player's page and the archive."""

from __future__ import annotations

from typing import Any

from ...i18n import msg
from ...store import UserRecord
from ...store import bans as ban_db
from ...store import tournaments as db
from ...store.tournaments import TournamentRecord
from ...tournament.final import final_standings
from ...tournament.groups import TournamentError
from ...tournament.results import GameResult
from ...tournament.scoring import ScoringSystem, score_game
from ...tournament.standings import Row, Sanction, standings
from ..discipline import ban_json, offence_json
from ..errors import conflict, refusal_from
from .as_json import iso, link_json, participant_json, sanction_json, tournament_correction_json, tournament_json
from .base import TournamentBase
from .sheets import Sheets

SANCTION_SCOPES = {"round": "round", "tournament": "tournament", "disqualification": "ban"}
"""A stored sanction's kind -> the standings' scope (a removal from the tournament and a disqualification
both take the participant out of the places)."""


class Standings(Sheets):
    """The standings, the tournament's end and what is read of it as a whole."""

    def accepted_results(self, t: TournamentRecord, stage: str = "main") -> list[GameResult]:
        out: list[GameResult] = []
        for g in db.games(self.store, t.id, stage):
            if g.accepted_at is not None:
                sheet = self.link_sheet(g)
                assert sheet.result is not None
                out.append(sheet.result)
        return out

    def _sanctions(self, t: TournamentRecord) -> list[Sanction]:
        return [Sanction(str(s.participant_id), SANCTION_SCOPES[s.kind], s.reason)
                for s in db.sanctions(self.store, t.id)]

    def standings(self, t: TournamentRecord) -> list[Row]:
        """The main stage's standings over the accepted sheets."""
        system = ScoringSystem.from_json(t.scoring)
        ids = [str(p.id) for p in db.participants(self.store, t.id)]
        return standings(self.accepted_results(t), system, t.tie_breaks, sanctions=self._sanctions(t),
                         participants=ids)

    def final_standings(self, t: TournamentRecord) -> list[Row]:
        if t.finalists is None:
            raise conflict("no-final", msg("The finalists are not chosen yet."))
        system = ScoringSystem.from_json(t.scoring)
        final_games = db.games(self.store, t.id, "final")
        results = self.accepted_results(t, "final")
        rounds = int((t.final_seating or {}).get("rounds", 0))
        complete = bool(final_games) and len(results) == len(final_games) and \
            len({g.round for g in final_games}) == rounds
        try:
            return final_standings(self.standings(t), results, system, bool(t.final_settings["carry_over"]),
                                   t.tie_breaks, [str(p) for p in t.finalists],
                                   int(t.final_settings["games_each"]) if complete else None)
        except TournamentError as exc:
            raise refusal_from(exc, "bad-final", "conflict") from None

    def finish(self, user: UserRecord, t: TournamentRecord) -> TournamentRecord:
        self.require_judge(user, t)
        games = db.games(self.store, t.id)
        if not games or any(g.accepted_at is None for g in games):
            raise conflict("pending-sheets", msg("Every game's sheet must be accepted first."))
        return db.update_tournament(self.store, t.id, status="finished")

    def player_games(self, t: TournamentRecord, participant_id: int) -> dict[str, Any]:
        """A participant's games: round, table, seat and the game's state; the role, team, winner and
        points only of games whose sheets are accepted (never of a game in progress)."""
        p = self.participant(t, participant_id)
        system = ScoringSystem.from_json(t.scoring)
        games = []
        for g in db.games(self.store, t.id):
            if p.id not in g.seats:
                continue
            entry: dict[str, Any] = {"game_id": g.game_id, "stage": g.stage, "round": g.round, "table": g.table,
                                     "seat": g.seats.index(p.id) + 1, "accepted": g.accepted_at is not None}
            if g.accepted_at is not None:
                result = self.link_sheet(g).result
                assert result is not None
                me = result.player(str(p.id))
                score = score_game(result, system)[str(p.id)]
                entry.update(role=me.role, team=me.team, winner=result.winner, result=result.result,
                             points=score.points, fouls=me.fouls, removed=me.removed)
            games.append(entry)
        return {"participant": participant_json(p), "games": games}

    # --- exports ------------------------------------------------------------------------------------
    def archive(self, t: TournamentRecord) -> dict[str, Any]:
        """Everything about the tournament: settings, participants, staff, seating plans, sanctions, and
        every game's record with its sheet, corrections and acceptance."""
        games = []
        for g in db.games(self.store, t.id):
            sheet = self.link_sheet(g)
            games.append({**link_json(g), "status": sheet.status,
                          "signed_at": iso(sheet.signed_at), "signed_by": sheet.signed_by,
                          "corrections": [tournament_correction_json(c) for c in sheet.corrections],
                          "sheet": None if sheet.result is None else sheet.result.to_json(),
                          "record": self.store.record(g.game_id, {"tournament_id": t.id, "stage": g.stage,
                                                                  "round": g.round, "table": g.table})})
        return {"format": "sportmafia-tournament", "version": 1, "tournament": tournament_json(t),
                "participants": [participant_json(p) for p in db.participants(self.store, t.id)],
                "staff": [{"user_id": s.user_id, "login": s.login, "role": s.role} for s in db.staff(self.store, t.id)],
                "seating": t.seating, "final_seating": t.final_seating, "finalists": t.finalists,
                "sanctions": [sanction_json(s) for s in db.sanctions(self.store, t.id)], **_discipline_archive(self, t),
                "games": games}


def _discipline_archive(svc: TournamentBase, t: TournamentRecord) -> dict[str, Any]:
    """The judge's offence records, the bans this tournament entered and its registrations despite a ban."""
    return {"offences": [offence_json(r) for r in ban_db.offences(svc.store, t.id)],
            "bans": [ban_json(b) for b in ban_db.bans(svc.store, t.club_id) if b.tournament_id == t.id],
            "ban_overrides": [{"ban_id": o.ban_id, "nickname": o.nickname, "reason": o.reason, "by": o.user_id,
                               "created_at": iso(o.created_at)} for o in ban_db.overrides(svc.store, t.id)]}
