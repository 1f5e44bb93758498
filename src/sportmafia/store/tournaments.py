"""Tournaments in the store: settings, participants, staff, seating plans, the games of every round and
table, the judge's acceptance of result sheets, and sanctions beyond a game (``docs/tournament.md``,
"Storage").

Functions over the store's public transactions (``store.read()``, ``store.write()``); every function is one
transaction, and a list of participants is written whole or not at all. The games themselves stay in the
``games`` table (created with :meth:`Store.create_game`); ``tournament_games`` links each to its
tournament, stage, round, table, host and the participants in seat order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TypeVar

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .models import (
    PARTICIPANT_STATUSES,
    SANCTION_KINDS,
    STAFF_ROLES,
    STAGES,
    TOURNAMENT_STATUSES,
    Club,
    StoredGame,
    Tournament,
    TournamentGame,
    TournamentParticipant,
    TournamentRuleChange,
    TournamentSanction,
    TournamentStaff,
    User,
    as_utc,
    utcnow,
)
from .records import ClubNotFound, StoreError
from .store import Store

R = TypeVar("R")


def of_tournament(store: Store, model: Any, tournament_id: int, record: Callable[[Any], R]) -> list[R]:
    """The rows of ``model`` (a table with ``tournament_id`` and ``id``) of one tournament, in the order they were
    added, as records."""
    with store.read() as s:
        rows = s.scalars(select(model).where(model.tournament_id == tournament_id).order_by(model.id))
        return [record(r) for r in rows]


class TournamentNotFound(StoreError, LookupError):
    """No tournament with this id."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__(f"no tournament with id {tournament_id!r}")
        self.tournament_id = tournament_id


class NicknameTaken(StoreError):
    """A nickname is already a participant's in this tournament (nothing was written)."""

    def __init__(self, nickname: str) -> None:
        super().__init__(f"the nickname {nickname!r} is taken in this tournament")
        self.nickname = nickname


class RoundOpen(StoreError):
    """The round (or a table of it) already has its games."""


class AlreadyAccepted(StoreError):
    """The game's sheet is accepted already."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"the sheet of game {game_id} is accepted already")
        self.game_id = game_id


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    id: int
    club_id: int
    name: str
    starts_on: date | None
    ends_on: date | None
    ruleset: str
    ruleset_options: dict[str, Any]
    scoring: dict[str, Any]
    tie_breaks: tuple[str, ...]
    final_settings: dict[str, Any]
    status: str
    published: bool
    seating: dict[str, Any] | None
    finalists: tuple[int, ...] | None
    final_seating: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    seating_constraints: dict[str, Any] | None = None
    """The judge's constraints on the seating (docs/tournament.md, "Seating constraints"); None: none."""


@dataclass(frozen=True, slots=True)
class ParticipantRecord:
    id: int
    tournament_id: int
    nickname: str
    club: str | None
    team: str | None
    user_id: int | None
    status: str


@dataclass(frozen=True, slots=True)
class StaffRecord:
    user_id: int
    login: str
    role: str


@dataclass(frozen=True, slots=True)
class TournamentGameRecord:
    game_id: str
    tournament_id: int
    stage: str
    round: int
    table: int
    host_id: int | None
    seats: tuple[int, ...]
    accepted_at: datetime | None
    accepted_by: int | None


@dataclass(frozen=True, slots=True)
class SanctionRecord:
    id: int
    tournament_id: int
    participant_id: int
    kind: str
    round: int | None
    reason: str
    user_id: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class RuleChangeRecord:
    """A change of an announced setting after round 1 (B.announce): who, when, old -> new, why."""

    id: int
    tournament_id: int
    setting: str
    old: Any
    new: Any
    reason: str
    user_id: int | None
    login: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NewRuleChanges:
    """What :func:`update_tournament` records with the change: ``(setting, old, new)`` each, the reason, the
    judge."""

    changes: tuple[tuple[str, Any, Any], ...]
    reason: str
    user_id: int
    login: str


@dataclass(frozen=True, slots=True)
class NewParticipant:
    nickname: str
    club: str | None = None
    team: str | None = None
    user_id: int | None = None


def _tournament(row: Tournament) -> TournamentRecord:
    return TournamentRecord(
        row.id, row.club_id, row.name, row.starts_on, row.ends_on, row.ruleset, dict(row.ruleset_options),
        dict(row.scoring), tuple(row.tie_breaks), dict(row.final_settings), row.status, bool(row.published),
        None if row.seating is None else dict(row.seating),
        None if row.finalists is None else tuple(int(p) for p in row.finalists),
        None if row.final_seating is None else dict(row.final_seating),
        as_utc(row.created_at) or utcnow(), as_utc(row.updated_at) or utcnow(),
        None if row.seating_constraints is None else dict(row.seating_constraints))


def _participant(row: TournamentParticipant) -> ParticipantRecord:
    return ParticipantRecord(row.id, row.tournament_id, row.nickname, row.club, row.team, row.user_id, row.status)


def _game(row: TournamentGame) -> TournamentGameRecord:
    return TournamentGameRecord(row.game_id, row.tournament_id, row.stage, row.round, row.table_no, row.host_id,
                                tuple(int(p) for p in row.seats), as_utc(row.accepted_at), row.accepted_by)


def _rule_change(row: TournamentRuleChange) -> RuleChangeRecord:
    return RuleChangeRecord(row.id, row.tournament_id, row.setting, row.old, row.new, row.reason, row.user_id,
                            row.login, as_utc(row.created_at) or utcnow())


def _sanction(row: TournamentSanction) -> SanctionRecord:
    return SanctionRecord(row.id, row.tournament_id, row.participant_id, row.kind, row.round, row.reason,
                          row.user_id, as_utc(row.created_at) or utcnow())


SETTINGS = ("name", "starts_on", "ends_on", "ruleset", "ruleset_options", "scoring", "tie_breaks",
            "final_settings", "status", "published", "seating", "finalists", "final_seating", "seating_constraints")
"""The columns :func:`update_tournament` may change."""


# --- tournaments ----------------------------------------------------------------------------------
def create_tournament(store: Store, club_id: int, name: str, *, ruleset: str, ruleset_options: dict[str, Any],
                      scoring: dict[str, Any], tie_breaks: Sequence[str], final_settings: dict[str, Any],
                      starts_on: date | None = None, ends_on: date | None = None) -> TournamentRecord:
    now = utcnow()
    with store.write() as s:
        if s.get(Club, club_id) is None:
            raise ClubNotFound(club_id)
        row = Tournament(club_id=club_id, name=name, starts_on=starts_on, ends_on=ends_on, ruleset=ruleset,
                         ruleset_options=dict(ruleset_options), scoring=dict(scoring),
                         tie_breaks=list(tie_breaks), final_settings=dict(final_settings), status="setup",
                         published=False, seating=None, finalists=None, final_seating=None,
                         created_at=now, updated_at=now)
        s.add(row)
        s.flush()
        return _tournament(row)


def tournament(store: Store, tournament_id: int) -> TournamentRecord:
    """The tournament (raises :class:`TournamentNotFound`)."""
    with store.read() as s:
        row = s.get(Tournament, tournament_id)
        if row is None:
            raise TournamentNotFound(tournament_id)
        return _tournament(row)


def club_tournaments(store: Store, club_id: int) -> list[TournamentRecord]:
    """The club's tournaments, newest first."""
    with store.read() as s:
        rows = s.scalars(select(Tournament).where(Tournament.club_id == club_id)
                         .order_by(Tournament.created_at.desc(), Tournament.id.desc()))
        return [_tournament(r) for r in rows]


def update_tournament(store: Store, tournament_id: int, announced: NewRuleChanges | None = None,
                      **changes: Any) -> TournamentRecord:
    """Change settings columns (:data:`SETTINGS`); returns the tournament as it is now. ``announced``: the
    changes of announced settings to record in the same transaction (B.announce)."""
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise ValueError(f"not a tournament setting: {sorted(unknown)}")
    if "status" in changes and changes["status"] not in TOURNAMENT_STATUSES:
        raise ValueError(f"a status is one of {TOURNAMENT_STATUSES}")
    if "tie_breaks" in changes:
        changes["tie_breaks"] = list(changes["tie_breaks"])
    if "finalists" in changes and changes["finalists"] is not None:
        changes["finalists"] = [int(p) for p in changes["finalists"]]
    with store.write() as s:
        row = s.get(Tournament, tournament_id)
        if row is None:
            raise TournamentNotFound(tournament_id)
        for key, value in changes.items():
            setattr(row, key, value)
        row.updated_at = utcnow()
        if announced is not None:
            for setting, old, new in announced.changes:
                s.add(TournamentRuleChange(tournament_id=tournament_id, setting=setting, old=old, new=new,
                                           reason=announced.reason, user_id=announced.user_id,
                                           login=announced.login, created_at=row.updated_at))
        s.flush()
        return _tournament(row)


def rule_changes(store: Store, tournament_id: int) -> list[RuleChangeRecord]:
    """The changes of announced settings after round 1, oldest first."""
    return of_tournament(store, TournamentRuleChange, tournament_id, _rule_change)


# --- participants ---------------------------------------------------------------------------------
def add_participants(store: Store, tournament_id: int,
                     entries: Sequence[NewParticipant]) -> list[ParticipantRecord]:
    """Add participants, all or none: a nickname already in the tournament (or twice in ``entries``)
    raises :class:`NicknameTaken` and writes nothing. Nicknames compare case-insensitively."""
    try:
        with store.write() as s:
            if s.get(Tournament, tournament_id) is None:
                raise TournamentNotFound(tournament_id)
            taken = {n.casefold() for n in s.scalars(
                select(TournamentParticipant.nickname).where(TournamentParticipant.tournament_id == tournament_id))}
            rows = []
            for e in entries:
                if e.nickname.casefold() in taken:
                    raise NicknameTaken(e.nickname)
                taken.add(e.nickname.casefold())
                rows.append(TournamentParticipant(tournament_id=tournament_id, nickname=e.nickname, club=e.club,
                                                  team=e.team, user_id=e.user_id, status="active",
                                                  created_at=utcnow()))
            s.add_all(rows)
            s.flush()
            return [_participant(r) for r in rows]
    except IntegrityError:  # a participant added at the same moment by another request
        raise NicknameTaken(entries[0].nickname if entries else "") from None


def participants(store: Store, tournament_id: int) -> list[ParticipantRecord]:
    """The participants in the order they were added."""
    return of_tournament(store, TournamentParticipant, tournament_id, _participant)


def _participant_row(s: Session, tournament_id: int, participant_id: int) -> TournamentParticipant:
    """The participant's row in session ``s``, if he is one of this tournament's (else LookupError)."""
    row = s.get(TournamentParticipant, participant_id)
    if row is None or row.tournament_id != tournament_id:
        raise LookupError(f"no participant {participant_id} in tournament {tournament_id}")
    return row


def set_participant_status(store: Store, tournament_id: int, participant_id: int,
                           status: str) -> ParticipantRecord:
    if status not in PARTICIPANT_STATUSES:
        raise ValueError(f"a participant's status is one of {PARTICIPANT_STATUSES}")
    with store.write() as s:
        row = _participant_row(s, tournament_id, participant_id)
        row.status = status
        s.flush()
        return _participant(row)


def delete_participant(store: Store, tournament_id: int, participant_id: int) -> None:
    """Remove a participant entered by mistake (only while he has no game and no sanction)."""
    with store.write() as s:
        row = _participant_row(s, tournament_id, participant_id)
        s.delete(row)


# --- staff ----------------------------------------------------------------------------------------
def set_staff(store: Store, tournament_id: int, members: Sequence[tuple[int, str]]) -> list[StaffRecord]:
    """Replace the tournament's hosts and judges with ``members`` (user id, role) pairs; every user must
    belong to the tournament's club (ValueError otherwise, nothing written)."""
    with store.write() as s:
        t = s.get(Tournament, tournament_id)
        if t is None:
            raise TournamentNotFound(tournament_id)
        for user_id, role in members:
            if role not in STAFF_ROLES:
                raise ValueError(f"a staff role is one of {STAFF_ROLES}, not {role!r}")
            user = s.get(User, user_id)
            if user is None or user.club_id != t.club_id:
                raise ValueError(f"user {user_id} is not a user of the tournament's club")
        s.execute(delete(TournamentStaff).where(TournamentStaff.tournament_id == tournament_id))
        s.add_all([TournamentStaff(tournament_id=tournament_id, user_id=u, role=r)
                   for u, r in dict.fromkeys((int(u), r) for u, r in members)])
    return staff(store, tournament_id)


def staff(store: Store, tournament_id: int) -> list[StaffRecord]:
    with store.read() as s:
        rows = s.execute(select(TournamentStaff.user_id, User.login, TournamentStaff.role)
                         .join(User, User.id == TournamentStaff.user_id)
                         .where(TournamentStaff.tournament_id == tournament_id)
                         .order_by(TournamentStaff.role, User.login))
        return [StaffRecord(u, login, role) for u, login, role in rows]


def tournaments_of_staff(store: Store, user_id: int) -> list[int]:
    """The ids of the tournaments where the user hosts or judges."""
    with store.read() as s:
        return sorted(set(s.scalars(select(TournamentStaff.tournament_id)
                                    .where(TournamentStaff.user_id == user_id))))


# --- games ----------------------------------------------------------------------------------------
def link_games(store: Store, tournament_id: int, stage: str,
               games: Sequence[tuple[str, int, int, int | None, Sequence[int]]]) -> None:
    """Link created games ``(game_id, round, table, host_id, seats)`` to the tournament, all in one
    transaction. When a table of the round is linked already (another judge got there first) the
    games just created are deleted again and :class:`RoundOpen` is raised."""
    if stage not in STAGES:
        raise ValueError(f"a stage is one of {STAGES}")
    try:
        with store.write() as s:
            for game_id, rnd, table, host, seats in games:
                s.add(TournamentGame(game_id=game_id, tournament_id=tournament_id, stage=stage, round=rnd,
                                     table_no=table, host_id=host, seats=[int(p) for p in seats]))
        return
    except IntegrityError:
        pass
    with store.write() as s:
        s.execute(delete(StoredGame).where(StoredGame.id.in_([g[0] for g in games])))
    raise RoundOpen(f"{stage} round {games[0][1] + 1 if games else '?'} is open already")


def games(store: Store, tournament_id: int, stage: str | None = None) -> list[TournamentGameRecord]:
    """The tournament's games by stage (main first), round and table."""
    with store.read() as s:
        q = select(TournamentGame).where(TournamentGame.tournament_id == tournament_id)
        if stage is not None:
            q = q.where(TournamentGame.stage == stage)
        rows = s.scalars(q)
        out = [_game(r) for r in rows]
    return sorted(out, key=lambda g: (STAGES.index(g.stage), g.round, g.table))


def game(store: Store, game_id: str) -> TournamentGameRecord | None:
    """The tournament link of a game, or None when the game is not a tournament's."""
    with store.read() as s:
        row = s.get(TournamentGame, game_id)
        return None if row is None else _game(row)


def accept(store: Store, game_id: str, user_id: int) -> TournamentGameRecord:
    """Mark the game's sheet accepted by ``user_id`` now; a second acceptance raises
    :class:`AlreadyAccepted` (the check and the write are one conditional UPDATE)."""
    with store.write() as s:
        done = s.execute(update(TournamentGame)
                         .where(TournamentGame.game_id == game_id, TournamentGame.accepted_at.is_(None))
                         .values(accepted_at=utcnow(), accepted_by=user_id))
        if done.rowcount != 1:  # type: ignore[attr-defined]
            if s.get(TournamentGame, game_id) is None:
                raise LookupError(f"game {game_id} is not a tournament's")
            raise AlreadyAccepted(game_id)
        row = s.get(TournamentGame, game_id)
        assert row is not None
        s.refresh(row)
        return _game(row)


# --- sanctions ------------------------------------------------------------------------------------
def add_sanction(store: Store, tournament_id: int, participant_id: int, kind: str, reason: str, user_id: int,
                 round_: int | None = None) -> SanctionRecord:
    """Record a sanction beyond a game and set the participant's status to match (a removal from the
    round keeps him active for later rounds)."""
    if kind not in SANCTION_KINDS:
        raise ValueError(f"a sanction is one of {SANCTION_KINDS}")
    with store.write() as s:
        p = _participant_row(s, tournament_id, participant_id)
        row = TournamentSanction(tournament_id=tournament_id, participant_id=participant_id, kind=kind,
                                 round=round_, reason=reason, user_id=user_id, created_at=utcnow())
        s.add(row)
        if kind == "tournament":
            p.status = "removed-from-tournament"
        elif kind == "disqualification":
            p.status = "disqualified"
        s.flush()
        return _sanction(row)


def sanctions(store: Store, tournament_id: int) -> list[SanctionRecord]:
    return of_tournament(store, TournamentSanction, tournament_id, _sanction)
