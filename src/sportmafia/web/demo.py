"""The first start: a demo club with a roster of 16 names and an ``admin`` account. The club's name and its
roster are data, stored once in the database (not interface text): they come from ``demo.json`` beside this
module."""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from ..store import Store
from .security import hash_password

ADMIN_PASSWORD_ENV = "SPORTMAFIA_ADMIN_PASSWORD"
ADMIN_LOGIN = "admin"
DEMO_DATA = Path(__file__).with_name("demo.json")
_DEMO = json.loads(DEMO_DATA.read_text(encoding="utf-8"))
DEMO_CLUB: str = _DEMO["club"]
DEMO_ROSTER: tuple[str, ...] = tuple(_DEMO["roster"])


@dataclass(frozen=True, slots=True)
class DemoSetup:
    """What ``ensure_demo`` did. ``password`` is set only when it generated one (to be shown once)."""

    created: bool
    club_id: int | None = None
    login: str = ADMIN_LOGIN
    password: str | None = None
    password_from_env: bool = False


def ensure_demo(store: Store) -> DemoSetup:
    """On a database with no users: create the demo club, its roster and the ``admin`` user, whose password
    is ``$SPORTMAFIA_ADMIN_PASSWORD`` or a generated one (returned, never logged). Otherwise do nothing."""
    if store.count_users() > 0:
        return DemoSetup(created=False)
    env_password = os.environ.get(ADMIN_PASSWORD_ENV)
    password = env_password or secrets.token_urlsafe(12)
    club_id = store.create_club(DEMO_CLUB)
    store.add_club_players(club_id, DEMO_ROSTER)
    store.create_user(club_id, ADMIN_LOGIN, hash_password(password), "admin")
    return DemoSetup(created=True, club_id=club_id, password=None if env_password else password,
                     password_from_env=bool(env_password))
