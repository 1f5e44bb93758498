"""Liveness and readiness for a load balancer or a process supervisor (docs/api.md, "Health and readiness"):

- ``GET /healthz``: the process answers (its event loop runs). No database, no Redis: 200 ``{"ok": true}``.
- ``GET /readyz``: the process can serve: the database answers a trivial query and its migrations are at this
  code's head, and Redis answers when ``$SPORTMAFIA_REDIS_URL`` is set. 200 ``{"ready": true, "checks": {...}}``,
  else 503 ``{"ready": false, "checks": {...}}`` naming what is not ready (``database``, ``migrations``,
  ``redis``: "ok", "unreachable", "behind", "not configured"): never an address, a URL or an error's text.

Both are answered by :class:`HealthShortcut`, the app's outermost middleware, before the session, CSRF and
body-limit layers and every rate limit: no login, no cookie read, no row written."""

from __future__ import annotations

import json
from typing import Any

import anyio
import anyio.to_thread
from starlette.types import ASGIApp, Receive, Scope, Send

from ..live import get_hub
from ..store import Store, head_revision
from ..store.migrate import stored_revision

CHECK_SECONDS = 3.0
"""The longest a readiness check waits for the database or Redis before it says "unreachable"."""
PATHS = ("/healthz", "/readyz")


async def _answer(send: Send, status: int, body: dict[str, Any], method: str) -> None:
    payload = json.dumps(body, separators=(",", ":")).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
        (b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff")]})
    await send({"type": "http.response.body", "body": b"" if method == "HEAD" else payload})


async def _database(store: Store, head: str) -> tuple[str, str]:
    """The database's check and the migrations' ("ok", or what is wrong)."""
    try:
        with anyio.fail_after(CHECK_SECONDS):
            revision = await anyio.to_thread.run_sync(stored_revision, store.engine, abandon_on_cancel=True)
    except Exception:  # the database down, or no table of migrations yet: no detail leaves the server
        return "unreachable", "unknown"
    return "ok", "ok" if revision == head else "behind"


async def readiness(app: Any) -> tuple[bool, dict[str, str]]:
    """Whether the app's process is ready, and each check's answer."""
    store: Store = app.state.store
    head = getattr(app.state, "migrations_head", None)
    if head is None:
        head = app.state.migrations_head = head_revision()
    database, migrations = await _database(store, head)
    checks = {"database": database, "migrations": migrations}
    hub = get_hub(app)
    if hub.redis_url:
        checks["redis"] = "ok" if await hub.ping_redis(CHECK_SECONDS) else "unreachable"
    else:
        checks["redis"] = "not configured"
    ready = all(value in ("ok", "not configured") for value in checks.values())
    return ready, checks


class HealthShortcut:
    """ASGI middleware, outermost: ``GET``/``HEAD`` ``/healthz`` and ``/readyz`` answered here (module doc)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] not in PATHS or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        if scope["path"] == "/healthz":
            await _answer(send, 200, {"ok": True}, scope["method"])
            return
        ready, checks = await readiness(scope["app"])
        await _answer(send, 200 if ready else 503, {"ready": ready, "checks": checks}, scope["method"])
