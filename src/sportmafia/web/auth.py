"""Accounts: login, logout, who am I, and new users (admins only). Sessions are kept on the server
(``sessions.py``); password checks run in the app's :class:`~.throttle.PasswordChecker`, after the
:class:`~.throttle.LoginThrottle` has counted the attempt."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response
from starlette.concurrency import run_in_threadpool

from ..i18n import msg
from ..store import LoginTaken, Store, UserRecord
from ..store.access import PlayerNotFound, PlayerTaken, UserNotFound, link_player
from .errors import ApiError, forbidden, not_logged_in
from .schemas import LoginIn, NewUserIn, UserPlayerIn
from .sessions import Sessions, safe_next, session_of, session_user
from .throttle import CheckerBusy, LoginThrottle, PasswordChecker, Ticket

router = APIRouter(prefix="/api", tags=["accounts"])


async def get_store(request: Request) -> Store:
    """FastAPI dependency: the app's store (async: nothing to wait for, so no worker thread is taken)."""
    store: Store = request.app.state.store
    return store


async def current_user(request: Request, store: Annotated[Store, Depends(get_store)]) -> UserRecord:
    """The logged-in user (401 otherwise): read with the session when processes share the database
    (``sessions.session_user``), else read in a worker thread only the first time."""
    uid = session_of(request).get("uid")
    if not isinstance(uid, int):
        raise not_logged_in()
    user = session_user(request) or store.known_user(uid) or await run_in_threadpool(store.get_user, uid)
    if user is None or user.disabled_at is not None:
        raise not_logged_in()
    return user


StoreDep = Annotated[Store, Depends(get_store)]
UserDep = Annotated[UserRecord, Depends(current_user)]


def user_json(user: UserRecord) -> dict[str, Any]:
    """The one place a user's JSON is built: ``player_id`` is the club roster player his account is (or null)."""
    return {"id": user.id, "login": user.login, "role": user.role, "club_id": user.club_id,
            "player_id": user.player_id, "disabled": user.disabled_at is not None}


def _me(request: Request, user: UserRecord) -> dict[str, Any]:
    return {"user": user_json(user), "csrf_token": session_of(request).get("csrf")}


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def too_many(seconds_left: float) -> ApiError:
    seconds = max(1, int(seconds_left + 0.999))
    return ApiError(429, "too-many-attempts",
                    msg("Too many failed logins; try again in %(seconds)s s.", seconds=seconds), headers={"Retry-After": str(seconds)})


def checker_busy() -> ApiError:
    return ApiError(503, "busy", msg("The server is checking too many passwords at once; try again in a second."),
                    headers={"Retry-After": "1"})


def bad_login() -> ApiError:
    return ApiError(401, "bad-login", msg("Wrong login or password."))


async def checked(request: Request, account: str, work: Any, *args: object) -> tuple[Ticket, Any]:
    """Count an attempt on ``account`` from the request's address, then run ``work(*args)`` (which checks the
    password) in the password checker. 429 when the throttle holds the attempt back, 503 when the checker is
    full (the attempt is then not counted)."""
    throttle: LoginThrottle = request.app.state.login_throttle
    checker: PasswordChecker = request.app.state.passwords
    ticket = await run_in_threadpool(throttle.admit, client_address(request), account)  # Redis or the database
    if not isinstance(ticket, Ticket):
        raise too_many(ticket)
    try:
        return ticket, await checker.run(work, *args)
    except CheckerBusy:
        await run_in_threadpool(throttle.cancel, ticket)
        raise checker_busy() from None


async def settle(request: Request, ticket: Ticket, right: bool) -> None:
    """Tell the throttle how a checked attempt ended (in a worker thread: it waits on Redis or the database)."""
    throttle: LoginThrottle = request.app.state.login_throttle
    await run_in_threadpool(throttle.succeeded if right else throttle.failed, ticket)


def _check_login(checker: PasswordChecker, store: Store, login: str, password: str) -> UserRecord | None:
    user = store.find_user(login)
    ok = checker.verify(user.password_hash if user else None, password)
    return user if ok else None


@router.post("/login", summary="Log in: sets the session cookie; returns the user, the CSRF token and `next`")
async def login(body: LoginIn, request: Request, response: Response, store: StoreDep) -> dict[str, Any]:
    checker: PasswordChecker = request.app.state.passwords
    ticket, user = await checked(request, body.login, _check_login, checker, store, body.login, body.password)
    await settle(request, ticket, user is not None)
    if user is None:
        raise bad_login()
    if user.disabled_at is not None:
        raise ApiError(403, "account-disabled", msg("This account is disabled; ask the club's admin."))
    sessions: Sessions = request.app.state.sessions
    old = session_of(request).get("key")
    secret, record = await run_in_threadpool(sessions.start, user.id, old if isinstance(old, str) else None)
    response.headers.append("set-cookie", sessions.cookie_header(secret))
    return {"user": user_json(user), "csrf_token": record.csrf, "next": safe_next(body.next)}


@router.post("/logout", summary="Log out: the session is revoked on the server")
async def logout(request: Request, response: Response) -> dict[str, Any]:
    key = session_of(request).get("key")
    sessions: Sessions = request.app.state.sessions
    if isinstance(key, str):
        await run_in_threadpool(sessions.end, key)
    response.headers.append("set-cookie", sessions.cookie_header(""))
    return {"ok": True}


@router.get("/me", summary="The logged-in user and the session's CSRF token")
def me(request: Request, user: UserDep) -> dict[str, Any]:
    return _me(request, user)


@router.post("/users", status_code=201, summary="Create a user of your club (admins only)")
async def create_user(body: NewUserIn, request: Request, user: UserDep, store: StoreDep) -> dict[str, Any]:
    if user.role != "admin":
        raise forbidden(msg("Only an admin creates users."))
    checker: PasswordChecker = request.app.state.passwords
    try:
        password_hash = await checker.run(checker.hash, body.password)
    except CheckerBusy:
        raise checker_busy() from None
    try:
        new = await run_in_threadpool(store.create_user, user.club_id, body.login, password_hash, body.role)
    except LoginTaken:
        raise ApiError(409, "login-taken", msg("This login is taken.")) from None
    return user_json(new)


@router.get("/players", summary="Your club's roster: the names a game's seats can be filled from")
def players(user: UserDep, store: StoreDep) -> dict[str, Any]:
    return {"players": [{"id": p.id, "name": p.name} for p in store.club_players(user.club_id)]}


@router.put("/users/{user_id}/player", summary="Link an account of your club to a roster player, or unlink it (admins)")
def link_user_player(user_id: Annotated[int, Path(ge=1, le=2**31 - 1, description="The user's id.")],
                     body: UserPlayerIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    if user.role != "admin":
        raise forbidden(msg("Only an admin links accounts to roster players."))
    try:
        linked = link_player(store, user.club_id, user_id, body.player_id)
    except UserNotFound:
        raise ApiError(404, "not-found", msg("Your club has no such user.")) from None
    except PlayerNotFound:
        raise ApiError(422, "bad-player", msg("Not on your club's roster: %(player)s.", player=body.player_id)
                       ) from None
    except PlayerTaken:
        raise ApiError(409, "player-taken", msg("Another account of the club is this roster player already.")
                       ) from None
    return user_json(linked)
