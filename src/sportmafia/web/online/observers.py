"""Observers leave on demand (B.observers, seed B 7.3: "observers ... must leave at the first demand of any
player or of the judge"): the judge, or the game's host, closes a table to observers at once and opens it
again, with ``PUT /api/games/{id}/online/watch`` (``{"open": false}`` / ``{"open": true}``).

While the table is closed its spectators' page ``/watch/{code}`` and overlay ``/overlay/{code}`` get nothing
of the game: their open sockets are told (``{"type": "error", "error": {"code": "watch-closed"}}``) and
closed with 4410 at once, new ones are refused the same way, and the pages show "The judge has closed this
table to observers". The sockets of this process and of the others are reached through the hub's table-code
message (the one that moves spectators to the table's next game: here "the code's game is to be read
again"), so through Redis when it links the processes, else at their next keepalive. The pages retry and
follow the game again once it is reopened. The closure belongs to the table: it passes with the code to the
table's next game.

The judge's delayed open stream (``/stream/{token}``) is not an observer's seat at the table: it is the
judge's own broadcast, delayed and closed by its own button (``DELETE /api/games/{id}/online/stream``), and
closing the table to observers leaves it as it is.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from pydantic import BaseModel, ConfigDict

from ...live import get_hub
from ...live.online import registry_of
from ...store import online as db
from ..access import game_access
from ..auth import StoreDep, UserDep
from .common import GameId, table_or_404

log = logging.getLogger("sportmafia.online")

api = APIRouter(prefix="/api", tags=["online"])


class WatchIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    open: bool


def close_watchers(app: FastAPI, tab: db.TableRecord) -> int:
    """Tell the spectators' sockets of ``tab`` (here at once, in the other processes through Redis) to read
    their table again: closed, they are refused. Returns how many were open here."""
    open_here = registry_of(app).spectators(tab.game_id)
    get_hub(app).publish_code_moved(tab.game_id, tab.code, tab.game_id)
    return open_here


@api.put("/games/{game_id}/online/watch",
         summary="Close the table to observers (its watch page and overlay) at once, or open it again")
def set_watch(game_id: GameId, body: WatchIn, request: Request, user: UserDep, store: StoreDep) -> dict[str, Any]:
    game_access(store, user, game_id)  # the game's host, or a judge or admin not playing in it
    table_or_404(store, game_id)
    tab = db.set_watch_closed(store, game_id, not body.open)
    closed = 0 if body.open else close_watchers(request.app, tab)
    log.info("online: game %s %s to observers by user %s (%s sockets closed here)", game_id,
             "opened" if body.open else "closed", user.id, closed)
    return {"open": body.open, "closed": closed}
