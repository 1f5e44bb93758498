"""What the routes of online play share (docs/online.md): the headers that carry a link's secret, the limiter of
wrong links and codes (per client address), the refusals they answer with, and the checks of the host's API."""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import FastAPI, Request
from fastapi import Path as PathParam

from ...i18n import Text, msg
from ...live import app_state
from ...store import Store, UserRecord
from ...store import online as db
from ..errors import ApiError, forbidden
from ..limits import limits_of
from ..security import LoginLimiter, bind

log = logging.getLogger("sportmafia.online")

TOKEN_HEADER = "X-Play-Token"
JOIN_HEADER = "X-Join-Secret"
STREAM_HEADER = "X-Stream-Token"
HOST_ROLES = ("admin", "host")
JUDGE_ROLES = ("admin", "judge")
HOST_ONLY = msg("Only a host or an admin runs the online table.")

GameId = Annotated[str, PathParam(max_length=64)]
Code = Annotated[str, PathParam(min_length=1, max_length=16)]


def limiter_of(app: FastAPI) -> LoginLimiter:
    """The app's limiter of wrong tokens and codes (per client address): 20 failures in 5 minutes, counted in the
    app's limits backend (Redis or the database: every server process counts the same)."""
    limiter = app_state(app, "online_limiter", lambda: LoginLimiter(max_failures=20, window=300.0, name="online"))
    return bind(limiter, limits_of(app))


def address(client: Any) -> str:
    """The limiter's key of a client's address."""
    return f"online:{client.host if client else 'unknown'}"


def too_many(wait: float) -> ApiError:
    seconds = max(1, int(wait + 0.999))
    return ApiError(429, "too-many-attempts",
                    msg("Too many wrong links or codes; try again in %(seconds)s s.", seconds=seconds), headers={"Retry-After": str(seconds)})


def check_limit(request: Request) -> str:
    """The client's limiter key; 429 while it is rate-limited."""
    key = address(request.client)
    wait = limiter_of(request.app).retry_after(key)
    if wait is not None:
        raise too_many(wait)
    return key


BAD_LINK = msg("This link is not valid: it was revoked or replaced. Ask the host for a new one.")


def bad_link() -> ApiError:
    return ApiError(401, "bad-link", BAD_LINK)


NO_TABLE = msg("No online table has this code.")


def no_table() -> ApiError:
    return ApiError(404, "no-table", NO_TABLE)


def table_by_code(request: Request, code: str) -> db.TableRecord:
    """The online table with this code (404 ``no-table``, counted by the limiter, otherwise)."""
    key = check_limit(request)
    tab = db.table_by_code(request.app.state.store, code)
    if tab is None:
        limiter_of(request.app).failed(key)
        raise no_table()
    return tab


def table_or_404(store: Store, game_id: str) -> db.TableRecord:
    """The game's online table (404 ``no-table`` when it is not open for online play)."""
    tab = db.table(store, game_id)
    if tab is None:
        raise ApiError(404, "no-table", msg("This game is not open for online play."))
    return tab


def need_role(user: UserRecord, roles: tuple[str, ...], text: Text) -> None:
    """403 (``text``) unless the user's role is one of ``roles``."""
    if user.role not in roles:
        raise forbidden(text)


def base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


SINCE_NOT_SEQ = msg("since is a seq (a whole number from 0).")
"""The refusal of a socket's ``since`` that :func:`parse_since` does not take."""


def parse_since(value: Any) -> int | None:
    """A socket's ``since`` (absent: 0), or None when it is not a seq."""
    if value is None:
        return 0
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value < 10**9 else None
    if isinstance(value, str) and value.isdigit() and len(value) <= 9:
        return int(value)
    return None

