"""A club's players across games (docs/seasons.md): the public pages ``/clubs/{id}/players`` (the club's players
with their ratings, and the club's red wins by rule set, weekday, table and host) and ``/players/{id}`` (a
player's profile: ratings and their history, wins by role with intervals, what he does at the table, his games),
their charts as SVG and PNG, the same as JSON (``/api/players/{id}``, ``/api/clubs/{id}/players``), and the
staff's merges and rating exclusions."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from pydantic import BeforeValidator, Field
from starlette.concurrency import run_in_threadpool

from ..i18n import msg
from ..seasons.stats import GROUPS, Filter
from ..services import seasons
from ..store import Store, UserRecord
from ..store import club_seasons as club_seasons_db
from ..store import seasons as db
from . import charts
from .access import game_access
from .auth import StoreDep, UserDep
from .charts import Bar
from .edge import MAX_ID
from .errors import ApiError
from .i18n import LANGS, request_lang
from .pages import page_user, render
from .schemas import StrictBody
from .season_views import RateRow, club_view, profile_view

router = APIRouter(tags=["seasons"])
PersonId = Annotated[int, PathParam(ge=1, le=MAX_ID)]
ClubId = Annotated[int, PathParam(ge=1, le=MAX_ID)]
GameId = Annotated[str, PathParam(min_length=1, max_length=64)]
RULESETS = ("club", "tournament", "fiim")


class MergeIn(StrictBody):
    from_id: int = Field(ge=1, le=MAX_ID, description="The duplicate, merged away")
    into_id: int = Field(ge=1, le=MAX_ID, description="The person he is")
    reason: str = Field(min_length=1, max_length=500)


class ReasonIn(StrictBody):
    reason: str = Field(min_length=1, max_length=500)


def _filter(since: date | None, until: date | None, role: str | None, ruleset: str | None,
            tournament: int | None) -> Filter:
    if role is not None and role not in GROUPS[1:]:
        raise ApiError(422, "bad-filter", msg("No such role: %(role)s.", role=role))
    if ruleset is not None and ruleset not in RULESETS:
        raise ApiError(422, "bad-filter", msg("No such rule set: %(ruleset)s.", ruleset=ruleset))
    if since is not None and until is not None and since > until:
        raise ApiError(422, "bad-filter", msg("The range ends before it starts."))
    return Filter(since=since, until=until, role_group=role, ruleset=ruleset,
                  tournament=None if tournament is None else str(tournament))


def _query(where: Filter) -> str:
    """The filter as the query string of the page's charts."""
    pairs = {"since": where.since, "until": where.until, "role": where.role_group, "ruleset": where.ruleset,
             "tournament": where.tournament}
    return urlencode({k: str(v) for k, v in pairs.items() if v is not None})


def _blank_is_none(value: Any) -> Any:
    """A filter's field left empty in the pages' forms (``?since=&role=``) is no filter, not a bad value."""
    return None if value == "" else value


Blank = BeforeValidator(_blank_is_none)
Since = Annotated[date | None, Blank, Query(description="Games from this day on (Moscow time)")]
Until = Annotated[date | None, Blank, Query(description="Games up to this day, included")]
Code = Annotated[str, Field(max_length=16)]
AnId = Annotated[int, Field(ge=1, le=MAX_ID)]
Role = Annotated[Code | None, Blank, Query(description="red, sheriff, black or don")]
Ruleset = Annotated[Code | None, Blank, Query(description="club, tournament or fiim")]
TournamentQ = Annotated[AnId | None, Blank, Query()]
SeasonQ = Annotated[AnId | None, Blank, Query(description="Only the games of this season of the club")]


def _in_season(store: Store, where: Filter, season_id: int | None, person_id: int) -> Filter:
    """``where`` narrowed to the days of the player's club's season ``season_id`` (422 for another club's or
    none)."""
    if season_id is None:
        return where
    person = db.person(store, person_id)
    if person is None:
        return where  # no such player: the route answers 404
    return _in_club_season(store, where, season_id, person.club_id)


def _in_club_season(store: Store, where: Filter, season_id: int | None, club_id: int) -> Filter:
    """``where`` narrowed to the days of the club's season ``season_id`` (422 for another club's or none)."""
    if season_id is None:
        return where
    found = club_seasons_db.season(store, season_id)
    if found is None or found.club_id != club_id:
        raise ApiError(422, "bad-filter", msg("No such season in the club."))
    since = found.starts_on if where.since is None else max(where.since, found.starts_on)
    until = found.ends_on if where.until is None else min(where.until, found.ends_on)
    return replace(where, since=since, until=until)


def _missing(request: Request) -> Response:
    return render(request, "missing.html", status=404, user=page_user(request))


@router.get("/players/{person_id}", include_in_schema=False)
async def profile_page(request: Request, person_id: PersonId, since: Since = None, until: Until = None,
                       role: Role = None, ruleset: Ruleset = None, tournament: TournamentQ = None,
                       season: SeasonQ = None) -> Response:
    store: Store = request.app.state.store
    where = await run_in_threadpool(_in_season, store, _filter(since, until, role, ruleset, tournament), season,
                                    person_id)
    page = await run_in_threadpool(seasons.profile, store, person_id, where)
    if page is None:
        return _missing(request)
    user = page_user(request)
    staff = user is not None and user.club_id == page.person.club_id and user.role in seasons.STAFF
    roster = await run_in_threadpool(db.club_people, store, page.person.club_id) if staff else []
    merged = await run_in_threadpool(db.merges, store, page.person.club_id, person_id) if staff else []
    lang = request_lang(request)
    periods = await run_in_threadpool(club_seasons_db.club_seasons, store, page.person.club_id)
    version = await run_in_threadpool(db.index_version, store, page.person.club_id)
    return render(request, "profile.html", user=user, staff=staff, roster=roster, merged=merged, season=season,
                  chart_version=version,
                  seasons=periods, view=profile_view(page, lang, where, series=False), where=where, query=_query(where))


@router.get("/clubs/{club_id}/players", include_in_schema=False)
async def club_players_page(request: Request, club_id: ClubId, since: Since = None, until: Until = None,
                            ruleset: Ruleset = None, tournament: TournamentQ = None,
                            season: SeasonQ = None) -> Response:
    store: Store = request.app.state.store
    where = await run_in_threadpool(_in_club_season, store, _filter(since, until, None, ruleset, tournament),
                                    season, club_id)
    view = await run_in_threadpool(club_view, store, club_id, request_lang(request), where)
    if view is None:
        return _missing(request)
    user = page_user(request)
    member = user is not None and user.club_id == club_id
    periods = await run_in_threadpool(club_seasons_db.club_seasons, store, club_id)
    version = await run_in_threadpool(db.index_version, store, club_id)
    return render(request, "club_players.html", user=user, view=view, where=where, query=_query(where),
                  chart_version=version,
                  member=member, staff=member and user is not None and user.role in seasons.STAFF,
                  seasons=periods, season=season)


@router.get("/api/players/{person_id}", summary="A player's profile: statistics, ratings and games")
async def profile_json(request: Request, person_id: PersonId, since: Since = None, until: Until = None,
                       role: Role = None, ruleset: Ruleset = None, tournament: TournamentQ = None,
                       season: SeasonQ = None) -> dict[str, Any]:
    store: Store = request.app.state.store
    where = await run_in_threadpool(_in_season, store, _filter(since, until, role, ruleset, tournament), season,
                                    person_id)
    page = await run_in_threadpool(seasons.profile, store, person_id, where)
    if page is None:
        raise ApiError(404, "not-found", msg("No such player."))
    return profile_view(page, request_lang(request), where).to_json()


@router.get("/api/clubs/{club_id}/players", summary="A club's players with their ratings, and its red wins")
async def club_json(request: Request, club_id: ClubId, since: Since = None, until: Until = None,
                    ruleset: Ruleset = None, tournament: TournamentQ = None,
                    season: SeasonQ = None) -> dict[str, Any]:
    store: Store = request.app.state.store
    where = await run_in_threadpool(_in_club_season, store, _filter(since, until, None, ruleset, tournament),
                                    season, club_id)
    view = await run_in_threadpool(club_view, store, club_id, request_lang(request), where)
    if view is None:
        raise ApiError(404, "not-found", msg("No such club."))
    return view.to_json()


@router.post("/api/players/merge", summary="Merge a duplicate player into another, with the reason "
                                            "(admins and judges)")
async def merge_players(body: MergeIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    record = await run_in_threadpool(seasons.merge, store, user, body.from_id, body.into_id, body.reason)
    return {"merge": {"id": record.id, "from": record.from_id, "from_name": record.from_name, "into": record.into_id,
                      "reason": record.reason, "by": record.login, "at": record.created_at.isoformat()}}


@router.post("/api/games/{game_id}/rating-exclusion", summary="Leave a finished game out of the ratings, with the "
                                                              "reason (admins and judges)")
async def exclude_game(game_id: GameId, body: ReasonIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    await run_in_threadpool(_exclude, store, user, game_id, body.reason, False)
    return {"ok": True}


@router.post("/api/games/{game_id}/rating-exclusion/lift", summary="Count a game left out in the ratings again, "
                                                                   "with the reason (admins and judges)")
async def lift_exclusion(game_id: GameId, body: ReasonIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    await run_in_threadpool(_exclude, store, user, game_id, body.reason, True)
    return {"ok": True}


def _exclude(store: Store, user: UserRecord, game_id: str, reason: str, lift: bool) -> None:
    """A stored game is the user's to judge, as every game route asks (``web.access``: one who plays in it, or
    of another club, gets "no such game"); an imported result has no table to sit at."""
    if db.is_stored(store, game_id):
        game_access(store, user, game_id)
    seasons.exclude(store, user, game_id, reason, lift=lift)


# --- charts: SVG (inline view or download) and PNG ------------------------------------------------------------
Fmt = Annotated[str, PathParam(pattern="^(svg|png)$")]
PLAYER_CHARTS = ("rating", "roles")
CLUB_CHARTS = ("rulesets", "weekdays", "tables")


def _bars(rows: list[RateRow]) -> list[Bar]:
    return [(r.label, r.rate, (r.low, r.high) if r.n else None, r.n) for r in rows]


def _chart_answer(svg: str, fmt: str, filename: str, download: bool) -> Response:
    name = f"{filename}.{fmt}" if download else None
    return charts.png_response(svg, filename=name) if fmt == "png" else charts.svg_response(svg, filename=name)


def _lang(request: Request, lang: str | None) -> str:
    return lang if lang in LANGS else request_lang(request)


@router.get("/players/{person_id}/charts/{name}.{fmt}", include_in_schema=False)
def player_chart(request: Request, person_id: PersonId, name: Annotated[str, PathParam(max_length=16)], fmt: Fmt,
                 lang: Annotated[str | None, Query(max_length=4)] = None, download: bool = False,
                 since: Since = None, until: Until = None, role: Role = None, ruleset: Ruleset = None,
                 tournament: TournamentQ = None) -> Response:
    """A player's chart (``rating``: his red and black Elo over time; ``roles``: his win rate by role with the
    95% interval), drawn for the same filter as his page."""
    if name not in PLAYER_CHARTS:
        raise ApiError(404, "not-found", msg("No such chart."))
    where = _filter(since, until, role, ruleset, tournament)
    page = seasons.profile(request.app.state.store, person_id, where)
    if page is None:
        raise ApiError(404, "not-found", msg("No such player."))
    lang = _lang(request, lang)
    view = profile_view(page, lang, where)
    if name == "rating":
        series = [(msg("as red").render(lang), [(date.fromisoformat(d), v) for d, v in view.rating_series["red"]]),
                  (msg("as black").render(lang), [(date.fromisoformat(d), v) for d, v in view.rating_series["black"]])]
        svg = charts.rating_chart(series, title=msg("%(name)s: Elo over time", name=view.name).render(lang),
                                  y_label=msg("Elo").render(lang), locale=lang)
    else:
        svg = charts.rate_bars(_bars(view.roles), title=msg("%(name)s: wins by role", name=view.name).render(lang),
                               reference=0.5, locale=lang)
    return _chart_answer(svg, fmt, f"player-{person_id}-{name}", download)


@router.get("/clubs/{club_id}/charts/{name}.{fmt}", include_in_schema=False)
def club_chart(request: Request, club_id: ClubId, name: Annotated[str, PathParam(max_length=16)], fmt: Fmt,
               lang: Annotated[str | None, Query(max_length=4)] = None, download: bool = False,
               since: Since = None, until: Until = None, ruleset: Ruleset = None,
               tournament: TournamentQ = None) -> Response:
    """A club's chart of red's win rate with its 95% interval: by rule set, by day of the week, by table (the
    tables' balance); the dashed line is the club's overall rate."""
    if name not in CLUB_CHARTS:
        raise ApiError(404, "not-found", msg("No such chart."))
    lang = _lang(request, lang)
    view = club_view(request.app.state.store, club_id, lang, _filter(since, until, None, ruleset, tournament))
    if view is None:
        raise ApiError(404, "not-found", msg("No such club."))
    rows, title = {"rulesets": (view.by_ruleset, msg("Red's win rate by rule set")),
                   "weekdays": (view.by_weekday, msg("Red's win rate by day of the week")),
                   "tables": (view.by_table, msg("Red's win rate by table"))}[name]
    svg = charts.rate_bars(_bars(rows), title=title.render(lang), reference=view.red_wins.rate, locale=lang,
                           reference_label=msg("all games").render(lang))
    return _chart_answer(svg, fmt, f"club-{club_id}-{name}", download)
