"""The rules lab's page for a club's admins and judges (docs/lab.md, "The judge's page"): ``/lab`` (the form,
the runs, a run's progress and results) and its JSON, ``/api/lab/...`` (the options, the runs, start, progress,
stop, resume, the report and the games to download). The runs are ``services.lab_runs``'s; the club's real
games beside them, ``services.lab_real``'s."""

from __future__ import annotations

import csv
import dataclasses
from functools import lru_cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from ..rules import PRESETS, RuleSet, get_ruleset
from ..services import lab_real
from ..services.errors import Refusal
from ..services.lab_runs import AGENTS, MAX_GAMES, MAX_SEED, MAX_VARIANTS, LabRequest, LabRuns, staff
from ..services.seasons import STAFF
from .auth import StoreDep, UserDep
from .exports import csv_response
from .i18n import request_lang
from .pages import page_user, render, to_login
from .responses import ErrorOut, download
from .schemas import StrictBody

router = APIRouter(tags=["lab"])
BUSY: dict[int | str, dict[str, Any]] = {503: {"model": ErrorOut, "description": "Busy: two runs play already."}}
RunId = Annotated[str, PathParam(min_length=1, max_length=40, pattern=r"^[0-9a-z-]+$")]
OPTION = r"^[a-z0-9_]{1,40}(=[A-Za-z0-9_/-]{1,40})?$"
HIDDEN = ("name", "min_players", "max_players", "black_counts")


class LabIn(StrictBody):
    preset: Literal["club", "tournament", "fiim"]
    changes: list[Annotated[str, Field(pattern=OPTION, max_length=81)]] = Field(
        default_factory=list, max_length=MAX_VARIANTS - 1,
        description="Options changed one at a time: option=value, or a yes/no option's name for its other value")
    agent: Literal["random", "baseline", "belief"] = "baseline"
    games: int = Field(default=1000, ge=1, le=MAX_GAMES, description="Games per variant")
    seed: int = Field(default=0, ge=0, le=MAX_SEED)
    stop_when_significant: bool = False


def runs_of(request: Request) -> LabRuns:
    """The app's lab runs (``create_app`` makes them; a test may put its own)."""
    found: LabRuns = request.app.state.lab_runs
    return found


def options(lang: str) -> list[dict[str, Any]]:
    """The options a variant may change, with their help in ``lang``, each preset's value and, for a yes/no
    option, whether its other value can be played under each preset (``flips``)."""
    presets = {p: get_ruleset(p) for p in PRESETS}
    out = []
    for f in dataclasses.fields(RuleSet):
        values = {p: getattr(rs, f.name) for p, rs in presets.items()}
        if f.name in HIDDEN or not all(isinstance(v, (bool, int, str)) for v in values.values()):
            continue
        kind = "bool" if isinstance(values["club"], bool) else "int" if isinstance(values["club"], int) else "choice"
        out.append({"name": f.name, "kind": kind, "help": RuleSet.doc_of(f.name).render(lang), "values": values,
                    "flips": {p: kind == "bool" and _playable(p, f.name) for p in presets}})
    return out


@lru_cache(maxsize=128)
def _playable(preset: str, option: str) -> bool:
    """Whether a yes/no option's other value makes a variant of ``preset`` that can be played (the form offers
    such an option first)."""
    try:
        LabRequest(preset, (option,), games=1).plan()
    except Refusal:
        return False
    return True


# --- the page -------------------------------------------------------------------------------------------------

@router.get("/lab", include_in_schema=False)
async def lab_page(request: Request) -> Response:
    user = page_user(request)
    if user is None:
        return to_login(request)
    if user.role not in STAFF:
        return render(request, "missing.html", status=404, user=user)
    lang = request_lang(request)
    return render(request, "lab.html", user=user, presets=list(PRESETS), agents=AGENTS, max_games=MAX_GAMES,
                  max_changes=MAX_VARIANTS - 1, max_seed=MAX_SEED, options=options(lang))


# --- JSON -----------------------------------------------------------------------------------------------------

@router.get("/api/lab/options", summary="The options a lab variant may change, with each preset's value")
async def lab_options(request: Request, user: UserDep) -> dict[str, Any]:
    staff(user)
    return {"options": options(request_lang(request)), "presets": list(PRESETS), "agents": list(AGENTS),
            "max_games": MAX_GAMES, "max_variants": MAX_VARIANTS}


@router.get("/api/lab/runs", summary="The club's lab runs, the latest first (admins and judges)")
async def lab_runs(request: Request, user: UserDep) -> dict[str, Any]:
    return {"runs": await run_in_threadpool(runs_of(request).runs, user)}


@router.post("/api/lab/runs", status_code=202, responses=BUSY,
             summary="Start a lab run in the background (admins and judges; 503 busy while two play)")
async def start_run(request: Request, body: LabIn, user: UserDep) -> dict[str, Any]:
    lab_request = LabRequest(body.preset, tuple(body.changes), body.agent, body.games, body.seed,
                             body.stop_when_significant)
    return {"run": await run_in_threadpool(runs_of(request).start, user, lab_request)}


@router.get("/api/lab/runs/{run_id}",
            summary="A lab run: status, games done, rate, time left; its results and the club's real games once "
                    "finished")
async def run_progress(request: Request, run_id: RunId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    view = await run_in_threadpool(runs_of(request).progress, user, run_id)
    summary = view.get("summary")
    if summary and user.club_id is not None:
        view["real"] = await run_in_threadpool(lab_real.real_figures, store, user.club_id, summary)
    return {"run": view}


@router.post("/api/lab/runs/{run_id}/stop", summary="Stop a running lab run (the batches played are kept)")
async def stop_run(request: Request, run_id: RunId, user: UserDep) -> dict[str, Any]:
    return {"run": await run_in_threadpool(runs_of(request).stop, user, run_id)}


@router.post("/api/lab/runs/{run_id}/resume", status_code=202, responses=BUSY,
             summary="Resume a stopped lab run (503 busy while two play)")
async def resume_run(request: Request, run_id: RunId, user: UserDep) -> dict[str, Any]:
    return {"run": await run_in_threadpool(runs_of(request).resume, user, run_id)}


@router.get("/api/lab/runs/{run_id}/report", response_class=Response,
            responses=download("text/html", "The run's report."), summary="A finished run's report, one HTML page to download")
async def run_report(request: Request, run_id: RunId, user: UserDep,
                     lang: Literal["ru", "en"] | None = None) -> Response:
    name = f"report-{lang or request_lang(request)}.html"
    path = await run_in_threadpool(runs_of(request).file, user, run_id, name)
    return Response(path.read_bytes(), media_type="text/html; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="lab-{run_id}.html"',
                             "Cache-Control": "no-store"})


@router.get("/api/lab/runs/{run_id}/games.csv", response_class=Response,
            responses=download("text/csv", "The run's games."), summary="A finished run's games, one row a game (CSV)")
async def run_games(request: Request, run_id: RunId, user: UserDep) -> Response:
    path = await run_in_threadpool(runs_of(request).file, user, run_id, "games.csv")
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    return csv_response(rows, request_lang(request), f"lab-{run_id}.csv")
