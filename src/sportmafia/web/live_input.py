"""What the host's console and the table view send on their socket (``/ws/games/{id}``, :mod:`.live`): keepalive
pings and, from the host's console only, the host's timer. Anything else is junk, counted and answered by
:class:`.socket_guard.JunkGuard`."""

from __future__ import annotations

import contextlib
import json
import logging
import math
from typing import TYPE_CHECKING, Any

from .socket_guard import JunkGuard, check_replies, limits_of, receive_text

if TYPE_CHECKING:
    from .live import Hub, Subscriber

log = logging.getLogger("sportmafia.live")

MAX_MESSAGE = 1024
MAX_TIMER_SECONDS = 3600


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


def _error(code: str, en: str, ru: str) -> dict[str, Any]:
    return {"type": "error", "error": {"code": code, "en": en, "ru": ru}}


async def receive_loop(ws: Any, hub: Hub, game_id: str, sub: Subscriber, kind: str) -> None:
    """The host's or table view's socket's input, until the client leaves (``WebSocketDisconnect``), sends too
    much junk (``TooMuchJunk``) or reads none of its answers (``NotReading``)."""
    limits = limits_of(ws.app)
    client = ws.client.host if ws.client else "unknown"
    guard = JunkGuard(limits, log, f"the {kind} socket of game {game_id} ({client})")
    try:
        while True:
            text = await receive_text(ws)
            if text is None:
                reply = _error("bad-message", "A message is JSON text, not a binary frame.",
                               "Сообщение — текст JSON, а не двоичный кадр.")
                what = "a binary frame"
            elif len(text) > MAX_MESSAGE:
                reply = _error("bad-message", f"A message is at most {MAX_MESSAGE} bytes.",
                               f"Сообщение не длиннее {MAX_MESSAGE} байт.")
                what = "a message too long"
            else:
                message: Any = None
                with contextlib.suppress(ValueError):
                    message = json.loads(text)
                mtype = message.get("type") if isinstance(message, dict) else None
                if mtype == "ping":
                    continue
                if mtype == "timer" and kind == "host":
                    try:
                        timer = check_timer(message)
                    except ValueError as exc:
                        reply = _error("bad-timer", f"Not a valid timer: {exc}.", f"Неверный таймер: {exc}.")
                        what = "a bad timer"
                    else:
                        hub.set_timer(game_id, timer, sender=sub)
                        continue
                elif mtype == "timer":
                    reply = _error("forbidden", "Only the host's console sets the timer.",
                                   "Таймер задаёт только пульт ведущего.")
                    what = "a timer from the table view"
                elif message is None:
                    reply = _error("bad-message", "A message is a JSON object.", "Сообщение — объект JSON.")
                    what = "not JSON"
                else:
                    reply = _error("bad-message", "The only message a client sends is the host's timer.",
                                   "Клиент посылает только таймер ведущего.")
                    what = "an unknown message"
            guard.junk(what)
            sub.reply(reply)
            await check_replies(sub.replies, limits)
    finally:
        guard.flush()
