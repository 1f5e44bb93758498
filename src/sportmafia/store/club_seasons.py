"""A club's seasons in the store (docs/seasons.md, "Seasons"): created, edited while open, closed once with the
standings frozen (``seasons.final``); and what their standings read besides the index of games: the persons'
names and the tournaments' participants as persons. Functions over the store's public transactions, each one
transaction."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from .models import ClubPlayer, TournamentParticipant, User, as_utc, utcnow
from .season_tables import Season
from .store import Store

SETTINGS = ("name", "starts_on", "ends_on", "standings", "series_points")
"""What an open season's edit may change."""


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    id: int
    club_id: int
    name: str
    starts_on: date
    ends_on: date
    standings: str
    series_points: tuple[float, ...]
    closed_at: datetime | None
    closed_by: str | None
    """The login of the judge who closed it."""
    final: dict[str, Any] | None
    created_at: datetime

    @property
    def closed(self) -> bool:
        return self.closed_at is not None

    def settings(self) -> tuple[Any, ...]:
        return (self.name, self.starts_on, self.ends_on, self.standings, self.series_points)


class SeasonClosed(ValueError):
    """The season is closed: nothing of it changes any more."""


class SeasonChanged(ValueError):
    """The season was edited while its standings were being computed for its closing."""


def _record(row: Season, login: str | None) -> SeasonRecord:
    return SeasonRecord(row.id, row.club_id, row.name, row.starts_on, row.ends_on, row.standings,
                        tuple(float(p) for p in row.series_points), as_utc(row.closed_at), login,
                        None if row.final is None else dict(row.final), as_utc(row.created_at) or utcnow())


def _login(s: Session, user_id: int | None) -> str | None:
    return None if user_id is None else s.scalar(select(User.login).where(User.id == user_id))


def create_season(store: Store, club_id: int, name: str, starts_on: date, ends_on: date, standings: str,
                  series_points: Iterable[float]) -> SeasonRecord:
    with store.write() as s:
        row = Season(club_id=club_id, name=name, starts_on=starts_on, ends_on=ends_on, standings=standings,
                     series_points=list(series_points), closed_at=None, closed_by=None, final=None,
                     created_at=utcnow())
        s.add(row)
        s.flush()
        return _record(row, None)


def season(store: Store, season_id: int) -> SeasonRecord | None:
    with store.read() as s:
        row = s.get(Season, season_id)
        return None if row is None else _record(row, _login(s, row.closed_by))


def club_seasons(store: Store, club_id: int) -> list[SeasonRecord]:
    """The club's seasons, the latest first (by their first day, then the newest)."""
    with store.read() as s:
        rows = s.execute(select(Season, User.login).outerjoin(User, User.id == Season.closed_by)
                         .where(Season.club_id == club_id)
                         .order_by(Season.starts_on.desc(), Season.id.desc())).all()
        return [_record(row, login) for row, login in rows]


def _open(s: Session, season_id: int) -> Season:
    """The open season's row, locked for the transaction (:class:`SeasonClosed` once it is closed)."""
    row = s.get(Season, season_id, with_for_update=True)
    if row is None:
        raise LookupError(season_id)
    if row.closed_at is not None:
        raise SeasonClosed(season_id)
    return row


def update_season(store: Store, season_id: int, **changes: Any) -> SeasonRecord:
    """Change an open season's settings (:data:`SETTINGS`); :class:`SeasonClosed` once it is closed."""
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise ValueError(f"not a season's setting: {', '.join(sorted(unknown))}")
    with store.write() as s:
        row = _open(s, season_id)
        for key, value in changes.items():
            setattr(row, key, list(value) if key == "series_points" else value)
        s.flush()
        return _record(row, None)


def close_season(store: Store, season_id: int, user_id: int, final: dict[str, Any],
                 computed_for: SeasonRecord) -> SeasonRecord:
    """Close an open season with what its page shows from now on (``final``), computed for the season as
    ``computed_for`` was: :class:`SeasonChanged` when it was edited since, :class:`SeasonClosed` when it is
    closed already (by another request meanwhile too: the closing is one conditional update)."""
    with store.write() as s:
        row = _open(s, season_id)
        if _record(row, None).settings() != computed_for.settings():
            raise SeasonChanged(season_id)
        done = s.execute(update(Season).where(Season.id == season_id, Season.closed_at.is_(None))
                         .values(closed_at=utcnow(), closed_by=user_id, final=final)
                         .execution_options(synchronize_session=False))
        if getattr(done, "rowcount", 1) != 1:
            raise SeasonClosed(season_id)
    closed = season(store, season_id)
    assert closed is not None
    return closed


def person_names(store: Store, ids: Iterable[int]) -> dict[int, str]:
    """The names of the club's persons by id."""
    wanted = sorted(set(ids))
    out: dict[int, str] = {}
    with store.read() as s:
        for chunk in range(0, len(wanted), 500):
            out.update(s.execute(select(ClubPlayer.id, ClubPlayer.name)
                                 .where(ClubPlayer.id.in_(wanted[chunk:chunk + 500]))).all())
    return out


def _after_merges(person: int | None, merged: dict[int, int]) -> int | None:
    """A person as the one he was merged into (``club_players.merged_into``, followed to its end)."""
    seen: set[int] = set()
    while person is not None and person in merged and person not in seen:
        seen.add(person)
        person = merged[person]
    return person


def _merged(s: Session, club_id: int) -> dict[int, int]:
    rows = s.execute(select(ClubPlayer.id, ClubPlayer.merged_into)
                     .where(ClubPlayer.club_id == club_id, ClubPlayer.merged_into.is_not(None))).all()
    return {person: into for person, into in rows if into is not None}


def participants_as_people(store: Store, club_id: int, tournament_id: int) -> dict[int, tuple[str, int | None]]:
    """A tournament's participants: id -> (nickname, the club's person he is, after merges, or None)."""
    with store.read() as s:
        rows = s.execute(select(TournamentParticipant.id, TournamentParticipant.nickname,
                                TournamentParticipant.player_id)
                         .where(TournamentParticipant.tournament_id == tournament_id)).all()
        merged = _merged(s, club_id)
    return {pid: (nickname, _after_merges(person, merged)) for pid, nickname, person in rows}


def participants_persons(store: Store, club_id: int, tournament_id: int) -> dict[int, int | None]:
    """Each participant of a tournament as the club's person, read only (nobody is created or linked): his
    ``player_id`` if set, else the person his account is (``users.player_id``), else the club's person of the
    same name (any case, not merged away) -- the rule by which ``season_index.link_participants`` links him
    when his first game ends -- then after merges; None when there is no such person."""
    with store.read() as s:
        rows = s.execute(select(TournamentParticipant.id, TournamentParticipant.nickname,
                                TournamentParticipant.player_id, User.player_id)
                         .outerjoin(User, User.id == TournamentParticipant.user_id)
                         .where(TournamentParticipant.tournament_id == tournament_id)).all()
        roster = s.execute(select(ClubPlayer.id, ClubPlayer.name).where(
            ClubPlayer.club_id == club_id, ClubPlayer.merged_into.is_(None)).order_by(ClubPlayer.id)).all()
        merged = _merged(s, club_id)
    by_name: dict[str, int] = {}
    for person, name in roster:
        by_name.setdefault(name.casefold(), person)
    return {pid: _after_merges(linked or account or by_name.get(nickname.casefold()), merged)
            for pid, nickname, linked, account in rows}
