"""The one socket stack of every screen that follows a game (docs/online.md, "The live layer"): the host's
console and the table view (``/ws/games/{id}``, :mod:`.console`), the players (``/ws/play``) and the
spectators, the overlay included (``/ws/watch/{code}``, :mod:`.online`).

A :class:`Socket` follows one game for one viewer. :meth:`Socket.follow` subscribes to the hub, sends the
``state`` message, then runs two tasks until the client leaves or breaks a limit (:func:`.guard.finish`):

- the sender (:func:`send_loop`) sends what the client lacks as the game moves on: the keepalive ``ping``,
  the answers to the client's own messages, the viewer's new events (:mod:`.render`: only what he may see)
  and the host's timer, one message at a time, each event once;
- the receiver (:func:`receive_loop`) hands each frame to :meth:`Socket.take`; what a socket does not take is
  junk, answered with an error and counted (:class:`.guard.JunkGuard`).

The kinds of socket differ only in their hooks: what the keepalive checks (:meth:`Socket.keepalive`), what
the client may send (:meth:`Socket.take`), the error that ends the socket when its authorisation ends
(``ended``). Authentication stays in the web layer: it opens a socket for a viewer it has authorised (a login
session, a seat's link, a table code) and hands over what the socket checks again at its keepalive.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..i18n import Text, msg
from ..store import GameNotFound, Store, unavailable
from ..store.claims import claims
from .guard import JunkGuard, check_replies, finish, limits_of, receive_text
from .hub import Hub, Subscriber
from .render import Builder, claims_message, dumps

# close codes (4000-4999 are the application's): the reason is the error code
CLOSE_NOT_AUTHORIZED = 4401
"""Not logged in, a login session ended, or a seat's link not valid (revoked or replaced)."""
CLOSE_FORBIDDEN_ORIGIN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_WATCH_CLOSED = 4410
"""Not final: the page retries, and follows the game again once the table is reopened (B.observers)."""
CLOSE_INVALID = 4422
CLOSE_TOO_MANY = 4429
CLOSE_TRY_LATER = 1013
"""The database did not answer while the socket was being opened: the page retries (its cursor resumes)."""

RETRY_SECONDS = 1.0
"""While the database does not answer, an open socket stays open and reads again after this long."""
UNAVAILABLE = msg("The database is not answering; try again in a few seconds.")

MAX_MESSAGE = 1024
"""The longest message a client sends (bytes of text)."""

BINARY = msg("A message is JSON text, not a binary frame.")
"""The reason a binary frame is refused (every socket takes JSON text only)."""


def error(code: str, text: Text) -> dict[str, Any]:
    """A socket's error message: ``{"type": "error", "error": {"code", "en", "ru"}}``."""
    return {"type": "error", "error": {"code": code, **text.to_json()}}


async def refuse(websocket: WebSocket, close: int, code: str, text: Text, accepted: bool = False) -> None:
    """Accept the socket (unless ``accepted``), send the error and close it with ``close`` (the reason is the
    error's code)."""
    if not accepted:
        await websocket.accept()
    with contextlib.suppress(Exception):
        await websocket.send_json(error(code, text))
        await websocket.close(code=close, reason=code)


@dataclass(eq=False)
class Socket(ABC):
    """One socket following the game ``game_id`` for ``viewer`` ("host", "spectator" or a seat); the base of
    every kind (see the module's text)."""

    websocket: WebSocket
    store: Store
    hub: Hub
    game_id: str
    viewer: str | int
    sub: Subscriber = field(init=False)
    sent: int = 0  # the next number of the viewer's feed the client will get
    at: int = 0  # the game's next seq when the client was last sent something, or found nothing new
    accepted: bool = False  # the web layer accepted the socket already (to read a first message)
    code: str | None = None  # a spectator's socket: the table code it follows from game to game
    claims_sent: int = 0  # the number of the game's claims the client has
    guard: JunkGuard | None = None

    log: ClassVar[logging.Logger] = logging.getLogger("sportmafia.online")
    ended: ClassVar[dict[str, Any]] = error("ended", msg("This socket has ended."))
    """The error sent, before closing with 4401, when the socket's authorisation ends (``Subscriber.end``)."""
    closes_when_missing: ClassVar[bool] = False
    """Whether a keepalive that finds the game gone closes the socket with 4404 (else it just ends)."""

    @abstractmethod
    def builder(self) -> Builder:
        """What builds this socket's messages (:mod:`.render`)."""

    @property
    def who(self) -> str:
        """How the log names the socket (never with a token)."""
        client = self.websocket.client
        return f"{self.viewer} of game {self.game_id} ({client.host if client else 'unknown'})"

    # --- hooks
    def subscribed(self) -> None:  # noqa: B027 - a hook: doing nothing is the default
        """Just subscribed (``self.sub`` is set), before the first read."""

    def opened(self) -> list[dict[str, Any]]:
        """Accepted, before the ``state`` message; returns the messages to send before it."""
        return []

    def closed(self) -> None:  # noqa: B027 - a hook: doing nothing is the default
        """The socket's end (also when it was refused)."""

    async def keepalive(self) -> bool:
        """At each keepalive: check what may have changed elsewhere; True to send the ``ping``."""
        return True

    @abstractmethod
    async def take(self, text: str | None) -> bool:
        """One frame from the client (None: a binary frame); returns whether it was answered (an answer waits
        in ``sub.replies``). A frame the socket does not take is :meth:`junk`."""

    def junk(self, what: str, reply: dict[str, Any]) -> bool:
        """Count a junk frame (``what``: "a binary frame", ...) and answer it with ``reply``."""
        assert self.guard is not None
        self.guard.junk(what)
        self.sub.reply(reply)
        return True

    # --- the stack
    async def follow(self, since: int, head: int) -> bool:
        """Follow the game: a ``state`` message, then ``events`` with only the new events. ``head``: the game's
        next seq, read before subscribing; a move made since then is either in the hub's known head (told
        before the subscription) or wakes the socket (told after it). Returns True (the socket still open)
        when a spectator's table code passed to another game."""
        hub, store, ws = self.hub, self.store, self.websocket
        self.sub = sub = hub.subscribe(self.game_id)  # before the first read: a move during it wakes the sender
        self.subscribed()
        try:
            if self.code is not None and hub.code_moved(self.game_id, self.code) is not None:
                return True  # passed on between the code's read and the subscription
            at_least = max(head, hub.known_head(self.game_id))
            n, text, cursor = await hub.feeds.render(store, self.game_id, at_least,
                                                     (self.builder(), "state", self.viewer, since))
            if since > cursor or text is None:
                await refuse(ws, CLOSE_INVALID, "invalid",
                             msg("since is at most the game's next seq (%(seq)s).", seq=cursor), self.accepted)
                return False
            if not self.accepted:
                await ws.accept()
                self.accepted = True
            self.sent, self.at = cursor, n
            for message in self.opened():
                await ws.send_text(dumps(message))
            await ws.send_text(text)
            # the claims made so far (read after subscribing: one made since wakes the sender)
            made = await run_in_threadpool(claims, store, self.game_id)
            if made:
                await ws.send_text(dumps(claims_message(0, made)))
                self.claims_sent = len(made)
            timer = await hub.stored_timer(self.game_id)
            if timer is not None:
                sub.timer_set(timer)
            sender = asyncio.create_task(send_loop(self))
            receiver = asyncio.create_task(receive_loop(self))
            sub.on_stall = sender.cancel
            return await finish(ws, sender, receiver, sub, self.who, self.log) is True
        except (WebSocketDisconnect, GameNotFound):
            return False
        except Exception as exc:  # the database not answering while the socket opens: the page retries
            if not unavailable(exc):
                raise
            await refuse(ws, CLOSE_TRY_LATER, "database-unavailable", UNAVAILABLE, self.accepted)
            return False
        finally:
            self.closed()
            hub.unsubscribe(sub)


async def send_loop(sock: Socket) -> bool:
    """Sends what the socket's client lacks, as the game moves on; returns True when a spectator's table code
    passed to another game (the socket then follows it). While the database does not answer, the socket stays
    open and reads again every ``RETRY_SECONDS``."""
    sub = sock.sub
    builder = sock.builder()
    while True:
        await sub.wake.wait()
        sub.wake.clear()
        try:
            done = await _send_round(sock, builder)
        except Exception as exc:
            if not unavailable(exc):
                raise
            sub.check_head = True
            sub.loop.call_later(RETRY_SECONDS, sub.wake.set)
            continue
        if done is not None:
            return done


async def _send_round(sock: Socket, builder: Builder) -> bool | None:
    """What one wake-up of the sender sends; the sender's result when the socket ends, else None."""
    ws, sub, hub, store = sock.websocket, sock.sub, sock.hub, sock.store
    if sub.ping_due:
        sub.ping_due = sub.recheck = False
        if await sock.keepalive():
            await ws.send_text(dumps({"type": "ping", "next_seq": sock.sent, "now": time.time()}))
    if sub.recheck:  # the hub has no Redis link: what it would have said is checked now (poll.py)
        sub.recheck = False
        await sock.keepalive()
    while sub.replies:  # first: the answer to a command refused because its link was just revoked
        await ws.send_text(dumps(sub.replies.pop(0)))
    if sub.ended:
        await ws.send_text(dumps(sock.ended))
        await ws.close(code=CLOSE_NOT_AUTHORIZED, reason=sock.ended["error"]["code"])
        return False
    if sub.check_head:
        sub.check_head = False
        try:
            head = await hub.feeds.head(store, sock.game_id)
        except GameNotFound:
            if not sock.closes_when_missing:
                raise
            await ws.close(code=CLOSE_NOT_FOUND, reason="not-found")
            return False
        if head > sub.hint:
            sub.hint = head
    if sub.hint > sock.at:
        n, text, cursor = await hub.feeds.render(store, sock.game_id, sub.hint,
                                                 (builder, "events", sock.viewer, sock.sent))
        if text is not None and cursor > sock.sent:
            await ws.send_text(text)
            sock.sent = cursor
        sock.at = max(sock.at, n)
        sub.hint = max(sub.hint, sock.at)
    while sub.claims > sock.claims_sent:  # new claims (public: the same for every viewer)
        since = sock.claims_sent
        made = await hub.feeds.shared(("claims", f"{sock.game_id}:{since}"), claims, store, sock.game_id, since,
                                      max_age=0.5)
        if not made:
            break
        await ws.send_text(dumps(claims_message(since, made)))
        sock.claims_sent = since + len(made)
    if sub.timer is not None:
        timer, sub.timer = sub.timer, None
        await ws.send_text(dumps({**timer, "now": time.time()}))
    if sock.code is not None and sock.code in sub.codes_left:
        return True
    return None


async def receive_loop(sock: Socket) -> None:
    """What the client sends, until it leaves (``WebSocketDisconnect``), sends too much junk (``TooMuchJunk``)
    or reads none of its answers (``NotReading``)."""
    ws = sock.websocket
    limits = limits_of(ws.app)
    sock.guard = guard = JunkGuard(limits, sock.log, sock.who)
    try:
        while True:
            if await sock.take(await receive_text(ws)):
                await check_replies(sock.sub.replies, limits)
    finally:
        guard.flush()
