"""The web application: ``create_app(store)`` builds the FastAPI app of the JSON API (``docs/api.md``)."""

from __future__ import annotations

import functools
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.routing import BaseRoute

from .. import __version__
from ..live import get_hub
from ..live.driver import drivers_of
from ..live.hub import REDIS_ENV
from ..services.lab_runs import LabRuns
from ..store import Store, open_store
from . import (
    account_pages,
    auth,
    club_seasons,
    exchange,
    games,
    history,
    lab,
    live,
    online,
    pages,
    seasons,
    sheets,
    table,
    tournament_discipline,
    tournament_exports,
    tournament_pages,
    tournaments,
    users,
)
from .edge import check_request
from .errors import DatabaseDownMiddleware, install_error_handlers
from .headers import SecurityHeadersMiddleware
from .health import HealthShortcut
from .limits import make_backend
from .responses import document_errors
from .security import BODY_LIMITS, MAX_BODY, BodyLimitMiddleware, CsrfMiddleware, bind, load_secret_key
from .sessions import SESSION_COOKIE, SESSION_MAX_AGE, SessionMiddleware, Sessions
from .throttle import LoginThrottle, PasswordChecker

__all__ = ["SESSION_COOKIE", "SESSION_MAX_AGE", "create_app"]


def create_app(store: Store | None = None, *, secret_key: str | None = None, https_only: bool = False,
               login_throttle: LoginThrottle | None = None, passwords: PasswordChecker | None = None,
               shared: bool | None = None, owns_store: bool | None = None) -> FastAPI:
    """The app on ``store`` (default: ``open_store(migrate=True)``, closed when the app stops; a store given is
    closed too when ``owns_store``). Sessions are
    rows of the store under a hash keyed with ``secret_key``, else ``$SPORTMAFIA_SECRET_KEY``, else a key
    generated once and kept in ``$SPORTMAFIA_DATA/secret_key`` (mode 0600). ``https_only`` marks the cookie
    Secure. ``login_throttle`` and ``passwords`` (the argon2 checker: argon2-cffi's defaults, 2 threads) are
    made with their defaults unless given (tests give a cheaper hasher). ``shared``: other server processes
    share the database (default: when ``$SPORTMAFIA_REDIS_URL`` is set, since Redis links processes); then
    sessions and users are read on every request, never kept in memory (``web.sessions``)."""
    owned = store is None if owns_store is None else owns_store
    the_store = store if store is not None else open_store(migrate=True)
    if shared is None:
        shared = bool(os.environ.get(REDIS_ENV))
    if shared:
        the_store.keeps_users = False
    checker = passwords or PasswordChecker()
    key = secret_key or load_secret_key()
    # the rate limits' counts: in Redis when it is configured, in the database otherwise (web/limits.py)
    limits = make_backend(the_store, key, os.environ.get(REDIS_ENV))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await get_hub(_app).start()  # the Redis listener, when $SPORTMAFIA_REDIS_URL is set
        drivers_of(_app).start()  # the tables with bots this process runs (live/driver.py)
        yield
        await drivers_of(_app).stop()
        _app.state.lab_runs.close()  # the lab's runs this process plays: stopped, resumable
        await get_hub(_app).stop()
        checker.close()
        limits.close()
        if owned:
            the_store.close()

    # no /docs or /redoc pages: they load their scripts from a CDN, and venues have poor internet
    app = FastAPI(title="sportmafia", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="The JSON API of the host console: accounts and live games saved as they go. "
                              "See docs/api.md.",
                  dependencies=[Depends(check_request)])  # ids and text at the edge (web/edge.py)
    app.openapi = document_errors(app.openapi)  # type: ignore[method-assign]  # the API's errors (web/responses.py)
    app.state.store = the_store
    app.state.lab_runs = LabRuns()  # the rules lab's runs started from the web (web/lab.py)
    app.state.shared = shared  # other processes share the database: the live hub reads it while Redis is away
    app.state.limits = limits
    app.state.login_throttle = bind(login_throttle or LoginThrottle(), limits)
    app.state.passwords = checker
    sessions = Sessions(the_store, key, https_only=https_only, shared=shared)
    app.state.sessions = sessions
    sessions.on_end.append(lambda keys, user_id: get_hub(app).publish_sessions_ended(keys, user_id))
    install_error_handlers(app)
    sheets.install(app)  # 409 'locked' for a signed game's commands
    app.router.routes.extend(shared_routes())
    # added last = outermost: body limit, then the database's absence, the session, then CSRF (which reads the
    # session)
    app.add_middleware(CsrfMiddleware)
    app.add_middleware(SessionMiddleware, sessions=sessions)
    app.add_middleware(DatabaseDownMiddleware)  # 503 database-unavailable, the session's lookup included
    app.add_middleware(BodyLimitMiddleware, limit=MAX_BODY, limits=BODY_LIMITS)
    app.add_middleware(SecurityHeadersMiddleware)  # every HTTP answer, the body limit's 413 too
    app.add_middleware(online.SocketShortcut)  # players' and spectators' sockets skip the rest
    app.add_middleware(HealthShortcut)  # outermost: /healthz and /readyz, no session, no CSRF, no limit
    return app


@functools.cache
def shared_routes() -> tuple[BaseRoute, ...]:
    """The API's and the pages' routes, assembled once per process on an app made only to hold them, and shared
    by every app the process makes (a server makes one; the tests make hundreds). FastAPI builds a route's
    request handling (its dependencies, its body's and parameters' pydantic adapters) on the first request that
    reaches it, once for each app the route is included in: shared, each is built once per process. The routes
    keep nothing of an app: an endpoint reads its app's store and state from the request (``request.app``), and
    no app overrides a dependency. The holder has the apps' own settings that routes take from the app: the
    app-wide dependency (``check_request``) and the default answers."""
    holder = FastAPI(docs_url=None, redoc_url=None, openapi_url=None, dependencies=[Depends(check_request)])
    # a request is matched against the routes in this order: the ones every move takes come first (no two
    # routers' paths overlap, so the order changes only how soon a path is found)
    holder.include_router(games.router)  # the host's commands: the request made most often
    online.install(holder)  # online play: players' links, spectators, the overlay (docs/online.md)
    holder.include_router(live.router)
    holder.include_router(sheets.router)  # the result sheets
    holder.include_router(auth.router)
    holder.include_router(users.router)
    holder.include_router(tournaments.router)
    holder.include_router(tournament_exports.router)
    holder.include_router(tournament_discipline.router)
    holder.include_router(history.router)
    holder.include_router(pages.router)
    holder.include_router(table.router)
    holder.include_router(tournament_pages.router)
    holder.include_router(account_pages.router)
    holder.include_router(seasons.router)
    holder.include_router(exchange.router)
    holder.include_router(club_seasons.router)
    holder.include_router(lab.router)
    holder.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    return tuple(holder.router.routes)
