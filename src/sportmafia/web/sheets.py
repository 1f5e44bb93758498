"""Result sheets (B.sheet): a finished game's sheet as JSON and CSV, its signature by the host, the judge's
corrections, the game record as a download, and the sheet's page ``/games/{id}/sheet``.

Who may do what: every user of the game's club reads the sheet; a host or an admin signs it (once, only a
finished game; the game is locked then); a judge or an admin corrects a signed sheet with a reason. Any
other club's game is "not found"."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ..engine.describe import HOW_NAMES, RESULT_NAMES, ROLE_NAMES, SCOPE_NAMES, TEAM_NAMES, t
from ..i18n import msg, pmsg
from ..services import sheets
from ..services.sheets import Sheet, correction_json, sheet_json, won
from ..store import GameLocked, Store
from ..tournament.results import MAX_CHANGES, MAX_TEXT, SHEET_FIELDS, PlayerResult
from . import pages
from .access import game_summary
from .auth import StoreDep, UserDep
from .errors import error_body, forbidden
from .exports import csv_moment, csv_response
from .games import GameId, own_game
from .i18n import LANGS, request_lang
from .responses import download
from .schemas import MAX_SEAT

router = APIRouter(tags=["result sheets"])

SIGNERS = ("host", "admin")
"""The roles that sign a result sheet."""
CORRECTORS = ("judge", "admin")
"""The roles that correct a signed result sheet."""
MAX_REASON = 1000

Reason = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_REASON)]


class SheetChangeIn(BaseModel):
    """One change: a field of the whole sheet (``winner``, ``result``, ``first_killed``, ``best_move_black``)
    without a seat, or a field of one seat's line (``role``, ``fouls``, ``removed``, ``removal_reason``,
    ``warnings``) with the seat; ``new`` is the value it gets (null clears)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    field: Literal["winner", "result", "first_killed", "best_move_black",
                   "role", "fouls", "removed", "removal_reason", "warnings"]
    seat: int | None = Field(default=None, ge=1, le=MAX_SEAT)
    new: Annotated[str, StringConstraints(max_length=MAX_TEXT)] | int | None


class CorrectionIn(BaseModel):
    """A judge's correction: the reason (required) and the changes."""

    model_config = ConfigDict(extra="forbid", strict=True)

    reason: Reason
    changes: list[SheetChangeIn] = Field(min_length=1, max_length=MAX_CHANGES)


@router.get("/api/games/{game_id}/sheet", summary="The result sheet of a finished game, corrections applied")
def get_sheet(game_id: GameId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    own_game(store, user, game_id)
    return sheet_json(sheets.sheet(store, game_id))


@router.post("/api/games/{game_id}/sheet/sign", summary="Sign the result sheet (a host or an admin); locks the game")
def sign_sheet(game_id: GameId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    own_game(store, user, game_id)
    if user.role not in SIGNERS:
        raise forbidden(msg("Only the host or an admin signs a result sheet."))
    sheets.sign(store, game_id, user.id)
    return sheet_json(sheets.sheet(store, game_id))


@router.post("/api/games/{game_id}/sheet/corrections", status_code=201,
             summary="Correct a signed result sheet with a reason (a judge or an admin)")
def correct_sheet(game_id: GameId, body: CorrectionIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    own_game(store, user, game_id)
    if user.role not in CORRECTORS:
        raise forbidden(msg("Only the tournament judge or an admin corrects a result sheet."))
    changes = [change.model_dump(exclude_unset=False) for change in body.changes]
    for change in changes:
        if change["field"] in SHEET_FIELDS and change["seat"] is None:
            del change["seat"]
    correction = sheets.correct(store, game_id, user.id, body.reason, changes)
    return {"correction": correction_json(correction), "sheet": sheet_json(sheets.sheet(store, game_id))}


def _lang(request: Request, lang: str | None) -> str:
    return lang if lang in LANGS else request_lang(request)


def _short(game_id: str) -> str:
    return "".join(ch for ch in game_id if ch.isalnum() or ch == "-")[:36] or "game"


_CSV_HEAD = (msg("№"), msg("Nickname"), msg("Role"), msg("Team"), msg("Fouls"), pmsg("sheet CSV", "Warnings"),
             msg("Departure"), pmsg("sheet CSV", "Removal"), msg("Won"))
_CSV_META = {"game": pmsg("sheet CSV", "Game"), "winner": pmsg("sheet CSV", "Winner"),
             "result": pmsg("sheet CSV", "Result"), "signed": pmsg("sheet CSV", "Signed"),
             "corrections": pmsg("sheet CSV", "Corrections"), "yes": msg("yes"), "no": msg("no"),
             "unsigned": pmsg("sheet CSV", "not signed")}


def departure(p: PlayerResult, lang: str) -> str:
    """When and how the player left, numbered as the console numbers them (night N follows day N): "voted out,
    day 2", "killed, night 1", "removed, night 2"; empty for a player at the table to the end."""
    if p.left is None:
        return ""
    if p.left == "kill":
        return msg("killed, night %(night)s", night=p.left_day).render(lang)
    how = t(HOW_NAMES, p.left, lang)
    if p.left_night:
        return msg("%(how)s, night %(night)s", how=how, night=p.left_day).render(lang)
    return msg("%(how)s, day %(day)s", how=how, day=p.left_day).render(lang)


def sheet_rows(sheet: Sheet, lang: str) -> list[list[Any]]:
    """The sheet as CSV rows in ``lang``: a few lines about the game, an empty line, the table."""
    words = {key: text.render(lang) for key, text in _CSV_META.items()}
    r, g = sheet.final(), sheet.game
    signed = words["unsigned"] if g.signed_at is None else \
        f"{csv_moment(g.signed_at, lang)} UTC, {sheet.signed_by_login or ''}"
    rows: list[list[Any]] = [
        [words["game"], g.id], [words["winner"], t(TEAM_NAMES, r.winner, lang)],
        [words["result"], t(RESULT_NAMES, r.result, lang)], [words["signed"], signed],
        [words["corrections"], len(sheet.corrections)], [], [text.render(lang) for text in _CSV_HEAD]]
    for p in r.players:
        removed = "" if p.removed is None else t(SCOPE_NAMES, p.removed, lang) + (
            f": {p.removal_reason}" if p.removal_reason else "")
        rows.append([p.seat, p.name, t(ROLE_NAMES, p.role, lang), t(TEAM_NAMES, p.team, lang), p.fouls,
                     p.warnings, departure(p, lang), removed, words["yes" if won(p, r.winner) else "no"]])
    return rows


@router.get("/api/games/{game_id}/sheet.csv", summary="The result sheet as CSV (UTF-8 with a BOM, for Excel)",
            response_class=Response, responses=download("text/csv", "The result sheet."))
def get_sheet_csv(game_id: GameId, request: Request, user: UserDep, store: StoreDep,
                  lang: Annotated[Literal["ru", "en"] | None, Query(description="ru or en (default: the page's)")]
                  = None) -> Response:
    own_game(store, user, game_id)
    chosen = _lang(request, lang)
    return csv_response(sheet_rows(sheets.sheet(store, game_id), chosen), chosen, f"sheet-{_short(game_id)}.csv")


@router.get("/api/games/{game_id}/record.json", summary="The game record (docs/game-record.md) as a download",
            response_class=JSONResponse)
def get_record_file(game_id: GameId, user: UserDep, store: StoreDep) -> Response:
    own_game(store, user, game_id)
    record = store.record(game_id)
    return Response(json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8"),
                    media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="game-{_short(game_id)}.json"',
                             "Cache-Control": "no-store"})


@router.get("/games/{game_id}/sheet", include_in_schema=False)
def sheet_page(request: Request, game_id: Annotated[str, PathParam(max_length=64)]) -> Response:
    user = pages.page_user(request)
    if user is None:
        return pages.to_login(request)
    store: Store = request.app.state.store
    summary = game_summary(store, user, game_id)
    if summary is None:
        return pages.render(request, "missing.html", status=404, user=user)
    lang = request_lang(request)
    labels = {
        "roles": {k: t(ROLE_NAMES, k, lang) for k in ROLE_NAMES},
        "teams": {str(k).lower(): t(TEAM_NAMES, k, lang) for k in TEAM_NAMES},
        "results": {k: t(RESULT_NAMES, k, lang) for k in RESULT_NAMES},
        "how": {k: t(HOW_NAMES, k, lang) for k in HOW_NAMES},
        "scopes": {k: t(SCOPE_NAMES, k, lang) for k in SCOPE_NAMES},
    }
    return pages.render(request, "sheet.html", user=user, game_id=game_id, labels=labels,
                         can_sign=user.role in SIGNERS, can_correct=user.role in CORRECTORS)


def install(app: FastAPI) -> None:
    """The answer to a command for a locked game: 409 ``locked`` (the routes are ``router``)."""

    async def locked(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, GameLocked)
        when = exc.signed_at.strftime("%Y-%m-%d %H:%M")
        return JSONResponse(error_body(
            "locked", msg("The game's result sheet was signed (%(when)s UTC): the game is locked and takes no more "
                          "actions. A judge corrects the sheet instead.", when=when),
            "B.sheet", signed_at=exc.signed_at.isoformat()), status_code=409)

    app.add_exception_handler(GameLocked, locked)
