"""The socket of the host's console and of the table view (``/ws/games/{id}?view=host|table&since=N``; the web
layer authorises it with the login session, ``web.live``): the host's view, or the spectator's for the table
view. What its client sends: keepalive pings and, from the host's console only, the host's timer. Anything
else is junk, counted and answered (:class:`.guard.JunkGuard`)."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..i18n import msg
from .hub import check_timer
from .render import Builder, console_message
from .socket import BINARY, MAX_MESSAGE, Socket, error

VIEWERS = {"host": "host", "table": "spectator"}
"""The console socket's ``view`` parameter, and the engine's viewer it follows the game for."""


@dataclass(eq=False)
class ConsoleSocket(Socket):
    """``kind``: "host" or "table"; ``alive``: whether the login session the socket was opened with is still
    live (asked at each keepalive: a session revoked by another process is found out there); ``session_key``
    and ``user_id``: the session, to close the socket at once when it is revoked in this process
    (``Hub.sessions_ended``)."""

    kind: str = "host"
    alive: Callable[[], Awaitable[bool]] | None = None
    session_key: str | None = None
    user_id: int | None = None

    log: ClassVar[logging.Logger] = logging.getLogger("sportmafia.live")
    ended: ClassVar[dict[str, Any]] = error("session-ended", msg(
        "Your session has ended (logged out, password changed or account disabled): log in again."))
    closes_when_missing: ClassVar[bool] = True

    def builder(self) -> Builder:
        return console_message

    @property
    def who(self) -> str:
        client = self.websocket.client
        return f"the {self.kind} socket of game {self.game_id} ({client.host if client else 'unknown'})"

    def subscribed(self) -> None:
        self.sub.host = self.kind == "host"
        self.sub.session_key, self.sub.user_id = self.session_key, self.user_id

    async def keepalive(self) -> bool:
        sub = self.sub
        if not sub.ended and sub.session_key is not None and self.alive is not None:
            # a session revoked by another process: found out here, at most a keepalive (and the sessions'
            # cache time) late
            sub.ended = not await self.alive()
        return not sub.ended

    async def take(self, text: str | None) -> bool:
        if text is None:
            return self.junk("a binary frame", error("bad-message", BINARY))
        if len(text) > MAX_MESSAGE:
            return self.junk("a message too long", error(
                "bad-message", msg("A message is at most %(bytes)s bytes.", bytes=MAX_MESSAGE)))
        message: Any = None
        with contextlib.suppress(ValueError):
            message = json.loads(text)
        mtype = message.get("type") if isinstance(message, dict) else None
        if mtype == "ping":
            return False
        if mtype == "timer" and self.kind == "host":
            try:
                timer = check_timer(message)
            except ValueError as exc:
                return self.junk("a bad timer", error("bad-timer", msg("Not a valid timer: %(error)s.", error=str(exc))))
            self.hub.set_timer(self.game_id, timer, sender=self.sub)
            return False
        if mtype == "timer":
            return self.junk("a timer from the table view", error(
                "forbidden", msg("Only the host's console sets the timer.")))
        if message is None:
            return self.junk("not JSON", error("bad-message", msg("A message is a JSON object.")))
        return self.junk("an unknown message", error(
            "bad-message", msg("The only message a client sends is the host's timer.")))
