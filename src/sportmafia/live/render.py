"""Rendering per viewer: every message a socket sends of its game is built here, from the engine's ``Views`` and
``visible_events`` for ITS viewer ("host", a seat, or "spectator"), so nothing a viewer may not see ever reaches
his socket: the hub hands no socket anything but a wake-up.

- :func:`feed_message` is the one builder of the game's messages (``state``, ``events``), numbered in the
  viewer's own feed; :func:`payload` adds a seat's legal commands; :func:`console_message` is the host's and the
  table view's (no ``since``).
- :class:`Feeds` reads each game once for all the process's sockets that follow it (only the new events, folded
  onto the last read) and builds, in ONE call, every message the sockets that woke together ask for; a message
  asked for twice (the spectators of a table) is built once.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from starlette.concurrency import run_in_threadpool

from ..bots.claims import Said
from ..engine import Game, Views, feed_length, rule_values, visible_events
from ..store import Store

Builder = Callable[[str, Views, Any, int], dict[str, Any] | None]
"""Builds one message (``kind``, the engine's views of the game now, the viewer, the first number of the viewer's
feed the client lacks), or None when the viewer has nothing new (his feed has not grown: what he is sent depends
only on what he may see, so a hidden move sends him nothing)."""

Key = tuple[Builder, str, Any, int]
Built = tuple[str | None, int]
"""A message's text (None: nothing to send) and the viewer's next number in his feed after it."""
MAX_TEXTS = 512


def dumps(message: Any) -> str:
    """A message as compact JSON text (UTF-8, not escaped)."""
    return orjson.dumps(message).decode()



def claim_json(n: int, said: Said) -> dict[str, Any]:
    """A claim as the screens get it: its number among the game's claims, its place in the log, its fields and
    its text in both languages (``{"en": ..., "ru": ...}``)."""
    text = said.claim.text()
    return {"n": n, **said.to_json(), "text": {"en": text.render("en"), "ru": text.render("ru")}}


def claims_message(since: int, made: Sequence[Said]) -> dict[str, Any]:
    """``{"type": "claims", "since", "claims"}``: the game's claims from number ``since`` (public: every viewer
    gets the same)."""
    return {"type": "claims", "since": since, "claims": [claim_json(since + i, s) for i, s in enumerate(made)]}


def feed_message(kind: str, views: Views, viewer: str | int, since: int) -> dict[str, Any] | None:
    """The message that brings a client of ``viewer`` who holds his feed up to ``since`` up to date: ``{"type":
    kind, "since", "next_seq", "view", "events"}``, numbered in the viewer's own feed (``feed_length``,
    ``visible_events``); an ``events`` message only when his feed has grown (else None)."""
    game = views.game
    n = feed_length(game, viewer)
    since = min(since, n)
    if kind == "events" and since == n:
        return None
    return {"type": kind, "since": since, "next_seq": n, "view": views(viewer),
            "events": visible_events(game, viewer, since)}


def console_message(kind: str, views: Views, viewer: str, since: int) -> dict[str, Any] | None:
    """:func:`feed_message` for the host's console and the table view (``/ws/games/{id}``): without ``since``."""
    message = feed_message(kind, views, viewer, since)
    if message is not None:
        del message["since"]
    return message


def payload(kind: str, views: Views, viewer: str | int, since: int) -> dict[str, Any] | None:
    """The one builder of every message sent to a player or spectator: the engine's view and the viewer's feed
    from his entry ``since`` (:func:`feed_message`: numbered in his own feed, and an ``events`` message only
    when it has grown); for a seat also the commands it may send now; with a ``state`` (the first message of a
    game) the rule set's values the board is drawn with (:func:`~sportmafia.engine.rule_values`)."""
    out = feed_message(kind, views, viewer, since)
    if out is not None and isinstance(viewer, int):
        out["legal"] = [c.to_json() for c in views.game.legal_commands(viewer)]
    if out is not None and kind == "state":
        out["rules"] = rule_values(views.game.rules)
    return out


@dataclass(eq=False)
class _Batch:
    """The messages the game's sockets asked for while the loop ran, built together in one worker call."""

    future: asyncio.Future[None]
    keys: set[Key] = field(default_factory=set)
    at_least: int = 0
    started: bool = False


@dataclass(eq=False)
class _Feed:
    """One game as this process's sockets follow it: the game as last read (folded forward with the new events
    only, touched only under ``lock``: in a worker thread, or on the loop when nothing needs reading) and, for
    that version, the messages already built: ``version`` is ``(next seq, {key: text})``, replaced whole when
    the game moves on."""

    game: Game | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    version: tuple[int, dict[Key, Built]] = (-1, {})
    batch: _Batch | None = None  # on the event loop: the batch still collecting keys


class Feeds:
    """The games this process's sockets follow, each read once for all of them, and the reads they share."""

    def __init__(self) -> None:
        self._feeds: dict[str, _Feed] = {}
        self._lock = threading.Lock()
        self._shared: dict[tuple[str, str], tuple[float, asyncio.Future[Any]]] = {}

    def forget(self, game_id: str) -> None:
        """The game's last socket here has gone: drop the game as last read."""
        with self._lock:
            self._feeds.pop(game_id, None)

    async def render(self, store: Store, game_id: str, at_least: int, key: Key) -> tuple[int, str | None, int]:
        """The message ``key`` (builder, kind, viewer, since) built on the game with at least ``at_least``
        events if the store has them: the game's next seq it was built on, the message's text (None when the
        viewer has nothing new) and the viewer's next number in his own feed. The game is read once for all
        its sockets (only the new events, folded onto the last read), and every message the sockets that woke
        together ask for is built in ONE worker call; a message asked for twice (the spectators of a table) is
        built once."""
        with self._lock:
            feed = self._feeds.get(game_id)
            if feed is None:
                feed = self._feeds[game_id] = _Feed()
        while True:
            n, texts = feed.version
            if n >= at_least:
                built = texts.get(key)
                if built is not None:
                    return n, *built
            batch = feed.batch
            if batch is None or batch.started:
                loop = asyncio.get_running_loop()
                batch = feed.batch = _Batch(loop.create_future())
                # started after the sockets woken with this one have added their keys
                loop.call_soon(self._start_batch, store, game_id, feed, batch)
            batch.keys.add(key)
            batch.at_least = max(batch.at_least, at_least)
            await asyncio.shield(batch.future)
            n, texts = feed.version
            built = texts.get(key)
            if built is not None:
                return n, *built
            at_least = min(at_least, n)  # the store has no more: take the game as it is

    def _start_batch(self, store: Store, game_id: str, feed: _Feed, batch: _Batch) -> None:
        batch.started = True
        if feed.batch is batch:
            feed.batch = None
        keys = list(batch.keys)
        game = feed.game
        if (store.local or (game is not None and (len(game.log) >= batch.at_least or store.recent_events(
                game_id, len(game.log), batch.at_least) is not None))) and feed.lock.acquire(blocking=False):
            # a local database (SQLite), or nothing to read (this process appended the new events): build here,
            # on the loop, rather than pay a worker thread's hand-over for a few views
            try:
                self._build_locked(store, game_id, feed, batch.at_least, keys)
            except Exception as exc:
                batch.future.set_exception(exc)
            else:
                batch.future.set_result(None)
            finally:
                feed.lock.release()
            return
        task = asyncio.ensure_future(run_in_threadpool(self._build, store, game_id, feed, batch.at_least, keys))

        def done(t: asyncio.Future[None]) -> None:
            if batch.future.done():
                return
            exc = asyncio.CancelledError() if t.cancelled() else t.exception()
            if exc is not None:
                batch.future.set_exception(exc)
            else:
                batch.future.set_result(None)
        task.add_done_callback(done)

    @classmethod
    def _build(cls, store: Store, game_id: str, feed: _Feed, at_least: int, keys: list[Key]) -> None:
        """In a worker thread: read the game forward to ``at_least`` events, then build the missing texts."""
        with feed.lock:
            cls._build_locked(store, game_id, feed, at_least, keys)

    @staticmethod
    def _build_locked(store: Store, game_id: str, feed: _Feed, at_least: int, keys: list[Key]) -> None:
        """With ``feed.lock`` held: read the game forward to ``at_least`` events, then build the missing texts."""
        game = feed.game
        if game is None:
            game = store.load(game_id)
        elif len(game.log) < at_least:
            recent = store.recent_events(game_id, len(game.log), at_least)  # appended here: no read
            game.fold_in(recent if recent is not None else store.log_since(game_id, len(game.log)))
        feed.game = game
        n = len(game.log)
        known, texts = feed.version
        if known != n or len(texts) > MAX_TEXTS:
            texts = {}
        views = Views(game)  # what the viewers share is built once
        for key in keys:
            if key not in texts:
                builder, kind, viewer, since = key
                message = builder(kind, views, viewer, since)
                texts[key] = (None, since) if message is None else (dumps(message), message["next_seq"])
        feed.version = (n, texts)

    async def shared(self, key: tuple[str, str], fn: Callable[..., Any], *args: Any, max_age: float = 1.0) -> Any:
        """``fn(*args)`` run in a worker thread once for every caller asking with the same ``key`` within
        ``max_age`` seconds (a table's sockets checking its head at their keepalive)."""
        loop = asyncio.get_running_loop()
        entry = self._shared.get(key)
        if entry is None or loop.time() - entry[0] > max_age:
            future: asyncio.Future[Any] = asyncio.ensure_future(run_in_threadpool(fn, *args))
            entry = self._shared[key] = (loop.time(), future)

            def forget(_f: asyncio.Future[Any], key: tuple[str, str] = key, entry: Any = entry) -> None:
                loop.call_later(max_age, lambda: self._shared.pop(key) if self._shared.get(key) is entry else None)
            future.add_done_callback(forget)
        return await asyncio.shield(entry[1])

    async def head(self, store: Store, game_id: str) -> int:
        """The game's next seq as stored (read at most once a second for all its sockets)."""
        head: int = await self.shared(("head", game_id), _stored_head, store, game_id)
        return head


def _stored_head(store: Store, game_id: str) -> int:
    return store.game(game_id).next_seq
