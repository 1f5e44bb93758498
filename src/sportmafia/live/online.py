"""The sockets of an online table (docs/online.md): a player's (``/ws/play``, opened with his seat's link) and a
spectator's (``/ws/watch/{code}``, the watch page and the overlay, following the table code from game to game),
and the registry of those open in this process (to close a revoked seat's at once, and to show the host who is
connected). The web layer authorises them (``web.online``) and executes a player's commands."""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from fastapi import FastAPI

from ..i18n import msg
from ..store import Store
from ..store import online as db
from .hub import app_state, get_hub
from .render import Builder, payload
from .socket import BINARY, MAX_MESSAGE, Socket, error

CommandHandler = Callable[["PlayerSocket", dict[str, Any]], Awaitable[None]]
"""Executes a ``{"type": "command", ...}`` message of a player's socket and answers it (``sub.reply``)."""


def public_game_key(game_id: str) -> str:
    """What a spectator's socket calls the game it follows (``{"type": "table", "game": ...}``), so that his
    page, reconnecting, says which game its seq is of: a digest, since the game's id itself opens the game to
    any user of its club (``GET /api/games/{id}``)."""
    return hashlib.sha256(b"sportmafia-table-game:" + game_id.encode()).hexdigest()[:16]


def code_game(store: Store, code: str) -> str | None:
    """The game the table code is on, or None (no such table, or closed to observers: its sockets re-read it)."""
    tab = db.table_by_code(store, code)
    return None if tab is None or tab.watch_closed else tab.game_id


def _message(text: str | None) -> Any:
    """A frame's JSON (None: a binary frame, too long, or not JSON)."""
    if text is None or len(text) > MAX_MESSAGE:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


@dataclass(eq=False)
class TableSocket(Socket):
    """A socket of the online table: a seat's (``auth``: the seat its link opens) or a spectator's."""

    auth: db.SeatAuth | None = None
    registry: Registry | None = None

    log: ClassVar[logging.Logger] = logging.getLogger("sportmafia.online")

    def builder(self) -> Builder:
        return payload

    @property
    def who(self) -> str:
        """``seat 3 of game X (address)``, or ``a spectator of game X (address)``."""
        who = f"seat {self.viewer}" if isinstance(self.viewer, int) else "a spectator"
        client = self.websocket.client
        return f"{who} of game {self.game_id} ({client.host if client else 'unknown'})"

    def closed(self) -> None:
        if self.registry is not None:
            self.registry.remove(self)

    def end(self) -> None:
        """Its link was revoked: the socket is told and closed (on its own loop)."""
        self.sub.end()

    def opened(self) -> list[dict[str, Any]]:
        if self.registry is not None:
            self.registry.add(self)
        return []


@dataclass(eq=False)
class PlayerSocket(TableSocket):
    """A player's socket: his seat's view and feed, and his commands (``on_command``, from the web layer),
    answered on it; it ends when his link is revoked."""

    on_command: CommandHandler | None = None

    ended: ClassVar[dict[str, Any]] = error("revoked", msg("This link was revoked or replaced by the host."))

    @property
    def token_id(self) -> int | None:
        return None if self.auth is None else self.auth.token_id

    async def keepalive(self) -> bool:
        # revoked by another process, without Redis to say so at once: caught at the keepalive
        if self.token_id is not None and self.token_id not in await self.hub.feeds.shared(
                ("tokens", self.game_id), db.live_token_ids, self.store, self.game_id):
            self.sub.ended = True
            return False
        return True

    async def take(self, text: str | None) -> bool:
        """Keepalive pings, and his commands (``{"type": "command", "game_id", "command", "expected_seq",
        "command_id"}``, the body of ``POST /api/play/commands``), executed one at a time as his seat, each
        answered with ``ack`` or ``refused``; his claims (``{"type": "claim", ...}``) and passes (``{"type":
        "pass", ...}``) alike (docs/bots.md, "The open seat protocol")."""
        message = _message(text)
        if isinstance(message, dict) and message.get("type") == "ping" and len(message) == 1:
            return False
        if isinstance(message, dict) and message.get("type") in ("command", "claim", "pass") \
                and self.on_command is not None:
            await self.on_command(self, message)
            return True
        if text is None:
            return self.junk("a binary frame", _BINARY)
        return self.junk("a message it does not take", error(
            "bad-message", msg('This socket takes only {"type": "command" | "claim" | "pass", ...} and pings.')))


@dataclass(eq=False)
class SpectatorSocket(TableSocket):
    """A spectator's socket (public facts only): it follows the table code ``code``; its ``state`` comes after
    ``{"type": "table", "code", "game"}``, and :meth:`follow` returns True when the code passes to another
    game (or the table is closed to observers: the web layer reads the table again)."""

    def opened(self) -> list[dict[str, Any]]:
        super().opened()
        return [{"type": "table", "code": self.code, "game": public_game_key(self.game_id)}]

    async def keepalive(self) -> bool:
        # a table code passed to another game by another process, without Redis to say so at once
        assert self.code is not None
        if await self.hub.feeds.shared(("code", self.code), code_game, self.store, self.code) != self.game_id:
            self.sub.codes_left.add(self.code)
            return False
        return True

    async def take(self, text: str | None) -> bool:
        message = _message(text)
        if isinstance(message, dict) and message.get("type") == "ping" and len(message) == 1:
            return False
        if text is None:
            return self.junk("a binary frame", _BINARY)
        return self.junk("a message it does not take", error(
            "bad-message", msg("A spectator's socket only receives.")))


_BINARY = error("bad-message", BINARY)


class Registry:
    """The open sockets of players and spectators in this process (to close a revoked seat's at once, and to
    show the host who is connected), indexed by game and by link."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_game: dict[str, set[TableSocket]] = {}
        self._by_token: dict[int, set[TableSocket]] = {}

    def add(self, sock: TableSocket) -> None:
        token_id = None if sock.auth is None else sock.auth.token_id
        with self._lock:
            self._by_game.setdefault(sock.game_id, set()).add(sock)
            if token_id is not None:
                self._by_token.setdefault(token_id, set()).add(sock)

    def remove(self, sock: TableSocket) -> None:
        token_id = None if sock.auth is None else sock.auth.token_id
        with self._lock:
            _discard(self._by_game, sock.game_id, sock)
            if token_id is not None:
                _discard(self._by_token, token_id, sock)

    def revoke(self, token_ids: list[int]) -> int:
        """Close the sockets opened with these tokens; returns how many."""
        with self._lock:
            socks = [c for t in set(token_ids) for c in self._by_token.get(t, ())]
        for c in socks:
            c.sub.loop.call_soon_threadsafe(c.end)
        return len(socks)

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


def _discard(index: dict[Any, set[TableSocket]], key: Any, sock: TableSocket) -> None:
    group = index.get(key)
    if group is not None:
        group.discard(sock)
        if not group:
            del index[key]


def registry_of(app: FastAPI) -> Registry:
    """The app's registry of players' and spectators' sockets (made on first use)."""
    def make() -> Registry:
        reg = Registry()
        get_hub(app).revoke_handler = reg.revoke  # links revoked by another process (through Redis)
        return reg
    return app_state(app, "online", make)


def revoke_links(app: FastAPI, game_id: str, token_ids: list[int]) -> int:
    """Close the sockets opened with these (just revoked) links: here at once, and in the other processes at
    once through Redis when it links them (else at their next keepalive). Returns how many closed here."""
    get_hub(app).publish_revoked(game_id, token_ids)
    return registry_of(app).revoke(token_ids)
