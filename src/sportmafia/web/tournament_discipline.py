"""Sanctions across a tournament and the club's bans (B.sanctions; docs/tournament.md, "Sanctions across
games" and "Bans"): each participant's offences with their history and the step due, the judge's records
and confirmations, and the club's list of banned players.

- ``GET /api/tournaments/{id}/offences`` (the tournament's judge): the ladders and every participant's
  offences (game, round, table, what, the step applied, the step due, by whom).
- ``POST /api/tournaments/{id}/offences`` (judge): ``{participant_id, offence, reason, game_id?, round?}``.
- ``GET /api/tournaments/{id}/bans`` (judge): the club's bans and this tournament's overrides.
- ``GET /api/bans`` / ``POST /api/bans`` / ``POST /api/bans/{ban_id}/lift`` (the club's admins and judges).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import Field, StringConstraints

from ..i18n import msg
from ..services.discipline import Discipline, ban_json, entry_json
from ..store import UserRecord
from ..store import bans as ban_db
from ..tournament.offences import LADDERS
from .auth import StoreDep, UserDep
from .edge import Id, path_id
from .errors import ApiError
from .schemas import Body
from .tournaments import TournamentContext

router = APIRouter(tags=["tournaments"])

TournamentId = Annotated[int, path_id("The tournament's id.")]
BanId = Annotated[int, path_id("The ban's id.")]
Reason = Annotated[str, StringConstraints(strip_whitespace=True, max_length=1000)]
Nick = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]


class OffenceIn(Body):
    """An offence of the sanctions table: the tournament picks the step (the next due for the participant);
    with ``game_id``, the confirmation of the step due for that game's offence."""

    participant_id: Id
    offence: str = Field(max_length=32)
    reason: Reason
    game_id: str | None = Field(default=None, max_length=64)
    round: int | None = Field(default=None, ge=1, le=100)


class BanIn(Body):
    nickname: Nick | None = None
    user_id: Id | None = None
    tournament_id: Id | None = None
    reason: Reason


class LiftIn(Body):
    reason: Reason


def _club_judge(user: UserRecord) -> None:
    if user.role not in ("admin", "judge"):
        raise ApiError(403, "forbidden", msg("Only a judge or an admin of the club keeps the list of bans."))


def _reason(reason: str) -> str:
    if not reason:
        raise ApiError(422, "reason-required", msg("A reason is required."), clause="B.sanctions")
    return reason


@router.get("/api/tournaments/{tournament_id}/offences", summary="Each participant's offences and the steps due")
def get_offences(tournament_id: TournamentId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    c.svc.require_judge(user, c.t)
    names = c.names()
    hist = Discipline(c.svc).history(c.t)
    logins: dict[int, str] = {}
    for uid in {e.offence.by for es in hist.values() for e in es if e.offence.by is not None}:
        found = store.get_user(uid)
        if found is not None:
            logins[uid] = found.login
    participants: list[dict[str, Any]] = [{"participant_id": pid, "nickname": nick,
                     "offences": [entry_json(e, logins) for e in hist.get(str(pid), [])]}
                    for pid, nick in names.items()]
    return {"ladders": {k: {"steps": [s.step for s in v.steps], "confirm": [s.confirm for s in v.steps],
                            "per_game": v.per_game, "seed": v.seed} for k, v in LADDERS.items()},
            "participants": participants,
            "pending": sum(1 for es in hist.values() for e in es if e.pending)}


@router.post("/api/tournaments/{tournament_id}/offences", status_code=201,
             summary="Record an offence (the step due applies) or confirm the step due for a game's offence")
def post_offence(tournament_id: TournamentId, body: OffenceIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    out: dict[str, Any] = Discipline(c.svc).record(user, c.t, body.participant_id, body.offence, body.reason,
                                                   game_id=body.game_id, round_=body.round)
    return out


@router.get("/api/tournaments/{tournament_id}/bans", summary="The club's bans, for the tournament's judge")
def tournament_bans(tournament_id: TournamentId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    c.svc.require_judge(user, c.t)
    return {"bans": [ban_json(b) for b in ban_db.bans(store, c.t.club_id)],
            "overrides": [{"ban_id": o.ban_id, "nickname": o.nickname, "reason": o.reason, "by": o.user_id,
                           "created_at": o.created_at.isoformat()} for o in ban_db.overrides(store, c.t.id)]}


@router.get("/api/bans", summary="The club's banned players")
def get_bans(user: UserDep, store: StoreDep) -> dict[str, Any]:
    _club_judge(user)
    return {"bans": [ban_json(b) for b in ban_db.bans(store, user.club_id)]}


@router.post("/api/bans", status_code=201, summary="Ban a player from the club's later tournaments")
def post_ban(body: BanIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    _club_judge(user)
    reason = _reason(body.reason)
    if body.nickname is None and body.user_id is None:
        raise ApiError(422, "bad-ban", msg("A ban names a nickname or a user."))
    if body.user_id is not None:
        other = store.get_user(body.user_id)
        if other is None or other.club_id != user.club_id:
            raise ApiError(422, "bad-ban", msg("User %(user)s is not a user of the club.", user=body.user_id))
    if body.tournament_id is not None:
        TournamentContext(store, user, body.tournament_id)  # of the club, else 404
    ban = ban_db.add_ban(store, user.club_id, reason, user.id, nickname=body.nickname, user_id=body.user_id,
                         tournament_id=body.tournament_id)
    return ban_json(ban)


@router.post("/api/bans/{ban_id}/lift", summary="Lift a ban, with a reason")
def lift_ban(ban_id: BanId, body: LiftIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    _club_judge(user)
    ban = ban_db.lift_ban(store, user.club_id, ban_id, _reason(body.reason), user.id)
    if ban is None:
        raise ApiError(404, "not-found", msg("The club has no such ban in force."))
    return ban_json(ban)
