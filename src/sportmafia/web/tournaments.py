"""Tournaments: the judge's API (settings, participants, staff, seating, rounds, the inbox of signed sheets,
acceptance and corrections, sanctions, standings, the final, exports) under ``/api/tournaments``, and the
public standings under ``/api/public/tournaments`` (only for a published tournament, without login).

A user sees only his own club's tournaments (any other is "not found"); changes are for the club's admins
and judges and the tournament's own judges (403 for anyone else); every user of the club reads. See
docs/tournament.md, "The API".
"""

from __future__ import annotations

import json
from datetime import date
from typing import Annotated, Any, Literal

from fastapi import APIRouter, File, Path, Query, UploadFile
from fastapi.responses import Response
from pydantic import Field, StringConstraints

from ..i18n import msg
from ..services.announced import rule_change_json
from ..services.tournament import (
    TournamentService,
    link_json,
    parse_csv,
    parse_pasted,
    participant_json,
    row_json,
    sanction_json,
    tournament_json,
    tournament_sheet_json,
)
from ..services.tournament.seating import seating_words
from ..store import Store, UserRecord
from ..store import tournaments as db
from ..store.tournaments import NewParticipant, TournamentRecord
from .access import game_access, require_judge
from .auth import StoreDep, UserDep
from .edge import MAX_ID, Id, check_cells, path_id
from .errors import ApiError
from .schemas import Body
from .security import MAX_UPLOAD

api = APIRouter(prefix="/api/tournaments", tags=["tournaments"])
public = APIRouter(prefix="/api/public/tournaments", tags=["public standings"])

TournamentId = Annotated[int, path_id("The tournament's id.")]
ParticipantId = Annotated[int, path_id("The participant's id.")]
GameId = Annotated[str, Path(max_length=64, description="The game's id (a UUID).")]
RoundNo = Annotated[int, Path(ge=1, le=100, description="The round, from 1.")]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Nick = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]
Reason = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=1000)]
MAX_FILE = MAX_UPLOAD
MAX_PARTICIPANTS = 1000
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class FinalIn(Body):
    finalists: int | None = Field(default=None, ge=1, le=200)
    games_each: int | None = Field(default=None, ge=1, le=20)
    carry_over: bool | None = None


class TournamentIn(Body):
    """A new tournament: name, dates, the rule set (a preset or the club's saved variant, with changed
    options), the scoring system (``"regulation"``, ``"fiim"`` or ``{"base": ..., "table"?: {role: {outcome:
    points}}, <numbers>...}``), the tie-break order and the final's settings."""

    name: Text
    starts_on: date | None = None
    ends_on: date | None = None
    preset: Literal["tournament", "club", "fiim"] | None = "tournament"
    variant: Id | None = None
    options: dict[str, Any] | None = None
    scoring: str | dict[str, Any] = "regulation"
    tie_breaks: list[str] | None = Field(default=None, max_length=10)
    final: FinalIn | None = None


class TournamentPatch(Body):
    name: Text | None = None
    starts_on: date | None = None
    ends_on: date | None = None
    preset: Literal["tournament", "club", "fiim"] | None = None
    variant: Id | None = None
    options: dict[str, Any] | None = None
    scoring: str | dict[str, Any] | None = None
    tie_breaks: list[str] | None = Field(default=None, max_length=10)
    final: FinalIn | None = None
    published: bool | None = None
    reason: Reason | None = None
    """Why the scoring, tie-breaks or final's settings change after round 1 (B.announce: required then)."""


class ParticipantIn(Body):
    nickname: Nick
    club: Annotated[str, StringConstraints(strip_whitespace=True, max_length=200)] | None = None
    team: Annotated[str, StringConstraints(strip_whitespace=True, max_length=200)] | None = None
    user_id: Id | None = None


class ParticipantsIn(Body):
    """Participants typed one by one (``participants``), or a pasted list, one nickname a line (``text``)."""

    participants: list[ParticipantIn] | None = Field(default=None, max_length=MAX_PARTICIPANTS)
    text: str | None = Field(default=None, max_length=MAX_FILE)
    ban_override: Reason | None = None
    """The judge's reason for registering a player the club has banned (else such a player is refused)."""


class StaffMember(Body):
    user_id: Id
    role: Literal["host", "judge"]


class StaffIn(Body):
    staff: list[StaffMember] = Field(max_length=200)


_APART_BY_DEFAULT: tuple[Literal["team", "club"], ...] = ("team",)
"""Who the seating keeps apart unless the judge says otherwise: teammates."""


class SeatingIn(Body):
    """Generate the seating: ``rounds``; the hosts of the tables (``hosts``: the same every round;
    ``round_hosts``: round -> hosts); ``absent``: participant id -> rounds missed; ``pinned``: participant
    id -> table (from 1); ``apart_by``: ``team`` and/or ``club``; ``apart``: groups of participant ids kept
    apart; ``games_per_player`` (fewer games than rounds); ``seed``; ``steps`` (the search's length)."""

    rounds: int = Field(ge=1, le=100)
    seed: int = Field(default=1, ge=0, le=MAX_ID)
    hosts: list[Id] = Field(default_factory=list, max_length=100)
    round_hosts: dict[int, list[Id]] = Field(default_factory=dict)
    absent: dict[int, list[Id]] = Field(default_factory=dict)
    pinned: dict[int, int] = Field(default_factory=dict)
    apart_by: list[Literal["team", "club"]] = Field(default_factory=lambda: list(_APART_BY_DEFAULT))
    apart: list[list[Id]] = Field(default_factory=list, max_length=200)
    games_per_player: int | None = Field(default=None, ge=1, le=100)
    steps: int | None = Field(default=None, ge=1000, le=5_000_000)


class RegenerateIn(Body):
    """Regenerate the rounds not opened yet; ``preview``: only show the plan and who moves where, save nothing;
    ``mode``: ``balance`` (seated anew for the best balance) or ``fewest`` (the published rounds mended with the
    fewest moves)."""

    seed: int = Field(default=1, ge=0, le=MAX_ID)
    steps: int | None = Field(default=None, ge=1000, le=5_000_000)
    preview: bool = False
    mode: Literal["balance", "fewest"] = "balance"


class AtMostIn(Body):
    players: list[Id] = Field(min_length=2, max_length=2)
    times: int = Field(ge=0, le=100)


class HostConflictIn(Body):
    host: Id
    club: Annotated[str, StringConstraints(max_length=64)] | None = None
    players: list[Id] = Field(default_factory=list, max_length=500)


class ConstraintsIn(Body):
    """The seating constraints (docs/tournament.md, "Seating constraints"): pairs that ``never`` meet, pairs
    that meet ``at_most`` k times, groups kept apart as far as possible (``keep_apart``, ``keep_apart_by``
    club or team), hosts' conflicts, ``ratings`` (participant id -> rating) and the ``tolerance`` of the
    tables' rating sums, ``seat_wishes`` (participant id -> the seats from 1 he may take) where the regulation
    allows them (``seat_wishes_allowed``), ``sit_out`` (participant id -> the rounds from 1 he misses)."""

    never: list[Annotated[list[Id], Field(min_length=2, max_length=2)]] = Field(default_factory=list, max_length=500)
    at_most: list[AtMostIn] = Field(default_factory=list, max_length=500)
    keep_apart: list[Annotated[list[Id], Field(max_length=500)]] = Field(default_factory=list, max_length=200)
    keep_apart_by: list[Literal["team", "club"]] = Field(default_factory=list, max_length=2)
    host_conflicts: list[HostConflictIn] = Field(default_factory=list, max_length=200)
    ratings: dict[Id, float] = Field(default_factory=dict, max_length=1000)
    tolerance: float | None = Field(default=None, ge=0, le=1e9)
    seat_wishes: dict[Id, Annotated[list[int], Field(min_length=1, max_length=30)]] = Field(default_factory=dict,
                                                                                          max_length=1000)
    seat_wishes_allowed: bool = False
    sit_out: dict[Id, Annotated[list[int], Field(min_length=1, max_length=100)]] = Field(default_factory=dict,
                                                                                     max_length=1000)


class OpenRoundIn(Body):
    hosts: list[Id] | None = Field(default=None, max_length=100)


class ChangeIn(Body):
    field: Literal["winner", "result", "first_killed", "best_move_black",
                   "role", "fouls", "removed", "removal_reason", "warnings"]
    seat: int | None = Field(default=None, ge=1, le=30)
    new: Annotated[str, StringConstraints(max_length=200)] | int | None


class CorrectionIn(Body):
    """A correction of a signed sheet: the reason (required) and the changes (``docs/api.md``, sheets)."""

    reason: str = Field(max_length=1000)
    changes: list[ChangeIn] = Field(min_length=1, max_length=40)


class SanctionIn(Body):
    """A sanction beyond a game (B.sanctions): ``round`` (removal from that round), ``tournament`` (removal
    from the tournament) or ``disqualification``, with the reason."""

    participant_id: Id
    kind: Literal["round", "tournament", "disqualification"]
    round: int | None = Field(default=None, ge=1, le=100)
    reason: str = Field(max_length=1000)


class FinalStartIn(Body):
    k: int | None = Field(default=None, ge=1, le=200)
    include_ties: bool = False
    tie_pick: list[Id] = Field(default_factory=list, max_length=200)
    """When the cut's place is shared: the participants of that place the judge lets through."""
    seed: int = Field(default=1, ge=0, le=MAX_ID)
    hosts: list[Id] = Field(default_factory=list, max_length=100)
    steps: int | None = Field(default=None, ge=1000, le=5_000_000)


# --- helpers -----------------------------------------------------------------------------------------------

class TournamentContext:
    """The service, the tournament (of the user's club) and the user."""

    def __init__(self, store: Store, user: UserRecord, tournament_id: int) -> None:
        self.svc = TournamentService(store)
        self.user = user
        self.t = self.svc.get(tournament_id, user.club_id)  # a refusal is answered by web.errors

    def names(self) -> dict[int, str]:
        return {p.id: p.nickname for p in db.participants(self.svc.store, self.t.id)}


def _detail(svc: TournamentService, t: TournamentRecord, user: UserRecord | None) -> dict[str, Any]:
    out = tournament_json(t)
    out["participants"] = [participant_json(p) for p in db.participants(svc.store, t.id)]
    out["staff"] = [{"user_id": s.user_id, "login": s.login, "role": s.role} for s in db.staff(svc.store, t.id)]
    out["sanctions"] = [sanction_json(s) for s in db.sanctions(svc.store, t.id)]
    out["games"] = [link_json(g) for g in db.games(svc.store, t.id)]
    out["rule_changes"] = [rule_change_json(r) for r in db.rule_changes(svc.store, t.id)]
    out["table_plan"] = svc.table_plan(t)
    if user is not None:
        out["can_judge"] = svc.is_judge(user, t)
    return out


def _seating_json(doc: dict[str, Any] | None, names: dict[int, str]) -> dict[str, Any] | None:
    if doc is None:
        return None
    ids: list[int] = doc["participants"]
    rounds: dict[int, list[dict[str, Any]]] = {}
    for g in doc["games"]:
        seats = [ids[i] for i in g["seats"]]
        rounds.setdefault(g["round"] + 1, []).append(
            {"table": g["table"] + 1, "seats": seats, "names": [names.get(p, str(p)) for p in seats]})
    hosts = doc.get("hosts", {})
    return {"rounds": doc["rounds"], "table_sizes": doc["table"], "quality": doc.get("quality", {}),
            "words": seating_words(doc), "seed": doc.get("request", {}).get("seed"),
            "request": doc.get("request", {}), "participants": ids,
            "plan": [{"round": r, "hosts": hosts.get(str(r), []),
                      "sitting_out": sorted(set(ids) - {p for t in tables for p in t["seats"]}),
                      "tables": sorted(tables, key=lambda t: t["table"])} for r, tables in sorted(rounds.items())]}


def _standings_doc(svc: TournamentService, t: TournamentRecord) -> dict[str, Any]:
    names = {p.id: p.nickname for p in db.participants(svc.store, t.id)}
    main = svc.standings(t)
    out: dict[str, Any] = {"tournament": {"id": t.id, "name": t.name, "status": t.status},
                           "scoring": t.scoring["name"], "tie_breaks": list(t.tie_breaks),
                           "accepted_games": sum(1 for g in db.games(svc.store, t.id, "main") if g.accepted_at),
                           "standings": [row_json(r, names) for r in main], "final": None,
                           "rule_changes": [rule_change_json(r) for r in db.rule_changes(svc.store, t.id)]}
    if t.finalists is not None:
        rows = svc.final_standings(t)
        out["final"] = {"finalists": list(t.finalists), "carry_over": t.final_settings["carry_over"],
                        "standings": [row_json(r, names) for r in rows],
                        "winners": [row_json(r, names) for r in rows if r.top_three],
                        "complete": t.status == "finished" or _final_complete(svc, t)}
    return out


def _final_complete(svc: TournamentService, t: TournamentRecord) -> bool:
    games = db.games(svc.store, t.id, "final")
    rounds = int((t.final_seating or {}).get("rounds", 0))
    return bool(games) and all(g.accepted_at for g in games) and len({g.round for g in games}) == rounds


# --- routes ---------------------------------------------------------------------------------------------

@api.get("", summary="Your club's tournaments, newest first")
def list_tournaments(user: UserDep, store: StoreDep) -> dict[str, Any]:
    mine = set(db.tournaments_of_staff(store, user.id))
    return {"tournaments": [{**tournament_json(t), "staff": t.id in mine}
                            for t in db.club_tournaments(store, user.club_id)]}


@api.post("", status_code=201, summary="Create a tournament (a judge or an admin of the club)")
def create_tournament(body: TournamentIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    svc = TournamentService(store)
    t = svc.create(user, body.name, preset=body.preset, variant=body.variant, options=body.options,
                   scoring=body.scoring,
                   tie_breaks=body.tie_breaks or ("points", "wins", "fewer_games", "head_to_head"),
                   final=body.final.model_dump(exclude_none=True) if body.final else None,
                   starts_on=body.starts_on, ends_on=body.ends_on)
    return _detail(svc, t, user)


@api.get("/{tournament_id}", summary="A tournament: settings, participants, staff, sanctions, games")
def get_tournament(tournament_id: TournamentId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    return _detail(c.svc, c.t, user)


@api.patch("/{tournament_id}", summary="Change settings, or publish the standings (judge)")
def patch_tournament(tournament_id: TournamentId, body: TournamentPatch, user: UserDep,
                     store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    # null clears a date; for the other settings it means "unchanged"
    changes = {k: v for k, v in body.model_dump(exclude_unset=True).items()
               if v is not None or k in ("starts_on", "ends_on")}
    if "final" in changes:
        changes["final"] = {k: v for k, v in (changes["final"] or {}).items() if v is not None}
    t = c.svc.update(user, c.t, changes)
    return _detail(c.svc, t, user)


@api.get("/{tournament_id}/participants", summary="The participants")
def get_participants(tournament_id: TournamentId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    return {"participants": [participant_json(p) for p in db.participants(c.svc.store, c.t.id)]}


@api.post("/{tournament_id}/participants", status_code=201,
             summary="Add participants: typed (participants) or a pasted list (text, one a line)")
def add_participants(tournament_id: TournamentId, body: ParticipantsIn, user: UserDep,
                     store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    c.svc.require_judge(user, c.t)
    if (body.participants is None) == (body.text is None):
        raise ApiError(422, "bad-participants", msg("Give either participants or text."))
    if body.text is not None:
        entries = parse_pasted(body.text)
    else:
        assert body.participants is not None
        seen: dict[str, int] = {}
        for number, p in enumerate(body.participants, 1):
            key = p.nickname.casefold()
            if key in seen:
                raise ApiError(422, "bad-participants",
                               msg("Line %(line)s: %(nickname)s repeats line %(first)s.", line=number,
                                   nickname=repr(p.nickname), first=seen[key]), extra={"line": number})
            seen[key] = number
        entries = [NewParticipant(p.nickname, p.club or None, p.team or None, p.user_id) for p in body.participants]
    added = c.svc.add_participants(user, c.t, entries, body.ban_override)
    return {"added": [participant_json(p) for p in added]}


@api.post("/{tournament_id}/participants/csv", status_code=201,
             summary="Add participants from a CSV file (columns nickname, club, team); refused whole with the line")
async def upload_participants(tournament_id: TournamentId, user: UserDep, store: StoreDep,
                              file: Annotated[UploadFile, File(description="UTF-8 CSV with a header line.")],
                              ) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    c.svc.require_judge(user, c.t)
    data = await file.read(MAX_FILE + 1)
    if len(data) > MAX_FILE:
        raise ApiError(413, "too-large", msg("The file is too large."))
    entries = parse_csv(data)
    for e in entries:
        check_cells("file", (e.nickname, e.club, e.team))
    if len(entries) > MAX_PARTICIPANTS:
        raise ApiError(422, "bad-participants", msg("At most %(n)s participants.", n=MAX_PARTICIPANTS))
    added = c.svc.add_participants(user, c.t, entries)
    return {"added": [participant_json(p) for p in added]}


@api.delete("/{tournament_id}/participants/{participant_id}", summary="Delete a participant before seating")
def delete_participant(tournament_id: TournamentId, participant_id: ParticipantId, user: UserDep,
                       store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    c.svc.delete_participant(user, c.t, participant_id)
    return {"ok": True}


@api.put("/{tournament_id}/staff", summary="Set the tournament's hosts and judges (users of the club)")
def put_staff(tournament_id: TournamentId, body: StaffIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    staff = c.svc.set_staff(user, c.t, [(m.user_id, m.role) for m in body.staff])
    return {"staff": [{"user_id": s.user_id, "login": s.login, "role": s.role} for s in staff]}


@api.post("/{tournament_id}/seating", summary="Generate the seating of every round (judge)")
def post_seating(tournament_id: TournamentId, body: SeatingIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    t = c.svc.generate_seating(user, c.t, rounds=body.rounds, seed=body.seed, hosts=body.hosts,
                               round_hosts=body.round_hosts, absent=body.absent, pinned=body.pinned,
                               apart_by=body.apart_by, apart=body.apart, games_per_player=body.games_per_player,
                               steps=body.steps)
    return {"seating": _seating_json(t.seating, c.names())}


@api.post("/{tournament_id}/seating/regenerate",
             summary="Seat the remaining rounds anew (after removals), keeping the opened rounds")
def regenerate_seating(tournament_id: TournamentId, body: RegenerateIn, user: UserDep,
                       store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    if body.preview:
        doc, moves = c.svc.plan_regeneration(user, c.t, seed=body.seed, steps=body.steps, mode=body.mode)
        return {"seating": _seating_json(doc, c.names()), "changes": moves, "preview": True, "mode": body.mode}
    t, moves = c.svc.regenerate_seating(user, c.t, seed=body.seed, steps=body.steps, mode=body.mode)
    return {"seating": _seating_json(t.seating, c.names()), "changes": moves, "preview": False, "mode": body.mode}


@api.put("/{tournament_id}/seating/constraints", summary="Set the seating constraints (judge)")
def put_seating_constraints(tournament_id: TournamentId, body: ConstraintsIn, user: UserDep,
                            store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    t = c.svc.set_seating_constraints(user, c.t, body.model_dump())
    return {"constraints": t.seating_constraints}


@api.get("/{tournament_id}/seating/ratings", summary="The participants' club ratings for the constraints (judge)")
def get_seating_ratings(tournament_id: TournamentId, user: UserDep, store: StoreDep,
                        source: Annotated[Literal["elo", "skill"], Query()] = "elo") -> dict[str, Any]:
    """Team Elo (``elo``) or the OpenSkill ordinal (``skill``) of the active participants; reads only."""
    c = TournamentContext(store, user, tournament_id)
    return c.svc.seating_ratings(user, c.t, source)


@api.get("/{tournament_id}/seating", summary="The seating plan of the main stage and of the final")
def get_seating(tournament_id: TournamentId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    names = c.names()
    return {"seating": _seating_json(c.t.seating, names), "final": _seating_json(c.t.final_seating, names)}


def _games_out(c: TournamentContext, games: list[Any]) -> list[dict[str, Any]]:
    names = c.names()
    out = []
    for g in games:
        summary = c.svc.store.game(g.game_id)
        out.append({**link_json(g), "names": [names.get(p, str(p)) for p in g.seats], "status": summary.status,
                    "signed_at": summary.signed_at.isoformat() if summary.signed_at else None})
    return out


@api.post("/{tournament_id}/rounds/{number}/open",
             summary="Open a round: each table's game created, seated, assigned to its host")
def open_round(tournament_id: TournamentId, number: RoundNo, user: UserDep, store: StoreDep,
               body: OpenRoundIn | None = None) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    games = c.svc.open_round(user, c.t, number, "main", body.hosts if body else None)
    return {"games": _games_out(c, games)}


@api.post("/{tournament_id}/final/rounds/{number}/open", summary="Open a round of the final")
def open_final_round(tournament_id: TournamentId, number: RoundNo, user: UserDep, store: StoreDep,
                     body: OpenRoundIn | None = None) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    games = c.svc.open_round(user, c.t, number, "final", body.hosts if body else None)
    return {"games": _games_out(c, games)}


@api.get("/{tournament_id}/games", summary="The tournament's games (stage, round, table, host, state)")
def get_games(tournament_id: TournamentId, user: UserDep, store: StoreDep,
              mine: Annotated[bool, Query(description="Only the tables you host.")] = False) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    games = [g for g in db.games(c.svc.store, c.t.id) if not mine or g.host_id == user.id]
    return {"games": _games_out(c, games)}


@api.get("/{tournament_id}/inbox", summary="Signed sheets not accepted yet (judge)")
def get_inbox(tournament_id: TournamentId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    sheets = c.svc.inbox(user, c.t)
    names = c.names()
    return {"sheets": [tournament_sheet_json(s, names) for s in sheets]}


@api.get("/{tournament_id}/games/{game_id}/sheet", summary="A game's sheet with participants and corrections")
def get_sheet(tournament_id: TournamentId, game_id: GameId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    game_access(store, user, game_id)  # not for one who plays in it, nor for another table's host
    return tournament_sheet_json(c.svc.sheet(c.t, game_id), c.names())


@api.post("/{tournament_id}/games/{game_id}/accept", summary="Accept a signed sheet (once; judge)")
def accept_sheet(tournament_id: TournamentId, game_id: GameId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    require_judge(game_access(store, user, game_id), "B.sheet")  # a judge who does not play in it
    return tournament_sheet_json(c.svc.accept(user, c.t, game_id), c.names())


@api.post("/{tournament_id}/games/{game_id}/corrections", status_code=201,
             summary="Correct a signed sheet before accepting it, with a reason (judge)")
def correct_sheet(tournament_id: TournamentId, game_id: GameId, body: CorrectionIn, user: UserDep,
                  store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    require_judge(game_access(store, user, game_id), "B.sheet")  # a judge who does not play in it
    sheet = c.svc.correct(user, c.t, game_id, body.reason,
                          [ch.model_dump() for ch in body.changes])
    return tournament_sheet_json(sheet, c.names())


@api.get("/{tournament_id}/sanctions", summary="Sanctions beyond a game")
def get_sanctions(tournament_id: TournamentId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    return {"sanctions": [sanction_json(s) for s in db.sanctions(c.svc.store, c.t.id)]}


@api.post("/{tournament_id}/sanctions", status_code=201,
             summary="Record a removal from a round or the tournament, or a disqualification (judge)")
def post_sanction(tournament_id: TournamentId, body: SanctionIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    s = c.svc.add_sanction(user, c.t, body.participant_id, body.kind, body.reason, body.round)
    return sanction_json(s)


@api.get("/{tournament_id}/standings", summary="The standings over the accepted sheets (and the final's)")
def get_standings(tournament_id: TournamentId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    return dict(_standings_doc(c.svc, c.t))


@api.post("/{tournament_id}/final", summary="Choose the top K finalists and seat the final (judge)")
def start_final(tournament_id: TournamentId, body: FinalStartIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    t = c.svc.start_final(user, c.t, k=body.k, include_ties=body.include_ties, tie_pick=body.tie_pick, seed=body.seed,
                          hosts=body.hosts, steps=body.steps)
    return {"finalists": list(t.finalists or ()), "seating": _seating_json(t.final_seating, c.names())}


@api.post("/{tournament_id}/finish", summary="Close the tournament once every sheet is accepted (judge)")
def finish(tournament_id: TournamentId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    t = c.svc.finish(user, c.t)
    return tournament_json(t)


@api.get("/{tournament_id}/players/{participant_id}", summary="A participant's games (roles once accepted)")
def get_player(tournament_id: TournamentId, participant_id: ParticipantId, user: UserDep,
               store: StoreDep) -> dict[str, Any]:
    c = TournamentContext(store, user, tournament_id)
    return dict(c.svc.player_games(c.t, participant_id))


# --- exports (the standings as CSV and XLSX: web/tournament_exports.py) ------------------------------------

@api.get("/{tournament_id}/archive.json", summary="The tournament archive: settings, participants, seating, "
            "every game record")
def archive(tournament_id: TournamentId, user: UserDep, store: StoreDep) -> Response:
    c = TournamentContext(store, user, tournament_id)
    doc = c.svc.archive(c.t)
    return Response(json.dumps(doc, ensure_ascii=False, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="tournament-{c.t.id}.json"'})


# --- public -------------------------------------------------------------------------------------------------

def _published(store: Store, tournament_id: int) -> tuple[TournamentService, TournamentRecord]:
    svc = TournamentService(store)
    t = svc.get(tournament_id)
    if not t.published:
        raise ApiError(404, "not-found", msg("No such tournament."))
    return svc, t


@public.get("/{tournament_id}", summary="A published tournament: name, dates, status, participants")
def public_tournament(tournament_id: TournamentId, store: StoreDep) -> dict[str, Any]:
    svc, t = _published(store, tournament_id)
    return {"id": t.id, "name": t.name, "starts_on": t.starts_on.isoformat() if t.starts_on else None,
            "ends_on": t.ends_on.isoformat() if t.ends_on else None, "status": t.status, "ruleset": t.ruleset,
            "participants": [{"id": p.id, "nickname": p.nickname, "club": p.club, "team": p.team, "status": p.status}
                             for p in db.participants(svc.store, t.id)]}


@public.get("/{tournament_id}/standings", summary="The live standings of a published tournament (no login)")
def public_standings(tournament_id: TournamentId, store: StoreDep) -> dict[str, Any]:
    svc, t = _published(store, tournament_id)
    return dict(_standings_doc(svc, t))


@public.get("/{tournament_id}/players/{participant_id}",
            summary="A participant's games; roles and results only of accepted sheets (no login)")
def public_player(tournament_id: TournamentId, participant_id: ParticipantId, store: StoreDep) -> dict[str, Any]:
    svc, t = _published(store, tournament_id)
    doc = dict(svc.player_games(t, participant_id))
    doc["participant"] = {k: v for k, v in doc["participant"].items() if k != "user_id"}
    return doc


router = APIRouter()
"""Both: the judge's API and the public standings (``app.include_router(tournaments.router)``)."""
router.include_router(api)
router.include_router(public)
