"""Where the rate limits keep what they count (docs/security.md, "Rate limits"): in Redis when
``$SPORTMAFIA_REDIS_URL`` is set, in the database otherwise, so that every server process makes the same
decisions as one process would.

The decisions themselves are written once, over :class:`LimitBackend` (``throttle.LoginThrottle``,
``security.LoginLimiter``). A backend keeps *records*: a key (a keyed hash of what is counted, made by
:meth:`LimitBackend.key`: no address or login is stored) and a short text, each with a life. It answers two
calls: :meth:`~LimitBackend.read` (the records' texts, one round trip) and :meth:`~LimitBackend.update` (read,
decide, write, atomically: the decision is a function of the texts it is given, run again when another process
changed them meanwhile).

- :class:`StoreBackend`: rows of the store (``store.limits``), changed in one transaction holding the keys.
- :class:`RedisBackend`: one Redis string per record, prefixed with the installation's id (two installations on
  one Redis never share a count), with a TTL so that nothing outlives its use; a change is a compare-and-set
  Lua script (it writes only if every record is still what the decision read; otherwise the decision is made
  again). A decision that writes nothing costs one ``MGET``.
- :class:`FallbackBackend`: Redis, and the database for a decision when Redis cannot be reached (said once in
  the log, and once when it is back). The counts made in the database meanwhile are its own: around an outage
  an attacker gets at most the allowance again, never unlimited attempts.
- :class:`MemoryBackend`: one process's memory, for a limiter made without a backend (unit tests).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import random
import secrets
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from ..store import Store
from ..store import limits as records

log = logging.getLogger("sportmafia.limits")

R = TypeVar("R")
Put = tuple[str, float] | None
"""A record's new text and its life in seconds; None: delete it."""
Change = Callable[[list[str | None]], tuple[Mapping[str, Put], R]]
"""Given the records' texts (None: no record), the records to write (keys left out stay as they are) and the
decision."""
PRUNE_EVERY = 60.0
"""Seconds between two prunings of the database's expired records (per process)."""
MEMORY_KEYS = 50_000
"""Past this many records the memory backend forgets the expired ones."""


class LimitBackend(ABC):
    """Keeps the limits' records (see the module's text): in memory, Redis or the database, one subclass each.
    ``secret``: the key of the records' keyed hashes."""

    local = False
    """Whether a read waits on nothing (memory, or a SQLite file): an async caller may then read on its loop."""

    def __init__(self, secret: str | None = None) -> None:
        self._secret = (secret or secrets.token_urlsafe(32)).encode()

    def key(self, kind: str, *parts: str) -> str:
        """The record's key for ``parts`` (an address, an account, a table) counted as ``kind``: ``kind:`` and
        128 bits of an HMAC-SHA256 keyed with the server's secret."""
        digest = hmac.new(self._secret, "\0".join((kind, *parts)).encode(), hashlib.sha256).hexdigest()
        return f"{kind}:{digest[:32]}"

    @abstractmethod
    def read(self, keys: Sequence[str]) -> list[str | None]:
        """The records of ``keys`` (None for one that is not kept or has expired)."""

    @abstractmethod
    def update(self, keys: Sequence[str], change: Change[R]) -> R:
        """``change`` applied to the records of ``keys`` atomically (run again if another process wrote them
        meanwhile); its writes are stored and its answer returned."""

    def close(self) -> None:  # noqa: B027 - a backend with no connection of its own has nothing to close
        """Let go of connections (the store is closed by its owner)."""


class MemoryBackend(LimitBackend):
    """In this process's memory (a limiter made without a backend: unit tests, one process)."""

    local = True

    def __init__(self, secret: str | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(secret)
        self.clock = clock
        self._records: dict[str, tuple[str, float]] = {}
        self._lock = threading.Lock()

    def _get(self, key: str, now: float) -> str | None:
        record = self._records.get(key)
        return record[0] if record is not None and record[1] > now else None

    def read(self, keys: Sequence[str]) -> list[str | None]:
        now = self.clock()
        with self._lock:
            return [self._get(k, now) for k in keys]

    def update(self, keys: Sequence[str], change: Change[R]) -> R:
        now = self.clock()
        with self._lock:
            writes, result = change([self._get(k, now) for k in keys])
            for key, put in writes.items():
                if put is None:
                    self._records.pop(key, None)
                else:
                    self._records[key] = (put[0], now + put[1])
            if len(self._records) > MEMORY_KEYS:
                for key, (_, until) in list(self._records.items()):
                    if until <= now:
                        del self._records[key]
            return result


class StoreBackend(LimitBackend):
    """Rows of the store (``store.limits``): correct under concurrency on PostgreSQL and SQLite. Expired rows
    are pruned at most once a minute per process, inside a decision's transaction."""

    def __init__(self, store: Store, secret: str | None = None, clock: Callable[[], float] = time.time) -> None:
        super().__init__(secret)
        self.store = store
        self.local = store.local
        self.clock = clock  # seconds since the epoch: when the records expire
        self._pruned = 0.0

    def read(self, keys: Sequence[str]) -> list[str | None]:
        return records.read_records(self.store, keys, self.clock())

    def update(self, keys: Sequence[str], change: Change[R]) -> R:
        now = self.clock()
        prune = now - self._pruned >= PRUNE_EVERY
        if prune:
            self._pruned = now

        def absolute(texts: list[str | None]) -> tuple[Mapping[str, records.Write], R]:
            writes, result = change(texts)
            return {k: None if put is None else (put[0], now + put[1]) for k, put in writes.items()}, result
        return records.update_records(self.store, keys, absolute, now, prune=prune)


_CAS = """
local n = #KEYS
for i = 1, n do
  local current = redis.call('GET', KEYS[i])
  local expected = ARGV[i]
  if expected == '-' then
    if current then return 0 end
  elseif (not current) or ('=' .. current) ~= expected then
    return 0
  end
end
for i = 1, n do
  local op = ARGV[n + 2 * i - 1]
  local what = string.sub(op, 1, 1)
  if what == 'd' then
    redis.call('DEL', KEYS[i])
  elseif what == 's' then
    redis.call('SET', KEYS[i], string.sub(op, 2), 'PX', ARGV[n + 2 * i])
  end
end
return 1
"""
"""Write the records only if each is still what the decision read ('-': none, '=text'); per key an operation:
'k' keep, 'd' delete, 's<text>' set (with its life in milliseconds). 1 when written, 0 when changed meanwhile."""

REDIS_TIMEOUT = 0.5
"""Seconds a limit's Redis call may take (connecting or answering) before the database decides instead."""


class RedisBackend(LimitBackend):
    """One Redis string per record under ``sportmafia:{installation}:limit:``, with a TTL (see the module's text).
    A synchronous client: the callers run in worker threads (or hand the call to one)."""

    def __init__(self, url: str, installation: str, secret: str | None = None,
                 timeout: float = REDIS_TIMEOUT) -> None:
        import redis

        super().__init__(secret)
        self.prefix = f"sportmafia:{installation}:limit:"
        self.client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout,
                                           client_name="sportmafia-limits")
        self._cas: Any = self.client.register_script(_CAS)

    def read(self, keys: Sequence[str]) -> list[str | None]:
        values = self.client.mget([self.prefix + k for k in keys])
        return [v.decode() if isinstance(v, bytes) else v for v in values]

    def update(self, keys: Sequence[str], change: Change[R]) -> R:
        full = [self.prefix + k for k in keys]
        for attempt in range(1000):
            texts = self.read(keys)
            writes, result = change(texts)
            if not writes:
                return result  # decided on one MGET's snapshot, nothing to write
            args: list[str | int] = ["-" if t is None else "=" + t for t in texts]
            for key in keys:
                if key not in writes:
                    args += ["k", 0]
                    continue
                put = writes[key]
                args += ["d", 0] if put is None else ["s" + put[0], max(1, int(put[1] * 1000))]
            if self._cas(keys=full, args=args):
                return result
            if attempt >= 8:  # many decisions on the same keys at once: let the others through
                time.sleep(random.uniform(0, 0.002))
        raise RuntimeError("rate limit records changed 1000 times during one decision")

    def close(self) -> None:
        self.client.close()


class FallbackBackend(LimitBackend):
    """``primary`` (Redis), and ``fallback`` (the database) for a decision when the primary cannot be reached;
    after a failure the primary is left alone for ``pause`` seconds, so that an outage costs a decision no
    timeout more than once in a while."""

    def __init__(self, primary: LimitBackend, fallback: LimitBackend, pause: float = 5.0) -> None:
        super().__init__()
        import redis

        self.primary, self.fallback, self.pause = primary, fallback, pause
        self.errors: tuple[type[BaseException], ...] = (redis.ConnectionError, redis.TimeoutError, OSError)
        self.down = False
        self._retry_at = 0.0
        self._lock = threading.Lock()

    def key(self, kind: str, *parts: str) -> str:
        return self.primary.key(kind, *parts)

    def _call(self, work: Callable[[LimitBackend], R]) -> R:
        if time.monotonic() >= self._retry_at:
            try:
                result = work(self.primary)
            except self.errors as exc:
                with self._lock:
                    self._retry_at = time.monotonic() + self.pause
                    first, self.down = not self.down, True
                if first:
                    log.warning("limits: Redis cannot be reached (%s: %s); the rate limits are counted in the "
                                "database until it is back", type(exc).__name__, exc)
            else:
                if self.down:
                    with self._lock:
                        back, self.down = self.down, False
                    if back:
                        log.warning("limits: Redis is back; the rate limits are counted there again")
                return result
        return work(self.fallback)

    def read(self, keys: Sequence[str]) -> list[str | None]:
        return self._call(lambda b: b.read(keys))

    def update(self, keys: Sequence[str], change: Change[R]) -> R:
        return self._call(lambda b: b.update(keys, change))

    def close(self) -> None:
        self.primary.close()


_COUNTING_LOCK = threading.Lock()


class Counting:
    """A limit whose counts are kept in ``backend`` (given, or bound by ``security.bind``); one left without a
    backend counts in a memory backend of its own (one process: unit tests)."""

    backend: LimitBackend | None

    def store(self) -> LimitBackend:
        """The backend the counts are kept in."""
        if self.backend is None:
            with _COUNTING_LOCK:
                if self.backend is None:
                    self.backend = MemoryBackend()
        return self.backend


def make_backend(store: Store, secret: str, redis_url: str | None) -> LimitBackend:
    """The server's backend: Redis (falling back to the database) when ``redis_url`` is given, else the
    database. Both hash the keys with ``secret`` (every process of an installation has the same)."""
    database = StoreBackend(store, secret)
    if not redis_url:
        return database
    return FallbackBackend(RedisBackend(redis_url, records.installation_id(store), secret), database)


def limits_of(app: FastAPI) -> LimitBackend:
    """The app's backend (``create_app`` makes it)."""
    backend: LimitBackend = app.state.limits
    return backend


async def run_limit(backend: LimitBackend | None, fn: Callable[..., R], *args: Any, read: bool = True) -> R:
    """``fn(*args)`` (a limiter's call) from async code: on the event loop when it is a read of a backend that
    waits on nothing, in a worker thread otherwise (Redis and PostgreSQL wait on the network, a SQLite write on
    the writer's turn)."""
    if read and (backend is None or backend.local):
        return fn(*args)
    return await run_in_threadpool(fn, *args)


# --- the records' texts ---------------------------------------------------------------------------------------
def numbers(text: str | None) -> list[float]:
    """A record's numbers (none: no record)."""
    if text is None:
        return []
    values = json.loads(text)
    return [float(v) for v in values] if isinstance(values, list) else []


def record(values: Sequence[float]) -> str:
    """A record's text: its numbers as JSON (a float's repr reads back exactly)."""
    return json.dumps(list(values), separators=(",", ":"))


def recent(times: Sequence[float], now: float, window: float) -> list[float]:
    """The moments of ``times`` (in order) still inside the window that ends at ``now``."""
    return [t for t in times if t > now - window]
