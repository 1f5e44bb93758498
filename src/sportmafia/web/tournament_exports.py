"""A tournament's standings as downloads: ``standings.csv`` (through :func:`.exports.csv_response`, the one
convention of every CSV file: the page's language, ``;`` and a decimal comma in Russian, ``,`` and a point in
English, UTF-8 with a BOM, every cell safe from formulas) and ``standings.xlsx`` (its headers in the same
language, every text cell stored as text). Who may download: as ``GET /api/tournaments/{id}/standings``."""

from __future__ import annotations

import io
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from ..i18n import msg, pmsg
from ..services.tournament import TournamentService, row_json
from ..store import tournaments as db
from ..store.tournaments import TournamentRecord
from ..tournament.standings import Row
from .auth import StoreDep, UserDep
from .exports import append_safe_row, csv_response
from .i18n import request_lang
from .responses import download
from .tournaments import XLSX, TournamentContext, TournamentId

router = APIRouter(tags=["tournaments"])

EXPORT_COLUMNS = (("place", msg("Place")), ("nickname", msg("Nickname")), ("points", msg("Points")),
                  ("games", msg("Games")), ("wins", msg("Wins")), ("extra_points", msg("Extra points")),
                  ("penalties", msg("Penalties")), ("carried", msg("Carried over")),
                  ("disqualified", pmsg("standings export", "Out of the places")),
                  ("top_three", pmsg("standings export", "Top three")))
"""The standings' columns in the exports (the row's key, the header in the file's language)."""
ExportLang = Annotated[Literal["ru", "en"] | None, Query(description="ru or en (default: the page's)")]


def _export_table(svc: TournamentService, t: TournamentRecord, lang: str, flag: Any) -> list[list[Any]]:
    """The standings (the final's once it is seated) with the headers in ``lang``; ``flag(bool)`` writes
    the yes/no columns."""
    names = {p.id: p.nickname for p in db.participants(svc.store, t.id)}
    rows: list[Row] = svc.final_standings(t) if t.finalists is not None else svc.standings(t)
    table: list[list[Any]] = [[text.render(lang) for _, text in EXPORT_COLUMNS]]
    for r in (row_json(row, names) for row in rows):
        table.append([flag(bool(r[k])) if k in ("disqualified", "top_three") else "" if r[k] is None else r[k]
                      for k, _ in EXPORT_COLUMNS])
    return table


def _filename(t: TournamentRecord, ext: str) -> str:
    return f"tournament-{t.id}-standings.{ext}"


@router.get("/api/tournaments/{tournament_id}/standings.csv",
            summary="The standings as CSV in the page's language (UTF-8 with a BOM, for Excel)",
            response_class=Response, responses=download("text/csv", "The standings, one participant a line."))
def standings_csv(tournament_id: TournamentId, request: Request, user: UserDep, store: StoreDep,
                  lang: ExportLang = None) -> Response:
    c = TournamentContext(store, user, tournament_id)
    chosen = lang or request_lang(request)
    yes, no = msg("yes").render(chosen), msg("no").render(chosen)
    return csv_response(_export_table(c.svc, c.t, chosen, lambda v: yes if v else no), chosen, _filename(c.t, "csv"))


@router.get("/api/tournaments/{tournament_id}/standings.xlsx", summary="The standings as an Excel workbook",
            response_class=Response, responses=download(XLSX, "The standings as a workbook."))
def standings_xlsx(tournament_id: TournamentId, request: Request, user: UserDep, store: StoreDep,
                   lang: ExportLang = None) -> Response:
    from openpyxl import Workbook

    c = TournamentContext(store, user, tournament_id)
    chosen = lang or request_lang(request)
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = msg("Standings").render(chosen)
    for row in _export_table(c.svc, c.t, chosen, bool):
        append_safe_row(ws, row)
    buf = io.BytesIO()
    wb.save(buf)
    return Response(buf.getvalue(), media_type=XLSX,
                    headers={"Content-Disposition": f'attachment; filename="{_filename(c.t, "xlsx")}"'})
