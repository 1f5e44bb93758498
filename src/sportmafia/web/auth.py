"""Accounts: login, logout, who am I, and new users (admins only)."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from starlette.concurrency import run_in_threadpool

from ..store import LoginTaken, Store, UserRecord
from ..store.access import PlayerNotFound, PlayerTaken, UserNotFound, link_player
from .errors import ApiError, forbidden, not_logged_in
from .schemas import LoginIn, NewUserIn, UserPlayerIn
from .security import LoginLimiter, hash_password, verify_password

router = APIRouter(prefix="/api", tags=["accounts"])


async def get_store(request: Request) -> Store:
    """FastAPI dependency: the app's store (async: nothing to wait for, so no worker thread is taken)."""
    store: Store = request.app.state.store
    return store


async def current_user(request: Request, store: Annotated[Store, Depends(get_store)]) -> UserRecord:
    """The logged-in user (401 otherwise); read in a worker thread only the first time."""
    uid = request.session.get("uid")
    if not isinstance(uid, int):
        raise not_logged_in()
    user = store.known_user(uid) or await run_in_threadpool(store.get_user, uid)
    if user is None:
        request.session.clear()
        raise not_logged_in()
    return user


StoreDep = Annotated[Store, Depends(get_store)]
UserDep = Annotated[UserRecord, Depends(current_user)]


def _user_json(user: UserRecord) -> dict[str, Any]:
    """A user as every route shows him: ``player_id`` is the club roster player his account is (or null)."""
    return {"id": user.id, "login": user.login, "role": user.role, "club_id": user.club_id,
            "player_id": user.player_id}


def _me(request: Request, user: UserRecord) -> dict[str, Any]:
    return {"user": _user_json(user), "csrf_token": request.session.get("csrf")}


@router.post("/login", summary="Log in: sets the session cookie, returns the user and the CSRF token")
def login(body: LoginIn, request: Request, store: StoreDep) -> dict[str, Any]:
    limiter: LoginLimiter = request.app.state.login_limiter
    address = request.client.host if request.client else "unknown"
    keys = (f"login:{body.login.casefold()}", f"addr:{address}")
    wait = limiter.retry_after(*keys)
    if wait is not None:
        seconds = max(1, int(wait + 0.999))
        raise ApiError(429, "too-many-attempts", f"Too many failed logins; try again in {seconds} s.",
                       f"Слишком много неудачных входов; попробуйте через {seconds} с.",
                       headers={"Retry-After": str(seconds)})
    user = store.find_user(body.login)
    if not verify_password(user.password_hash if user else None, body.password) or user is None:
        limiter.failed(*keys)
        raise ApiError(401, "bad-login", "Wrong login or password.", "Неверный логин или пароль.")
    limiter.succeeded(keys[0])
    request.session.clear()
    request.session["uid"] = user.id
    request.session["csrf"] = secrets.token_urlsafe(32)
    return _me(request, user)


@router.post("/logout", summary="Log out: forget the session")
def logout(request: Request) -> dict[str, Any]:
    request.session.clear()
    return {"ok": True}


@router.get("/me", summary="The logged-in user and the session's CSRF token")
def me(request: Request, user: UserDep) -> dict[str, Any]:
    return _me(request, user)


@router.post("/users", status_code=201, summary="Create a user of your club (admins only)")
def create_user(body: NewUserIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    if user.role != "admin":
        raise forbidden("Only an admin creates users.", "Создавать пользователей может только администратор.")
    try:
        new = store.create_user(user.club_id, body.login, hash_password(body.password), body.role)
    except LoginTaken:
        raise ApiError(409, "login-taken", "This login is taken.", "Этот логин занят.") from None
    return _user_json(new)


@router.get("/players", summary="Your club's roster: the names a game's seats can be filled from")
def players(user: UserDep, store: StoreDep) -> dict[str, Any]:
    return {"players": [{"id": p.id, "name": p.name} for p in store.club_players(user.club_id)]}


@router.put("/users/{user_id}/player", summary="Link an account of your club to a roster player, or unlink it (admins)")
def link_user_player(user_id: Annotated[int, Path(ge=1, le=2**31 - 1, description="The user's id.")],
                     body: UserPlayerIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    if user.role != "admin":
        raise forbidden("Only an admin links accounts to roster players.",
                        "Связывать учётные записи с игроками состава может только администратор.")
    try:
        linked = link_player(store, user.club_id, user_id, body.player_id)
    except UserNotFound:
        raise ApiError(404, "not-found", "Your club has no such user.", "В клубе нет такого пользователя.") from None
    except PlayerNotFound:
        raise ApiError(422, "bad-player", f"Not on your club's roster: {body.player_id}.",
                       f"Нет в составе клуба: {body.player_id}.") from None
    except PlayerTaken:
        raise ApiError(409, "player-taken", "Another account of the club is this roster player already.",
                       "Другая учётная запись клуба уже связана с этим игроком состава.") from None
    return _user_json(linked)
