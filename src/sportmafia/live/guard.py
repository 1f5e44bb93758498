"""What every socket does with what its client sends that it should not (docs/online.md, "Sockets: junk and slow
readers"): the players' (``/ws/play``), the spectators' (``/ws/watch/{code}``) and the host's and table view's
(``/ws/games/{id}``).

- :func:`receive_text` reads one frame: a binary frame is junk (``None``), never an exception.
- :class:`JunkGuard` counts a socket's junk frames (binary, too long, not JSON, not a message the socket takes):
  each is answered with an error (up to the limit), the first of a window is logged and the rest are
  summed up in ONE line per window ("N junk frames from ... in the last 60 s"); past ``limit`` in a window the
  socket is closed with 1008 (policy violation).
- A socket's answers wait in its subscriber's ``replies``; past ``max_replies`` the socket reads nothing more
  from its client until they are sent, and a client that does not read them within ``drain_seconds`` is
  dropped with 1013 (try again later). A client that reads nothing for a whole keepalive
  period (its sender still blocked on the previous message when the next ping is due) is dropped the same way
  (``hub.Subscriber``): nothing piles up for it, and the other sockets' messages never wait for it (each
  socket has its own sender).

The limits are per app (``app.state.socket_limits``, :func:`limits_of`), so that tests can make them small.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

CLOSE_POLICY = 1008
"""Closed for junk past the limit."""
CLOSE_TRY_LATER = 1013
"""Dropped for not reading (its answers or messages would pile up)."""


@dataclass
class SocketLimits:
    junk_limit: int = 120
    """Junk frames a socket may send in one window; one more closes it (1008)."""
    junk_window: float = 60.0
    """Seconds: the junk count's window, and the interval of its log line."""
    max_replies: int = 32
    """Answers waiting to be sent to one client; past it the socket reads nothing more until they are sent."""
    drain_seconds: float = 5.0
    """How long the answers past ``max_replies`` may wait to be sent; then the client is dropped (1013)."""


def limits_of(app: Any) -> SocketLimits:
    """The app's socket limits (``app.state.socket_limits``; the defaults when unset)."""
    limits = getattr(app.state, "socket_limits", None)
    if limits is None:
        limits = app.state.socket_limits = SocketLimits()
    assert isinstance(limits, SocketLimits)
    return limits


class TooMuchJunk(Exception):
    """The socket sent more junk than its limit: close it with 1008."""


class NotReading(Exception):
    """The socket's client does not read what it is sent: drop it with 1013."""


async def receive_text(ws: WebSocket) -> str | None:
    """The next frame's text; None for a binary frame. Raises ``WebSocketDisconnect`` when the client left."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


class JunkGuard:
    """One socket's count of junk frames (see the module's docstring). ``who``: how its log lines name the
    socket ("a spectator of game X"), never with a token."""

    __slots__ = ("clock", "count", "limits", "log", "start", "unlogged", "who")

    def __init__(self, limits: SocketLimits, log: logging.Logger, who: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits, self.log, self.who, self.clock = limits, log, who, clock
        self.start = clock()
        self.count = 0  # junk frames in the window that began at ``start``
        self.unlogged = 0  # of which not in a log line yet

    def junk(self, what: str) -> None:
        """Count one junk frame (``what``: "a binary frame", ...). Raises :class:`TooMuchJunk` past the
        limit."""
        now = self.clock()
        if now - self.start >= self.limits.junk_window:
            self.flush(now)
            self.start, self.count = now, 0
        self.count += 1
        if self.count == 1:
            self.log.warning("refused a socket message from %s: %s", self.who, what)
        else:
            self.unlogged += 1
        if self.count > self.limits.junk_limit:
            self.flush(now)
            self.log.warning("closed the socket of %s: more than %s junk frames in %s s", self.who,
                             self.limits.junk_limit, round(self.limits.junk_window))
            raise TooMuchJunk

    def flush(self, now: float | None = None) -> None:
        """The one line of the window's junk not logged yet (at the window's end, and when the socket ends)."""
        if self.unlogged:
            seconds = max(1, round(min((self.clock() if now is None else now) - self.start,
                                       self.limits.junk_window)))
            self.log.warning("%s more junk frames from %s in the last %s s", self.unlogged, self.who, seconds)
            self.unlogged = 0


async def check_replies(replies: list[Any], limits: SocketLimits) -> None:
    """Past ``max_replies`` answers waiting to be sent, wait (reading nothing more from the client) until its
    sender has sent them; raises :class:`NotReading` when they are not sent within ``drain_seconds``: the
    client does not read. Costs nothing below the limit."""
    if len(replies) <= limits.max_replies:
        return
    deadline = time.monotonic() + limits.drain_seconds
    while len(replies) > limits.max_replies // 2:
        if time.monotonic() > deadline:
            raise NotReading
        await asyncio.sleep(0.01)


async def drop(ws: WebSocket, code: int, reason: str) -> None:
    """Close a socket that broke a limit, without waiting on a client that may not read (at most a second)."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.close(code=code, reason=reason), timeout=1.0)


async def finish(ws: WebSocket, sender: asyncio.Task[Any], receiver: asyncio.Task[Any], sub: Any,
                 who: str, logger: logging.Logger) -> Any:
    """Wait for a socket's sender or receiver to end, stop the other, and close the socket when it broke a
    limit: 1008 for too much junk, 1013 for a client that reads nothing. Returns the sender's
    result (None if it did not end by itself)."""
    done, pending = await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    for task in pending:
        with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, Exception):
            await task
    exc = None if receiver.cancelled() or not receiver.done() else receiver.exception()
    if isinstance(exc, TooMuchJunk):
        await drop(ws, CLOSE_POLICY, "junk")
        return None
    if sub.stalled or isinstance(exc, NotReading):
        logger.warning("dropped %s: its client reads nothing", who)
        await drop(ws, CLOSE_TRY_LATER, "not-reading")
        return None
    for task in done:
        failed = None if task.cancelled() else task.exception()
        if failed is not None and not isinstance(failed, WebSocketDisconnect | RuntimeError | OSError):
            logger.warning("%s ended: %r", who, failed)
    if sender in done and not sender.cancelled() and sender.exception() is None:
        return sender.result()
    return None
