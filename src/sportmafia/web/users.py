"""A user's own password, an admin's list of the club's users with disabling and enabling them, and the club's
settings (docs/api.md, "Accounts and sessions", "Club settings")."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from starlette.concurrency import run_in_threadpool

from ..i18n import msg
from ..store import UserRecord
from ..store import accounts as db
from ..store.clubs import ClubSettings, club_settings, set_club_settings
from .auth import StoreDep, UserDep, checked, settle, user_json
from .errors import ApiError, forbidden
from .schemas import ClubSettingsIn, PasswordChangeIn
from .sessions import Sessions, session_of
from .throttle import PasswordChecker

router = APIRouter(prefix="/api", tags=["accounts"])
UserId = Annotated[int, PathParam(ge=1, le=2**31 - 1)]


def _new_hash(checker: PasswordChecker, old_hash: str, old: str, new: str) -> str | None:
    """The hash of ``new`` when ``old`` is the password of ``old_hash``, else None."""
    return checker.hash(new) if checker.verify(old_hash, old) else None


@router.post("/me/password", summary="Change your password: every other session of yours is revoked")
async def change_password(body: PasswordChangeIn, request: Request, user: UserDep) -> dict[str, Any]:
    checker: PasswordChecker = request.app.state.passwords
    ticket, new_hash = await checked(request, user.login, _new_hash, checker, user.password_hash, body.old, body.new)
    await settle(request, ticket, new_hash is not None)
    if new_hash is None:
        raise ApiError(403, "wrong-password", msg("The current password is wrong."))
    sessions: Sessions = request.app.state.sessions
    key = session_of(request).get("key")
    keep = key if isinstance(key, str) else None
    revoked = await run_in_threadpool(db.set_password, sessions.store, user.id, new_hash, keep_session=keep)
    sessions.forget(revoked)
    return {"ok": True, "revoked": len(revoked)}


def _admin(user: UserRecord) -> None:
    if user.role != "admin":
        raise forbidden(msg("Only an admin manages users."))


def no_such_user() -> ApiError:
    return ApiError(404, "not-found", msg("No such user."))


@router.get("/users", summary="Your club's users (admins only)")
async def list_users(user: UserDep, store: StoreDep) -> dict[str, Any]:
    _admin(user)
    users = await run_in_threadpool(db.club_users, store, user.club_id)
    return {"users": [user_json(u) for u in users]}


async def _set_disabled(request: Request, user: UserRecord, user_id: int, disabled: bool) -> dict[str, Any]:
    _admin(user)
    sessions: Sessions = request.app.state.sessions
    target = await run_in_threadpool(db.user_by_id, sessions.store, user_id)
    if target is None or target.club_id != user.club_id:
        raise no_such_user()
    if disabled and target.id == user.id:
        raise ApiError(409, "own-account", msg("You cannot disable your own account."))
    revoked = await run_in_threadpool(db.set_disabled, sessions.store, user_id, disabled)
    sessions.forget(revoked, user_id)
    changed = await run_in_threadpool(db.user_by_id, sessions.store, user_id)
    assert changed is not None
    return user_json(changed)


@router.post("/users/{user_id}/disable", summary="Disable a user of your club: he cannot log in, his sessions end")
async def disable_user(user_id: UserId, request: Request, user: UserDep) -> dict[str, Any]:
    return await _set_disabled(request, user, user_id, True)


@router.post("/users/{user_id}/enable", summary="Enable a disabled user of your club again")
async def enable_user(user_id: UserId, request: Request, user: UserDep) -> dict[str, Any]:
    return await _set_disabled(request, user, user_id, False)



def _settings_json(settings: ClubSettings) -> dict[str, Any]:
    return {"club": settings.name, "autostart_timer": settings.autostart_timer}


@router.get("/club/settings", summary="Your club's settings (every user of the club reads them)")
async def get_club_settings(user: UserDep, store: StoreDep) -> dict[str, Any]:
    return _settings_json(await run_in_threadpool(club_settings, store, user.club_id))


@router.put("/club/settings", summary="Change your club's settings (admins only)")
async def put_club_settings(body: ClubSettingsIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    if user.role != "admin":
        raise forbidden(msg("Only an admin changes the club's settings."))
    changed = await run_in_threadpool(set_club_settings, store, user.club_id, autostart_timer=body.autostart_timer)
    return _settings_json(changed)
