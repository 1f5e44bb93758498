"""One live connection's mailbox (:class:`Subscriber`), which the hub wakes, and the check of a host's ``timer``
message (docs/online.md, "The live layer")."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PING_SECONDS = 20.0
MAX_TIMER_SECONDS = 3600


@dataclass(eq=False)
class Subscriber:
    """One connection's mailbox: the highest next seq it was told of, the timer to send, a wake-up."""

    game_id: str
    loop: asyncio.AbstractEventLoop
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    hint: int = 0
    claims: int = 0  # the highest count of the game's claims it was told of
    timer: dict[str, Any] | None = None
    replies: list[dict[str, Any]] = field(default_factory=list)  # answers to the client's own messages, in order
    check_head: bool = False
    ping_due: bool = False
    recheck: bool = False  # re-check the authorisation now (the hub has no Redis link to say it ended: poll.py)
    codes_left: set[str] = field(default_factory=set)  # table codes passed from the game to another one
    host: bool = False  # the host's console (told of join requests)
    on_stall: Callable[[], Any] | None = None  # the socket's drop, when its client reads nothing (guard.py)
    session_key: str | None = None  # the login session the socket was opened with, if any
    user_id: int | None = None
    ended: bool = False  # its authorisation ended (the session, or the seat's link, revoked): closed with 4401
    stalled: bool = False
    _keepalive: asyncio.TimerHandle | None = None

    # these run on the subscriber's own loop
    def arm(self) -> None:
        """Every ``PING_SECONDS`` the connection pings its client and re-reads the game's head (one timer
        handle per period, not one per message)."""
        self._keepalive = self.loop.call_later(PING_SECONDS, self._ping)

    def disarm(self) -> None:
        if self._keepalive is not None:
            self._keepalive.cancel()
            self._keepalive = None

    def _ping(self) -> None:
        if self.ping_due and self.on_stall is not None:
            # the last ping was never sent: the sender is still blocked on a client that reads nothing
            self.stalled = True
            self.on_stall()
            return
        self.ping_due = self.check_head = True
        self.wake.set()
        self.arm()

    def moved(self, next_seq: int) -> None:
        if next_seq > self.hint:
            self.hint = next_seq
        self.wake.set()

    def said(self, count: int) -> None:
        if count > self.claims:
            self.claims = count
        self.wake.set()

    def timer_set(self, timer: dict[str, Any]) -> None:
        self.timer = timer
        self.wake.set()

    def reply(self, body: dict[str, Any]) -> None:
        self.replies.append(body)
        self.wake.set()

    def code_left(self, code: str) -> None:
        self.codes_left.add(code)
        self.wake.set()

    def end(self) -> None:
        self.ended = True
        self.wake.set()


def check_timer(message: Any) -> dict[str, Any]:
    """A host's ``timer`` message, checked: ``running`` (bool), ``left`` and ``total`` (seconds, 0 ≤ left ≤
    total ≤ 3600), ``key`` (the console's step key, a string of at most 200 characters); nothing else."""
    if not isinstance(message, dict):
        raise ValueError("a message is a JSON object")
    extra = set(message) - {"type", "running", "left", "total", "key"}
    if extra:
        raise ValueError(f"unknown fields {sorted(extra)}")
    running, left, total, key = (message.get(k) for k in ("running", "left", "total", "key"))
    if not isinstance(running, bool):
        raise ValueError("running is true or false")
    for name, value in (("left", left), ("total", total)):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ValueError(f"{name} is a number of seconds")
        if not 0 <= value <= MAX_TIMER_SECONDS:
            raise ValueError(f"{name} is between 0 and {MAX_TIMER_SECONDS} seconds")
    assert isinstance(left, int | float) and isinstance(total, int | float)
    if left > total:
        raise ValueError("left is at most total")
    if not isinstance(key, str) or len(key) > 200:
        raise ValueError("key is a string of at most 200 characters")
    return {"running": running, "left": left, "total": total, "key": key}


def moved(subs: list[Subscriber], next_seq: int) -> None:
    for sub in subs:
        sub.moved(next_seq)


def code_left(subs: list[Subscriber], code: str) -> None:
    for sub in subs:
        sub.code_left(code)
