"""The rate limits' reference semantics: the one-process, in-memory ``LoginThrottle`` and ``LoginLimiter`` as
they were before the limits were shared (``web/throttle.py`` and ``web/security.py`` at the commit before
migration 0012), verbatim but for the clock, which the tests give. ``tests/web/test_shared_limits.py`` checks
that every backend makes exactly their decisions."""

# ruff: noqa
from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

MAX_KEYS = 50_000
"""Past this many remembered pairs, addresses or accounts the throttle forgets what has expired."""


@dataclass
class _Pair:
    failures: int = 0
    last: float = 0.0


@dataclass
class Ticket:
    """An admitted attempt, counted as a failure until :meth:`LoginThrottle.succeeded` takes it back."""

    address: str
    account: str
    at: float


class ReferenceThrottle:
    """Counts login attempts per (address, account), per address and per account (see the module's text). In
    memory, per process; thread-safe."""

    def __init__(self, *, pair_free: int = 3, base: float = 2.0, cap: float = 900.0, address_budget: int = 10,
                 account_budget: int = 10, window: float = 300.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.pair_free = pair_free
        self.base = base
        self.cap = cap
        self.address_budget = address_budget
        self.account_budget = account_budget
        self.window = window
        self.forget_after = max(cap, window) * 4
        self.clock = clock
        self._pairs: dict[tuple[str, str], _Pair] = {}
        self._addresses: dict[str, deque[float]] = {}
        self._accounts: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, table: dict[str, deque[float]], key: str, now: float) -> deque[float]:
        times = table.get(key)
        if times is None:
            return deque()
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del table[key]
        return times

    def _pair(self, address: str, account: str, now: float) -> _Pair:
        pair = self._pairs.get((address, account))
        if pair is None or now - pair.last > self.forget_after:
            self._pairs.pop((address, account), None)
            return _Pair()
        return pair

    def backoff(self, failures: int, free: int) -> float:
        """How long after its last failure a pair with ``failures`` failures waits (0: not at all)."""
        if failures < free:
            return 0.0
        return float(min(self.cap, self.base * 2 ** min(failures - free, 30)))

    def _tidy(self, now: float) -> None:
        if len(self._pairs) > MAX_KEYS:
            for pair_key, pair in list(self._pairs.items()):
                if now - pair.last > self.forget_after:
                    del self._pairs[pair_key]
        for table in (self._addresses, self._accounts):
            if len(table) > MAX_KEYS:
                for key in list(table):
                    self._recent(table, key, now)

    def admit(self, address: str, account: str) -> Ticket | float:
        """Count an attempt of ``account`` from ``address``: a ticket when it may go on to the password check,
        else the seconds to wait (nothing is counted then)."""
        account = account.casefold()
        now = self.clock()
        with self._lock:
            self._tidy(now)
            wait = 0.0
            by_address = self._recent(self._addresses, address, now)
            if len(by_address) >= self.address_budget:
                wait = by_address[-self.address_budget] + self.window - now
            pair = self._pair(address, account, now)
            attacked = len(self._recent(self._accounts, account, now)) >= self.account_budget
            free = 1 if attacked else self.pair_free
            delay = self.backoff(pair.failures, free)
            if delay > 0:
                wait = max(wait, pair.last + delay - now)
            if wait > 0:
                return wait
            ticket = Ticket(address, account, now)
            self._pairs[(address, account)] = _Pair(pair.failures + 1, now)
            self._addresses.setdefault(address, deque()).append(now)
            self._accounts.setdefault(account, deque()).append(now)
            return ticket

    def _take_back(self, ticket: Ticket) -> None:
        for table, key in ((self._addresses, ticket.address), (self._accounts, ticket.account)):
            times = table.get(key)
            if times is not None:
                with contextlib.suppress(ValueError):
                    times.remove(ticket.at)
                if not times:
                    del table[key]

    def succeeded(self, ticket: Ticket) -> None:
        """The password was right: the attempt was no failure, and the pair starts afresh."""
        with self._lock:
            self._take_back(ticket)
            self._pairs.pop((ticket.address, ticket.account), None)

    def failed(self, ticket: Ticket) -> None:
        """The password was wrong (the attempt is counted already): the pair's backoff runs from now, the end
        of the check, not from when it was admitted."""
        with self._lock:
            pair = self._pairs.get((ticket.address, ticket.account))
            if pair is not None:
                pair.last = max(pair.last, self.clock())

    def cancel(self, ticket: Ticket) -> None:
        """The attempt was not checked after all (the checker was busy): count it as if it had not come."""
        with self._lock:
            self._take_back(ticket)
            pair = self._pairs.get((ticket.address, ticket.account))
            if pair is not None:
                pair.failures -= 1
                if pair.failures <= 0:
                    del self._pairs[(ticket.address, ticket.account)]



class ReferenceLimiter:
    """Failed logins per key (a login, a client address) in a sliding window. After ``max_failures``
    failures within ``window`` seconds the key is blocked until the oldest of them is ``window`` old.
    In memory, per process."""

    def __init__(self, max_failures: int = 5, window: float = 300.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_failures = max_failures
        self.window = window
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float] | None:
        times = self._failures.get(key)
        if times is None:
            return None
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._failures[key]
            return None
        return times

    def retry_after(self, *keys: str) -> float | None:
        """Seconds until the keys may try again, or None when none of them is blocked."""
        now = self.clock()
        wait = 0.0
        with self._lock:
            for key in keys:
                times = self._recent(key, now)
                if times is not None and len(times) >= self.max_failures:
                    wait = max(wait, times[-self.max_failures] + self.window - now)
        return wait if wait > 0 else None

    def failed(self, *keys: str) -> None:
        now = self.clock()
        with self._lock:
            if len(self._failures) > 50_000:  # bound the memory: forget what has expired
                for key in list(self._failures):
                    self._recent(key, now)
            for key in keys:
                times = self._recent(key, now) or self._failures.setdefault(key, deque())
                times.append(now)
                if len(times) > self.max_failures:
                    times.popleft()

    def succeeded(self, key: str) -> None:
        with self._lock:
            self._failures.pop(key, None)


