"""Live updates: a WebSocket per screen that follows a game (``/ws/games/{id}?view=host|table&since=N``).

The hub only says *that* a game moved on (its id and next seq) or what the host's timer shows; every
connection then reads the events from the store itself and filters them for ITS viewer with the engine's
``view`` / ``visible_events`` ("host", or "spectator" for the table view). So nothing a viewer may not see
ever passes through the hub, nor through Redis.

- In one process: ``Hub.publish(game_id, next_seq)`` is called by the sync route handlers (threadpool) after
  an append; it wakes the game's connections with ``loop.call_soon_threadsafe`` and returns at once.
- Across processes: with ``$SPORTMAFIA_REDIS_URL`` set, the same notifications (and the timer) go through
  Redis pub/sub on the channel ``sportmafia:live``; each process listens, reconnecting when Redis drops.
- Each connection is served by one sender task, so messages leave in order, each event once; notifications
  that arrive while it is busy are coalesced into the next read. A keepalive ``ping`` every
  ``PING_SECONDS`` also re-reads the game's head, so a lost notification is caught up within that time.

See docs/api.md, "Live updates (WebSocket)".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

import anyio
import anyio.to_thread
import orjson
from fastapi import APIRouter, Depends, FastAPI, Request, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from ..engine import Game, Views, feed_length, visible_events
from ..store import GameNotFound, Store
from .access import decide
from .live_input import check_timer, receive_loop
from .sessions import Sessions
from .socket_guard import finish, origin_matches

log = logging.getLogger("sportmafia.live")

REDIS_ENV = "SPORTMAFIA_REDIS_URL"
CHANNEL = "sportmafia:live"
TIMER_KEY = "sportmafia:timer:"
TIMER_TTL = 6 * 3600
PING_SECONDS = 20.0
MAX_TIMERS = 10_000
MAX_HEADS = 10_000
"""Games whose last timer, and whose highest next seq told of, the hub keeps (the ones used last)."""
VIEWERS = {"host": "host", "table": "spectator"}

# close codes (4000-4999 are the application's): the reason is the error code
CLOSE_NOT_LOGGED_IN = 4401
CLOSE_FORBIDDEN_ORIGIN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_INVALID = 4422

router = APIRouter(include_in_schema=False)


# ------------------------------------------------------------------------------------------ the hub
@dataclass(eq=False)
class Subscriber:
    """One connection's mailbox: the highest next seq it was told of, the timer to send, a wake-up."""

    game_id: str
    loop: asyncio.AbstractEventLoop
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    hint: int = 0
    timer: dict[str, Any] | None = None
    replies: list[dict[str, Any]] = field(default_factory=list)  # answers to the client's own messages, in order
    check_head: bool = False
    ping_due: bool = False
    codes_left: set[str] = field(default_factory=set)  # table codes passed from the game to another one
    host: bool = False  # the host's console (told of join requests)
    on_stall: Callable[[], Any] | None = None  # the socket's drop, when its client reads nothing (socket_guard)
    session_key: str | None = None  # the login session the socket was opened with (web.sessions), if any
    user_id: int | None = None
    ended: bool = False  # that session was revoked: the socket is closed with 4401
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


class Hub:
    """The fan-out of one process, and its link to Redis when ``redis_url`` is given."""

    def __init__(self, redis_url: str | None = None) -> None:
        self.redis_url = redis_url or None
        self.origin = uuid.uuid4().hex
        self._subs: dict[str, set[Subscriber]] = {}
        self._feeds: dict[str, _Feed] = {}
        self._lock = threading.Lock()
        self._timers: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._heads: OrderedDict[str, int] = OrderedDict()  # the highest next seq told of, per game
        self._code_moves: OrderedDict[tuple[str, str], str] = OrderedDict()  # (game, code) -> the game it went to
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener: asyncio.Task[None] | None = None
        self._redis: Any = None
        self._sending: set[asyncio.Task[None]] = set()
        self._shared: dict[tuple[str, str], tuple[float, asyncio.Future[Any]]] = {}
        self.revoke_handler: Callable[[list[int]], Any] | None = None
        self.redis_connected = asyncio.Event()
        self.client_name = f"sportmafia-live-{self.origin[:12]}"

    # --- local subscriptions
    def subscribe(self, game_id: str) -> Subscriber:
        sub = Subscriber(game_id, asyncio.get_running_loop())
        sub.arm()
        with self._lock:
            self._subs.setdefault(game_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        sub.disarm()
        with self._lock:
            subs = self._subs.get(sub.game_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.game_id]
                    self._feeds.pop(sub.game_id, None)

    def _local(self, game_id: str) -> list[Subscriber]:
        with self._lock:
            return list(self._subs.get(game_id, ()))

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
            if recent is not None:
                game.fold_in(recent)
            else:
                new = store.events_since(game_id, len(game.log))
                if [seq for seq, _ in new] == list(range(len(game.log), len(game.log) + len(new))):
                    game.fold_in(ev for _, ev in new)
                else:
                    game = store.load(game_id)  # not the log's continuation: read it whole
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

    def connections(self, game_id: str) -> int:
        return len(self._local(game_id))

    def known_head(self, game_id: str) -> int:
        """The highest next seq of the game this process was told of (its own appends, and other processes'
        through Redis); 0 if none. A socket that subscribed and then takes the larger of this and a head it
        read before subscribing misses no move: a later one wakes it, an earlier one is counted here."""
        with self._lock:
            return self._heads.get(game_id, 0)

    def _notify_moved(self, game_id: str, next_seq: int) -> None:
        with self._lock:
            _keep(self._heads, game_id, max(next_seq, self._heads.get(game_id, 0)), MAX_HEADS)
        by_loop: dict[asyncio.AbstractEventLoop, list[Subscriber]] = {}
        for sub in self._local(game_id):
            by_loop.setdefault(sub.loop, []).append(sub)
        for loop, subs in by_loop.items():  # one wake-up of each loop, not one per socket
            loop.call_soon_threadsafe(_moved, subs, next_seq)

    def code_moved(self, game_id: str, code: str) -> str | None:
        """The game that the table code ``code`` passed to from ``game_id``, as this process was told (its own
        passes, and other processes' through Redis), or None. A spectator's socket that subscribed after
        reading the code's game checks this: a pass made in between was told before the subscription."""
        with self._lock:
            return self._code_moves.get((game_id, code))

    def forget_code_move(self, game_id: str, code: str) -> None:
        """The code is on ``game_id`` again (passed back by another process that could not tell this one)."""
        with self._lock:
            self._code_moves.pop((game_id, code), None)

    def _notify_code_moved(self, game_id: str, code: str, to_game: str) -> None:
        with self._lock:
            self._code_moves.pop((to_game, code), None)  # the code may come back to a game it left
            self._code_moves[(game_id, code)] = to_game
            self._code_moves.move_to_end((game_id, code))
            while len(self._code_moves) > MAX_HEADS:
                self._code_moves.popitem(last=False)
        by_loop: dict[asyncio.AbstractEventLoop, list[Subscriber]] = {}
        for sub in self._local(game_id):
            by_loop.setdefault(sub.loop, []).append(sub)
        for loop, subs in by_loop.items():
            loop.call_soon_threadsafe(_code_left, subs, code)

    def _notify_timer(self, game_id: str, timer: dict[str, Any], skip: Subscriber | None = None) -> None:
        for sub in self._local(game_id):
            if sub is not skip:
                sub.loop.call_soon_threadsafe(sub.timer_set, timer)

    def _wake_all(self) -> None:
        """After a gap in the Redis link: every connection re-reads its game's head."""
        with self._lock:
            subs = [s for group in self._subs.values() for s in group]
        for sub in subs:
            def check(s: Subscriber = sub) -> None:
                s.check_head = True
                s.wake.set()
            sub.loop.call_soon_threadsafe(check)

    # --- publishing
    def publish(self, game_id: str, next_seq: int) -> None:
        """The game ``game_id`` has events up to ``next_seq - 1``. Callable from any thread; never blocks."""
        self._notify_moved(game_id, next_seq)
        self._to_redis({"origin": self.origin, "game": game_id, "next_seq": next_seq})

    def publish_code_moved(self, game_id: str, code: str, to_game: str) -> None:
        """The table code ``code`` passed from ``game_id`` to ``to_game`` (the table's next game): the
        spectators' sockets that follow the code, here and in the other processes, move to that game. Callable
        from any thread; never blocks."""
        self._notify_code_moved(game_id, code, to_game)
        self._to_redis({"origin": self.origin, "game": game_id, "code": code, "code_to": to_game})

    def publish_revoked(self, game_id: str, token_ids: list[int]) -> None:
        """Seat links of ``game_id`` were revoked: the other processes close their sockets at once (this
        process's are closed by the caller)."""
        if token_ids:
            self._to_redis({"origin": self.origin, "game": game_id, "revoked": token_ids})

    def sessions_ended(self, keys: list[str], user_id: int | None) -> None:
        """Login sessions were revoked (the ``keys``, or every session of ``user_id``): this process's sockets
        opened with them are closed at once (callable from any thread; other processes find out at their
        sockets' keepalive, ``Sessions.alive``)."""
        ended = set(keys)
        with self._lock:
            subs = [sub for group in self._subs.values() for sub in group if sub.session_key is not None
                    and (sub.session_key in ended or (user_id is not None and sub.user_id == user_id))]
        for sub in subs:
            sub.loop.call_soon_threadsafe(sub.end)

    def tell_hosts(self, game_id: str, message: dict[str, Any]) -> None:
        """Send ``message`` to the game's host consoles in this process (callable from any thread)."""
        for sub in self._local(game_id):
            if sub.host:
                sub.loop.call_soon_threadsafe(sub.reply, message)

    def timer(self, game_id: str) -> dict[str, Any] | None:
        with self._lock:
            return self._timers.get(game_id)

    def _keep_timer(self, game_id: str, timer: dict[str, Any]) -> None:
        with self._lock:
            _keep(self._timers, game_id, timer, MAX_TIMERS)

    def set_timer(self, game_id: str, timer: dict[str, Any], sender: Subscriber | None = None) -> dict[str, Any]:
        """Keep the host's timer of ``game_id`` (a checked ``timer`` message) and send it to the game's other
        connections, here and through Redis; returns the message as sent (with the server's ``at``)."""
        message = {"type": "timer", "running": timer["running"], "left": timer["left"], "total": timer["total"],
                   "key": timer["key"], "at": time.time()}
        self._keep_timer(game_id, message)
        self._notify_timer(game_id, message, skip=sender)
        self._to_redis({"origin": self.origin, "game": game_id, "timer": message})
        return message

    def _to_redis(self, payload: dict[str, Any]) -> None:
        if self._redis is None or self._loop is None or self._loop.is_closed():
            return
        data = json.dumps(payload, separators=(",", ":"))
        timer = payload.get("timer")
        game_id = str(payload["game"])
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        coro = self._redis_send(data, game_id, json.dumps(timer) if timer is not None else None)
        if running is self._loop:
            task = self._loop.create_task(coro)
            self._sending.add(task)  # keep a reference until it is done
            task.add_done_callback(self._sending.discard)
        else:
            asyncio.run_coroutine_threadsafe(coro, self._loop)

    async def _redis_send(self, data: str, game_id: str, timer: str | None) -> None:
        client = self._redis
        if client is None:
            return
        try:
            await client.publish(CHANNEL, data)
            if timer is not None:
                await client.set(TIMER_KEY + game_id, timer, ex=TIMER_TTL)
        except Exception as exc:  # Redis down: the keepalive re-read catches the other processes up
            log.warning("live: publishing to Redis failed: %s", exc)

    async def stored_timer(self, game_id: str) -> dict[str, Any] | None:
        """The game's timer: this process's, else the one kept in Redis by another process."""
        local = self.timer(game_id)
        if local is not None or self._redis is None:
            return local
        try:
            raw = await self._redis.get(TIMER_KEY + game_id)
        except Exception:
            return None
        if raw is None:
            return None
        try:
            message = json.loads(raw)
        except ValueError:
            return None
        if isinstance(message, dict) and message.get("type") == "timer":
            self._keep_timer(game_id, message)
            return message
        return None

    # --- the Redis link
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if self.redis_url and self._listener is None:
            import redis.asyncio as aioredis

            self._redis = aioredis.from_url(self.redis_url, socket_connect_timeout=3, socket_timeout=None,
                                            health_check_interval=30, client_name=self.client_name)
            self._listener = asyncio.create_task(self._listen(), name="sportmafia-live-redis")

    async def stop(self) -> None:
        task, self._listener = self._listener, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        client, self._redis = self._redis, None
        if client is not None:
            with contextlib.suppress(Exception):
                await client.aclose()

    async def _listen(self) -> None:
        delay = 0.5
        first = True
        while True:
            pubsub = None
            try:
                pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(CHANNEL)
                if not first:
                    log.info("live: reconnected to Redis")
                    self._wake_all()
                first = False
                delay = 0.5
                self.redis_connected.set()
                while True:
                    message = await pubsub.get_message(timeout=PING_SECONDS)
                    if message is None:
                        await pubsub.ping()
                        continue
                    if message.get("type") == "message":
                        self._from_redis(message.get("data"))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.redis_connected.clear()
                log.warning("live: Redis link lost (%s); retrying in %.1f s", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()

    def _from_redis(self, data: Any) -> None:
        try:
            payload = json.loads(data)
        except (TypeError, ValueError):
            return
        if not isinstance(payload, dict) or payload.get("origin") == self.origin:
            return
        game_id = payload.get("game")
        if not isinstance(game_id, str) or len(game_id) > 64:
            return
        next_seq = payload.get("next_seq")
        if isinstance(next_seq, int) and not isinstance(next_seq, bool) and next_seq >= 0:
            self._notify_moved(game_id, next_seq)
        to_game, code = payload.get("code_to"), payload.get("code")
        if isinstance(to_game, str) and len(to_game) <= 64 and isinstance(code, str) and len(code) <= 16:
            self._notify_code_moved(game_id, code, to_game)
        revoked = payload.get("revoked")
        if isinstance(revoked, list) and self.revoke_handler is not None:
            ids = [i for i in revoked if isinstance(i, int) and not isinstance(i, bool)]
            if ids:
                self.revoke_handler(ids)
        timer = payload.get("timer")
        if isinstance(timer, dict):
            try:
                checked = check_timer({k: timer.get(k) for k in ("type", "running", "left", "total", "key")})
            except ValueError:
                return
            at = timer.get("at")
            message = {"type": "timer", **checked, "at": at if isinstance(at, int | float) else time.time()}
            self._keep_timer(game_id, message)
            self._notify_timer(game_id, message)


V = TypeVar("V")


def _keep(kept: OrderedDict[str, V], key: str, value: V, most: int) -> None:
    """``kept[key] = value`` as the one used last, forgetting the ones used longest ago beyond ``most``."""
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > most:
        kept.popitem(last=False)


WRITER_THREADS = 4
"""Worker threads that run appends at once (per process). They queue on the database's write lock anyway; more
threads only fight over the interpreter's lock, which delayed everything else (bench/online.py)."""
WRITE_TURN_WAIT = 0.02
"""Seconds an append waits on the event loop for another thread's write (a set-up request's, say) to end
before it goes to a worker thread instead."""


async def run_writer(app: FastAPI, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` (a route's append). On SQLite, right here on the event loop when the process's write lock
    is free or another thread's write ends within ``WRITE_TURN_WAIT``: an append is a millisecond of work that
    waits on nothing but that lock, and a worker thread's hand-over (and the fight for the interpreter's lock
    that follows) cost more than the append. Waiting those few milliseconds matters: had the appends gone to
    worker threads whenever another thread was writing, those threads would keep the lock taken for the next
    append, and the next, and under load every append stayed in a thread, each slower than the last
    (bench/online.py: answers past 2 s at 150 tables). Otherwise, and always on PostgreSQL (whose statements
    wait on the network), in a worker thread, at most ``WRITER_THREADS`` of them at once; the others wait on
    the event loop, not in a thread."""
    store: Store = app.state.store
    with store.write_turn(WRITE_TURN_WAIT) as now:
        if now:
            return fn(*args)
    limiter = app_state(app, "writers", lambda: anyio.CapacityLimiter(WRITER_THREADS))
    return await anyio.to_thread.run_sync(fn, *args, limiter=limiter)


async def run_reader(fn: Callable[..., T], store: Store, *args: Any) -> T:
    """``fn(store, *args)`` (a read): on SQLite right here on the event loop (a local read, a fraction of a
    millisecond, waits on no writer), on PostgreSQL in a worker thread (it waits on the network)."""
    if store.local:
        return fn(store, *args)
    return await run_in_threadpool(fn, store, *args)


def _stored_head(store: Store, game_id: str) -> int:
    return store.game(game_id).next_seq


def _moved(subs: list[Subscriber], next_seq: int) -> None:
    for sub in subs:
        sub.moved(next_seq)


def _code_left(subs: list[Subscriber], code: str) -> None:
    for sub in subs:
        sub.code_left(code)


T = TypeVar("T")
_state_lock = threading.Lock()


def app_state(app: FastAPI, name: str, make: Callable[[], T]) -> T:
    """``app.state.<name>``, made by ``make()`` on first use (once, whichever thread asks first)."""
    value: T | None = getattr(app.state, name, None)
    if value is None:
        with _state_lock:
            value = getattr(app.state, name, None)
            if value is None:
                value = make()
                setattr(app.state, name, value)
    return value


def get_hub(app: FastAPI) -> Hub:
    """The app's hub (made on first use, with ``$SPORTMAFIA_REDIS_URL``)."""
    return app_state(app, "live", lambda: Hub(os.environ.get(REDIS_ENV)))


async def hub_of(request: Request) -> Hub:
    """FastAPI dependency: the hub of the request's app (async: no worker thread is taken)."""
    return get_hub(request.app)


HubDep = Annotated[Hub, Depends(hub_of)]


async def start(app: FastAPI) -> None:
    """For the app's lifespan: start the Redis listener (when ``$SPORTMAFIA_REDIS_URL`` is set)."""
    await get_hub(app).start()


async def stop(app: FastAPI) -> None:
    await get_hub(app).stop()


# ------------------------------------------------------------------------------------------ messages
async def _refuse(websocket: WebSocket, close: int, code: str, en: str, ru: str) -> None:
    await websocket.accept()
    await websocket.send_json({"type": "error", "error": {"code": code, "en": en, "ru": ru}})
    await websocket.close(code=close, reason=code)


# ------------------------------------------------------------------------------------------ the socket
@dataclass
class _Conn:
    websocket: WebSocket
    store: Store
    hub: Hub
    game_id: str
    viewer: str
    sent: int  # the next number of the viewer's feed the client will get (the host's: the log's next seq)
    at: int  # the game's next seq when the client was last sent something, or found nothing new


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


def _message(kind: str, views: Views, viewer: str, since: int) -> dict[str, Any] | None:
    message = feed_message(kind, views, viewer, since)
    if message is not None:
        del message["since"]
    return message


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    app = websocket.app
    store: Store = app.state.store
    hub = get_hub(app)
    if not origin_matches(websocket.headers.get("origin"), websocket.headers.get("host")):
        await _refuse(websocket, CLOSE_FORBIDDEN_ORIGIN, "forbidden-origin",
                      "This socket opens only from this site's own pages (Origin must match Host).",
                      "Это соединение открывается только со страниц этого сайта (Origin должен совпадать с Host).")
        return
    uid = websocket.session.get("uid")
    user = await run_in_threadpool(store.get_user, uid) if isinstance(uid, int) else None
    if user is None:
        await _refuse(websocket, CLOSE_NOT_LOGGED_IN, "not-logged-in", "Log in first.", "Сначала войдите.")
        return
    kind = websocket.query_params.get("view", "host")
    since_text = websocket.query_params.get("since", "0")
    if kind not in VIEWERS or len(game_id) > 64 or not since_text.isdigit() or len(since_text) > 9:
        await _refuse(websocket, CLOSE_INVALID, "invalid",
                      "view is host or table; since is a seq (a whole number from 0).",
                      "view — host или table; since — номер события (целое число от 0).")
        return
    summary = None
    # who may open it: the game's host, or a judge or admin who does not play in it (web.access)
    if await run_in_threadpool(decide, store, user, game_id) is not None:
        try:
            summary = await run_in_threadpool(store.game, game_id)
        except GameNotFound:
            summary = None
    if summary is None:
        await _refuse(websocket, CLOSE_NOT_FOUND, "not-found", "No such game.", "Такой игры нет.")
        return
    since = int(since_text)
    viewer = VIEWERS[kind]
    sub = hub.subscribe(game_id)  # before the first read: a move during it wakes the sender again
    sub.host = kind == "host"
    key = websocket.session.get("key")
    sub.session_key, sub.user_id = (key if isinstance(key, str) else None), user.id
    try:
        n, text, cursor = await hub.render(store, game_id, summary.next_seq, (_message, "state", viewer, since))
        if since > cursor or text is None:
            await _refuse(websocket, CLOSE_INVALID, "invalid",
                          f"since is at most the game's next seq ({cursor}).",
                          f"since не больше номера следующего события игры ({cursor}).")
            return
        await websocket.accept()
        await websocket.send_text(text)
        conn = _Conn(websocket, store, hub, game_id, viewer, cursor, n)
        timer = await hub.stored_timer(game_id)
        if timer is not None:
            sub.timer_set(timer)
        sender = asyncio.create_task(_send_loop(conn, sub))
        receiver = asyncio.create_task(receive_loop(websocket, hub, game_id, sub, kind))
        sub.on_stall = sender.cancel
        await finish(websocket, sender, receiver, sub, f"the {kind} socket of game {game_id}", log)
    except WebSocketDisconnect:
        pass
    finally:
        hub.unsubscribe(sub)


async def _send_loop(conn: _Conn, sub: Subscriber) -> None:
    ws = conn.websocket
    sessions: Sessions | None = getattr(ws.app.state, "sessions", None)
    while True:
        await sub.wake.wait()
        sub.wake.clear()
        if sub.ping_due and not sub.ended and sub.session_key is not None and sessions is not None:
            # a session revoked by another process: found out here, at most a keepalive (and the sessions'
            # cache time) late
            sub.ended = not await sessions.alive(sub.session_key)
        if sub.ended:
            await ws.send_text(dumps({"type": "error", "error": {
                "code": "session-ended", "en": "Your session has ended (logged out, password changed or account "
                "disabled): log in again.", "ru": "Ваша сессия закончилась (выход, смена пароля или отключение "
                "учётной записи): войдите снова."}}))
            await ws.close(code=CLOSE_NOT_LOGGED_IN, reason="session-ended")
            return
        if sub.ping_due:
            sub.ping_due = False
            await ws.send_text(dumps({"type": "ping", "next_seq": conn.sent, "now": time.time()}))
        while sub.replies:
            await ws.send_text(dumps(sub.replies.pop(0)))
        if sub.check_head:
            sub.check_head = False
            try:
                head = await conn.hub.head(conn.store, conn.game_id)
            except GameNotFound:
                await ws.close(code=CLOSE_NOT_FOUND, reason="not-found")
                return
            if head > sub.hint:
                sub.hint = head
        if sub.hint > conn.at:
            n, text, cursor = await conn.hub.render(conn.store, conn.game_id, sub.hint,
                                                    (_message, "events", conn.viewer, conn.sent))
            if text is not None and cursor > conn.sent:
                await ws.send_text(text)
                conn.sent = cursor
            conn.at = max(conn.at, n)
            sub.hint = max(sub.hint, conn.at)
        if sub.timer is not None:
            timer, sub.timer = sub.timer, None
            await ws.send_json({**timer, "now": time.time()})
