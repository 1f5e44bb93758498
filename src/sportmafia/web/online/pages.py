"""The pages of online play (docs/online.md): a player's ``/play/{token}``, joining with the table code
``/join/{code}``, the spectators' ``/watch/{code}`` and overlay ``/overlay/{code}``, the judge's open stream
``/stream/{token}`` and the host's panel ``/games/{id}/online``. The pages that hold a secret in their address
send ``Referrer-Policy: no-referrer``. ``/join`` without a code asks for one."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ...store import Store
from ...store import online as db
from ...store.claims import bots_of
from ..i18n import request_lang
from ..pages import club_game, game_labels, render
from .common import HOST_ROLES, JUDGE_ROLES, Code, GameId, address, limiter_of

log = logging.getLogger("sportmafia.online")

router = APIRouter(include_in_schema=False)


_PRIVATE = {"Referrer-Policy": "no-referrer", "Cache-Control": "no-store", "X-Robots-Tag": "noindex"}


def _private(response: HTMLResponse) -> HTMLResponse:
    response.headers.update(_PRIVATE)
    return response


def _link_page(request: Request, status: int, message: str, typed: str = "") -> HTMLResponse:
    return _private(render(request, "join.html", status=status, code=None, problem=message, user=None,
                           typed=typed, labels=game_labels(request_lang(request))))


@router.get("/play/{token}")
def play_page(request: Request, token: Annotated[str, PathParam(max_length=256)]) -> Response:
    key = address(request.client)
    limiter = limiter_of(request.app)
    if limiter.retry_after(key) is not None:
        return _link_page(request, 429, "too-many")
    store: Store = request.app.state.store
    auth = db.resolve_token(store, token)
    if auth is None:
        limiter.failed(key)
        log.warning("online: refused the player's page for an unknown or revoked token from %s", key[7:])
        return _link_page(request, 404, "bad-link")
    summary = store.game(auth.game_id)
    bots = bots_of(store, auth.game_id)
    return _private(render(request, "play.html", user=None, game_id=auth.game_id, seat=auth.seat,
                           seat_name=summary.names[auth.seat - 1], labels=game_labels(request_lang(request)),
                           driven=bots is not None and bots.runs_table, practice=bots is not None and bots.practice,
                           bot_seats=",".join(str(s) for s in sorted(bots.agents)) if bots is not None else ""))


@router.get("/join")
def join_form(request: Request, code: Annotated[str | None, Query(max_length=64)] = None) -> Response:
    """The page to enter a table's code (a player who typed the address rather than scanning the QR code); the
    code it sends goes to ``/join/{code}``, a wrong one is told on the same page (404, counted by the limiter of
    wrong codes, which answers 429 past it)."""
    typed = "".join((code or "").split()).replace("-", "")  # "jm5 etx", "JM5-ETX": the code as read aloud
    if not typed:
        return _private(render(request, "join.html", user=None, code=None, problem="ask", typed="",
                               labels=game_labels(request_lang(request))))
    tab = _table_page_or_refusal(request, typed, joining=True)
    if isinstance(tab, Response):
        return tab
    return RedirectResponse(f"/join/{tab.code}", status_code=303)


@router.get("/join/{code}")
def join_page(request: Request, code: Code) -> Response:
    tab = _table_page_or_refusal(request, code, joining=True)
    if isinstance(tab, Response):
        return tab
    return _private(render(request, "join.html", user=None, code=tab.code, problem=None,
                           labels=game_labels(request_lang(request))))


def _found_or_refusal(request: Request, find: Callable[[Store], Any], missing: str, typed: str = "") -> Any:
    """What ``find`` finds in the store (an online table by its code or its stream link), or the page to answer
    instead: 429 while the client's address is rate-limited, 404 ``missing`` (counted as a failure; ``typed``:
    the code the join form sent, shown again in its field)."""
    key = address(request.client)
    limiter = limiter_of(request.app)
    if limiter.retry_after(key) is not None:
        return _link_page(request, 429, "too-many")
    found = find(request.app.state.store)
    if found is None:
        limiter.failed(key)
        return _link_page(request, 404, missing, typed)
    return found


def _table_page_or_refusal(request: Request, code: str, joining: bool = False) -> Any:
    """The online table with this code, or the page to answer instead (429, or 404 for an unknown code: when
    ``joining``, with the field to type the code again, filled with this one)."""
    return _found_or_refusal(request, lambda store: db.table_by_code(store, code),
                             "no-join-table" if joining else "no-table", code if joining else "")


def _watch_like(request: Request, code: str, template: str) -> Response:
    tab = _table_page_or_refusal(request, code)
    if isinstance(tab, Response):
        return tab
    return render(request, template, user=None, code=tab.code, closed=tab.watch_closed,
                  labels=game_labels(request_lang(request)))


@router.get("/watch/{code}")
def watch_page(request: Request, code: Code) -> Response:
    return _watch_like(request, code, "watch.html")


@router.get("/overlay/{code}")
def overlay_page(request: Request, code: Code) -> Response:
    return _watch_like(request, code, "overlay.html")


@router.get("/stream/{token}")
def stream_page(request: Request, token: Annotated[str, PathParam(max_length=256)]) -> Response:
    tab = _found_or_refusal(request, lambda store: db.resolve_stream(store, token), "bad-link")
    if isinstance(tab, Response):
        return tab
    return _private(render(request, "watch.html", user=None, code=None, stream=True,
                           delay=tab.stream_delay, labels=game_labels(request_lang(request))))


@router.get("/games/{game_id}/online")
def online_page(request: Request, game_id: GameId) -> Response:
    found = club_game(request, game_id)
    if isinstance(found, Response):
        return found
    user, summary = found
    return render(request, "online.html", user=user, game_id=game_id, names=list(summary.names),
                  can_host=user.role in HOST_ROLES, can_judge=user.role in JUDGE_ROLES)

