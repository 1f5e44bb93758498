"""A player's side of online play (docs/online.md): his seat's link authenticates his requests (the
``X-Play-Token`` header) and his socket (``/ws/play``, the token in its first message, never in a cookie: no
other site can act for him); his commands go over that socket or by ``POST /api/play/commands`` when it is
down, executed as his seat (``actor=seat``); either way the link must still be live when the command is
written. The socket itself is the live layer's (``sportmafia.live.online.PlayerSocket``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...engine import Event, RuleViolation, changes_phase, command_from_json
from ...i18n import msg
from ...live import Hub, get_hub, run_batched, run_reader, run_writer
from ...live.guard import receive_text
from ...live.online import PlayerSocket, registry_of
from ...live.socket import (
    CLOSE_FORBIDDEN_ORIGIN,
    CLOSE_INVALID,
    CLOSE_NOT_AUTHORIZED,
    CLOSE_TOO_MANY,
    MAX_MESSAGE,
    refuse,
)
from ...services.table_bots import TEAM, BotsRefused, say, team_choice
from ...store import Append, AppendResult, GameLocked, GameNotFound, StaleSequence, Store
from ...store import online as db
from ...store.claims import bots_of, claims
from ..auth import StoreDep
from ..errors import RULE_VIOLATION_STATUS, ApiError, game_not_found
from ..limits import run_limit
from ..live import HubDep
from ..schemas import CommandJson
from ..socket_guard import origin_matches
from .common import (
    BAD_LINK,
    SINCE_NOT_SEQ,
    TOKEN_HEADER,
    address,
    bad_link,
    check_limit,
    limiter_of,
    parse_since,
)

log = logging.getLogger("sportmafia.online")

HELLO_SECONDS = 10.0

router = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", tags=["online"])


def seat_auth(request: Request) -> db.SeatAuth:
    """The seat of the request's ``X-Play-Token`` (401, counted by the limiter, otherwise)."""
    key = check_limit(request)
    store: Store = request.app.state.store
    token = request.headers.get(TOKEN_HEADER, "")
    auth = db.resolve_token(store, token) if token else None
    if auth is None:
        limiter_of(request.app).failed(key)
        log.warning("online: refused a request with an unknown or revoked seat token from %s", key[7:])
        raise bad_link()
    return auth


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
    auth = await run_reader(_seat_of, store, request)
    result: dict[str, Any] = await run_batched(request.app, lambda items: execute_plays(items, store, hub),
                                               (auth, body), game_id=body.game_id)
    return JSONResponse(result)


def _seat_of(store: Store, request: Request) -> db.SeatAuth:
    return seat_auth(request)


def execute_plays(items: Sequence[tuple[db.SeatAuth, PlayCommandIn]], store: Store,
                  hub: Hub) -> list[dict[str, Any] | Exception]:
    """Players' commands of one game, from ``POST /api/play/commands`` or their sockets (a vote's hands raised at
    once), each executed as its seat, in one transaction (:meth:`Store.append_many`), each in turn on the game
    the ones before it left. One answer each: ``{"replayed"}``, or the :class:`ApiError` or the engine's
    ``RuleViolation`` that refused it; every refusal is logged (without the token) and changes nothing. A
    player's link must still be live when his command is written."""
    outs: list[dict[str, Any] | Exception | None] = []
    appends: list[tuple[int, Append]] = []
    for i, (auth, body) in enumerate(items):
        try:
            appends.append((i, _play_append(store, auth, body)))
            outs.append(None)
        except ApiError as exc:
            outs.append(exc)
    if appends:
        game_id = items[appends[0][0]][0].game_id
        results = store.append_many(game_id, [a for _, a in appends])
        for (i, _), result in zip(appends, results, strict=True):
            auth, body = items[i]
            outs[i] = _play_answer(auth, body.command.type, result, hub)
    return [out for out in outs if out is not None]


def _play_append(store: Store, auth: db.SeatAuth, body: PlayCommandIn) -> Append:
    kind = body.command.type
    if body.game_id != auth.game_id:
        _refused(auth, kind, "wrong-game")
        raise ApiError(403, "wrong-game", msg("This link is for another game."))
    try:
        command = command_from_json(body.command.model_dump())
    except ValueError as exc:
        _refused(auth, kind, "bad-command")
        raise ApiError(422, "bad-command", msg("Not a valid command: %(error)s.", error=str(exc))) from None
    judge = team_choice(store, auth.game_id, auth.seat) if command.type in TEAM else None
    if judge is not None:
        # the black team's choice at a table the server runs: its leader makes it, recorded as the host would
        return Append(command, body.expected_seq, f"p{auth.seat}:{body.command_id}", actor=None,
                      rebase=_same_phase, check=db.link_still_live(auth.token_id), feed_of=auth.seat, judge=judge)
    if command.actor_seat() != auth.seat:
        _refused(auth, kind, "not-yours")
        raise ApiError(403, "not-yours", msg("You act only for your own seat, and only with a player's commands."))
    # the seat's own namespace of command ids: a player never gets an answer meant for another seat's id or the
    # host's; others who acted meanwhile in the same phase (hands raised at once) do not make it stale
    return Append(command, body.expected_seq, f"p{auth.seat}:{body.command_id}", actor=auth.seat,
                  rebase=_same_phase, check=db.link_still_live(auth.token_id), feed_of=auth.seat)


def _play_answer(auth: db.SeatAuth, kind: str, result: AppendResult | Exception, hub: Hub) -> dict[str, Any] | Exception:
    if isinstance(result, AppendResult):
        if not result.replayed:
            hub.publish(auth.game_id, result.next_seq, result.events)
        return {"replayed": result.replayed}
    if isinstance(result, db.LinkRevoked):
        _refused(auth, kind, "bad-link")
        return bad_link()
    if isinstance(result, StaleSequence):
        _refused(auth, kind, "stale")  # the log's next seq is not told: it counts what the player may not see
        return ApiError(409, "stale", msg("The game has moved on; look at the table again and decide."))
    if isinstance(result, RuleViolation):
        _refused(auth, kind, result.code)
    elif isinstance(result, BotsRefused):
        _refused(auth, kind, result.code)
        return ApiError(403, result.code, result.text)
    elif isinstance(result, GameLocked):
        _refused(auth, kind, "locked")
        return ApiError(409, "locked", msg("The game is over and its sheet is signed."))
    return result


class PlayClaimIn(BaseModel):
    """A claim of the player's speech (docs/bots.md, "Claims"): ``claim`` in the vocabulary's JSON form, its
    ``seat`` his own or left out."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game_id: str = Field(min_length=1, max_length=64)
    claim: dict[str, Any]
    command_id: str | None = Field(default=None, min_length=1, max_length=40)


class PlayPassIn(BaseModel):
    """The player is done deciding for now (his speech ends; no vote, shot or check from him) at a table the server
    runs: ``seen`` is the number of his feed he decided on (his last message's ``next_seq``)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game_id: str = Field(min_length=1, max_length=64)
    seen: int = Field(ge=0)
    command_id: str | None = Field(default=None, min_length=1, max_length=40)


def _own_game(auth: db.SeatAuth, game_id: str, what: str) -> None:
    if game_id != auth.game_id:
        _refused(auth, what, "wrong-game")
        raise ApiError(403, "wrong-game", msg("This link is for another game."))


async def make_claim(app: FastAPI, store: Store, hub: Hub, auth: db.SeatAuth, body: PlayClaimIn) -> dict[str, Any]:
    """Keep the player's claim (under the game's turn of writes) and tell every screen: ``{"claim": n}``."""
    _own_game(auth, body.game_id, "a claim")
    try:
        n, _said = await run_writer(app, say, store, auth.game_id, auth.seat, body.claim, game_id=auth.game_id)
    except BotsRefused as exc:
        _refused(auth, "a claim", exc.code)
        raise ApiError(422, exc.code, exc.text) from None
    except RuleViolation as exc:
        _refused(auth, "a claim", exc.code)
        raise
    except GameLocked:
        _refused(auth, "a claim", "locked")
        raise ApiError(409, "locked", msg("The game is over and its sheet is signed.")) from None
    hub.publish_claims(auth.game_id, n + 1)
    return {"claim": n}


def pass_turn(hub: Hub, auth: db.SeatAuth, body: PlayPassIn) -> dict[str, Any]:
    """Tell the table's bots' driver, wherever it runs, that the seat passes at its feed's ``seen``."""
    _own_game(auth, body.game_id, "a pass")
    hub.tell_table(auth.game_id, {"seat": auth.seat, "seen": body.seen})
    return {"passed": True}


@api.post("/play/claims", summary="A claim of the player's speech (X-Play-Token)")
async def play_claim(body: PlayClaimIn, request: Request, store: StoreDep, hub: HubDep) -> JSONResponse:
    auth = await run_reader(_seat_of, store, request)
    return JSONResponse(await make_claim(request.app, store, hub, auth, body))


@api.post("/play/pass", summary="The player passes at a table the server runs (X-Play-Token)")
async def play_pass(body: PlayPassIn, request: Request, store: StoreDep, hub: HubDep) -> JSONResponse:
    auth = await run_reader(_seat_of, store, request)
    return JSONResponse(pass_turn(hub, auth, body))


@api.get("/play/record", summary="The game's record with its claims, once it is over (X-Play-Token)")
def play_record(request: Request, store: StoreDep) -> dict[str, Any]:
    """The game record (docs/game-record.md) with the claims made beside it (``claims``), once the game is over:
    before, it would tell the roles (409 ``not-over``)."""
    auth = seat_auth(request)
    if store.game(auth.game_id).status != "over":
        raise ApiError(409, "not-over", msg("The game's record is given once the game is over."))
    record = store.record(auth.game_id)
    record["claims"] = [said.to_json() for said in claims(store, auth.game_id)]
    return record


@api.get("/play/me", summary="Which seat of which game the X-Play-Token opens")
def play_me(request: Request, store: StoreDep) -> dict[str, Any]:
    """The seat, its name, the table's size and the rules the game is played under (``RuleSet.options``: what
    an agent needs to start, docs/bots.md, "The open seat protocol"); whether the server runs the table and
    which seats bots play (the black team's choice is its leading person's or program's: ``bots.table``)."""
    auth = seat_auth(request)
    game = store.load(auth.game_id)
    bots = bots_of(store, auth.game_id)
    return {"game_id": auth.game_id, "seat": auth.seat, "name": game.names[auth.seat - 1], "players": game.n,
            "ruleset": game.rules.name, "rules": game.rules.options(),
            "server_runs": bots is not None and bots.runs_table, "bots": sorted(bots.agents) if bots else []}


async def socket_command(sock: PlayerSocket, message: dict[str, Any]) -> None:
    """One command from a player's socket, answered on it: ``{"type": "ack", "command_id",
    "replayed"}`` or ``{"type": "refused", "command_id", "status", "error": {...}}``, with the HTTP route's
    statuses and errors. A revoked link's command is refused even if it came before its socket was closed."""
    auth = sock.auth
    assert auth is not None
    raw_id = message.get("command_id")
    command_id = raw_id if isinstance(raw_id, str) and len(raw_id) <= 40 else None
    status, body = 200, {}
    kind = message.get("type")
    try:
        if sock.sub.ended:
            raise bad_link()
        if kind != "command":
            body = {"type": "ack", "command_id": command_id, **(await _socket_talk(sock, auth, message))}
            sock.sub.reply(body)
            return
        try:
            parsed = PlayCommandIn.model_validate({k: v for k, v in message.items() if k != "type"})
        except ValidationError as exc:
            command = message.get("command")
            _refused(auth, str(command.get("type"))[:40] if isinstance(command, dict) else "?", "invalid")
            raise ApiError(422, "invalid", msg("The message is not valid: %(where)s.", where=_where(exc))) from None
        app: FastAPI = sock.websocket.app
        result = await run_batched(app, lambda items: execute_plays(items, sock.store, sock.hub), (auth, parsed),
                                   game_id=auth.game_id)
        body = {"type": "ack", "command_id": parsed.command_id, **result}
    except ApiError as exc:
        status, body = exc.status, {"type": "refused", "command_id": command_id, "status": exc.status, **exc.body()}
    except RuleViolation as exc:
        status, body = RULE_VIOLATION_STATUS, {"type": "refused", "command_id": command_id,
                                               "status": RULE_VIOLATION_STATUS, "error": exc.to_json()}
    except GameNotFound:
        status, body = 404, {"type": "refused", "command_id": command_id, "status": 404, **game_not_found().body()}
    sock.sub.reply(body)
    if status == 401:  # the link was revoked meanwhile: the socket ends too
        sock.end()


async def _socket_talk(sock: PlayerSocket, auth: db.SeatAuth, message: dict[str, Any]) -> dict[str, Any]:
    """A claim or a pass from the player's socket (:func:`make_claim`, :func:`pass_turn`)."""
    fields = {k: v for k, v in message.items() if k != "type"}
    try:
        if message.get("type") == "claim":
            return await make_claim(sock.websocket.app, sock.store, sock.hub, auth, PlayClaimIn.model_validate(fields))
        return pass_turn(sock.hub, auth, PlayPassIn.model_validate(fields))
    except ValidationError as exc:
        _refused(auth, str(message.get("type")), "invalid")
        raise ApiError(422, "invalid", msg("The message is not valid: %(where)s.", where=_where(exc))) from None


def _where(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors()[:5])


@router.websocket("/ws/play")
async def play_socket(websocket: WebSocket) -> None:
    """A player's socket: the first message is ``{"type": "hello", "token": ..., "since": n}``."""
    origin = websocket.headers.get("origin")
    if origin is not None and not origin_matches(origin, websocket.headers.get("host")):
        await refuse(websocket, CLOSE_FORBIDDEN_ORIGIN, "forbidden-origin",
                     msg("This socket opens only from this site's own pages."))
        return
    key = address(websocket.client)
    limiter = limiter_of(websocket.app)
    wait = await run_limit(limiter.backend, limiter.retry_after, key)  # one read of Redis or the database
    if wait is not None:
        await refuse(websocket, CLOSE_TOO_MANY, "too-many-attempts", msg("Too many wrong links; try again later."))
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
        await refuse(websocket, CLOSE_INVALID, "invalid",
                     msg('The first message is {"type": "hello", "token": ..., "since": n}.'), accepted=True)
        return
    since = parse_since(hello.get("since"))
    store: Store = websocket.app.state.store
    seat = await run_reader(db.resolve_seat, store, hello["token"])
    if seat is None:
        await run_limit(limiter.backend, limiter.failed, key, read=False)
        log.warning("online: refused a socket with an unknown or revoked seat token from %s", key[7:])
        await refuse(websocket, CLOSE_NOT_AUTHORIZED, "bad-link", BAD_LINK, accepted=True)
        return
    if since is None:
        await refuse(websocket, CLOSE_INVALID, "invalid", SINCE_NOT_SEQ, accepted=True)
        return
    auth, head = seat
    app = websocket.app
    sock = PlayerSocket(websocket, store, get_hub(app), auth.game_id, auth.seat, accepted=True, auth=auth,
                        registry=registry_of(app), on_command=socket_command)
    await sock.follow(since, head)
