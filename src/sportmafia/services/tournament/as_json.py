"""The tournament service's records as JSON: the API's answers and the archive."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from ...store import CorrectionRecord
from ...store.tournaments import ParticipantRecord, SanctionRecord, TournamentGameRecord, TournamentRecord
from ...tournament.standings import Row
from ..sheets import Sheet
from .settings import table_sizes


def iso(moment: datetime | date | None) -> str | None:
    return None if moment is None else moment.isoformat()


def tournament_json(t: TournamentRecord) -> dict[str, Any]:
    return {"id": t.id, "club_id": t.club_id, "name": t.name, "starts_on": iso(t.starts_on),
            "ends_on": iso(t.ends_on), "ruleset": t.ruleset, "ruleset_options": t.ruleset_options,
            "table_sizes": list(table_sizes(t)), "scoring": t.scoring, "tie_breaks": list(t.tie_breaks),
            "final": t.final_settings, "status": t.status, "published": t.published,
            "seating_constraints": t.seating_constraints,
            "rounds": None if t.seating is None else t.seating["rounds"],
            "finalists": None if t.finalists is None else list(t.finalists),
            "created_at": iso(t.created_at), "updated_at": iso(t.updated_at)}


def participant_json(p: ParticipantRecord) -> dict[str, Any]:
    return {"id": p.id, "nickname": p.nickname, "club": p.club, "team": p.team, "user_id": p.user_id,
            "status": p.status}


def link_json(g: TournamentGameRecord) -> dict[str, Any]:
    return {"game_id": g.game_id, "stage": g.stage, "round": g.round, "table": g.table, "host_id": g.host_id,
            "seats": list(g.seats), "accepted_at": iso(g.accepted_at), "accepted_by": g.accepted_by}


def sanction_json(s: SanctionRecord) -> dict[str, Any]:
    return {"id": s.id, "participant_id": s.participant_id, "kind": s.kind, "round": s.round, "reason": s.reason,
            "by": s.user_id, "created_at": iso(s.created_at)}


def tournament_sheet_json(sheet: Sheet, names: Mapping[int, str]) -> dict[str, Any]:
    """A sheet for the judge: seat, nickname, role, team, fouls, removal; the winner; every correction."""
    assert sheet.link is not None, "a tournament's sheet has its link"
    out: dict[str, Any] = {**link_json(sheet.link), "status": sheet.status, "signed_at": iso(sheet.signed_at),
                           "signed_by": sheet.signed_by, "sheet": None}
    r = sheet.result
    if r is not None:
        out["sheet"] = {
            "winner": r.winner, "result": r.result, "table_size": r.table_size, "first_killed": r.first_killed,
            "best_move_black": r.best_move_black,
            "players": [{"seat": p.seat, "participant_id": int(p.participant),
                         "nickname": names.get(int(p.participant), p.name), "role": p.role, "team": p.team,
                         "fouls": p.fouls, "warnings": p.warnings, "removed": p.removed,
                         "removal_reason": p.removal_reason} for p in r.players],
            "corrections": [{"reason": c.reason, "by": c.by, "changes": dict(c.changes)} for c in r.corrections]}
    out["corrections"] = [tournament_correction_json(c) for c in sheet.corrections]
    return out


def tournament_correction_json(c: CorrectionRecord) -> dict[str, Any]:
    """A correction as the tournament's clients read it: the judge's desk (its inbox and sheets, ``login``) and
    the tournament's archive, a file users keep (``user_id``, ``login``, ``created_at``). Not the shape of the
    game's own sheet page and API (:func:`sportmafia.services.sheets.correction_json`: ``by``, ``at``, documented
    in docs/api.md); one shape for both would change one of those clients or the archive's files."""
    return {"id": c.id, "user_id": c.user_id, "login": c.login, "reason": c.reason, "changes": list(c.changes),
            "created_at": iso(c.created_at)}


def row_json(row: Row, names: Mapping[int, str]) -> dict[str, Any]:
    pid = int(row.participant)
    return {"place": row.place, "participant_id": pid, "nickname": names.get(pid, row.participant),
            "points": row.points, "games": row.games, "wins": row.wins,
            "wins_by_role": dict(row.wins_by_role), "extra_points": row.extra_points, "penalties": row.penalties,
            "carried": row.carried, "disqualified": row.disqualified, "top_three": row.top_three,
            "place_to": row.last_place, "prize_tie": row.prize_tie,
            "sanctions": [{"scope": s.scope, "reason": s.reason, "game_id": s.game_id or None}
                          for s in row.sanctions]}
