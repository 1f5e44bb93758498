"""Joining an online table with its code (docs/online.md, "Joining with the table code"): a player asks for a free
seat, the host approves or denies it in his console or on the online panel, and the player collects his seat's
link with the request's secret.

The table code is public (it is in the spectators' address), so asking is limited (:class:`JoinLimits`; the
counts are kept in the app's limits backend, Redis or the database, and each request's requester, a keyed hash
of its address, on its row: every server process decides the same):

- per client address and per table, a number of requests in a sliding window (429 ``too-many-requests`` with
  ``Retry-After``);
- one pending request per address and table (409 ``pending``);
- at most ``max_pending`` pending requests per table, and no more than it has free seats (429 ``full``);
- after the host denies a request, neither its address nor its name may ask at that table for ``cooldown``
  seconds (429 ``cooldown``);
- a pending request holds no seat: the free seats offered to others are the seats with no live link and no
  approved request. The host approves one request per seat (another one of the same seat: 409 ``taken``).

Every new request and decision is told at once to the host's consoles of the game in this process (``{"type":
"requests"}`` on their socket), and through Redis to the host consoles in the other processes (without a link to
Redis, their processes notice at the next read of the log, within a second); the console also asks at each
keepalive ping.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from ...i18n import Text, msg
from ...live import app_state, get_hub
from ...live.online import revoke_links
from ...store import online as db
from ..access import game_access
from ..auth import StoreDep, UserDep
from ..edge import Id as SeatInt
from ..edge import RequestNo
from ..errors import ApiError
from ..limits import LimitBackend, limits_of
from ..live import HubDep
from ..security import LoginLimiter
from .common import (
    HOST_ONLY,
    HOST_ROLES,
    JOIN_HEADER,
    Code,
    GameId,
    check_limit,
    limiter_of,
    need_role,
    table_by_code,
    table_or_404,
)

log = logging.getLogger("sportmafia.online")

api = APIRouter(prefix="/api", tags=["online"])


@dataclass
class JoinLimits:
    per_address: int = 10
    """Join requests one client address may make in ``window`` seconds (at all tables)."""
    per_table: int = 20
    """Join requests one table may get in ``window`` seconds (from all addresses)."""
    window: float = 600.0
    max_pending: int = 6
    """Pending requests a table holds at most (and no more than its free seats)."""
    cooldown: float = 120.0
    """Seconds after a denial before the same address or name may ask at that table again."""


class JoinGuard:
    """The app's join limits and what they count: requests per address and per table (in the app's limits
    backend). Each address's last request per table (to refuse a second pending one, and to hold it back after
    a denial) is the request row's ``requester``, a keyed hash of the address (:meth:`requester`)."""

    def __init__(self, limits: JoinLimits, backend: LimitBackend) -> None:
        self.limits = limits
        self.backend = backend
        self.by_address = LoginLimiter(max_failures=limits.per_address, window=limits.window, backend=backend,
                                       name="join-address")
        self.by_table = LoginLimiter(max_failures=limits.per_table, window=limits.window, backend=backend,
                                     name="join-table")

    def requester(self, address: str) -> str:
        """What the request row keeps of the client's address: its keyed hash."""
        return self.backend.key("join-requester", address)


def guard_of(app: FastAPI) -> JoinGuard:
    """The app's join guard (``app.state.join_limits`` sets its limits before first use)."""
    return app_state(app, "join_guard", lambda: JoinGuard(getattr(app.state, "join_limits", None) or JoinLimits(),
                                                          limits_of(app)))


def tell_hosts(app: FastAPI, game_id: str) -> None:
    """The game's join requests changed: its host consoles in this process ask for them again."""
    get_hub(app).tell_hosts(game_id, {"type": "requests"})


def _seconds(wait: float) -> int:
    return max(1, int(wait + 0.999))


def _too_many(code: str, seconds: int, text: Text) -> ApiError:
    return ApiError(429, code, text, headers={"Retry-After": str(seconds)})


def _limit(request: Request, game_id: str) -> str:
    """Count this request against the address's and the table's limits (429 when either is reached); returns
    the client's address."""
    guard = guard_of(request.app)
    address = request.client.host if request.client else "unknown"
    for limiter, key in ((guard.by_address, address), (guard.by_table, game_id)):
        wait = limiter.retry_after(key)
        if wait is not None:
            log.warning("online: join requests for game %s from %s refused: too many", game_id, address)
            seconds = _seconds(wait)
            raise _too_many("too-many-requests", seconds,
                            msg("Too many requests to join; try again in %(seconds)s s.", seconds=seconds))
    guard.by_address.failed(address)
    guard.by_table.failed(game_id)
    return address


def _denied(wait: float) -> ApiError:
    seconds = _seconds(wait)
    return _too_many("cooldown", seconds,
                     msg("The host has just denied your request; you may ask again in %(seconds)s s.", seconds=seconds))


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: SeatInt
    name: str = Field(default="", max_length=64)


@api.post("/join/claim", summary="A join request's status (X-Join-Secret); once approved, the seat's link")
def join_claim(request: Request, store: StoreDep, hub: HubDep) -> dict[str, Any]:
    key = check_limit(request)
    try:
        rec, token, revoked = db.claim(store, request.headers.get(JOIN_HEADER, ""))
    except db.OnlineRefused:
        limiter_of(request.app).failed(key)
        raise ApiError(404, "no-request", msg("No such join request.")) from None
    revoke_links(request.app, rec.game_id, revoked)
    out: dict[str, Any] = {"id": rec.id, "seat": rec.seat, "status": rec.status}
    if token is not None:
        out["url"] = f"/play/{token}"
        out["token"] = token
    return out


@api.get("/join/{code}", summary="A table's free seats (by the table code)")
def join_info(code: Code, request: Request, store: StoreDep) -> dict[str, Any]:
    tab = table_by_code(request, code)
    names = store.game(tab.game_id).names
    return {"code": tab.code, "players": tab.players, "names": list(names),
            "free": db.free_seats(store, tab.game_id, tab.players)}


@api.post("/join/{code}", summary="Ask for a free seat; the host approves")
def join_request(code: Code, body: JoinIn, request: Request, store: StoreDep) -> dict[str, Any]:
    tab = table_by_code(request, code)
    guard = guard_of(request.app)
    address = _limit(request, tab.game_id)
    try:
        secret, rec = db.request_join(store, tab.game_id, body.seat, body.name.strip(),
                                      max_pending=guard.limits.max_pending, cooldown=guard.limits.cooldown,
                                      requester=guard.requester(address))
    except db.OnlineRefused as exc:
        if exc.code == "pending":
            raise ApiError(409, "pending", msg("You have asked for a seat already: wait for the host's answer.")) \
                from None
        if exc.code == "taken":
            raise ApiError(409, "taken", msg("This seat is taken; pick another.")) from None
        if exc.code == "full":
            seconds = _seconds(exc.retry_after or 30.0)
            raise _too_many("full", seconds, msg("The host has enough requests to answer; try again in %(seconds)s s.",
                                                 seconds=seconds)) from None
        if exc.code == "cooldown":
            raise _denied(exc.retry_after or guard.limits.cooldown) from None
        raise ApiError(422, "bad-seat", msg("There is no seat %(seat)s at this table.", seat=body.seat)) from None
    log.info("online: a join request for seat %s of game %s", rec.seat, rec.game_id)
    tell_hosts(request.app, tab.game_id)
    return {"id": rec.id, "seat": rec.seat, "status": rec.status, "secret": secret}


class DecisionIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    approve: bool


@api.post("/games/{game_id}/online/requests/{request_id}", summary="Approve or deny a join request")
def decide_request(game_id: GameId, request_id: RequestNo, body: DecisionIn, request: Request, user: UserDep,
                   store: StoreDep) -> dict[str, Any]:
    game_access(store, user, game_id)
    need_role(user, HOST_ROLES, HOST_ONLY)
    table_or_404(store, game_id)
    try:
        rec = db.decide(store, game_id, request_id, body.approve)
    except db.OnlineRefused as exc:
        if exc.code == "decided":
            raise ApiError(409, "decided", msg("This request is decided already.")) from None
        if exc.code == "taken":
            raise ApiError(409, "taken", msg("This seat is taken already: deny this request.")) from None
        raise ApiError(404, "no-request", msg("No such join request.")) from None
    tell_hosts(request.app, game_id)
    return {"id": rec.id, "seat": rec.seat, "status": rec.status}
