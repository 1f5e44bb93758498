"""The login throttle and the bounded password checker (docs/security.md, "Logins and sessions").

Every attempt is counted *before* its password is hashed: :meth:`LoginThrottle.admit` records it as a failure
at once and hands back a ticket; a success takes the record back. So a burst of simultaneous attempts gets no
further than the allowance, whatever their number. The limits:

- per (address, account): ``pair_free`` failures free, then each further attempt waits ``base``, 2·``base``,
  4·``base`` … (at most ``cap``) after the pair's last failure;
- per address, over all accounts: at most ``address_budget`` failures in ``window`` seconds;
- per account, over all addresses: once it has had ``account_budget`` failures in ``window`` (someone is
  guessing from many addresses), an address that has itself failed on it gets no free attempts (its backoff
  waits from its first failure on). An address with no failures on the account is never held back by other
  addresses' failures: the owner on his own device still gets in, and nobody can lock an account out.

Argon2 checks run in :class:`PasswordChecker`: a pool of its own (2 threads) with a short queue; beyond it an
attempt is refused at once (503), so that checks never take the threads or the event loop game traffic uses,
and at most ``workers`` × 64 MiB are in use for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

R = TypeVar("R")
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


class LoginThrottle:
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


_DUMMIES: dict[tuple[int, ...], str] = {}
_DUMMIES_LOCK = threading.Lock()


class CheckerBusy(Exception):
    """Every password-check thread is busy and the queue is full."""


class PasswordChecker:
    """Argon2 hashing and checks in a thread pool of their own (``workers`` threads, at most ``queue`` more
    waiting). ``hasher`` is argon2-cffi's ``PasswordHasher`` with its defaults (argon2id, 64 MiB, 3 passes,
    4 lanes; RFC 9106's second recommendation); tests pass a cheaper one, production never does."""

    def __init__(self, hasher: PasswordHasher | None = None, *, workers: int = 2, queue: int = 8) -> None:
        self.hasher = hasher or PasswordHasher()
        self.workers = workers
        self.limit = workers + queue
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sportmafia-argon2")
        self._pending = 0
        self._lock = threading.Lock()

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def _dummy(self) -> str:
        """A hash with the hasher's parameters, checked against when a login does not exist (so that an unknown
        login costs what a wrong password does); made once per process and parameters, when first needed."""
        h = self.hasher
        params = (h.time_cost, h.memory_cost, h.parallelism, h.hash_len, h.salt_len, h.type.value)
        with _DUMMIES_LOCK:
            dummy = _DUMMIES.get(params)
            if dummy is None:
                dummy = _DUMMIES[params] = h.hash(secrets.token_urlsafe(16))
        return dummy

    def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches; with no hash (no such user) it still spends the time of one check."""
        try:
            return self.hasher.verify(password_hash or self._dummy(), password) and password_hash is not None
        except (VerificationError, InvalidHashError):
            return False

    def _done(self, _future: Future[Any]) -> None:
        with self._lock:
            self._pending -= 1

    async def run(self, fn: Callable[..., R], *args: object) -> R:
        """``fn(*args)`` in the checker's pool; raises :class:`CheckerBusy` at once when it is full."""
        with self._lock:
            if self._pending >= self.limit:
                raise CheckerBusy
            self._pending += 1
        try:
            future = self._pool.submit(fn, *args)
        except BaseException:
            with self._lock:
                self._pending -= 1
            raise
        future.add_done_callback(self._done)
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
