"""Online play (docs/online.md): players on their own phones, spectators, a stream overlay and the judge's
delayed open stream.

- The host opens a game's online table (``POST /api/games/{id}/online``) and gives each seat a personal link
  ``/play/{token}`` with its QR code; or players join with the short table code (``/join/{code}``) and the
  host approves. Tokens (192 bits from :mod:`secrets`) are stored only as SHA-256 hashes, bound to one seat
  of one game; re-issuing or revoking a seat's link ends the old one at once (its sockets are closed).
- The player's page authenticates with the token in the first message of its socket (``/ws/play``) and in
  the ``X-Play-Token`` header (HTTP), never in a cookie, so no other site can act for it (no CSRF). His
  commands go over that socket (answered ``ack`` or ``refused`` on it), or by ``POST /api/play/commands``
  when it is down; either way the link must still be live when the command is written. The
  only URLs that hold a token are the pages ``/play/{token}`` and ``/stream/{token}``: the access log masks
  them (:class:`TokenLogFilter`) and the pages send ``Referrer-Policy: no-referrer``.
- Every message a player or spectator gets is built by ``live.render.payload`` from the engine's ``view`` and
  ``visible_events`` for ITS viewer (the seat, or ``"spectator"``); the player's buttons are
  ``legal_commands(actor=seat)``. Commands are executed with ``actor=seat``.
- Refused requests (a wrong or revoked token, another seat's or game's command, a stale seq) are logged
  without the token on the ``sportmafia.online`` logger and change nothing. Wrong tokens and codes are
  rate-limited per client address.

The routes, by concern: :mod:`.links` (the host's API: the table, its links, the open stream), :mod:`.play` (a
player's API and socket), :mod:`.joins` (joining with the table code), :mod:`.stream` (the spectators' socket and
the delayed open stream), :mod:`.observers` (closing the table to observers), :mod:`.pages` (the pages) and
:mod:`.logs` (the access log's token mask); :mod:`.common` holds what they share. The sockets themselves are
the live layer's (``sportmafia.live.online``).
"""

from __future__ import annotations

from collections.abc import Awaitable

from fastapi import FastAPI, WebSocket
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketState

from ...live.socket import CLOSE_TRY_LATER, UNAVAILABLE, refuse
from ...store import unavailable
from . import bots, joins, links, observers, pages, play, stream
from .common import JOIN_HEADER, STREAM_HEADER, TOKEN_HEADER
from .logs import SOCKET_ACCESS_FILTER, install_log_filter, mask
from .play import play_socket
from .stream import watch_socket

__all__ = ["JOIN_HEADER", "SOCKET_ACCESS_FILTER", "STREAM_HEADER", "TOKEN_HEADER", "SocketShortcut", "install",
           "install_log_filter", "mask"]


class SocketShortcut:
    """ASGI middleware, the outermost of the app's own: players' and spectators' sockets go straight to their
    handlers. They need no session, CSRF check or body limit (a socket is authorized by its seat token or
    table code), and every message sent on them would otherwise pass through each of those layers. Their
    routes stay registered as well (the same handlers)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            path: str = scope["path"]
            if path == "/ws/play":
                ws = WebSocket(scope, receive, send)
                await _unless_database_down(ws, play_socket(ws))
                return
            code = path[len("/ws/watch/"):]
            if path.startswith("/ws/watch/") and code and "/" not in code:
                ws = WebSocket(scope, receive, send)
                await _unless_database_down(ws, watch_socket(ws, code))
                return
        await self.app(scope, receive, send)


async def _unless_database_down(ws: WebSocket, handler: Awaitable[None]) -> None:
    """A socket whose authorisation found the database not answering is closed with 1013 and
    ``database-unavailable`` (the page tries again), not with an error of the server (these sockets skip the
    app's ``DatabaseDownMiddleware``)."""
    try:
        await handler
    except Exception as exc:
        if not unavailable(exc):
            raise
        await refuse(ws, CLOSE_TRY_LATER, "database-unavailable", UNAVAILABLE,
                     accepted=ws.application_state != WebSocketState.CONNECTING)


def install(app: FastAPI) -> None:
    """Register online play's routes (on the app that holds the process's routes, ``web.app``) and the access
    log's token mask."""
    install_log_filter()
    app.include_router(joins.api)
    app.include_router(observers.api)
    app.include_router(links.api)
    app.include_router(play.api)
    app.include_router(stream.api)
    app.include_router(bots.api)
    app.include_router(bots.router)
    app.include_router(play.router)
    app.include_router(stream.router)
    app.include_router(pages.router)
