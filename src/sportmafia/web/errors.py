"""The API's errors: every one is ``{"error": {"code", "clause"?, "en", "ru"}}`` with a fitting status."""

from __future__ import annotations

import logging
import time
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..engine import RuleViolation
from ..i18n import Text, msg, verbatim
from ..services.errors import Refusal
from ..store import GameNotFound, unavailable

RULE_VIOLATION_STATUS = 409
"""A command the rules refuse now conflicts with the game's state: 409 Conflict."""
RETRY_AFTER_SECONDS = 3
"""``Retry-After`` of a 503 ``database-unavailable``."""
CLOSE_TRY_LATER = 1013
"""A socket refused while the database is not answering (WebSocket's "try again later")."""

log = logging.getLogger("sportmafia.web")


class ApiError(Exception):
    """An error answered as ``{"error": {...}, **extra}`` with ``status``."""

    def __init__(self, status: int, code: str, text: Text, *, clause: str | None = None,
                 extra: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> None:
        self.text = text
        super().__init__(self.text.render("en"))
        self.status = status
        self.code = code
        self.clause = clause
        self.extra = extra or {}
        self.headers = headers

    def body(self) -> dict[str, Any]:
        return error_body(self.code, self.text, self.clause, **self.extra)

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers)


def error_body(code: str, text: Text, clause: str | None = None, **extra: Any) -> dict[str, Any]:
    """The one error shape: the code, the clause if one decides it, the reason in both languages."""
    error: dict[str, Any] = {"code": code}
    if clause:
        error["clause"] = clause
    error.update(text.to_json())
    return {"error": error, **extra}


def not_logged_in() -> ApiError:
    return ApiError(401, "not-logged-in", msg("Log in first."))


def game_not_found() -> ApiError:
    return ApiError(404, "not-found", msg("No such game."))


def forbidden(text: Text | None = None) -> ApiError:
    return ApiError(403, "forbidden", text or msg("Your account may not do this."))


def database_unavailable() -> ApiError:
    """503 ``database-unavailable``: the database is not answering (restarted, unreachable); nothing the request
    asked for was done, or, for a command, is done once whatever its retry with the same command id finds."""
    return ApiError(503, "database-unavailable", msg("The database is not answering; try again in a few seconds."),
                    headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


class DatabaseDownMiddleware:
    """Answers 503 ``database-unavailable`` (with ``Retry-After``) to a request that found the database not
    answering (``store.unavailable``), wherever it found it: the session's lookup, a route, a dependency. A
    socket not yet accepted is closed with 1013 (try again later). Anything else goes on as before (a 500).
    The outage is logged in one line a minute (with how many requests were refused since the last), not per
    request."""

    LOG_EVERY = 60.0

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.logged_at: float | None = None
        self.refused = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.close"):
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:
            if not unavailable(exc) or started:
                raise
            self._note(exc)
            if scope["type"] == "http":
                await database_unavailable().response()(scope, receive, send)
            else:
                await send({"type": "websocket.close", "code": CLOSE_TRY_LATER, "reason": "database-unavailable"})

    def _note(self, exc: Exception) -> None:
        self.refused += 1
        now = time.monotonic()
        if self.logged_at is None or now - self.logged_at >= self.LOG_EVERY:
            log.error("the database is not answering (%s: %s): answering 503 (%s requests since the last line)",
                      type(exc).__name__, " ".join(str(exc).split())[:300], self.refused)
            self.logged_at, self.refused = now, 0


REFUSAL_STATUS = {"not-found": 404, "forbidden": 403, "conflict": 409, "invalid": 422, "busy": 503}
"""A service's refusal (``services.errors.Refusal``) -> the HTTP status it is answered with, by its kind."""


def refused(exc: Refusal) -> ApiError:
    """A service's refusal as the API's error: the status of its kind, its code, reason, clause and extra."""
    return ApiError(REFUSAL_STATUS[exc.kind], exc.code, exc.text, clause=exc.clause, extra=exc.extra)


_HTTP_CODES: dict[int, tuple[str, Text]] = {
    404: ("not-found", msg("Not found.")),
    405: ("method-not-allowed", msg("This method is not allowed here.")),
    413: ("too-large", msg("The request body is too large.")),
}


def _validation_details(exc: RequestValidationError) -> list[dict[str, Any]]:
    return [{"loc": [str(part) for part in err.get("loc", ())], "msg": str(err.get("msg", "")),
             "type": str(err.get("type", ""))} for err in exc.errors()]


def install_error_handlers(app: FastAPI) -> None:
    """Every error the app can answer, in the one JSON shape."""

    async def api_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        return exc.response()

    async def validation_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        details = _validation_details(exc)
        where = "; ".join(f"{'.'.join(d['loc'])}: {d['msg']}" for d in details[:5])
        return JSONResponse(error_body("invalid", msg("The request is not valid: %(where)s.", where=where),
                                       details=details), status_code=422)

    async def rule_violation(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RuleViolation)
        return JSONResponse({"error": exc.to_json()}, status_code=RULE_VIOLATION_STATUS)

    async def refusal(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, Refusal)
        return refused(exc).response()

    async def game_missing(_request: Request, _exc: Exception) -> JSONResponse:
        return game_not_found().response()

    async def http_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        code, text = _HTTP_CODES.get(exc.status_code, (f"http-{exc.status_code}", verbatim(str(exc.detail))))
        return JSONResponse(error_body(code, text), status_code=exc.status_code, headers=exc.headers)

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(RuleViolation, rule_violation)
    app.add_exception_handler(Refusal, refusal)
    app.add_exception_handler(GameNotFound, game_missing)
    app.add_exception_handler(StarletteHTTPException, http_error)
