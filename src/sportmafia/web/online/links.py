"""The host's API of an online table (docs/online.md): open the game for online play (a new table code, or the
code of the table's previous game), the table's seats, links, connections and join requests, each seat's
personal link (issued, re-issued, revoked: its old sockets are closed at once), the judge's open stream, and the
QR codes."""

from __future__ import annotations

import io
import logging
from typing import Annotated, Any

import segno
from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from ...i18n import msg
from ...live import get_hub, run_writer
from ...live.online import Registry, registry_of, revoke_links
from ...store import Store, UserRecord
from ...store import online as db
from ..access import game_access
from ..auth import StoreDep, UserDep
from ..edge import Id as SeatInt
from ..edge import SeatNo
from ..errors import ApiError
from ..responses import download
from .common import HOST_ONLY, HOST_ROLES, JUDGE_ROLES, GameId, base_url, need_role, table_or_404

log = logging.getLogger("sportmafia.online")

api = APIRouter(prefix="/api", tags=["online"])


def qr_svg(text: str) -> str:
    """An SVG QR code of ``text`` (segno; black on white, with its quiet zone)."""
    buf = io.BytesIO()
    segno.make(text, error="m").save(buf, kind="svg", scale=4, xmldecl=False, svgns=True, dark="#000",
                                     light="#fff")
    return buf.getvalue().decode("ascii")



def _table_json(request: Request, store: Store, tab: db.TableRecord, reg: Registry) -> dict[str, Any]:
    linked = db.linked_seats(store, tab.game_id)
    connected = reg.connected(tab.game_id)
    names = store.game(tab.game_id).names
    base = base_url(request)
    return {
        "game_id": tab.game_id, "open": True, "code": tab.code, "players": tab.players,
        "join_url": f"{base}/join/{tab.code}", "join_form_url": f"{base}/join", "watch_url": f"{base}/watch/{tab.code}",
        "overlay_url": f"{base}/overlay/{tab.code}",
        "seats": [{"seat": s, "name": names[s - 1], "linked": s in linked,
                   "issued_at": linked[s].created_at.isoformat() if s in linked else None,
                   "connected": connected.get(s, 0)} for s in range(1, tab.players + 1)],
        "spectators": reg.spectators(tab.game_id),
        "requests": [{"id": r.id, "seat": r.seat, "name": r.name, "created_at": r.created_at.isoformat()}
                     for r in db.join_requests(store, tab.game_id)],
        "stream": {"on": tab.stream_on, "delay_minutes": tab.stream_delay},
        "watch_open": not tab.watch_closed,
    }





class OpenIn(BaseModel):
    """``code``: the table code of the table's previous game, to pass to this game (see :func:`db.take_code`)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    code: str | None = Field(default=None, min_length=1, max_length=16)


@api.post("/games/{game_id}/online", summary="Open the game for online play (hosts and admins)")
async def open_online(game_id: GameId, request: Request, user: UserDep, store: StoreDep,
                      body: OpenIn | None = None) -> dict[str, Any]:
    """Opens the game's online table with a new code, or with ``code``: the code of the table's previous game,
    which passes to this one, its spectators' and overlay's sockets following it."""
    result: dict[str, Any] = await run_writer(request.app, _open_online, game_id, request, user, store,
                                              None if body is None else body.code)
    return result


def _open_online(game_id: str, request: Request, user: UserRecord, store: Store, code: str | None = None,
                 ) -> dict[str, Any]:
    game_access(store, user, game_id)
    need_role(user, HOST_ROLES, HOST_ONLY)
    if code is None:
        tab = db.open_table(store, game_id, user.id)
    else:
        try:
            tab, before = db.take_code(store, game_id, code, user.id)
        except db.OnlineRefused as exc:
            if exc.code == "in-play":
                raise ApiError(409, "in-play", msg("The game at table %(code)s is still being played: its code "
                                                   "passes to the next game once it is over.", code=code.upper())
                               ) from None
            raise ApiError(404, "no-table", msg("No online table of this club has this code.")) from None
        if before is not None:
            get_hub(request.app).publish_code_moved(before, tab.code, game_id)
    return _table_json(request, store, tab, registry_of(request.app))


@api.get("/games/{game_id}/online", summary="The online table: seats, links, connections, join requests")
def get_online(game_id: GameId, request: Request, user: UserDep, store: StoreDep) -> dict[str, Any]:
    """The game's online table; before it is opened ``{"game_id", "open": false}`` (200: whether a game is open
    for online play is a state of the game, asked by the console at every keepalive, not a missing resource)."""
    game_access(store, user, game_id)
    tab = db.table(store, game_id)
    if tab is None:
        return {"game_id": game_id, "open": False}
    return _table_json(request, store, tab, registry_of(request.app))


def _seat_in(tab: db.TableRecord, seat: int) -> None:
    if not 1 <= seat <= tab.players:
        raise ApiError(422, "bad-seat", msg("There is no seat %(seat)s at this table.", seat=seat))


@api.post("/games/{game_id}/online/seats/{seat}/link", summary="Issue (or re-issue) a seat's personal link")
def issue_link(game_id: GameId, seat: SeatNo, request: Request, user: UserDep, store: StoreDep,
               qr: Annotated[bool, Query(description="Also the link's QR code (SVG), to show at the table.")] = False,
               ) -> dict[str, Any]:
    link: dict[str, Any] = _issue(request, user, store, game_id, [seat], qr)["links"][0]
    return link


class LinksIn(BaseModel):
    """Which seats get new links: the listed ones (their old links end at once), or, without ``seats``, every
    seat that has no live link."""

    model_config = ConfigDict(extra="forbid", strict=True)
    seats: list[SeatInt] | None = Field(default=None, max_length=32)


@api.post("/games/{game_id}/online/links", summary="Issue personal links for several seats at once")
async def issue_links(game_id: GameId, request: Request, user: UserDep, store: StoreDep, body: LinksIn | None = None,
                qr: Annotated[bool, Query(description="Also each link's QR code (SVG), to show at the table.")] = False,
                ) -> dict[str, Any]:
    """Every seat's link for a table of remote players in one request and one transaction (a new game's
    links, sent to the players before it starts)."""
    result: dict[str, Any] = await run_writer(request.app, _issue, request, user, store, game_id,
                                              None if body is None else body.seats, qr)
    return result


def _issue(request: Request, user: UserRecord, store: Store, game_id: str, seats: list[int] | None,
           qr: bool) -> dict[str, Any]:
    """New links for ``seats`` (None: every seat without one) in one transaction; the old links' sockets are
    closed. A QR code is drawn (milliseconds each) only when asked for: for a link shown at the table, not
    for one sent to a remote player."""
    game_access(store, user, game_id)
    need_role(user, HOST_ROLES, HOST_ONLY)
    tab = table_or_404(store, game_id)
    for seat in seats or ():
        _seat_in(tab, seat)
    issued = db.issue_seats(store, game_id, seats)
    revoked = [t for _token, _auth, old in issued for t in old]
    closed = revoke_links(request.app, game_id, revoked)
    log.info("online: seats %s of game %s got new links (%s old links revoked, %s sockets closed)",
             [auth.seat for _token, auth, _old in issued], game_id, len(revoked), closed)
    base = base_url(request)
    links = []
    for token, auth, old in issued:
        url = f"{base}/play/{token}"
        link: dict[str, Any] = {"seat": auth.seat, "token": token, "url": url,
                                "issued_at": auth.created_at.isoformat(), "revoked": len(old)}
        if qr:
            link["qr_svg"] = qr_svg(url)
        links.append(link)
    return {"links": links, "revoked": len(revoked)}


@api.delete("/games/{game_id}/online/seats/{seat}/link", summary="Revoke a seat's personal link")
def revoke_link(game_id: GameId, seat: SeatNo, request: Request, user: UserDep, store: StoreDep) -> dict[str, Any]:
    game_access(store, user, game_id)
    need_role(user, HOST_ROLES, HOST_ONLY)
    tab = table_or_404(store, game_id)
    _seat_in(tab, seat)
    revoked = db.revoke_seat(store, game_id, seat)
    closed = revoke_links(request.app, game_id, revoked)
    log.info("online: seat %s of game %s: link revoked (%s sockets closed)", seat, game_id, closed)
    return {"seat": seat, "revoked": len(revoked)}


class StreamIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    delay_minutes: int = Field(ge=1, le=db.MAX_STREAM_DELAY)


@api.post("/games/{game_id}/online/stream", summary="The judge's open stream: a new link with its delay")
def open_stream(game_id: GameId, body: StreamIn, request: Request, user: UserDep, store: StoreDep) -> dict[str, Any]:
    game_access(store, user, game_id)
    need_role(user, JUDGE_ROLES, msg("Only a judge or an admin opens the open stream."))
    table_or_404(store, game_id)
    token = db.set_stream(store, game_id, body.delay_minutes)
    return {"url": f"{base_url(request)}/stream/{token}", "token": token, "delay_minutes": body.delay_minutes}


@api.delete("/games/{game_id}/online/stream", summary="Close the open stream (its link ends)")
def close_stream(game_id: GameId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    game_access(store, user, game_id)
    need_role(user, JUDGE_ROLES, msg("Only a judge or an admin closes the open stream."))
    db.stream_off(store, game_id)
    return {"on": False}


@api.get("/games/{game_id}/online/join-qr.svg", summary="The QR code of the table's join page",
         response_class=Response, responses=download("image/svg+xml", "The QR code."))
def join_qr(game_id: GameId, request: Request, user: UserDep, store: StoreDep) -> Response:
    game_access(store, user, game_id)
    tab = table_or_404(store, game_id)
    return Response(qr_svg(f"{base_url(request)}/join/{tab.code}"), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})

