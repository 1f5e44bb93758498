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
from bisect import insort
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .limits import Counting, LimitBackend, Put, numbers, recent, record
from .security import password_hasher

R = TypeVar("R")
ACCOUNT_KEEP = 1000
"""The most recent failures kept per account (a guess from many addresses at once); the decision needs only
``account_budget`` of them."""


@dataclass
class Ticket:
    """An admitted attempt, counted as a failure until :meth:`LoginThrottle.succeeded` takes it back."""

    address: str
    account: str
    at: float


class LoginThrottle(Counting):
    """Counts login attempts per (address, account), per address and per account (see the module's text). The
    counts are kept in ``backend`` (``web.limits``: Redis or the database, shared by every server process;
    ``create_app`` gives the app's), each decision atomic; one made without a backend counts in this process's
    memory. Thread-safe; each call is a round trip to the backend (async callers run it in a thread)."""

    def __init__(self, *, pair_free: int = 3, base: float = 2.0, cap: float = 900.0, address_budget: int = 10,
                 account_budget: int = 10, window: float = 300.0, clock: Callable[[], float] = time.time,
                 backend: LimitBackend | None = None) -> None:
        self.pair_free = pair_free
        self.base = base
        self.cap = cap
        self.address_budget = address_budget
        self.account_budget = account_budget
        self.window = window
        self.forget_after = max(cap, window) * 4
        self.clock = clock
        self.backend = backend

    def _keys(self, address: str, account: str) -> list[str]:
        """The records of the address's failures, the account's, and the pair's ``[failures, last]``."""
        backend = self.store()
        return [backend.key("login-address", address), backend.key("login-account", account),
                backend.key("login-pair", address, account)]

    def _pair(self, text: str | None, now: float) -> tuple[int, float]:
        values = numbers(text)
        if len(values) != 2 or now - values[1] > self.forget_after:
            return 0, 0.0
        return int(values[0]), values[1]

    def backoff(self, failures: int, free: int) -> float:
        """How long after its last failure a pair with ``failures`` failures waits (0: not at all)."""
        if failures < free:
            return 0.0
        return float(min(self.cap, self.base * 2 ** min(failures - free, 30)))

    def admit(self, address: str, account: str) -> Ticket | float:
        """Count an attempt of ``account`` from ``address``: a ticket when it may go on to the password check,
        else the seconds to wait (nothing is counted then)."""
        account = account.casefold()
        keys = self._keys(address, account)

        def decide(texts: list[str | None]) -> tuple[dict[str, Put], Ticket | float]:
            # the clock read with the records, on every try: a try made again after another process's write
            # must not date its attempt before that write (nor wait longer than the window)
            now = self.clock()
            by_address = recent(numbers(texts[0]), now, self.window)
            by_account = recent(numbers(texts[1]), now, self.window)
            failures, last = self._pair(texts[2], now)
            wait = 0.0
            if len(by_address) >= self.address_budget:
                wait = by_address[-self.address_budget] + self.window - now
            free = 1 if len(by_account) >= self.account_budget else self.pair_free
            delay = self.backoff(failures, free)
            if delay > 0:
                wait = max(wait, last + delay - now)
            if wait > 0:
                return {}, wait
            insort(by_address, now)
            insort(by_account, now)
            return {keys[0]: (record(by_address), self.window + 1),
                    keys[1]: (record(by_account[-ACCOUNT_KEEP:]), self.window + 1),
                    keys[2]: (record([failures + 1, now]), self.forget_after + 1)}, Ticket(address, account, now)
        return self.store().update(keys, decide)

    def _taken_back(self, texts: list[str | None], keys: list[str], at: float) -> dict[str, Put]:
        """The address's and the account's records without the attempt made at ``at``."""
        writes: dict[str, Put] = {}
        now = self.clock()
        for key, text in zip(keys[:2], texts[:2], strict=True):
            if text is None:
                continue
            times = recent(numbers(text), now, self.window)
            with contextlib.suppress(ValueError):
                times.remove(at)
            writes[key] = (record(times), self.window + 1) if times else None
        return writes

    def succeeded(self, ticket: Ticket) -> None:
        """The password was right: the attempt was no failure, and the pair starts afresh."""
        keys = self._keys(ticket.address, ticket.account)

        def clear(texts: list[str | None]) -> tuple[dict[str, Put], None]:
            return {**self._taken_back(texts, keys, ticket.at), keys[2]: None}, None
        self.store().update(keys, clear)

    def failed(self, ticket: Ticket) -> None:
        """The password was wrong (the attempt is counted already): the pair's backoff runs from now, the end
        of the check, not from when it was admitted."""
        keys = self._keys(ticket.address, ticket.account)[2:]
        now = self.clock()

        def later(texts: list[str | None]) -> tuple[dict[str, Put], None]:
            values = numbers(texts[0])
            if len(values) != 2 or values[1] >= now:
                return {}, None
            return {keys[0]: (record([values[0], now]), self.forget_after + 1)}, None
        self.store().update(keys, later)

    def cancel(self, ticket: Ticket) -> None:
        """The attempt was not checked after all (the checker was busy): count it as if it had not come."""
        keys = self._keys(ticket.address, ticket.account)

        def uncount(texts: list[str | None]) -> tuple[dict[str, Put], None]:
            writes = self._taken_back(texts, keys, ticket.at)
            values = numbers(texts[2])
            if len(values) == 2:
                failures = int(values[0]) - 1
                writes[keys[2]] = (record([failures, values[1]]), self.forget_after + 1) if failures > 0 else None
            return writes, None
        self.store().update(keys, uncount)


_DUMMIES: dict[tuple[int, ...], str] = {}
_DUMMIES_LOCK = threading.Lock()


class CheckerBusy(Exception):
    """Every password-check thread is busy and the queue is full."""


class PasswordChecker:
    """Argon2 hashing and checks in a thread pool of their own (``workers`` threads, at most ``queue`` more
    waiting). ``hasher`` is by default the process's (``security.password_hasher``: argon2-cffi's ``PasswordHasher``
    with its defaults, argon2id, 64 MiB, 3 passes, 4 lanes; RFC 9106's second recommendation); tests use a cheaper
    one, production never does."""

    def __init__(self, hasher: PasswordHasher | None = None, *, workers: int = 2, queue: int = 8) -> None:
        self.hasher = hasher or password_hasher()
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
