"""What the public sees of an online table (docs/online.md): the spectators' socket ``/ws/watch/{code}`` (the
watch page and the overlay; public facts only, following the table code from game to game; the socket itself
is the live layer's, ``sportmafia.live.online.SpectatorSocket``), and the judge's delayed open stream (the
``X-Stream-Token`` header)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, WebSocket
from starlette.websockets import WebSocketState

from ...engine import prefix, rule_values, view
from ...i18n import msg
from ...live import get_hub, run_reader
from ...live.online import SpectatorSocket, public_game_key, registry_of
from ...live.render import claim_json
from ...live.socket import CLOSE_INVALID, CLOSE_NOT_FOUND, CLOSE_TOO_MANY, CLOSE_WATCH_CLOSED, refuse
from ...store import Store
from ...store import online as db
from ...store.claims import claims
from ..auth import StoreDep
from ..limits import run_limit
from .common import (
    NO_TABLE,
    SINCE_NOT_SEQ,
    STREAM_HEADER,
    address,
    bad_link,
    check_limit,
    limiter_of,
    parse_since,
)

WATCH_CLOSED = ("watch-closed", msg("The judge has closed this table to observers."))

router = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", tags=["online"])


@router.websocket("/ws/watch/{code}")
async def watch_socket(websocket: WebSocket, code: str) -> None:
    """A spectator's socket (public facts only): ``/ws/watch/{code}?since=n&game=k``. It follows the table
    code: when the code passes to the table's next game, the socket goes on with that game (``table``, then
    its ``state``). ``game``: the key of the game that ``since`` is of (the last ``table`` message's); when
    the code is on another game now, ``since`` is ignored and the client gets that game from its start."""
    key = address(websocket.client)
    limiter = limiter_of(websocket.app)
    if await run_limit(limiter.backend, limiter.retry_after, key) is not None:
        await refuse(websocket, CLOSE_TOO_MANY, "too-many-attempts", msg("Too many wrong codes; try again later."))
        return
    since = parse_since(websocket.query_params.get("since"))
    game_key = websocket.query_params.get("game")
    store: Store = websocket.app.state.store
    tab = await run_reader(db.table_by_code, store, code) if len(code) <= 16 else None
    if tab is None:
        await run_limit(limiter.backend, limiter.failed, key, read=False)
        await refuse(websocket, CLOSE_NOT_FOUND, "no-table", NO_TABLE)
        return
    if since is None:
        await refuse(websocket, CLOSE_INVALID, "invalid", SINCE_NOT_SEQ)
        return
    if tab.watch_closed:  # B.observers
        await refuse(websocket, CLOSE_WATCH_CLOSED, *WATCH_CLOSED)
        return
    if game_key is not None and game_key != public_game_key(tab.game_id):
        since = 0  # his seq is of the table's previous game
    accepted = False
    hub, registry = get_hub(websocket.app), registry_of(websocket.app)
    while await SpectatorSocket(websocket, store, hub, tab.game_id, "spectator", accepted=accepted, code=tab.code,
                                registry=registry).follow(since, tab.next_seq):
        accepted = accepted or websocket.application_state == WebSocketState.CONNECTED
        moved = await run_reader(db.table_by_code, store, tab.code)
        if moved is None:  # its game was deleted
            await refuse(websocket, CLOSE_NOT_FOUND, "no-table", NO_TABLE, accepted)
            return
        if moved.game_id == tab.game_id:  # the pass told of was undone since (by a process that could not say so)
            hub.forget_code_move(tab.game_id, tab.code)
        if moved.watch_closed:  # closed to observers meanwhile (observers.py tells the sockets so)
            await refuse(websocket, CLOSE_WATCH_CLOSED, *WATCH_CLOSED, accepted=accepted)
            return
        tab, since = moved, 0


def delayed_host_view(store: Store, game_id: str, delay_minutes: int) -> dict[str, Any]:
    """``view(game, "host")`` as it stood at the last event recorded at least ``delay_minutes`` ago, the rule
    set's values the board is drawn with, and the claims said by then (``render.claim_json``; a claim said when
    the log held ``at`` events belongs to every moment from there on)."""
    count = db.seq_at(store, game_id, db.delayed_cutoff(delay_minutes))
    game = store.load(game_id)
    past = prefix(game, count)
    said = [claim_json(n, s) for n, s in enumerate(claims(store, game_id)) if s.at <= count]
    return {"next_seq": count, "delay_minutes": delay_minutes, "view": view(past, "host"),
            "rules": rule_values(game.rules), "claims": said}


@api.get("/stream/state", summary="The open stream (X-Stream-Token): the host's view, delayed")
def stream_state(request: Request, store: StoreDep) -> dict[str, Any]:
    key = check_limit(request)
    tab = db.resolve_stream(store, request.headers.get(STREAM_HEADER, ""))
    if tab is None:
        limiter_of(request.app).failed(key)
        raise bad_link()
    return delayed_host_view(store, tab.game_id, tab.stream_delay)

