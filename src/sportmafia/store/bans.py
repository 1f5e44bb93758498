"""Sanctions across a tournament and bans carried forward (B.sanctions; migration 0009): the judge's records
of offences (``tournament_offences``), the club's banned players (``club_bans``) and the registrations a
judge let through despite a ban (``ban_overrides``). Functions over the store's public transactions; every
function is one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from .models import BanOverride, ClubBan, Tournament, TournamentOffence, TournamentParticipant, User, as_utc, utcnow
from .store import Store
from .tournaments import of_tournament


@dataclass(frozen=True, slots=True)
class OffenceRecord:
    id: int
    tournament_id: int
    participant_id: int
    offence: str
    step: str
    game_id: str | None
    round: int | None
    reason: str
    user_id: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class BanRecord:
    id: int
    club_id: int
    nickname: str | None
    user_id: int | None
    tournament_id: int | None
    tournament_name: str | None
    reason: str
    created_by: int
    created_by_login: str | None
    created_at: datetime
    lifted_at: datetime | None
    lifted_by: int | None
    lift_reason: str | None


@dataclass(frozen=True, slots=True)
class OverrideRecord:
    id: int
    ban_id: int
    tournament_id: int
    nickname: str
    reason: str
    user_id: int
    created_at: datetime


def _offence(r: TournamentOffence) -> OffenceRecord:
    return OffenceRecord(r.id, r.tournament_id, r.participant_id, r.offence, r.step, r.game_id, r.round, r.reason,
                         r.user_id, as_utc(r.created_at) or utcnow())


# --- offences -------------------------------------------------------------------------------------
def add_offence(store: Store, tournament_id: int, participant_id: int, offence: str, step: str, reason: str,
                user_id: int, *, game_id: str | None = None, round_: int | None = None) -> OffenceRecord:
    with store.write() as s:
        p = s.get(TournamentParticipant, participant_id)
        if p is None or p.tournament_id != tournament_id:
            raise LookupError(f"no participant {participant_id} in tournament {tournament_id}")
        row = TournamentOffence(tournament_id=tournament_id, participant_id=participant_id, offence=offence,
                                step=step, game_id=game_id, round=round_, reason=reason, user_id=user_id,
                                created_at=utcnow())
        s.add(row)
        s.flush()
        return _offence(row)


def offences(store: Store, tournament_id: int) -> list[OffenceRecord]:
    return of_tournament(store, TournamentOffence, tournament_id, _offence)


# --- bans -----------------------------------------------------------------------------------------
def add_ban(store: Store, club_id: int, reason: str, created_by: int, *, nickname: str | None = None,
            user_id: int | None = None, tournament_id: int | None = None) -> BanRecord:
    if nickname is None and user_id is None:
        raise ValueError("a ban names a nickname or a user")
    with store.write() as s:
        row = ClubBan(club_id=club_id, nickname=nickname, user_id=user_id, tournament_id=tournament_id,
                      reason=reason, created_by=created_by, created_at=utcnow())
        s.add(row)
        s.flush()
        ban_id = row.id
    found = ban(store, club_id, ban_id)
    assert found is not None
    return found


def lift_ban(store: Store, club_id: int, ban_id: int, reason: str, user_id: int) -> BanRecord | None:
    """Lift an active ban (None when the club has no such active ban)."""
    with store.write() as s:
        row = s.get(ClubBan, ban_id)
        if row is None or row.club_id != club_id or row.lifted_at is not None:
            return None
        row.lifted_at, row.lifted_by, row.lift_reason = utcnow(), user_id, reason
    return ban(store, club_id, ban_id)


def _query(club_id: int) -> Any:
    return (select(ClubBan, Tournament.name, User.login)
            .outerjoin(Tournament, Tournament.id == ClubBan.tournament_id)
            .outerjoin(User, User.id == ClubBan.created_by)
            .where(ClubBan.club_id == club_id))


def _record(r: ClubBan, tname: str | None, login: str | None) -> BanRecord:
    return BanRecord(r.id, r.club_id, r.nickname, r.user_id, r.tournament_id, tname, r.reason, r.created_by,
                     login, as_utc(r.created_at) or utcnow(), as_utc(r.lifted_at), r.lifted_by, r.lift_reason)


def ban(store: Store, club_id: int, ban_id: int) -> BanRecord | None:
    with store.read() as s:
        q = _query(club_id).where(ClubBan.id == ban_id)
        row = s.execute(q).first()
        return None if row is None else _record(row[0], row[1], row[2])


def bans(store: Store, club_id: int, *, active: bool | None = None) -> list[BanRecord]:
    with store.read() as s:
        q = _query(club_id)
        if active is True:
            q = q.where(ClubBan.lifted_at.is_(None))
        elif active is False:
            q = q.where(ClubBan.lifted_at.is_not(None))
        return [_record(r[0], r[1], r[2]) for r in s.execute(q.order_by(ClubBan.id))]


def matching_bans(store: Store, club_id: int, nicknames: Sequence[str], user_ids: Sequence[int]) -> list[BanRecord]:
    """The club's active bans naming one of ``nicknames`` (case-insensitively) or ``user_ids``."""
    keys = [n.casefold() for n in nicknames]
    out = []
    for b in bans(store, club_id, active=True):
        if (b.nickname is not None and b.nickname.casefold() in keys) or \
                (b.user_id is not None and b.user_id in user_ids):
            out.append(b)
    return out


def add_override(store: Store, ban_id: int, tournament_id: int, nickname: str, reason: str,
                 user_id: int) -> OverrideRecord:
    with store.write() as s:
        row = BanOverride(ban_id=ban_id, tournament_id=tournament_id, nickname=nickname, reason=reason,
                          user_id=user_id, created_at=utcnow())
        s.add(row)
        s.flush()
        return OverrideRecord(row.id, ban_id, tournament_id, nickname, reason, user_id,
                              as_utc(row.created_at) or utcnow())


def overrides(store: Store, tournament_id: int) -> list[OverrideRecord]:
    return of_tournament(store, BanOverride, tournament_id, lambda r: OverrideRecord(
        r.id, r.ban_id, r.tournament_id, r.nickname, r.reason, r.user_id, as_utc(r.created_at) or utcnow()))


__all__ = [
    "BanRecord", "OffenceRecord", "OverrideRecord", "add_ban", "add_offence", "add_override", "ban", "bans",
    "lift_ban", "matching_bans", "offences", "overrides",
]
