"""The socket of the host's console and of the table view, ``/ws/games/{id}?view=host|table&since=N`` (docs/api.md,
"Live updates (WebSocket)"): authorised here, with the login session and the game's access (``access``), then
served by the live layer (``sportmafia.live.console``: the host's view, or the spectator's for the table view).
Also the app's hub as a FastAPI dependency (``HubDep``)."""

from __future__ import annotations

import functools
from typing import Annotated

from fastapi import APIRouter, Depends, Request, WebSocket
from starlette.concurrency import run_in_threadpool

from ..i18n import msg
from ..live import Hub, get_hub
from ..live.console import VIEWERS, ConsoleSocket
from ..live.socket import CLOSE_FORBIDDEN_ORIGIN, CLOSE_INVALID, CLOSE_NOT_AUTHORIZED, CLOSE_NOT_FOUND, refuse
from ..store import Store
from .access import game_summary
from .sessions import Sessions, session_user
from .socket_guard import origin_matches

router = APIRouter(include_in_schema=False)


async def hub_of(request: Request) -> Hub:
    """FastAPI dependency: the hub of the request's app (async: no worker thread is taken)."""
    return get_hub(request.app)


HubDep = Annotated[Hub, Depends(hub_of)]


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    app = websocket.app
    store: Store = app.state.store
    if not origin_matches(websocket.headers.get("origin"), websocket.headers.get("host")):
        await refuse(websocket, CLOSE_FORBIDDEN_ORIGIN, "forbidden-origin",
                     msg("This socket opens only from this site's own pages (Origin must match Host)."))
        return
    uid = websocket.session.get("uid")
    user = None if not isinstance(uid, int) else (
        session_user(websocket) or await run_in_threadpool(store.get_user, uid))
    if user is None:
        await refuse(websocket, CLOSE_NOT_AUTHORIZED, "not-logged-in", msg("Log in first."))
        return
    kind = websocket.query_params.get("view", "host")
    since_text = websocket.query_params.get("since", "0")
    if kind not in VIEWERS or len(game_id) > 64 or not since_text.isdigit() or len(since_text) > 9:
        await refuse(websocket, CLOSE_INVALID, "invalid",
                     msg("view is host or table; since is a seq (a whole number from 0)."))
        return
    # who may open it: the game's host, or a judge or admin who does not play in it (web.access)
    summary = await run_in_threadpool(game_summary, store, user, game_id)
    if summary is None:
        await refuse(websocket, CLOSE_NOT_FOUND, "not-found", msg("No such game."))
        return
    key = websocket.session.get("key")
    key = key if isinstance(key, str) else None
    sessions: Sessions | None = getattr(app.state, "sessions", None)
    alive = None if key is None or sessions is None else functools.partial(sessions.alive, key)
    sock = ConsoleSocket(websocket, store, get_hub(app), game_id, VIEWERS[kind], kind=kind, alive=alive,
                         session_key=key, user_id=user.id)
    await sock.follow(int(since_text), summary.next_seq)
