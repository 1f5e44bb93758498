"""The hub: after an append commits, a signal wakes that game's connections in this process, and across
processes through Redis pub/sub (docs/online.md, "The live layer").

The hub says *that* a game moved on (its id and next seq) or what the host's timer shows; every connection
then takes the events from the store and filters them for ITS viewer (:mod:`.render`). So no socket is ever
handed anything by the hub: what a viewer gets is rendered for him. Between processes the signal also carries
the events just committed (the log's own rows, as the database holds them), which the other processes' stores
keep when they continue the log they hold (``Store.learn``): their sockets then read nothing. Redis is thus a
part of the back end as private as the database (docs/deploy.md).

- In one process: ``Hub.publish(game_id, next_seq)`` is called by the sync route handlers (threadpool) after
  an append; it wakes the game's connections with ``loop.call_soon_threadsafe`` and returns at once.
- Across processes: with ``$SPORTMAFIA_REDIS_URL`` set, the same notifications (with the events, and the
  timer) go through Redis pub/sub on the channel ``sportmafia:live``; each process listens, reconnecting when
  Redis drops.
- Without the link (Redis down or unreachable; or no Redis, in ``serve --workers N``, whose processes share the
  database)
  the process reads the heads of its followed games every second instead (:mod:`.poll`); what it could not
  publish meanwhile is published when the link is back, and every connection then re-reads its game's head.
- Each connection is served by one sender task (:mod:`.socket`), so messages leave in order, each event once;
  notifications that arrive while it is busy are coalesced into the next read. A keepalive ``ping`` every
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
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import orjson
from fastapi import FastAPI

from ..engine import Event, event_from_json
from ..store import Store
from .poll import POLL_SECONDS, Poller
from .render import Feeds
from .subscriber import PING_SECONDS, Subscriber, check_timer, code_left, moved

log = logging.getLogger("sportmafia.live")

REDIS_ENV = "SPORTMAFIA_REDIS_URL"
CHANNEL = "sportmafia:live"
TIMER_KEY = "sportmafia:timer:"
TIMER_TTL = 6 * 3600
MAX_TIMERS = 10_000
MAX_HEADS = 10_000
"""Games whose last timer, and whose highest next seq told of, the hub keeps (the ones used last)."""
PUBLISH_SECONDS = 2.0
"""The longest a publication to Redis may take; past it, it counts as failed (and is sent again later)."""
LINK_CHECK_SECONDS = 5.0
"""The listener pings Redis after this long without a message, and counts the link lost when a second period
passes without an answer (a Redis that went away without closing the connection)."""
RETRY_MAX_SECONDS = 2.0
"""The longest wait between two attempts of the listener to reconnect."""

__all__ = ["PING_SECONDS", "Hub", "Subscriber", "app_state", "check_timer", "get_hub"]


# ------------------------------------------------------------------------------------------ the hub
class Hub:
    """The fan-out of one process, and its link to Redis when ``redis_url`` is given."""

    def __init__(self, redis_url: str | None = None, store: Store | None = None,
                 poll_without_redis: bool | None = None) -> None:
        """``store``: what the fallback reads while there is no Redis link (none: no fallback);
        ``poll_without_redis``: whether it reads even when no Redis is configured (the app's: when it shares
        its database with other processes, ``serve --workers N`` without Redis; never on SQLite, which one process
        serves). A process alone on its database has nothing to read that it did not write itself."""
        self.redis_url = redis_url or None
        self.store = store
        self.poll_without_redis = bool(poll_without_redis) and store is not None and not store.local
        self.poller: Poller | None = None
        self._poll_task: asyncio.Task[None] | None = None
        self._outage = False  # the listener lost the link: nothing is published until it is back
        self._publish_failed = False  # a publication failed in this outage (logged once)
        self._unsent: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()  # published once linked again
        self.origin = uuid.uuid4().hex
        self._subs: dict[str, set[Subscriber]] = {}
        self.feeds = Feeds()  # the games as last read, and the messages built on them (render.py)
        self._lock = threading.Lock()
        self._timers: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._heads: OrderedDict[str, int] = OrderedDict()  # the highest next seq told of, per game
        self._code_moves: OrderedDict[tuple[str, str], str] = OrderedDict()  # (game, code) -> the game it went to
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener: asyncio.Task[None] | None = None
        self._redis: Any = None
        self._sending: set[asyncio.Task[None]] = set()
        self.revoke_handler: Callable[[list[int]], Any] | None = None
        self.log_handler: Callable[[str, int, list[Event]], Any] | None = None
        """Takes the events another process committed and sent with its signal (``Store.learn``)."""
        self.redis_connected = asyncio.Event()
        self.tables: dict[str, Callable[[dict[str, Any]], Any]] = {}
        """The bots' tables this process runs (``live.driver``): each game's handler of ``tell_table``."""
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
                    self.feeds.forget(sub.game_id)

    def _local(self, game_id: str) -> list[Subscriber]:
        with self._lock:
            return list(self._subs.get(game_id, ()))

    def followed(self) -> dict[str, list[Subscriber]]:
        """The games this process's connections follow, with them."""
        with self._lock:
            return {game_id: list(subs) for game_id, subs in self._subs.items()}

    @property
    def linked(self) -> bool:
        """Whether the hub is linked to the other processes through Redis now (subscribed, the link not lost)."""
        return self._redis is not None and self.redis_connected.is_set() and not self._outage

    @property
    def polling(self) -> bool:
        """Whether the fallback reads the log now (:mod:`.poll`): Redis configured but not linked, or no Redis
        and ``poll_without_redis``."""
        return not self.linked and (self.redis_url is not None or self.poll_without_redis)

    def moved_elsewhere(self, game_id: str, next_seq: int) -> None:
        """Another process appended to the game (found by the fallback's read, :mod:`.poll`)."""
        self._notify_moved(game_id, next_seq)

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
            loop.call_soon_threadsafe(moved, subs, next_seq)

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
            loop.call_soon_threadsafe(code_left, subs, code)

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
    def publish(self, game_id: str, next_seq: int, events: Sequence[Event] = ()) -> None:
        """The game ``game_id`` has events up to ``next_seq - 1``; ``events``: the last of them, just committed
        by this process (sent on to the other processes, so that they fold them without reading the log).
        Callable from any thread; never blocks."""
        self._notify_moved(game_id, next_seq)
        payload: dict[str, Any] = {"origin": self.origin, "game": game_id, "next_seq": next_seq}
        if events and self._redis is not None:
            payload["log"] = [next_seq - len(events), [ev.to_json() for ev in events]]
        self._to_redis(payload)

    def publish_claims(self, game_id: str, count: int) -> None:
        """The game now has ``count`` claims (``store.claims``): its connections read the new ones."""
        self._notify_claims(game_id, count)
        self._to_redis({"origin": self.origin, "game": game_id, "claims": count})

    def claims_elsewhere(self, game_id: str, count: int) -> None:
        """The game has ``count`` claims (found by the fallback's read, :mod:`.poll`)."""
        self._notify_claims(game_id, count)

    def _notify_claims(self, game_id: str, count: int) -> None:
        for sub in self._local(game_id):
            sub.loop.call_soon_threadsafe(sub.said, count)

    def tell_table(self, game_id: str, message: dict[str, Any]) -> None:
        """A message for the bots' table of the game (``live.driver``), wherever it runs: a seat passed."""
        self._tell_table_here(game_id, message)
        self._to_redis({"origin": self.origin, "game": game_id, "table": message})

    def _tell_table_here(self, game_id: str, message: dict[str, Any]) -> None:
        handler = self.tables.get(game_id)
        if handler is not None:
            handler(message)

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

    def publish_sessions_ended(self, keys: list[str], user_id: int | None) -> None:
        """Login sessions were revoked here: the sockets opened with them are closed at once, in this process and
        in the others through Redis (without Redis, the others find out at their sockets' keepalive,
        ``Sessions.alive``). The keys are the sessions' stored keys (keyed hashes), never cookies' secrets.
        Callable from any thread; never blocks."""
        self.sessions_ended(keys, user_id)
        if keys or user_id is not None:
            self._to_redis({"origin": self.origin, "game": "", "sessions_ended": keys, "user": user_id})

    def sessions_ended(self, keys: list[str], user_id: int | None) -> None:
        """Login sessions were revoked (the ``keys``, or every session of ``user_id``): this process's sockets
        opened with them are closed at once (callable from any thread)."""
        ended = set(keys)
        with self._lock:
            subs = [sub for group in self._subs.values() for sub in group if sub.session_key is not None
                    and (sub.session_key in ended or (user_id is not None and sub.user_id == user_id))]
        for sub in subs:
            sub.loop.call_soon_threadsafe(sub.end)

    def tell_hosts(self, game_id: str, message: dict[str, Any]) -> None:
        """Send ``message`` (``{"type": "requests"}``: the join requests changed) to the game's host consoles,
        in this process and in the others through Redis (callable from any thread)."""
        self.tell_hosts_here(game_id, message)
        if message.get("type") == "requests":
            self._to_redis({"origin": self.origin, "game": game_id, "hosts": "requests"})

    def tell_hosts_here(self, game_id: str, message: dict[str, Any]) -> None:
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
        if self._outage:  # never waits on a Redis known to be away: sent once the link is back
            self._keep_unsent(payload)
            return
        data = orjson.dumps(payload)  # a move's events ride along: the fast encoder
        timer = payload.get("timer")
        game_id = str(payload["game"])
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        coro = self._redis_send(data, game_id, orjson.dumps(timer) if timer is not None else None, payload)
        if running is self._loop:
            task = self._loop.create_task(coro)
            self._sending.add(task)  # keep a reference until it is done
            task.add_done_callback(self._sending.discard)
        else:
            asyncio.run_coroutine_threadsafe(coro, self._loop)

    async def _redis_send(self, data: str | bytes, game_id: str, timer: str | bytes | None,
                          payload: dict[str, Any] | None = None) -> None:
        client = self._redis
        if client is None:
            return
        try:
            async with asyncio.timeout(PUBLISH_SECONDS):
                await client.publish(CHANNEL, data)
                if timer is not None:
                    await client.set(TIMER_KEY + game_id, timer, ex=TIMER_TTL)
        except Exception as exc:  # Redis away: sent again once the link is back; the others poll meanwhile
            if payload is not None:
                self._keep_unsent(payload)
            if not self._publish_failed:
                self._publish_failed = True
                log.warning("live: publishing to Redis failed (%s); kept to publish once the link is back",
                            type(exc).__name__ if not str(exc) else exc)

    def _keep_unsent(self, payload: dict[str, Any]) -> None:
        """Keep what could not be published: per game, the highest head, the last timer, each code's pass, the
        revoked links; and the sessions ended (bounded like the heads)."""
        game_id = str(payload["game"])
        with self._lock:
            if "next_seq" in payload:
                key = (game_id, "moved")
                kept = self._unsent.get(key)
                if kept is None or kept["next_seq"] < payload["next_seq"]:
                    # without its events: by the time it is sent the others have read the log themselves
                    self._unsent[key] = {k: v for k, v in payload.items() if k != "log"}
            elif "timer" in payload:
                self._unsent[(game_id, "timer")] = payload
            elif "claims" in payload:
                kept = self._unsent.get((game_id, "claims"))
                if kept is None or kept["claims"] < payload["claims"]:
                    self._unsent[(game_id, "claims")] = payload
            elif "code" in payload:
                self._unsent[(game_id, "code:" + str(payload["code"]))] = payload
            elif "revoked" in payload:
                key = (game_id, "revoked")
                kept = self._unsent.get(key)
                ids = sorted(set(kept["revoked"] if kept else []) | set(payload["revoked"]))
                self._unsent[key] = {**payload, "revoked": ids}
            elif "hosts" in payload:
                self._unsent[(game_id, "hosts")] = payload
            elif "sessions_ended" in payload:  # every revocation kept: a socket of any of them must close
                key = (game_id, f"sessions:{payload.get('user')}:{len(self._unsent)}")
                self._unsent[key] = payload
            else:
                return
            while len(self._unsent) > MAX_HEADS:
                self._unsent.popitem(last=False)

    async def _send_unsent(self) -> None:
        """Publish what was kept while the link was down (the other processes' sockets catch up at once)."""
        with self._lock:
            unsent, self._unsent = list(self._unsent.values()), OrderedDict()
        for payload in unsent:
            timer = payload.get("timer")
            await self._redis_send(orjson.dumps(payload), str(payload["game"]),
                                   orjson.dumps(timer) if timer is not None else None, payload)

    async def stored_timer(self, game_id: str) -> dict[str, Any] | None:
        """The game's timer: this process's, else the one kept in Redis by another process."""
        local = self.timer(game_id)
        if local is not None or self._redis is None or self._outage:
            return local
        try:
            async with asyncio.timeout(PUBLISH_SECONDS):
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

    async def ping_redis(self, timeout: float) -> bool:
        """Whether Redis answers a ping within ``timeout`` seconds (False when it is not configured)."""
        client = self._redis
        if client is None:
            return False
        try:
            async with asyncio.timeout(timeout):
                return bool(await client.ping())
        except Exception:
            return False

    # --- the Redis link
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if self.redis_url and self._listener is None:
            import redis.asyncio as aioredis

            self._redis = aioredis.from_url(self.redis_url, socket_connect_timeout=3, socket_timeout=None,
                                            health_check_interval=30, client_name=self.client_name)
            self._listener = asyncio.create_task(self._listen(), name="sportmafia-live-redis")
        if self.store is not None and (self.redis_url or self.poll_without_redis) and self._poll_task is None:
            self.poller = Poller(self, self.store, POLL_SECONDS)
            self._poll_task = asyncio.create_task(self.poller.run(), name="sportmafia-live-poll")

    async def stop(self) -> None:
        poll, self._poll_task = self._poll_task, None
        if poll is not None:
            poll.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await poll
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
        delay = 0.25
        first = True
        lost_at = 0.0
        while True:
            pubsub = None
            try:
                pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                async with asyncio.timeout(LINK_CHECK_SECONDS):
                    await pubsub.subscribe(CHANNEL)
                self._outage = False
                self.redis_connected.set()
                if not first:
                    log.warning("live: the Redis link is back after %.1f s", time.monotonic() - lost_at)
                    await self._send_unsent()
                    self._wake_all()  # every connection re-reads its game's head once
                first = False
                delay = 0.25
                self._publish_failed = False
                await self._receive(pubsub)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not self._outage:
                    self._outage = True
                    lost_at = time.monotonic()
                    log.warning("live: the Redis link is lost (%s); reading the log every %.1f s meanwhile, and"
                                " reconnecting", type(exc).__name__ if not str(exc) else exc, POLL_SECONDS)
                self.redis_connected.clear()
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX_SECONDS)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()

    async def _receive(self, pubsub: Any) -> None:
        """The channel's messages, until the link fails: pinged after ``LINK_CHECK_SECONDS`` of silence, and
        counted lost when the answer does not come within as long again."""
        pinged = False
        while True:
            message = await pubsub.get_message(timeout=LINK_CHECK_SECONDS)
            if message is None:
                if pinged:
                    raise ConnectionError(f"Redis did not answer a ping within {LINK_CHECK_SECONDS:.0f} s")
                await pubsub.ping()
                pinged = True
                continue
            pinged = False
            if message.get("type") == "message":
                self._from_redis(message.get("data"))

    def _learn(self, game_id: str, entries: Any) -> None:
        """Another process's events, committed (``[first seq, [event, ...]]``): given to ``log_handler`` (the
        store keeps them when they continue the log it holds; otherwise its sockets read the log as before)."""
        if self.log_handler is None or not isinstance(entries, list) or len(entries) != 2:
            return
        first, items = entries
        if isinstance(first, bool) or not isinstance(first, int) or not isinstance(items, list):
            return
        try:
            events = [event_from_json(item) for item in items]
        except (TypeError, ValueError, KeyError):
            log.warning("live: events from another process could not be read; its sockets read the log")
            return
        self.log_handler(game_id, first, events)

    def _from_redis(self, data: Any) -> None:
        try:
            payload = orjson.loads(data)
        except (TypeError, ValueError):
            return
        if not isinstance(payload, dict) or payload.get("origin") == self.origin:
            return
        ended = payload.get("sessions_ended")
        if isinstance(ended, list):  # login sessions revoked by another process (publish_sessions_ended)
            user = payload.get("user")
            self.sessions_ended([k for k in ended if isinstance(k, str)],
                                user if isinstance(user, int) and not isinstance(user, bool) else None)
            return
        game_id = payload.get("game")
        if not isinstance(game_id, str) or len(game_id) > 64:
            return
        next_seq = payload.get("next_seq")
        if isinstance(next_seq, int) and not isinstance(next_seq, bool) and next_seq >= 0:
            self._learn(game_id, payload.get("log"))
            self._notify_moved(game_id, next_seq)
        count = payload.get("claims")
        if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
            self._notify_claims(game_id, count)
        table = payload.get("table")
        if isinstance(table, dict):
            self._tell_table_here(game_id, table)
        to_game, code = payload.get("code_to"), payload.get("code")
        if isinstance(to_game, str) and len(to_game) <= 64 and isinstance(code, str) and len(code) <= 16:
            self._notify_code_moved(game_id, code, to_game)
        revoked = payload.get("revoked")
        if isinstance(revoked, list) and self.revoke_handler is not None:
            ids = [i for i in revoked if isinstance(i, int) and not isinstance(i, bool)]
            if ids:
                self.revoke_handler(ids)
        if payload.get("hosts") == "requests":  # a join request made or decided in another process
            self.tell_hosts_here(game_id, {"type": "requests"})
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
    """The app's hub (made on first use, with ``$SPORTMAFIA_REDIS_URL``, and the app's store for the fallback
    reads while there is no Redis link); the events other processes send with their signals go to the app's
    store (``Store.learn``)."""
    def make() -> Hub:
        store = getattr(app.state, "store", None)
        hub = Hub(os.environ.get(REDIS_ENV), store, poll_without_redis=getattr(app.state, "shared", False))
        if store is not None:
            hub.log_handler = store.learn
        return hub
    return app_state(app, "live", make)

