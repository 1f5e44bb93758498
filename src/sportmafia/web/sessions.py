"""Server-side sessions: the cookie carries only a random secret; the session (user, CSRF token, expiry,
revocation) is a row of the store (``store/accounts.py``) under the secret's keyed hash. And ``safe_next``:
where a login may send the browser.

A request's session is looked up once by :class:`SessionMiddleware` and put in ``scope["session"]`` as
``{"uid", "csrf", "key"}`` (empty when there is none), where the routes, the pages, the sockets and the CSRF
check read it. One process alone on its database (``shared=False``) keeps lookups in memory for
``cache_seconds`` (15 s), so the console's command per action reads no session row; a revocation drops the
kept copies at once. When other processes share the database (``shared=True``: ``serve --workers N``, or
Redis configured), nothing is kept: every request reads its session row joined with its user (one indexed
query, ``store.accounts.find_session``), and ``scope["session"]["user"]`` carries that user, so a logout, a
password change, a disabling or a role change committed by any process holds for the next request here.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timedelta
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import unquote, urlsplit

import anyio.to_thread
from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..store import Store, UserRecord
from ..store.accounts import (
    SessionRecord,
    create_session,
    find_session,
    revoke_session,
    revoke_user_sessions,
    touch_session,
)
from ..store.models import utcnow

SESSION_COOKIE = "sportmafia_session"
SESSION_MAX_AGE = 14 * 24 * 3600
"""A session ends 14 days after it was last used (and at once when revoked)."""
CACHE_SECONDS = 15.0
TOUCH_SECONDS = 600.0
"""A session's last use is written at most this often (and its cookie sent again, with the new expiry)."""
CACHE_SIZE = 4096
SECRET_MAX = 128


def safe_next(value: str | None) -> str:
    """``value`` when it is a path of this site, else ``/``: it must start with one ``/`` (not ``//`` or
    ``/\\``), have no backslash, no control character, and name no scheme or host, as given and after
    percent-decoding."""
    if not value or len(value) > 2048:
        return "/"
    text = value
    for _ in range(3):  # as given, then decoded (and decoded again, to a depth of 3)
        if not text.startswith("/") or text.startswith("//") or "\\" in text:
            return "/"
        if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
            return "/"
        parts = urlsplit(text)
        if parts.scheme or parts.netloc:
            return "/"
        decoded = unquote(text)
        if decoded == text:
            return value
        text = decoded
    return "/"


class Sessions:
    """The app's sessions: started, looked up (kept for ``cache_seconds``), revoked."""

    def __init__(self, store: Store, secret_key: str, *, lifetime: float = SESSION_MAX_AGE,
                 cache_seconds: float = CACHE_SECONDS, touch_seconds: float = TOUCH_SECONDS,
                 https_only: bool = False, clock: Callable[[], float] = time.monotonic, shared: bool = False) -> None:
        self.store = store
        self.shared = shared
        """Other processes share the database: every lookup reads the row (nothing kept, no read shared by
        requests that arrive while one is under way, since it may have begun before a revocation)."""
        self._key = hashlib.sha256(b"sportmafia-session:" + secret_key.encode()).digest()
        self.lifetime = lifetime
        self.cache_seconds = cache_seconds
        self.touch_seconds = touch_seconds
        self.https_only = https_only
        self.clock = clock
        self._cache: OrderedDict[str, tuple[SessionRecord | None, float]] = OrderedDict()
        self._lock = threading.Lock()
        self._reading: dict[str, asyncio.Future[tuple[SessionRecord | None, bool]]] = {}
        self._revocations = 0
        self.on_end: list[Callable[[list[str], int | None], Any]] = []
        """Told of every revocation made here, with :meth:`forget`'s arguments (the live hub closes the
        sockets opened with those sessions)."""

    def key_of(self, secret: str) -> str:
        """The stored key of a cookie's secret: HMAC-SHA256 under the app's secret key."""
        return hmac.new(self._key, secret.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    def _keep(self, key: str, record: SessionRecord | None) -> None:
        with self._lock:
            self._cache[key] = (record, self.clock())
            self._cache.move_to_end(key)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)

    def forget(self, keys: list[str] | None = None, user_id: int | None = None) -> None:
        """Sessions were revoked: drop the kept lookups of these keys, and of every session of ``user_id``, and
        tell the ``on_end`` listeners (callable from any thread)."""
        with self._lock:
            self._revocations += 1
            for key in keys or ():
                self._cache.pop(key, None)
                self._reading.pop(key, None)
            if user_id is not None:
                for key, (record, _at) in list(self._cache.items()):
                    if record is not None and record.user_id == user_id:
                        del self._cache[key]
        for listener in self.on_end:
            listener(list(keys or ()), user_id)

    async def alive(self, key: str) -> bool:
        """Whether the session stored under ``key`` is live (its kept lookup, or the store's row when that is
        older than ``cache_seconds``): how a socket that outlives a request finds a revocation made by another
        process."""
        with self._lock:
            kept = self._cache.get(key)
        if kept is not None and self.clock() - kept[1] < self.cache_seconds:
            return kept[0] is not None
        if self.shared:
            record, _touched = await self._fetch(key)
        else:
            record, _touched = await self._read(key)
        return record is not None

    async def lookup(self, secret: str) -> tuple[SessionRecord | None, bool]:
        """The live session of a cookie's secret (None when there is none) and whether its expiry was just
        moved on (the cookie is then sent again)."""
        key = self.key_of(secret)
        if self.shared:
            return await self._fetch(key)
        with self._lock:
            kept = self._cache.get(key)
        if kept is not None and self.clock() - kept[1] < self.cache_seconds:
            return kept[0], False
        return await self._read(key)

    async def _read(self, key: str) -> tuple[SessionRecord | None, bool]:
        """The store's row of ``key`` (its use written when due), read once however many requests of the session
        ask at the same moment (a console's tables share one session, and its kept copy expires for all of them
        at once): the others wait for that read rather than each take a worker thread. The read is a task of its
        own, so a request that goes away does not cancel it for the others."""
        task = self._reading.get(key)
        first = task is None
        if task is None:
            task = asyncio.ensure_future(self._fetch(key))
            self._reading[key] = task
            task.add_done_callback(functools.partial(self._done_reading, key))
        record, touched = await asyncio.shield(task)
        return record, touched and first

    def _done_reading(self, key: str, task: asyncio.Future[tuple[SessionRecord | None, bool]]) -> None:
        if self._reading.get(key) is task:
            self._reading.pop(key, None)
        if not task.cancelled():
            task.exception()  # retrieved: each waiter that is still there raises it

    async def _fetch(self, key: str) -> tuple[SessionRecord | None, bool]:
        revocations = self._revocations  # a revocation while the row is read: what was read is not kept
        record = await anyio.to_thread.run_sync(find_session, self.store, key)
        touched = False
        if record is not None and (utcnow() - record.last_seen).total_seconds() > self.touch_seconds:
            await anyio.to_thread.run_sync(self._touch, key)
            touched = True
        if revocations == self._revocations and not self.shared:
            self._keep(key, record)
        return record, touched

    def _touch(self, key: str) -> None:
        touch_session(self.store, key, timedelta(seconds=self.lifetime))

    def start(self, user_id: int, replaces: str | None) -> tuple[str, SessionRecord]:
        """A new session of ``user_id`` (blocking: call it in a worker thread); the browser's previous session
        ``replaces`` is revoked. Returns the cookie's secret and the session."""
        secret = secrets.token_urlsafe(32)
        key = self.key_of(secret)
        record = create_session(self.store, key, user_id, secrets.token_urlsafe(32),
                                timedelta(seconds=self.lifetime), replaces=replaces)
        if replaces is not None:
            self.forget([replaces])
        if not self.shared:
            self._keep(key, record)
        return secret, record

    def end(self, key: str) -> None:
        """Revoke one session (blocking)."""
        revoke_session(self.store, key)
        self.forget([key])

    def end_all(self, user_id: int, keep: str | None = None) -> None:
        """Revoke every session of the user but ``keep`` (blocking)."""
        keys = revoke_user_sessions(self.store, user_id, keep=keep)
        self.forget(keys, None if keep is not None else user_id)

    def cookie_header(self, secret: str, expires: datetime | None = None) -> str:
        """The ``Set-Cookie`` value that gives the browser ``secret`` (an empty one ends it)."""
        cookie: SimpleCookie = SimpleCookie()
        cookie[SESSION_COOKIE] = secret
        morsel = cookie[SESSION_COOKIE]
        morsel["path"] = "/"
        morsel["httponly"] = True
        morsel["samesite"] = "lax"
        morsel["max-age"] = str(int(self.lifetime)) if secret else "0"
        if self.https_only:
            morsel["secure"] = True
        return morsel.OutputString()


def session_of(conn: HTTPConnection) -> dict[str, object]:
    session: dict[str, object] = conn.scope.get("session") or {}
    return session


def session_user(conn: HTTPConnection) -> UserRecord | None:
    """The session's user as read with the session on this request (when processes share the database), else
    None: the caller reads the user (``Store.get_user``, kept in memory when this process is alone)."""
    user = session_of(conn).get("user")
    return user if isinstance(user, UserRecord) else None


class SessionMiddleware:
    """Looks the request's session up (HTTP and WebSocket) and puts it in ``scope["session"]``."""

    def __init__(self, app: ASGIApp, sessions: Sessions) -> None:
        self.app = app
        self.sessions = sessions

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        secret = HTTPConnection(scope).cookies.get(SESSION_COOKIE)
        record, touched = None, False
        if secret and len(secret) <= SECRET_MAX:
            record, touched = await self.sessions.lookup(secret)
        if record is None:
            scope["session"] = {}
        elif self.sessions.shared:
            scope["session"] = {"uid": record.user_id, "csrf": record.csrf, "key": record.key, "user": record.user}
        else:
            scope["session"] = {"uid": record.user_id, "csrf": record.csrf, "key": record.key}
        if not (touched and scope["type"] == "http" and secret):
            await self.app(scope, receive, send)
            return
        header = self.sessions.cookie_header(secret)

        async def send_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if not any(v.startswith(SESSION_COOKIE + "=") for v in headers.getlist("set-cookie")):
                    headers.append("set-cookie", header)
            await send(message)

        await self.app(scope, receive, send_cookie)
