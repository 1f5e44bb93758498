"""A club's seasons (docs/seasons.md, "Seasons"): the public pages ``/clubs/{id}/seasons`` (the list; the staff
create one there) and ``/clubs/{id}/seasons/{season_id}`` (the standings, the games, red's wins and the
tournaments; the staff edit an open season and close it there), the same as JSON, and the staff's changes
(``POST /api/seasons``, ``/api/seasons/{id}``, ``/api/seasons/{id}/close``)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from babel.numbers import format_decimal
from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from pydantic import Field, model_validator
from starlette.concurrency import run_in_threadpool

from ..i18n import msg
from ..seasons.series import MAX_PLACES, MAX_POINTS
from ..services import club_seasons as svc
from ..services.club_seasons import NAME_MAX, SeasonPage, SeasonSettings
from ..services.errors import Refusal
from ..services.seasons import STAFF
from ..store import Store, UserRecord
from ..store import seasons as index
from ..store.club_seasons import SeasonRecord
from .auth import StoreDep, UserDep
from .edge import MAX_ID
from .errors import ApiError
from .i18n import request_lang
from .pages import page_user, render
from .schemas import StrictBody
from .season_views import day, number, rate_row

router = APIRouter(tags=["seasons"])
ClubId = Annotated[int, PathParam(ge=1, le=MAX_ID)]
SeasonId = Annotated[int, PathParam(ge=1, le=MAX_ID)]
Points = Annotated[float, Field(ge=0, le=MAX_POINTS, allow_inf_nan=False)]
KIND_NAMES = {"rating": msg("by rating"), "points": msg("by series points")}
STATUS_NAMES = {"setup": msg("setting up"), "running": msg("in progress"), "final": msg("the final"),
                "finished": msg("finished")}


class SeasonIn(StrictBody):
    name: str = Field(min_length=1, max_length=NAME_MAX)
    starts_on: date = Field(strict=False, description="The first day (Moscow time)")
    ends_on: date = Field(strict=False, description="The last day, included")
    standings: Literal["rating", "points"] = "rating"
    series_points: list[Points] = Field(default_factory=list, max_length=MAX_PLACES,
                                        description="Points for the 1st, 2nd, ... place of each tournament")


class SeasonEdit(StrictBody):
    name: str | None = Field(default=None, min_length=1, max_length=NAME_MAX)
    starts_on: date | None = Field(default=None, strict=False)
    ends_on: date | None = Field(default=None, strict=False)
    standings: Literal["rating", "points"] | None = None
    series_points: list[Points] | None = Field(default=None, max_length=MAX_PLACES)

    @model_validator(mode="after")
    def _something(self) -> SeasonEdit:
        if not self.model_fields_set:
            raise ValueError("name at least one setting to change")
        return self


def season_json(s: SeasonRecord) -> dict[str, Any]:
    return {"id": s.id, "club_id": s.club_id, "name": s.name, "starts_on": s.starts_on.isoformat(),
            "ends_on": s.ends_on.isoformat(), "standings": s.standings, "series_points": list(s.series_points),
            "closed": s.closed, "closed_at": None if s.closed_at is None else s.closed_at.isoformat(),
            "closed_by": s.closed_by, "created_at": s.created_at.isoformat()}


def _place(row: dict[str, Any]) -> str:
    return str(row["place"]) if row["place_to"] == row["place"] else f"{row['place']}–{row['place_to']}"


def _points(value: float, lang: str) -> str:
    return format_decimal(value, "#,##0.##", locale=lang)


def season_view(page: SeasonPage, lang: str) -> dict[str, Any]:
    """What a season's page prints, in ``lang``."""
    s, shown = page.season, page.shown
    names = {t["id"]: t["name"] for t in shown["tournaments"]}
    rows = []
    for r in shown["rows"]:
        row = {"place": _place(r), "person": r["person"], "name": r["name"], "elo": number(r["elo"], lang)}
        if shown["standings"] == "rating":
            row.update(games=r["games"], wins=r["wins"], red=number(r["red"], lang), black=number(r["black"], lang),
                       skill=number(r["skill"], lang, 2))
        else:
            row.update(points=_points(r["points"], lang), tournaments=r["tournaments"], won=r["won"],
                       results=" · ".join(f"{names.get(x['tournament'], x['tournament'])}: {_place(x)}"
                                         for x in r["results"]))
        rows.append(row)
    red = rate_row("all", msg("Red's wins").render(lang), page.red_wins, lang)
    return {"season": season_json(s), "days": _days(s, lang), "kind": KIND_NAMES[shown["standings"]].render(lang),
            "points": " · ".join(_points(p, lang) for p in s.series_points),
            "form": {**season_json(s), "points_input": " ".join(f"{p:g}" for p in s.series_points)},
            "closed_on": day(s.closed_at, lang), "games": shown["games"], "red_wins": red, "rows": rows,
            "tournaments": [{**t, "days": _tournament_days(t, lang), "status_text": STATUS_NAMES.get(
                t["status"], msg(t["status"])).render(lang)} for t in shown["tournaments"]]}


def _days(s: SeasonRecord, lang: str) -> str:
    return f"{day(s.starts_on, lang)} — {day(s.ends_on, lang)}"


def _tournament_days(t: dict[str, Any], lang: str) -> str:
    days = [date.fromisoformat(d) for d in (t["starts_on"], t["ends_on"]) if d]
    if not days:
        return ""
    return day(days[0], lang) if len(days) == 1 or days[0] == days[1] else f"{day(days[0], lang)} — {day(days[1], lang)}"


def _staff_of(user: UserRecord | None, club_id: int) -> bool:
    return user is not None and user.club_id == club_id and user.role in STAFF


def _missing(request: Request) -> Response:
    return render(request, "missing.html", status=404, user=page_user(request))


def _club(store: Store, club_id: int) -> str | None:
    return index.club_name(store, club_id) or None


def _list(store: Store, club_id: int, lang: str) -> list[dict[str, Any]]:
    return [{**season_json(s), "days": _days(s, lang), "kind": KIND_NAMES[s.standings].render(lang)}
            for s in svc.club_seasons(store, club_id)]


# --- pages ----------------------------------------------------------------------------------------------------

@router.get("/clubs/{club_id}/seasons", include_in_schema=False)
async def seasons_page(request: Request, club_id: ClubId) -> Response:
    store: Store = request.app.state.store
    club = await run_in_threadpool(_club, store, club_id)
    if club is None:
        return _missing(request)
    user = page_user(request)
    seasons = await run_in_threadpool(_list, store, club_id, request_lang(request))
    return render(request, "club_seasons.html", user=user, club_id=club_id, club=club, seasons=seasons,
                  staff=_staff_of(user, club_id), max_places=MAX_PLACES, name_max=NAME_MAX)


@router.get("/clubs/{club_id}/seasons/{season_id}", include_in_schema=False)
async def season_page(request: Request, club_id: ClubId, season_id: SeasonId) -> Response:
    store: Store = request.app.state.store
    try:
        page = await run_in_threadpool(svc.page, store, club_id, season_id)
    except Refusal:
        return _missing(request)
    user = page_user(request)
    club = await run_in_threadpool(_club, store, club_id)
    return render(request, "season.html", user=user, club_id=club_id, club=club or "",
                  view=season_view(page, request_lang(request)), staff=_staff_of(user, club_id),
                  max_places=MAX_PLACES, name_max=NAME_MAX)


# --- JSON -----------------------------------------------------------------------------------------------------

@router.get("/api/clubs/{club_id}/seasons", summary="A club's seasons, the latest first")
async def seasons_json(request: Request, club_id: ClubId) -> dict[str, Any]:
    store: Store = request.app.state.store
    if await run_in_threadpool(_club, store, club_id) is None:
        raise ApiError(404, "not-found", msg("No such club."))
    return {"seasons": await run_in_threadpool(_list, store, club_id, request_lang(request))}


@router.get("/api/clubs/{club_id}/seasons/{season_id}",
            summary="A season: its standings (frozen once closed), games, red's wins and tournaments")
async def season_json_route(request: Request, club_id: ClubId, season_id: SeasonId) -> dict[str, Any]:
    page = await run_in_threadpool(svc.page, request.app.state.store, club_id, season_id)
    shown = page.shown
    return {"season": season_json(page.season), "games": shown["games"], "red_wins": page.red_wins.to_json(),
            "tournaments": shown["tournaments"], "standings": shown["rows"],
            "view": season_view(page, request_lang(request))}


@router.post("/api/seasons", status_code=201, summary="Create a season of your club (admins and judges)")
async def create_season(body: SeasonIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    settings = SeasonSettings(body.name, body.starts_on, body.ends_on, body.standings, tuple(body.series_points))
    return {"season": season_json(await run_in_threadpool(svc.create, store, user, settings))}


@router.post("/api/seasons/{season_id}", summary="Change an open season of your club (admins and judges)")
async def edit_season(season_id: SeasonId, body: SeasonEdit, user: UserDep, store: StoreDep) -> dict[str, Any]:
    changes = {k: (tuple(v) if k == "series_points" else v) for k, v in body.model_dump(exclude_unset=True).items()}
    if any(v is None for v in changes.values()):
        raise ApiError(422, "invalid", msg("A setting cannot be emptied."))
    return {"season": season_json(await run_in_threadpool(svc.edit, store, user, season_id, **changes))}


@router.post("/api/seasons/{season_id}/close",
             summary="Close a season of your club: its standings as they are now are final (admins and judges)")
async def close_season(season_id: SeasonId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    return {"season": season_json(await run_in_threadpool(svc.close, store, user, season_id))}
