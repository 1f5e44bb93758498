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
- Every message a player or spectator gets is built by :func:`payload` from the engine's ``view`` and
  ``visible_events`` for ITS viewer (the seat, or ``"spectator"``); the player's buttons are
  ``legal_commands(actor=seat)``. Commands are executed with ``actor=seat``.
- Refused requests (a wrong or revoked token, another seat's or game's command, a stale seq) are logged
  without the token on the ``sportmafia.online`` logger and change nothing. Wrong tokens and codes are
  rate-limited per client address.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import logging
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import segno
from fastapi import APIRouter, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketState

from ..engine import Event, Game, RuleViolation, Views, changes_phase, command_from_json, view
from ..engine.describe import HOW_NAMES, RESULT_NAMES, ROLE_NAMES, STEP_NAMES, TEAM_NAMES, t
from ..store import GameLocked, GameNotFound, StaleSequence, Store, UserRecord
from ..store import online as db
from .access import game_access
from .auth import StoreDep, UserDep
from .edge import Id as SeatInt
from .edge import SeatNo
from .errors import RULE_VIOLATION_STATUS, ApiError, forbidden, game_not_found
from .i18n import request_lang
from .live import (
    Hub,
    HubDep,
    Subscriber,
    app_state,
    dumps,
    feed_message,
    get_hub,
    run_reader,
    run_writer,
)
from .pages import _render, club_game
from .responses import download
from .schemas import CommandJson
from .security import LoginLimiter
from .socket_guard import JunkGuard, check_replies, finish, limits_of, origin_matches, receive_text

log = logging.getLogger("sportmafia.online")

TOKEN_HEADER = "X-Play-Token"
JOIN_HEADER = "X-Join-Secret"
STREAM_HEADER = "X-Stream-Token"
PING_SECONDS = 20.0
HELLO_SECONDS = 10.0
MAX_MESSAGE = 1024
HOST_ROLES = ("admin", "host")
JUDGE_ROLES = ("admin", "judge")

CLOSE_NOT_AUTHORIZED = 4401
CLOSE_FORBIDDEN_ORIGIN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_INVALID = 4422
CLOSE_TOO_MANY = 4429
CLOSE_WATCH_CLOSED = 4410  # not final: the page retries, and follows the game again once the table is reopened
WATCH_CLOSED = ("watch-closed", "The judge has closed this table to observers.",
                "Наблюдение за столом закрыто судьёй.")

router = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", tags=["online"])

GameId = Annotated[str, PathParam(max_length=64)]
Code = Annotated[str, PathParam(min_length=1, max_length=16)]


# ------------------------------------------------------------------------------------------ the log filter
_SECRET_PATH = re.compile(r"(/(?:play|stream)/)[^/?#\s\"]+")


def mask(text: str) -> str:
    """A path or log line with the tokens of ``/play/{token}`` and ``/stream/{token}`` replaced by ``***``."""
    return _SECRET_PATH.sub(r"\1***", text)


class TokenLogFilter(logging.Filter):
    """Masks the tokens in log records (uvicorn's access log prints every request's path)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(mask(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = mask(record.msg)
        return True


_FILTER = TokenLogFilter()


class SocketAccessFilter(logging.Filter):
    """Drops uvicorn's access line for each socket opened or refused (``'... - "WebSocket /ws/play" [accepted]'``,
    logged at info level on ``uvicorn.error``): every new game of an online table opens one per seat and
    spectator, thousands of lines per round of games, each formatted and written on the event loop. They are
    access-log lines, so the server keeps them only with ``--access-log`` (``sportmafia serve``); the app's own
    warnings about refused links stay."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno <= logging.INFO and isinstance(record.msg, str)
                    and record.msg.startswith('%s - "WebSocket %s"'))


SOCKET_ACCESS_FILTER = SocketAccessFilter()


def install_log_filter() -> None:
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn"):
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)


# ------------------------------------------------------------------------------------------ helpers
def limiter_of(app: FastAPI) -> LoginLimiter:
    """The app's limiter of wrong tokens and codes (per client address): 20 failures in 5 minutes."""
    return app_state(app, "online_limiter", lambda: LoginLimiter(max_failures=20, window=300.0))




def _address(client: Any) -> str:
    return f"online:{client.host if client else 'unknown'}"


def _too_many(wait: float) -> ApiError:
    seconds = max(1, int(wait + 0.999))
    return ApiError(429, "too-many-attempts", f"Too many wrong links or codes; try again in {seconds} s.",
                    f"Слишком много неверных ссылок или кодов; попробуйте через {seconds} с.",
                    headers={"Retry-After": str(seconds)})


def _check_limit(request: Request) -> str:
    key = _address(request.client)
    wait = limiter_of(request.app).retry_after(key)
    if wait is not None:
        raise _too_many(wait)
    return key


def _bad_link() -> ApiError:
    return ApiError(401, "bad-link", "This link is not valid: it was revoked or replaced. Ask the host for a new one.",
                    "Ссылка недействительна: её отозвали или заменили. Попросите у ведущего новую.")


def _no_table() -> ApiError:
    return ApiError(404, "no-table", "No online table has this code.", "Онлайн-стола с таким кодом нет.")


def seat_auth(request: Request) -> db.SeatAuth:
    """The seat of the request's ``X-Play-Token`` (401, counted by the limiter, otherwise)."""
    key = _check_limit(request)
    store: Store = request.app.state.store
    token = request.headers.get(TOKEN_HEADER, "")
    auth = db.resolve_token(store, token) if token else None
    if auth is None:
        limiter_of(request.app).failed(key)
        log.warning("online: refused a request with an unknown or revoked seat token from %s", key[7:])
        raise _bad_link()
    return auth


def _own(store: Store, user: UserRecord, game_id: str) -> None:
    game_access(store, user, game_id)  # the game's host, or a judge or admin not playing in it; else 404


def _need_role(user: UserRecord, roles: tuple[str, ...], en: str, ru: str) -> None:
    if user.role not in roles:
        raise forbidden(en, ru)


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def qr_svg(text: str) -> str:
    """An SVG QR code of ``text`` (segno; black on white, with its quiet zone)."""
    buf = io.BytesIO()
    segno.make(text, error="m").save(buf, kind="svg", scale=4, xmldecl=False, svgns=True, dark="#000",
                                     light="#fff")
    return buf.getvalue().decode("ascii")


# ------------------------------------------------------------------------------------------ payloads
def payload(kind: str, views: Views, viewer: str | int, since: int) -> dict[str, Any] | None:
    """The one builder of every message sent to a player or spectator: the engine's view and the viewer's feed
    from his entry ``since`` (``live.feed_message``: numbered in his own feed, and an ``events`` message only
    when it has grown); for a seat also the commands it may send now."""
    out = feed_message(kind, views, viewer, since)
    if out is not None and isinstance(viewer, int):
        out["legal"] = [c.to_json() for c in views.game.legal_commands(viewer)]
    return out


def public_game_key(game_id: str) -> str:
    """What a spectator's socket calls the game it follows (``{"type": "table", "game": ...}``), so that his
    page, reconnecting, says which game its seq is of: a digest, since the game's id itself opens the game to
    any user of its club (``GET /api/games/{id}``)."""
    return hashlib.sha256(b"sportmafia-table-game:" + game_id.encode()).hexdigest()[:16]


def _code_game(store: Store, code: str) -> str | None:
    tab = db.table_by_code(store, code)
    return None if tab is None or tab.watch_closed else tab.game_id  # closed: its sockets re-read the table


# ------------------------------------------------------------------------------------------ connections
@dataclass(eq=False)
class _Conn:
    websocket: WebSocket
    loop: asyncio.AbstractEventLoop
    sub: Subscriber
    game_id: str
    viewer: str | int
    sent: int  # the next number of the viewer's feed the client will get
    at: int  # the game's next seq when the client was last sent something, or found nothing new
    auth: db.SeatAuth | None = None  # a player's socket: the seat its link opens
    revoked: bool = False
    code: str | None = None  # a spectator's socket: the table code it follows from game to game

    @property
    def token_id(self) -> int | None:
        return None if self.auth is None else self.auth.token_id

    def revoke(self) -> None:
        self.revoked = True
        self.sub.wake.set()


class Registry:
    """The open sockets of players and spectators in this process (to close a revoked seat's at once, and to
    show the host who is connected), indexed by game and by link."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_game: dict[str, set[_Conn]] = {}
        self._by_token: dict[int, set[_Conn]] = {}

    def add(self, conn: _Conn) -> None:
        with self._lock:
            self._by_game.setdefault(conn.game_id, set()).add(conn)
            if conn.token_id is not None:
                self._by_token.setdefault(conn.token_id, set()).add(conn)

    def remove(self, conn: _Conn) -> None:
        with self._lock:
            _discard(self._by_game, conn.game_id, conn)
            if conn.token_id is not None:
                _discard(self._by_token, conn.token_id, conn)

    def revoke(self, token_ids: list[int]) -> int:
        """Close the sockets opened with these tokens; returns how many."""
        with self._lock:
            conns = [c for t in set(token_ids) for c in self._by_token.get(t, ())]
        for c in conns:
            c.loop.call_soon_threadsafe(c.revoke)
        return len(conns)

    def connected(self, game_id: str) -> dict[int, int]:
        """Open sockets per seat of the game."""
        out: dict[int, int] = {}
        with self._lock:
            for c in self._by_game.get(game_id, ()):
                if isinstance(c.viewer, int):
                    out[c.viewer] = out.get(c.viewer, 0) + 1
        return out

    def spectators(self, game_id: str) -> int:
        with self._lock:
            return sum(1 for c in self._by_game.get(game_id, ()) if not isinstance(c.viewer, int))


def _discard(index: dict[Any, set[_Conn]], key: Any, conn: _Conn) -> None:
    group = index.get(key)
    if group is not None:
        group.discard(conn)
        if not group:
            del index[key]


def registry_of(app: FastAPI) -> Registry:
    def make() -> Registry:
        reg = Registry()
        get_hub(app).revoke_handler = reg.revoke  # links revoked by another process (through Redis)
        return reg
    return app_state(app, "online", make)


def _revoke(app: FastAPI, game_id: str, token_ids: list[int]) -> int:
    """Close the sockets opened with these (just revoked) links: here at once, and in the other processes at
    once through Redis when it links them (else at their next keepalive). Returns how many closed here."""
    get_hub(app).publish_revoked(game_id, token_ids)
    return registry_of(app).revoke(token_ids)


def _error(code: str, en: str, ru: str) -> dict[str, Any]:
    return {"type": "error", "error": {"code": code, "en": en, "ru": ru}}


async def _refuse(websocket: WebSocket, close: int, code: str, en: str, ru: str, accepted: bool = False) -> None:
    if not accepted:
        await websocket.accept()
    with contextlib.suppress(Exception):
        await websocket.send_json(_error(code, en, ru))
        await websocket.close(code=close, reason=code)


def _since(value: Any) -> int | None:
    if value is None:
        return 0
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value < 10**9 else None
    if isinstance(value, str) and value.isdigit() and len(value) <= 9:
        return int(value)
    return None


async def _serve(websocket: WebSocket, game_id: str, viewer: str | int, since: int,
                 auth: db.SeatAuth | None, accepted: bool, head: int, code: str | None = None) -> bool:
    """Follow the game for ``viewer``: a ``state`` message, then ``events`` with only the new events. ``head``:
    the game's next seq, read with the link or the table before subscribing; a move made since then is either
    in the hub's known head (told before the subscription) or wakes the socket (told after it). ``code``: a
    spectator's socket that follows the table code: its ``state`` comes after ``{"type": "table", "code",
    "game"}``, and it returns True (the socket still open) when the code passes to another game."""
    app = websocket.app
    store: Store = app.state.store
    hub = get_hub(app)
    reg = registry_of(app)
    sub = hub.subscribe(game_id)
    conn: _Conn | None = None
    try:
        if code is not None and hub.code_moved(game_id, code) is not None:
            return True  # passed on between the code's read and the subscription
        at_least = max(head, hub.known_head(game_id))
        n, text, cursor = await hub.render(store, game_id, at_least, (payload, "state", viewer, since))
        if since > cursor or text is None:
            await _refuse(websocket, CLOSE_INVALID, "invalid",
                          f"since is at most the game's next seq ({cursor}).",
                          f"since не больше номера следующего события игры ({cursor}).", accepted)
            return False
        if not accepted:
            await websocket.accept()
        conn = _Conn(websocket, asyncio.get_running_loop(), sub, game_id, viewer, cursor, n, auth, code=code)
        reg.add(conn)
        if code is not None:
            await websocket.send_text(dumps({"type": "table", "code": code, "game": public_game_key(game_id)}))
        await websocket.send_text(text)
        timer = await hub.stored_timer(game_id)
        if timer is not None:
            sub.timer_set(timer)
        sender = asyncio.create_task(_send_loop(conn, store, hub))
        receiver = asyncio.create_task(_receive_loop(conn, store, hub))
        sub.on_stall = sender.cancel
        return await finish(websocket, sender, receiver, sub, _who(conn), log) is True
    except (WebSocketDisconnect, GameNotFound):
        return False
    finally:
        if conn is not None:
            reg.remove(conn)
        hub.unsubscribe(sub)


async def _send_loop(conn: _Conn, store: Store, hub: Hub) -> bool:
    """Sends what the socket's client lacks, as the game moves on; returns True when a spectator's table code
    passed to another game (the socket then follows it)."""
    ws, sub = conn.websocket, conn.sub
    while True:
        await sub.wake.wait()
        sub.wake.clear()
        if sub.ping_due:
            sub.ping_due = False
            # revoked by another process, without Redis to say so at once: caught at the keepalive
            if conn.token_id is not None and conn.token_id not in await hub.shared(
                    ("tokens", conn.game_id), db.live_token_ids, store, conn.game_id):
                conn.revoked = True
            # the same for a table code passed to another game
            elif conn.code is not None and await hub.shared(("code", conn.code), _code_game, store,
                                                             conn.code) != conn.game_id:
                sub.codes_left.add(conn.code)
            else:
                await ws.send_text(dumps({"type": "ping", "next_seq": conn.sent, "now": time.time()}))
        while sub.replies:  # first: the answer to a command refused because its link was just revoked
            await ws.send_text(dumps(sub.replies.pop(0)))
        if conn.revoked:
            await ws.send_json(_error("revoked", "This link was revoked or replaced by the host.",
                                      "Ведущий отозвал или заменил эту ссылку."))
            await ws.close(code=CLOSE_NOT_AUTHORIZED, reason="revoked")
            return False
        if sub.check_head:
            sub.check_head = False
            head = await hub.head(store, conn.game_id)
            if head > sub.hint:
                sub.hint = head
        if sub.hint > conn.at:
            n, text, cursor = await hub.render(store, conn.game_id, sub.hint,
                                               (payload, "events", conn.viewer, conn.sent))
            if text is not None and cursor > conn.sent:
                await ws.send_text(text)
                conn.sent = cursor
            conn.at = max(conn.at, n)
            sub.hint = max(sub.hint, conn.at)
        if sub.timer is not None:
            timer, sub.timer = sub.timer, None
            await ws.send_text(dumps({**timer, "now": time.time()}))
        if conn.code is not None and conn.code in sub.codes_left:
            return True


def _who(conn: _Conn) -> str:
    """How the log names a socket (never with its token): ``seat 3 of game X (address)``."""
    who = f"seat {conn.viewer}" if isinstance(conn.viewer, int) else "a spectator"
    client = conn.websocket.client
    return f"{who} of game {conn.game_id} ({client.host if client else 'unknown'})"


async def _receive_loop(conn: _Conn, store: Store, hub: Hub) -> None:
    """What a client sends: keepalive pings, and on a player's socket his commands (``{"type": "command",
    "game_id", "command", "expected_seq", "command_id"}``, the body of ``POST /api/play/commands``), executed
    one at a time as his seat, each answered with ``ack`` or ``refused``. Anything else is junk: answered
    with ``bad-message``, counted, and summed up in the log once a minute (socket_guard)."""
    ws = conn.websocket
    limits = limits_of(ws.app)
    guard = JunkGuard(limits, log, _who(conn))
    try:
        while True:
            text = await receive_text(ws)
            message: Any = None
            if text is not None and len(text) <= MAX_MESSAGE:
                with contextlib.suppress(ValueError):
                    message = json.loads(text)
            if isinstance(message, dict) and message.get("type") == "ping" and len(message) == 1:
                continue
            if conn.auth is not None and isinstance(message, dict) and message.get("type") == "command":
                await _socket_command(conn, conn.auth, message, store, hub)
            else:
                what = "a binary frame" if text is None else "a message it does not take"
                guard.junk(what)
                conn.sub.reply(_bad_message(conn.auth is not None, text is None))
            await check_replies(conn.sub.replies, limits)
    finally:
        guard.flush()


def _bad_message(player: bool, binary: bool) -> dict[str, Any]:
    if binary:
        return _error("bad-message", "A message is JSON text, not a binary frame.",
                      "Сообщение — текст JSON, а не двоичный кадр.")
    if player:
        return _error("bad-message", 'This socket takes only {"type": "command", ...} and pings.',
                      'Это соединение принимает только {"type": "command", ...} и пинги.')
    return _error("bad-message", "A spectator's socket only receives.", "Соединение зрителя только принимает.")


async def _socket_command(conn: _Conn, auth: db.SeatAuth, message: dict[str, Any], store: Store, hub: Hub) -> None:
    """One command from a player's socket, answered on it: ``{"type": "ack", "command_id",
    "replayed"}`` or ``{"type": "refused", "command_id", "status", "error": {...}}``, with the HTTP route's
    statuses and errors. A revoked link's command is refused even if it came before its socket was closed."""
    raw_id = message.get("command_id")
    command_id = raw_id if isinstance(raw_id, str) and len(raw_id) <= 40 else None
    status, body = 200, {}
    try:
        if conn.revoked:
            raise _bad_link()
        try:
            parsed = PlayCommandIn.model_validate({k: v for k, v in message.items() if k != "type"})
        except ValidationError as exc:
            where = "; ".join(f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors()[:5])
            command = message.get("command")
            _refused(auth, str(command.get("type"))[:40] if isinstance(command, dict) else "?", "invalid")
            raise ApiError(422, "invalid", f"The message is not valid: {where}.",
                           f"Сообщение неверно: {where}.") from None
        app: FastAPI = conn.websocket.app
        result = await run_writer(app, execute_play, auth, parsed, store, hub)
        body = {"type": "ack", "command_id": parsed.command_id, **result}
    except ApiError as exc:
        status, body = exc.status, {"type": "refused", "command_id": command_id, "status": exc.status, **exc.body()}
    except RuleViolation as exc:
        status, body = RULE_VIOLATION_STATUS, {"type": "refused", "command_id": command_id,
                                               "status": RULE_VIOLATION_STATUS, "error": exc.to_json()}
    except GameNotFound:
        status, body = 404, {"type": "refused", "command_id": command_id, "status": 404, **game_not_found().body()}
    conn.sub.reply(body)
    if status == 401:  # the link was revoked meanwhile: the socket ends too
        conn.revoke()


@router.websocket("/ws/play")
async def play_socket(websocket: WebSocket) -> None:
    """A player's socket: the first message is ``{"type": "hello", "token": ..., "since": n}``."""
    origin = websocket.headers.get("origin")
    if origin is not None and not origin_matches(origin, websocket.headers.get("host")):
        await _refuse(websocket, CLOSE_FORBIDDEN_ORIGIN, "forbidden-origin",
                      "This socket opens only from this site's own pages.", "Это соединение открывается только со страниц сайта.")
        return
    key = _address(websocket.client)
    limiter = limiter_of(websocket.app)
    wait = limiter.retry_after(key)
    if wait is not None:
        await _refuse(websocket, CLOSE_TOO_MANY, "too-many-attempts", "Too many wrong links; try again later.",
                      "Слишком много неверных ссылок; попробуйте позже.")
        return
    await websocket.accept()
    text: str | None = None  # a binary frame is no hello either
    try:
        with contextlib.suppress(TimeoutError):
            text = await asyncio.wait_for(receive_text(websocket), timeout=HELLO_SECONDS)
    except WebSocketDisconnect:
        return
    hello: Any = None
    if text and len(text) <= MAX_MESSAGE:
        with contextlib.suppress(ValueError):
            hello = json.loads(text)
    if not isinstance(hello, dict) or hello.get("type") != "hello" or not isinstance(hello.get("token"), str) \
            or set(hello) - {"type", "token", "since"}:
        await _refuse(websocket, CLOSE_INVALID, "invalid",
                      'The first message is {"type": "hello", "token": ..., "since": n}.',
                      'Первое сообщение — {"type": "hello", "token": ..., "since": n}.', accepted=True)
        return
    since = _since(hello.get("since"))
    store: Store = websocket.app.state.store
    seat = await run_reader(db.resolve_seat, store, hello["token"])
    if seat is None:
        limiter.failed(key)
        log.warning("online: refused a socket with an unknown or revoked seat token from %s", key[7:])
        await _refuse(websocket, CLOSE_NOT_AUTHORIZED, "bad-link",
                      "This link is not valid: it was revoked or replaced. Ask the host for a new one.",
                      "Ссылка недействительна: её отозвали или заменили. Попросите у ведущего новую.", accepted=True)
        return
    if since is None:
        await _refuse(websocket, CLOSE_INVALID, "invalid", "since is a seq (a whole number from 0).",
                      "since — номер события (целое число от 0).", accepted=True)
        return
    auth, head = seat
    await _serve(websocket, auth.game_id, auth.seat, since, auth, accepted=True, head=head)


@router.websocket("/ws/watch/{code}")
async def watch_socket(websocket: WebSocket, code: str) -> None:
    """A spectator's socket (public facts only): ``/ws/watch/{code}?since=n&game=k``. It follows the table
    code: when the code passes to the table's next game, the socket goes on with that game (``table``, then
    its ``state``). ``game``: the key of the game that ``since`` is of (the last ``table`` message's); when
    the code is on another game now, ``since`` is ignored and the client gets that game from its start."""
    key = _address(websocket.client)
    limiter = limiter_of(websocket.app)
    if limiter.retry_after(key) is not None:
        await _refuse(websocket, CLOSE_TOO_MANY, "too-many-attempts", "Too many wrong codes; try again later.",
                      "Слишком много неверных кодов; попробуйте позже.")
        return
    since = _since(websocket.query_params.get("since"))
    game_key = websocket.query_params.get("game")
    store: Store = websocket.app.state.store
    tab = await run_reader(db.table_by_code, store, code) if len(code) <= 16 else None
    if tab is None:
        limiter.failed(key)
        await _refuse(websocket, CLOSE_NOT_FOUND, "no-table", "No online table has this code.",
                      "Онлайн-стола с таким кодом нет.")
        return
    if since is None:
        await _refuse(websocket, CLOSE_INVALID, "invalid", "since is a seq (a whole number from 0).",
                      "since — номер события (целое число от 0).")
        return
    if tab.watch_closed:  # B.observers
        await _refuse(websocket, CLOSE_WATCH_CLOSED, *WATCH_CLOSED)
        return
    if game_key is not None and game_key != public_game_key(tab.game_id):
        since = 0  # his seq is of the table's previous game
    accepted = False
    while await _serve(websocket, tab.game_id, "spectator", since, None, accepted, tab.next_seq, code=tab.code):
        accepted = accepted or websocket.application_state == WebSocketState.CONNECTED
        moved = await run_reader(db.table_by_code, store, tab.code)
        if moved is None:  # its game was deleted
            await _refuse(websocket, CLOSE_NOT_FOUND, "no-table", "No online table has this code.",
                          "Онлайн-стола с таким кодом нет.", accepted)
            return
        if moved.game_id == tab.game_id:  # the pass told of was undone since (by a process that could not say so)
            get_hub(websocket.app).forget_code_move(tab.game_id, tab.code)
        if moved.watch_closed:  # closed to observers meanwhile (observers.py tells the sockets so)
            await _refuse(websocket, CLOSE_WATCH_CLOSED, *WATCH_CLOSED, accepted=accepted)
            return
        tab, since = moved, 0


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
                await play_socket(WebSocket(scope, receive, send))
                return
            code = path[len("/ws/watch/"):]
            if path.startswith("/ws/watch/") and code and "/" not in code:
                await watch_socket(WebSocket(scope, receive, send), code)
                return
        await self.app(scope, receive, send)


# ------------------------------------------------------------------------------------------ the host's API
def _table_json(request: Request, store: Store, tab: db.TableRecord, reg: Registry) -> dict[str, Any]:
    linked = db.linked_seats(store, tab.game_id)
    connected = reg.connected(tab.game_id)
    names = store.game(tab.game_id).names
    base = _base(request)
    return {
        "game_id": tab.game_id, "code": tab.code, "players": tab.players,
        "join_url": f"{base}/join/{tab.code}", "watch_url": f"{base}/watch/{tab.code}",
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


def _table_or_404(store: Store, game_id: str) -> db.TableRecord:
    tab = db.table(store, game_id)
    if tab is None:
        raise ApiError(404, "no-table", "This game is not open for online play.", "Эта игра не открыта для онлайн-игры.")
    return tab


_HOST_ONLY = ("Only a host or an admin runs the online table.", "Онлайн-столом управляет только ведущий или администратор.")


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
    _own(store, user, game_id)
    _need_role(user, HOST_ROLES, *_HOST_ONLY)
    if code is None:
        tab = db.open_table(store, game_id, user.id)
    else:
        try:
            tab, before = db.take_code(store, game_id, code, user.id)
        except db.OnlineRefused as exc:
            if exc.code == "in-play":
                raise ApiError(409, "in-play", f"The game at table {code.upper()} is still being played: its "
                               "code passes to the next game once it is over.",
                               f"Игра за столом {code.upper()} ещё идёт: код стола перейдёт к следующей игре, "
                               "когда она закончится.") from None
            raise ApiError(404, "no-table", "No online table of this club has this code.",
                           "Онлайн-стола клуба с таким кодом нет.") from None
        if before is not None:
            get_hub(request.app).publish_code_moved(before, tab.code, game_id)
    return _table_json(request, store, tab, registry_of(request.app))


@api.get("/games/{game_id}/online", summary="The online table: seats, links, connections, join requests")
def get_online(game_id: GameId, request: Request, user: UserDep, store: StoreDep) -> dict[str, Any]:
    _own(store, user, game_id)
    return _table_json(request, store, _table_or_404(store, game_id), registry_of(request.app))


def _seat_in(tab: db.TableRecord, seat: int) -> None:
    if not 1 <= seat <= tab.players:
        raise ApiError(422, "bad-seat", f"There is no seat {seat} at this table.", f"Места {seat} за этим столом нет.")


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
    _own(store, user, game_id)
    _need_role(user, HOST_ROLES, *_HOST_ONLY)
    tab = _table_or_404(store, game_id)
    for seat in seats or ():
        _seat_in(tab, seat)
    issued = db.issue_seats(store, game_id, seats)
    revoked = [t for _token, _auth, old in issued for t in old]
    closed = _revoke(request.app, game_id, revoked)
    log.info("online: seats %s of game %s got new links (%s old links revoked, %s sockets closed)",
             [auth.seat for _token, auth, _old in issued], game_id, len(revoked), closed)
    base = _base(request)
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
    _own(store, user, game_id)
    _need_role(user, HOST_ROLES, *_HOST_ONLY)
    tab = _table_or_404(store, game_id)
    _seat_in(tab, seat)
    revoked = db.revoke_seat(store, game_id, seat)
    closed = _revoke(request.app, game_id, revoked)
    log.info("online: seat %s of game %s: link revoked (%s sockets closed)", seat, game_id, closed)
    return {"seat": seat, "revoked": len(revoked)}


class StreamIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    delay_minutes: int = Field(ge=1, le=db.MAX_STREAM_DELAY)


@api.post("/games/{game_id}/online/stream", summary="The judge's open stream: a new link with its delay")
def open_stream(game_id: GameId, body: StreamIn, request: Request, user: UserDep, store: StoreDep) -> dict[str, Any]:
    _own(store, user, game_id)
    _need_role(user, JUDGE_ROLES, "Only a judge or an admin opens the open stream.",
               "Открытую трансляцию открывает только судья или администратор.")
    _table_or_404(store, game_id)
    token = db.set_stream(store, game_id, body.delay_minutes)
    return {"url": f"{_base(request)}/stream/{token}", "token": token, "delay_minutes": body.delay_minutes}


@api.delete("/games/{game_id}/online/stream", summary="Close the open stream (its link ends)")
def close_stream(game_id: GameId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    _own(store, user, game_id)
    _need_role(user, JUDGE_ROLES, "Only a judge or an admin closes the open stream.",
               "Закрыть открытую трансляцию может только судья или администратор.")
    db.stream_off(store, game_id)
    return {"on": False}


@api.get("/games/{game_id}/online/join-qr.svg", summary="The QR code of the table's join page",
         response_class=Response, responses=download("image/svg+xml", "The QR code."))
def join_qr(game_id: GameId, request: Request, user: UserDep, store: StoreDep) -> Response:
    _own(store, user, game_id)
    tab = _table_or_404(store, game_id)
    return Response(qr_svg(f"{_base(request)}/join/{tab.code}"), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


# ------------------------------------------------------------------------------------------ players' API
class PlayCommandIn(BaseModel):
    """A player's command: the game it is meant for, the number of his feed it was decided on (the ``next_seq``
    of the last message he had: his own feed's, never the log's) and a client id."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game_id: str = Field(min_length=1, max_length=64)
    command: CommandJson
    expected_seq: int = Field(ge=0)
    command_id: str = Field(min_length=1, max_length=40)


def _refused(auth: db.SeatAuth, what: str, code: str) -> None:
    log.warning("online: refused %s from seat %s of game %s: %s", what, auth.seat, auth.game_id, code)


def _same_phase(since_seen: Sequence[Event]) -> bool:
    """Whether the game is still in the phase the player saw: every event recorded since he decided is another
    player's act or a foul (no new step, speaker, candidate, vote, departure or undo)."""
    return not changes_phase(since_seen)


@api.post("/play/commands", summary="A player's command (X-Play-Token), executed as his seat")
async def play_command(body: PlayCommandIn, request: Request, store: StoreDep, hub: HubDep) -> JSONResponse:
    result: dict[str, Any] = await run_writer(request.app, _play_command, body, request, store, hub)
    return JSONResponse(result)


def _play_command(body: PlayCommandIn, request: Request, store: Store, hub: Hub) -> dict[str, Any]:
    return execute_play(seat_auth(request), body, store, hub)


def execute_play(auth: db.SeatAuth, body: PlayCommandIn, store: Store, hub: Hub) -> dict[str, Any]:
    """A player's command, from ``POST /api/play/commands`` or his socket, executed as his seat: ``{"replayed"}``, or :class:`ApiError` / the engine's ``RuleViolation``; every refusal is logged (without the
    token) and changes nothing. The link must still be live when the command is written."""
    kind = body.command.type
    if body.game_id != auth.game_id:
        _refused(auth, kind, "wrong-game")
        raise ApiError(403, "wrong-game", "This link is for another game.", "Эта ссылка — для другой игры.")
    try:
        command = command_from_json(body.command.model_dump())
    except ValueError as exc:
        _refused(auth, kind, "bad-command")
        raise ApiError(422, "bad-command", f"Not a valid command: {exc}.", f"Неверная команда: {exc}.") from None
    if command.actor_seat() != auth.seat:
        _refused(auth, kind, "not-yours")
        raise ApiError(403, "not-yours", "You act only for your own seat, and only with a player's commands.",
                       "Вы действуете только за своё место и только командами игрока.")
    try:
        # the seat's own namespace of command ids: a player never gets an answer meant for another seat's id or
        # the host's; others who acted meanwhile in the same phase (hands raised at once) do not make it stale
        result = store.append(auth.game_id, command, expected_seq=body.expected_seq,
                              command_id=f"p{auth.seat}:{body.command_id}", actor=auth.seat, rebase=_same_phase,
                              check=db.link_still_live(auth.token_id), feed_of=auth.seat)
    except db.LinkRevoked:
        _refused(auth, kind, "bad-link")
        raise _bad_link() from None
    except StaleSequence:
        _refused(auth, kind, "stale")  # the log's next seq is not told: it counts what the player may not see
        raise ApiError(409, "stale", "The game has moved on; look at the table again and decide.",
                       "Игра ушла вперёд; посмотрите на стол и решите заново.") from None
    except RuleViolation as exc:
        _refused(auth, kind, exc.code)
        raise
    except GameLocked:
        _refused(auth, kind, "locked")
        raise ApiError(409, "locked", "The game is over and its sheet is signed.",
                       "Игра окончена, её лист подписан.") from None
    if not result.replayed:
        hub.publish(auth.game_id, result.next_seq)
    return {"replayed": result.replayed}


@api.get("/play/me", summary="Which seat of which game the X-Play-Token opens")
def play_me(request: Request, store: StoreDep) -> dict[str, Any]:
    auth = seat_auth(request)
    summary = store.game(auth.game_id)
    return {"game_id": auth.game_id, "seat": auth.seat, "name": summary.names[auth.seat - 1]}


# --- joining with the table code
def _table_by_code(request: Request, code: str) -> db.TableRecord:
    key = _check_limit(request)
    tab = db.table_by_code(request.app.state.store, code)
    if tab is None:
        limiter_of(request.app).failed(key)
        raise _no_table()
    return tab


# --- the judge's delayed open stream
def delayed_host_view(store: Store, game_id: str, delay_minutes: int) -> dict[str, Any]:
    """``view(game, "host")`` as it stood at the last event recorded at least ``delay_minutes`` ago."""
    count = db.seq_at(store, game_id, db.delayed_cutoff(delay_minutes))
    game = store.load(game_id)
    past = Game.from_events(game.rules, game.n, game.log[:count], game.names)
    return {"next_seq": count, "delay_minutes": delay_minutes, "view": view(past, "host")}


@api.get("/stream/state", summary="The open stream (X-Stream-Token): the host's view, delayed")
def stream_state(request: Request, store: StoreDep) -> dict[str, Any]:
    key = _check_limit(request)
    tab = db.resolve_stream(store, request.headers.get(STREAM_HEADER, ""))
    if tab is None:
        limiter_of(request.app).failed(key)
        raise _bad_link()
    return delayed_host_view(store, tab.game_id, tab.stream_delay)


# ------------------------------------------------------------------------------------------ pages
def _labels(lang: str) -> dict[str, Any]:
    return {
        "roles": {k: t(ROLE_NAMES, k, lang) for k in ROLE_NAMES},
        "teams": {str(k).lower(): t(TEAM_NAMES, k, lang) for k in TEAM_NAMES},
        "results": {k: t(RESULT_NAMES, k, lang) for k in RESULT_NAMES},
        "how": {k: t(HOW_NAMES, k, lang) for k in HOW_NAMES},
        "steps": {k: t(STEP_NAMES, k, lang) for k in STEP_NAMES},
    }


_PRIVATE = {"Referrer-Policy": "no-referrer", "Cache-Control": "no-store", "X-Robots-Tag": "noindex"}


def _private(response: HTMLResponse) -> HTMLResponse:
    response.headers.update(_PRIVATE)
    return response


def _link_page(request: Request, status: int, message: str) -> HTMLResponse:
    return _private(_render(request, "join.html", status=status, code=None, problem=message, user=None,
                            labels=_labels(request_lang(request))))


@router.get("/play/{token}")
def play_page(request: Request, token: Annotated[str, PathParam(max_length=256)]) -> Response:
    key = _address(request.client)
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
    return _private(_render(request, "play.html", user=None, game_id=auth.game_id, seat=auth.seat,
                            seat_name=summary.names[auth.seat - 1], labels=_labels(request_lang(request))))


@router.get("/join/{code}")
def join_page(request: Request, code: Code) -> Response:
    tab = _table_page_or_refusal(request, code)
    if isinstance(tab, Response):
        return tab
    return _private(_render(request, "join.html", user=None, code=tab.code, problem=None,
                            labels=_labels(request_lang(request))))


def _table_page_or_refusal(request: Request, code: str) -> Any:
    """The online table with this code, or the page to answer instead: 429 while the client's address is
    rate-limited, 404 (counted as a failure) for an unknown code."""
    key = _address(request.client)
    limiter = limiter_of(request.app)
    if limiter.retry_after(key) is not None:
        return _link_page(request, 429, "too-many")
    tab = db.table_by_code(request.app.state.store, code)
    if tab is None:
        limiter.failed(key)
        return _link_page(request, 404, "no-table")
    return tab


def _watch_like(request: Request, code: str, template: str) -> Response:
    tab = _table_page_or_refusal(request, code)
    if isinstance(tab, Response):
        return tab
    return _render(request, template, user=None, code=tab.code, closed=tab.watch_closed,
                   labels=_labels(request_lang(request)))


@router.get("/watch/{code}")
def watch_page(request: Request, code: Code) -> Response:
    return _watch_like(request, code, "watch.html")


@router.get("/overlay/{code}")
def overlay_page(request: Request, code: Code) -> Response:
    return _watch_like(request, code, "overlay.html")


@router.get("/stream/{token}")
def stream_page(request: Request, token: Annotated[str, PathParam(max_length=256)]) -> Response:
    key = _address(request.client)
    limiter = limiter_of(request.app)
    if limiter.retry_after(key) is not None:
        return _link_page(request, 429, "too-many")
    tab = db.resolve_stream(request.app.state.store, token)
    if tab is None:
        limiter.failed(key)
        return _link_page(request, 404, "bad-link")
    return _private(_render(request, "watch.html", user=None, code=None, stream=True,
                            delay=tab.stream_delay, labels=_labels(request_lang(request))))


@router.get("/games/{game_id}/online")
def online_page(request: Request, game_id: GameId) -> Response:
    found = club_game(request, game_id)
    if isinstance(found, Response):
        return found
    user, summary = found
    return _render(request, "online.html", user=user, game_id=game_id, names=list(summary.names),
                   can_host=user.role in HOST_ROLES, can_judge=user.role in JUDGE_ROLES)


def install(app: FastAPI) -> None:
    """Register online play's routes and the access log's token mask (one line in ``create_app``)."""
    from . import joins, observers  # the join requests' and observers' routes (they use this module's helpers)

    install_log_filter()
    app.include_router(joins.api)
    app.include_router(observers.api)
    app.include_router(api)
    app.include_router(router)
