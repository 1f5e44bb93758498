"""Bots at an online table (docs/bots.md, "Bots at an online table"): the host seats bots in the empty seats of his
online table, or lets the server run the whole table (a table of programs that took seats by the open seat
protocol); and the practice table, ``/practice``, where anyone plays a whole game against bots on the player's
page. The bots themselves run in the live layer (``live.driver``)."""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ...bots import AGENTS
from ...i18n import msg
from ...live import app_state, run_writer
from ...live.driver import drivers_of
from ...rules import PRESETS, get_ruleset
from ...services.table_bots import PACES, PRACTICE_AGENTS, PRACTICE_PACES, BotsRefused, open_practice, seat_bots
from ...store import Store, UserRecord
from ...store import claims as bots_db
from ..access import game_access
from ..auth import StoreDep, UserDep
from ..errors import ApiError
from ..i18n import request_lang
from ..limits import limits_of
from ..pages import game_labels, render
from ..security import LoginLimiter, bind
from .common import HOST_ONLY, HOST_ROLES, GameId, address, base_url, need_role, table_or_404

log = logging.getLogger("sportmafia.online")

api = APIRouter(prefix="/api", tags=["online"])
router = APIRouter(include_in_schema=False)

PRACTICE_PER_HOUR = 12
"""Practice tables one client address may open in an hour."""
PRACTICE_AT_ONCE = 40
"""Practice tables this server process runs at once (each is a few bots' thinking): beyond it, 503 ``busy``."""

Agent = Annotated[str, StringConstraints(max_length=32)]


class BotsIn(BaseModel):
    """Bots at seats (``{"3": "baseline"}``: seat → bot, seats with no live link), and whether the server plays the
    host's part (``runs_table``) at ``pace``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    agents: dict[Annotated[str, StringConstraints(pattern=r"^[0-9]{1,2}$")], Agent] = Field(max_length=16)
    runs_table: bool = False
    pace: Annotated[str, StringConstraints(max_length=16)] = "normal"


def _refusal(exc: BotsRefused) -> ApiError:
    return ApiError(409 if exc.code == "taken" else 422, exc.code, exc.text)


@api.get("/games/{game_id}/online/bots", summary="The bots at the online table's seats")
def get_bots(game_id: GameId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    game_access(store, user, game_id)
    table_or_404(store, game_id)
    record = bots_db.bots_of(store, game_id)
    return {"game_id": game_id, "bots": AGENTS_OFFERED,
            **(record.to_json() if record else {"agents": {}, "runs_table": False, "pace": "normal",
                                                "practice": False})}


AGENTS_OFFERED = list(AGENTS)


@api.put("/games/{game_id}/online/bots", summary="Bots in seats of the online table (hosts and admins)")
async def put_bots(game_id: GameId, body: BotsIn, request: Request, user: UserDep, store: StoreDep) -> dict[str, Any]:
    agents = {int(seat): name for seat, name in body.agents.items()}
    record = await run_writer(request.app, _seat, store, user, game_id, agents, body.runs_table, body.pace,
                              _seed(request), game_id=game_id)
    await drivers_of(request.app).restart(game_id)
    log.info("online: game %s: bots at seats %s (the server runs the table: %s)", game_id, sorted(agents),
             body.runs_table)
    return {"game_id": game_id, **record.to_json()}


def _seed(request: Request) -> int | None:
    """The seed of a table's bots: a test server's own (``Drivers.seeds``), else None (drawn by the service from
    the system's randomness)."""
    seeds = drivers_of(request.app).seeds
    return seeds.randrange(1 << 31) if seeds is not None else None


def _seat(store: Store, user: UserRecord, game_id: str, agents: dict[int, str], runs_table: bool,
          pace: str, seed: int | None) -> bots_db.BotsRecord:
    game_access(store, user, game_id)
    need_role(user, HOST_ROLES, HOST_ONLY)
    table_or_404(store, game_id)
    try:
        return seat_bots(store, game_id, agents, runs_table=runs_table, pace=pace, seed=seed)
    except BotsRefused as exc:
        raise _refusal(exc) from None


@api.delete("/games/{game_id}/online/bots", summary="No bots at the online table any more")
async def delete_bots(game_id: GameId, request: Request, user: UserDep, store: StoreDep) -> dict[str, Any]:
    game_access(store, user, game_id)
    need_role(user, HOST_ROLES, HOST_ONLY)
    table_or_404(store, game_id)
    removed = bots_db.clear_bots(store, game_id)
    await drivers_of(request.app).restart(game_id)
    return {"game_id": game_id, "removed": removed}


# --- the practice table ------------------------------------------------------------------------------------
class PracticeIn(BaseModel):
    """A practice table: the rules, the bots' strength, the person's seat (None: drawn), the pace and his name."""

    model_config = ConfigDict(extra="forbid", strict=True)
    preset: Annotated[str, StringConstraints(max_length=32)] = "club"
    agent: Agent = "baseline"
    seat: int | None = Field(default=None, ge=1, le=16)
    pace: Annotated[str, StringConstraints(max_length=16)] = "normal"
    name: Annotated[str, StringConstraints(strip_whitespace=True, max_length=40)] = ""


def practice_limiter(request: Request) -> LoginLimiter:
    limiter = app_state(request.app, "practice_limiter",
                        lambda: LoginLimiter(max_failures=PRACTICE_PER_HOUR, window=3600.0, name="practice"))
    return bind(limiter, limits_of(request.app))


@api.post("/practice", summary="Open a practice table: a whole game against bots, on the player's page")
async def new_practice(body: PracticeIn, request: Request, store: StoreDep) -> dict[str, Any]:
    limiter = practice_limiter(request)
    key = address(request.client)
    wait = limiter.retry_after(key)
    if wait is not None:
        seconds = max(1, int(wait + 0.999))
        raise ApiError(429, "too-many-tables", msg("Too many practice tables from this network; try again in "
                                                   "%(seconds)s s.", seconds=seconds),
                       headers={"Retry-After": str(seconds)})
    drivers = drivers_of(request.app)
    if sum(1 for d in drivers.drivers.values() if d.record.practice and d.game_id in drivers.running) \
            >= PRACTICE_AT_ONCE:
        raise ApiError(503, "busy", msg("Every practice table of this server is taken; try again in a few minutes."),
                       headers={"Retry-After": "60"})
    name = body.name or str(msg("You").render(request_lang(request)))
    try:
        made = await run_writer(request.app, open_practice, store, body.preset, body.agent, body.seat, body.pace, name,
                                _seed(request))
    except BotsRefused as exc:
        raise _refusal(exc) from None
    except ValueError as exc:  # a seat beyond the preset's table
        raise ApiError(422, "bad-seat", msg("Not a valid seat: %(error)s.", error=str(exc))) from None
    limiter.failed(key)
    await drivers.ensure(made.game_id)
    log.info("online: practice table %s opened (%s, %s bots, seat %s)", made.game_id, body.preset, body.agent,
             made.seat)
    return {"game_id": made.game_id, "seat": made.seat, "token": made.token,
            "url": f"{base_url(request)}/play/{made.token}"}


@router.get("/practice")
def practice_page(request: Request) -> HTMLResponse:
    """The practice table's form: the rules, the bots' strength, the seat and the pace."""
    tables = {name: get_ruleset(name).min_players for name in PRESETS}
    return render(request, "practice.html", user=None, presets=list(PRESETS), tables=tables, agents=PRACTICE_AGENTS,
                  paces=PRACTICE_PACES, labels=game_labels(request_lang(request)))


__all__ = ["PACES", "api", "router"]
