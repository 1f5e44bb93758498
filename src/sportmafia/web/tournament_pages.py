"""The tournament pages: ``/tournaments`` (the club's tournaments and a new one), ``/tournaments/{id}`` (the
judge's desk), ``/tournaments/{id}/print`` (the standings to print), and, without login, ``/t/{id}`` (the live
standings of a published tournament) and ``/t/{id}/players/{pid}`` (a participant's games).

The pages are shells: their scripts (``tournament*.js``, ``desk-*.js``, ``standings.js``) read and change
everything through the JSON API of ``tournaments.py``. What the API does not give and a page needs is read
here: the club's users (login and role, nothing else) to pick the tournament's hosts and judges from."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..engine.describe import RESULT_NAMES, ROLE_NAMES, SCOPE_NAMES, TEAM_NAMES, t
from ..services.tournament import Refusal, TournamentService
from ..store import Store, UserRecord
from ..store import tournaments as db
from ..store.models import User
from ..store.tournaments import TournamentRecord
from ..tournament import DEFAULT_TIE_BREAKS, FinalSettings
from ..tournament.results import REMOVAL_SCOPES
from ..tournament.standings import TIE_BREAKS
from .edge import MAX_ID
from .i18n import request_lang
from .pages import offence_names, page_user, render, to_login

router = APIRouter(include_in_schema=False)

TournamentId = Annotated[int, PathParam(ge=1, le=MAX_ID)]
ParticipantId = Annotated[int, PathParam(ge=1, le=MAX_ID)]



def club_users(store: Store, club_id: int) -> list[dict[str, Any]]:
    """The club's accounts as the staff picker shows them: id, login and role (never more)."""
    with Session(store.engine) as s:
        rows = s.execute(select(User.id, User.login, User.role).where(User.club_id == club_id)
                         .order_by(User.login)).all()
    return [{"id": uid, "login": login, "role": role} for uid, login, role in rows]


def labels(lang: str) -> dict[str, Any]:
    """The engine's names the pages show: roles, teams, results, removal scopes, offences; the tie-breaks, and a new
    tournament's defaults (its tie-breaks and final: the settings form's, never constants of the script)."""
    return {"roles": {k: t(ROLE_NAMES, k, lang) for k in ROLE_NAMES},
            "teams": {str(k).lower(): t(TEAM_NAMES, k, lang) for k in TEAM_NAMES},
            "results": {k: t(RESULT_NAMES, k, lang) for k in RESULT_NAMES},
            "scopes": {k: t(SCOPE_NAMES, k, lang) for k in REMOVAL_SCOPES},
            "offences": offence_names(lang),
            "tie_breaks": list(TIE_BREAKS),
            "defaults": {"tie_breaks": list(DEFAULT_TIE_BREAKS), "final": asdict(FinalSettings())}}


def _own(store: Store, user: UserRecord, tournament_id: int) -> TournamentRecord | None:
    try:
        return TournamentService(store).get(tournament_id, user.club_id)
    except Refusal:
        return None


def _published(store: Store, tournament_id: int) -> TournamentRecord | None:
    try:
        found = TournamentService(store).get(tournament_id)
    except Refusal:
        return None
    return found if found.published else None


def _missing(request: Request, user: UserRecord | None) -> Response:
    return render(request, "standings.html", status=404, user=user, missing=True, public=user is None,
                  tournament=None, source="", labels={})


@router.get("/tournaments")
def tournaments_page(request: Request) -> Response:
    user = page_user(request)
    if user is None:
        return to_login(request)
    return render(request, "tournaments.html", user=user, can_create=user.role in ("admin", "judge"),
                  labels=labels(request_lang(request)))


@router.get("/tournaments/{tournament_id}")
def tournament_page(request: Request, tournament_id: TournamentId) -> Response:
    user = page_user(request)
    if user is None:
        return to_login(request)
    store: Store = request.app.state.store
    found = _own(store, user, tournament_id)
    if found is None:
        return _missing(request, user)
    return render(request, "tournament.html", user=user, tournament=found,
                  can_judge=TournamentService(store).is_judge(user, found),
                  users=club_users(store, user.club_id), labels=labels(request_lang(request)))


@router.get("/tournaments/{tournament_id}/print")
def print_page(request: Request, tournament_id: TournamentId) -> Response:
    user = page_user(request)
    if user is None:
        return to_login(request)
    found = _own(request.app.state.store, user, tournament_id)
    if found is None:
        return _missing(request, user)
    return render(request, "standings.html", user=user, tournament=found, public=False,
                  source=f"/api/tournaments/{found.id}/standings", labels=labels(request_lang(request)))


@router.get("/t/{tournament_id}")
def public_standings_page(request: Request, tournament_id: TournamentId) -> Response:
    found = _published(request.app.state.store, tournament_id)
    if found is None:
        return _missing(request, None)
    return render(request, "standings.html", user=None, tournament=found, public=True,
                  source=f"/api/public/tournaments/{found.id}/standings", labels=labels(request_lang(request)))


@router.get("/t/{tournament_id}/players/{participant_id}")
def public_player_page(request: Request, tournament_id: TournamentId, participant_id: ParticipantId) -> Response:
    store: Store = request.app.state.store
    found = _published(store, tournament_id)
    if found is None or all(p.id != participant_id for p in db.participants(store, found.id)):
        return _missing(request, None)
    return render(request, "player.html", user=None, tournament=found, participant_id=participant_id,
                  labels=labels(request_lang(request)))
