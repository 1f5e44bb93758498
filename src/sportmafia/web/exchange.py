"""A club's games exchanged with other platforms on the web (docs/exchange.md): ``POST /api/club/games/import`` (the
staff send a file of games as the request's body: each game replayed and kept whole, or refused whole with its
reason) and ``GET /api/club/games/export?format=`` (the club's finished games as one JSON file to download)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from ..i18n import msg
from ..services import seasons
from ..services.errors import Refusal
from ..services.exchange import FORMATS, export_games, import_text
from .auth import StoreDep, UserDep
from .edge import MAX_ID
from .i18n import request_lang

router = APIRouter(prefix="/api/club/games", tags=["seasons"])


@router.post("/import", summary="Import a file of games into your club (admins and judges): sportmafia records, "
                                "Polemica or mafiaratings games; the body is the file (JSON, up to 16 MiB)")
async def import_games(request: Request, user: UserDep, store: StoreDep) -> dict[str, Any]:
    if user.role not in seasons.STAFF:
        raise Refusal("forbidden", "forbidden", msg("Only an admin or a judge imports games."))
    raw = await request.body()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refusal("invalid", "bad-file", msg("The file is not UTF-8 text.")) from None
    lines = await run_in_threadpool(import_text, store, user.club_id, text, user.id)
    lang = request_lang(request)
    return {"games": [line.to_json(lang) for line in lines],
            "imported": sum(line.status == "imported" for line in lines),
            "refused": sum(line.status == "refused" for line in lines)}


@router.get("/export", summary="Your club's finished games in a format, as a file to download")
async def export(request: Request, user: UserDep, store: StoreDep,
                 fmt: Annotated[str, Query(alias="format", max_length=16)] = "sportmafia",
                 tournament: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None) -> Response:
    if fmt not in FORMATS:
        raise Refusal("invalid", "bad-format", msg("No such format: %(format)s.", format=fmt))
    games, skipped = await run_in_threadpool(export_games, store, user.club_id, fmt, tournament)
    lang = request_lang(request)
    body = {"format": fmt, "games": games,
            "not_exported": [{"game_id": g, "why": why.render(lang)} for g, why in skipped]}
    return Response(json.dumps(body, ensure_ascii=False), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="games-{fmt}'
                                                    f'{"" if tournament is None else f"-tournament-{tournament}"}.json"',
                             "Cache-Control": "no-store"})
