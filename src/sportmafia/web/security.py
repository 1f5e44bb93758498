"""Passwords (argon2), the secret key, a sliding-window rate limit (join requests), CSRF and the request body
limit. Logins: ``throttle.py``; sessions: ``sessions.py``."""

from __future__ import annotations

import hmac
import json
import os
import re
import secrets
import time
from bisect import insort
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from argon2 import PasswordHasher
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..i18n import msg
from ..store.db import DATA_ENV, DEFAULT_DATA
from .errors import error_body
from .limits import Counting, LimitBackend, Put, numbers, recent, record

SECRET_ENV = "SPORTMAFIA_SECRET_KEY"
SECRET_FILE = "secret_key"
CSRF_HEADER = "X-CSRF-Token"
MAX_BODY = 64 * 1024
"""The largest request body the API reads (64 KiB); larger ones are refused with 413."""
MAX_UPLOAD = 512 * 1024
"""The largest participants file (``POST /api/tournaments/{id}/participants/csv``)."""
MAX_IMPORT = 16 * 1024 * 1024
"""The largest file of games imported at once (``POST /api/club/games/import``: a season of Polemica games)."""
BODY_LIMITS = ((re.compile(r"^/api/tournaments/[0-9]+/participants/csv$"), MAX_UPLOAD + 16 * 1024),
               (re.compile(r"^/api/club/games/import$"), MAX_IMPORT))
"""Paths whose bodies may be larger than ``MAX_BODY``: the participants upload (its file and the multipart
form's own lines), a file of games imported."""
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

_hasher = PasswordHasher()
"""argon2-cffi's defaults: argon2id, 64 MiB, 3 passes, 4 lanes (RFC 9106's second recommendation)."""


def password_hasher() -> PasswordHasher:
    """The process's argon2 hasher: what :func:`hash_password` and a ``PasswordChecker`` made without one use."""
    return _hasher


def use_password_hasher(hasher: PasswordHasher) -> None:
    """Make ``hasher`` the process's own from now on. Only a test process does this (tests/conftest.py: the
    cheapest parameters, where the cost of a check is not what is tested); a server never calls it."""
    global _hasher
    _hasher = hasher


def hash_password(password: str) -> str:
    """An argon2id hash of ``password`` (the process's hasher: argon2-cffi's default parameters), made in the
    calling thread: for the first start's admin and for scripts. The routes hash and check in the app's bounded
    ``throttle.PasswordChecker``."""
    return _hasher.hash(password)


def data_folder() -> Path:
    return Path(os.environ.get(DATA_ENV) or DEFAULT_DATA).expanduser()


def load_secret_key() -> str:
    """``$SPORTMAFIA_SECRET_KEY``, else the key kept in ``$SPORTMAFIA_DATA/secret_key`` (made on first use,
    mode 0600), so that sessions survive a restart."""
    env = os.environ.get(SECRET_ENV)
    if env:
        return env
    folder = data_folder()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / SECRET_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text(encoding="ascii").strip()
        if key:
            return key
        raise RuntimeError(f"{path} is empty: delete it or set {SECRET_ENV}") from None
    key = secrets.token_urlsafe(48)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key + "\n")
    return key


class LoginLimiter(Counting):
    """Failures per key (a client address, a table) in a sliding window. After ``max_failures`` failures within
    ``window`` seconds the key is blocked until the oldest of them is ``window`` old. The counts are kept in the
    ``backend`` (``web.limits``: Redis or the database, shared by every server process; ``name`` keeps this
    limiter's keys apart from the others'); a limiter made without one counts in this process's memory until
    :func:`bind` gives it the app's."""

    def __init__(self, max_failures: int = 5, window: float = 300.0, clock: Callable[[], float] = time.time, *,
                 backend: LimitBackend | None = None, name: str = "limit") -> None:
        self.max_failures = max_failures
        self.window = window
        self.clock = clock
        self.backend = backend
        self.name = name

    def _keys(self, keys: Sequence[str]) -> list[str]:
        backend = self.store()
        return [backend.key(self.name, k) for k in keys]

    def retry_after(self, *keys: str) -> float | None:
        """Seconds until the keys may try again, or None when none of them is blocked (one read)."""
        now = self.clock()
        wait = 0.0
        for text in self.store().read(self._keys(keys)):
            times = recent(numbers(text), now, self.window)
            if len(times) >= self.max_failures:
                wait = max(wait, times[-self.max_failures] + self.window - now)
        return wait if wait > 0 else None

    def failed(self, *keys: str) -> None:
        """A failure of each key, now (its last ``max_failures`` are kept)."""
        now = self.clock()
        hashed = self._keys(keys)

        def count(texts: list[str | None]) -> tuple[dict[str, Put], None]:
            writes: dict[str, Put] = {}
            counted: dict[str, str] = {}  # a key given twice counts twice
            for key, text in zip(hashed, texts, strict=True):
                times = recent(numbers(counted.get(key, text)), now, self.window)
                insort(times, now)
                counted[key] = record(times[-self.max_failures:])
                writes[key] = (counted[key], self.window + 1)
            return writes, None
        self.store().update(hashed, count)

    def succeeded(self, key: str) -> None:
        """The key starts afresh."""
        hashed = self._keys([key])
        self.store().update(hashed, lambda _texts: ({hashed[0]: None}, None))


L = TypeVar("L", bound=Any)


def bind(limiter: L, backend: LimitBackend) -> L:
    """``limiter`` (a :class:`LoginLimiter` or ``throttle.LoginThrottle``) counting in ``backend`` unless it was
    given one of its own."""
    if limiter.backend is None:
        limiter.backend = backend
    return limiter


async def _send_json(send: Send, status: int, body: dict[str, object]) -> None:
    payload = json.dumps(body, ensure_ascii=False).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]})
    await send({"type": "http.response.body", "body": payload})


class BodyLimitMiddleware:
    """Refuse request bodies larger than ``limit`` bytes with 413, whether announced by Content-Length or
    streamed (the body is read first, at most ``limit + 1`` bytes of it, and handed on whole). ``limits``: a
    larger limit for the paths that match a pattern (the first that matches)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY,
                 limits: Sequence[tuple[re.Pattern[str], int]] = ()) -> None:
        self.app = app
        self.limit = limit
        self.limits = [(pattern, size, self._too_large(size)) for pattern, size in limits]
        self.too_large = self._too_large(limit)

    @staticmethod
    def _too_large(limit: int) -> dict[str, Any]:
        return error_body("too-large", msg("The request body is larger than %(kib)s KiB.", kib=limit // 1024))

    def _limit_of(self, path: str) -> tuple[int, dict[str, Any]]:
        for pattern, size, too_large in self.limits:
            if pattern.match(path):
                return size, too_large
        return self.limit, self.too_large

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit, too_large = self._limit_of(scope["path"]) if self.limits else (self.limit, self.too_large)
        length = Headers(scope=scope).get("content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            await _send_json(send, 413, too_large)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if len(body) > limit:
                await _send_json(send, 413, too_large)
                return
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class CsrfMiddleware:
    """A state-changing request (POST, PUT, PATCH, DELETE) made with a logged-in session must carry the
    session's token in ``X-CSRF-Token``; otherwise 403, before any route runs. Sits inside
    ``sessions.SessionMiddleware`` (it reads ``scope["session"]``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE_METHODS:
            token = scope.get("session", {}).get("csrf")
            if isinstance(token, str) and token:
                given = Headers(scope=scope).get(CSRF_HEADER, "")
                if not hmac.compare_digest(given.encode(), token.encode()):
                    code = "csrf-missing" if not given else "csrf-wrong"
                    await _send_json(send, 403, error_body(code, msg(
                        "Send the session's %(header)s header (from GET /api/me) with every change.",
                        header=CSRF_HEADER)))
                    return
        await self.app(scope, receive, send)
