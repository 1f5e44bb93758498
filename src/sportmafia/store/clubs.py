"""A club's own settings (its ``clubs`` row): how the host's console behaves in every game of the club
(docs/api.md, "Club settings"). The rules about who changes them belong to the web layer (an admin)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from sqlalchemy import Table, select, update

from .models import Club
from .records import ClubNotFound
from .store import Store

CLUBS = cast(Table, Club.__table__)


@dataclass(frozen=True, slots=True)
class ClubSettings:
    club_id: int
    name: str
    autostart_timer: bool
    """The console starts the speech timer by itself when a speech begins (the host's Next)."""


def club_settings(store: Store, club_id: int) -> ClubSettings:
    """The club's settings (raises :class:`ClubNotFound`)."""
    with store.read_conn() as conn:
        row = conn.execute(select(CLUBS.c.id, CLUBS.c.name, CLUBS.c.autostart_timer)
                           .where(CLUBS.c.id == club_id)).first()
    if row is None:
        raise ClubNotFound(club_id)
    return ClubSettings(club_id=row.id, name=row.name, autostart_timer=bool(row.autostart_timer))


def set_club_settings(store: Store, club_id: int, *, autostart_timer: bool) -> ClubSettings:
    """Change the club's settings; returns them as stored (raises :class:`ClubNotFound`)."""
    with store.write_conn() as conn:
        changed = conn.execute(update(CLUBS).where(CLUBS.c.id == club_id).values(autostart_timer=autostart_timer))
        if changed.rowcount == 0:
            raise ClubNotFound(club_id)
    return club_settings(store, club_id)
