"""The tables: clubs, their rosters and users, games (a summary row per game) and game events (the
append-only log).

A game *is* its event log: ``game_events`` holds every event the engine produced, numbered by ``seq`` from 0
(the index of the event in :attr:`Game.log`, the same number ``visible_events`` and ``Undone.seq`` use). The
``games`` row keeps what the engine needs to fold the log (rule set, table size, names) and a few columns
read often (status, winner, result, ``next_seq``), rewritten in the same transaction as every append.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any, overload

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Constraint names are fixed by convention so that migrations can name what they alter."""

STATUSES = ("dealing", "playing", "over")
USER_ROLES = ("admin", "host", "judge")


def utcnow() -> datetime:
    return datetime.now(UTC)


@overload
def as_utc(moment: datetime) -> datetime: ...


@overload
def as_utc(moment: None) -> None: ...


def as_utc(moment: datetime | None) -> datetime | None:
    """A time read back from the database, in UTC: SQLite gives back naive datetimes, and every time the store
    writes is UTC (None stays None)."""
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Club(Base):
    __tablename__ = "clubs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    autostart_timer: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    index_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Counts the changes of the club's index of finished games (docs/seasons.md): what is computed from it and
    kept (the club's statistics) is kept under this number."""
    """The club's setting: the host's console starts the speech timer when a speech begins (store/clubs.py)."""


class StoredGame(Base):
    """One game: how to fold its log, and a summary of where the log stands."""

    __tablename__ = "games"
    __table_args__ = (CheckConstraint("status IN ('dealing', 'playing', 'over')", name="status"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    """A UUID in its canonical text form."""
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    ruleset: Mapped[str] = mapped_column(String(64))
    """The rule set's name (a preset or a club's variant)."""
    ruleset_options: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``RuleSet.options()``: the rules this game is played under, frozen when it was created."""
    players: Mapped[int] = mapped_column(Integer)
    names: Mapped[list[str]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="dealing")
    winner: Mapped[str | None] = mapped_column(String(16), nullable=True)
    result: Mapped[str | None] = mapped_column(String(64), nullable=True)
    next_seq: Mapped[int] = mapped_column(Integer, default=0)
    """The number of events in the log: the ``seq`` the next event will get."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    signed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the host signed the result sheet (B.sheet); a signed game takes no more commands."""
    signed_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    host_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    """The game's host: the user who created it (a tournament game: its table's host); null for a game created
    before hosts were recorded (docs/security.md, "Who hosts and who sits")."""
    seat_players: Mapped[list[int | None] | None] = mapped_column(JSON, nullable=True)
    """The club roster player at each seat (seat 1 first; null for a seat filled by a typed name), or null for
    a game whose seats were all typed."""


class SheetCorrection(Base):
    """A judge's or admin's correction of a signed result sheet, with its reason (B.sheet). Rows are only
    ever inserted; the sheet shows the game's own result with every correction applied in order."""

    __tablename__ = "sheet_corrections"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    reason: Mapped[str] = mapped_column(Text)
    changes: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """What changed: a list of ``{"field": ..., "seat": ..., "old": ..., "new": ...}``."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GameEvent(Base):
    """One event of a game's log. Rows are only ever inserted."""

    __tablename__ = "game_events"
    __table_args__ = (UniqueConstraint("game_id", "command_id"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    type: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``event.to_json()``, type included."""
    command_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The client's id of the command, on the command's action event (the first of its group)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ClubPlayer(Base):
    """A name on a club's roster (the players a host picks when seating a table): a person across games, with
    a public profile (docs/seasons.md). A duplicate merged into another keeps its row, ``merged_into`` set."""

    __tablename__ = "club_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    merged_into: Mapped[int | None] = mapped_column(ForeignKey("club_players.id"), nullable=True)


class ClubVariant(Base):
    """A club's saved rule set: ``RuleSet.options()`` of a preset with the club's changes, under a name
    unique in the club (offered with the presets when a game is created)."""

    __tablename__ = "club_variants"
    __table_args__ = (UniqueConstraint("club_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"))
    name: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class User(Base):
    """An account of a club: an admin, a host or a judge. ``password_hash`` is an argon2 hash (the web
    layer hashes; the store never sees a password)."""

    __tablename__ = "users"
    __table_args__ = (CheckConstraint("role IN ('admin', 'host', 'judge')", name="role"),
                      Index("uq_users_club_id_player_id", "club_id", "player_id", unique=True))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    login: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("club_players.id"), nullable=True)
    """The club roster player this account is (set by an admin): a game with him in its seats is not his to
    host or judge."""
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When an admin disabled the account (it cannot log in, its sessions are revoked); None while enabled."""


class LoginSession(Base):
    """A logged-in browser. The cookie carries a random secret; only its keyed hash (``key``) is stored, so a
    copy of the database opens no session. A session ends when revoked (logout, a password change, the user
    disabled) or when it has not been used for its lifetime (``expires_at`` moves on as it is used)."""

    __tablename__ = "sessions"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    """HMAC-SHA256 (hex) of the cookie's secret."""
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


# --- tournaments (docs/tournament.md, "Storage") -------------------------------------------------------
TOURNAMENT_STATUSES = ("setup", "running", "final", "finished")
PARTICIPANT_STATUSES = ("active", "removed-from-round", "removed-from-tournament", "disqualified")
STAFF_ROLES = ("host", "judge")
SANCTION_KINDS = ("round", "tournament", "disqualification")
STAGES = ("main", "final")


class Tournament(Base):
    """A club's tournament: its settings (rule set, scoring system and tie-breaks as data, the final's
    settings), where it stands, and its seating plans (``tournament.seating`` JSON with the participant
    ids of its player indices)."""

    __tablename__ = "tournaments"
    __table_args__ = (CheckConstraint("status IN ('setup', 'running', 'final', 'finished')", name="status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    starts_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    ends_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    ruleset: Mapped[str] = mapped_column(String(64))
    ruleset_options: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``RuleSet.options()`` of the preset or club variant the tournament's games are played under."""
    scoring: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``ScoringSystem.to_json()``."""
    tie_breaks: Mapped[list[str]] = mapped_column(JSON)
    final_settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``{"finalists": K, "games_each": 3, "carry_over": true}``."""
    status: Mapped[str] = mapped_column(String(16), default="setup")
    rating_kind: Mapped[str] = mapped_column(String(16), default="tournament", server_default="tournament")
    """How its games weigh in the team Elo: ``tournament``, ``elite`` or ``none`` (docs/seasons.md)."""
    published: Mapped[bool] = mapped_column(Boolean, default=False)
    seating: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The main stage's plan: ``Seating.to_json()`` plus ``participants`` (index -> participant id),
    ``hosts`` (round -> host user id per table) and the request it was generated from."""
    finalists: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    final_seating: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    seating_constraints: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The judge's constraints on the seating (migration 0016; docs/tournament.md, "Seating constraints")."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentParticipant(Base):
    """A participant: a nickname unique in the tournament, an optional club and team (players of one club
    or team do not meet), a status, and the user account when the participant is also a host."""

    __tablename__ = "tournament_participants"
    __table_args__ = (
        UniqueConstraint("tournament_id", "nickname"),
        CheckConstraint("status IN ('active', 'removed-from-round', 'removed-from-tournament', 'disqualified')",
                        name="status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    nickname: Mapped[str] = mapped_column(String(64))
    club: Mapped[str | None] = mapped_column(String(200), nullable=True)
    team: Mapped[str | None] = mapped_column(String(200), nullable=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    status: Mapped[str] = mapped_column(String(32), default="active")
    player_id: Mapped[int | None] = mapped_column(ForeignKey("club_players.id"), nullable=True)
    """The club's person this participant is (statistics and ratings across tournaments), or None."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentStaff(Base):
    """A user of the club who hosts or judges in this tournament (whatever his role in the club)."""

    __tablename__ = "tournament_staff"
    __table_args__ = (CheckConstraint("role IN ('host', 'judge')", name="role"),)

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    role: Mapped[str] = mapped_column(String(16), primary_key=True)


class TournamentGame(Base):
    """A game of a tournament: its stage, round and table, its host, the participants in seat order, and
    the judge's acceptance of its signed result sheet."""

    __tablename__ = "tournament_games"
    __table_args__ = (
        UniqueConstraint("tournament_id", "stage", "round", "table_no"),
        CheckConstraint("stage IN ('main', 'final')", name="stage"),
    )

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    stage: Mapped[str] = mapped_column(String(8))
    round: Mapped[int] = mapped_column(Integer)
    table_no: Mapped[int] = mapped_column(Integer)
    host_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    seats: Mapped[list[int]] = mapped_column(JSON)
    """Participant ids, seat 1 first."""
    accepted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    accepted_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)


class TournamentSanction(Base):
    """A sanction reaching beyond a game (B.sanctions), recorded by the judge. Rows are only inserted."""

    __tablename__ = "tournament_sanctions"
    __table_args__ = (CheckConstraint("kind IN ('round', 'tournament', 'disqualification')", name="kind"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    participant_id: Mapped[int] = mapped_column(ForeignKey("tournament_participants.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The round it applies to (removal from the round), counted from 0."""
    reason: Mapped[str] = mapped_column(Text)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentRuleChange(Base):
    """A change of an announced setting (the scoring, the tie-breaks, the final's settings) made after round 1
    was opened, with the judge's reason (B.announce, seed B 7.2; migration 0010). Rows are only inserted."""

    __tablename__ = "tournament_rule_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    setting: Mapped[str] = mapped_column(String(32))
    """``scoring``, ``tie_breaks`` or ``final_settings``."""
    old: Mapped[Any] = mapped_column(JSON, nullable=True)
    new: Mapped[Any] = mapped_column(JSON, nullable=True)
    reason: Mapped[str] = mapped_column(Text)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    login: Mapped[str] = mapped_column(String(64))
    """The judge's login as it was then."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentOffence(Base):
    """An offence of the sanctions table the judge recorded (B.sanctions): a new offence (``game_id`` null), or
    the step due applied to an offence a game's sheet records (``game_id``). ``step`` is the step applied;
    one reaching beyond a game also has its ``tournament_sanctions`` row. Rows are only inserted."""

    __tablename__ = "tournament_offences"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    participant_id: Mapped[int] = mapped_column(ForeignKey("tournament_participants.id", ondelete="CASCADE"))
    offence: Mapped[str] = mapped_column(String(32))
    step: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(Text)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ClubBan(Base):
    """A player banned from the club's later tournaments ("с запрещением участия в дальнейших турнирах"): a
    nickname and/or a user account, the tournament and the reason, who entered it; lifted with a reason."""

    __tablename__ = "club_bans"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    nickname: Mapped[str | None] = mapped_column(String(64), nullable=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id", ondelete="SET NULL"),
                                                      nullable=True)
    reason: Mapped[str] = mapped_column(Text)
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    lifted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    lifted_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    lift_reason: Mapped[str | None] = mapped_column(Text, nullable=True)


class BanOverride(Base):
    """A judge's registration of a banned player in a tournament despite the ban, with his reason."""

    __tablename__ = "ban_overrides"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    ban_id: Mapped[int] = mapped_column(ForeignKey("club_bans.id", ondelete="CASCADE"), index=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    nickname: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(Text)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# --- online play (docs/online.md) ----------------------------------------------------------------------
JOIN_STATUSES = ("pending", "approved", "denied", "claimed")


class OnlineTable(Base):
    """A game opened for online play: its short table code (joining, watching, the overlay) and the judge's
    delayed open stream (its link's token kept only as a SHA-256 hash)."""

    __tablename__ = "online_tables"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    stream_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    stream_delay: Mapped[int] = mapped_column(Integer, default=0)
    """Minutes the open stream lags behind the game."""
    watch_closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """Set while the judge or host has closed the table to observers (B.observers, seed B 7.3; migration 0010):
    the spectators' page and the overlay get nothing of the game."""


class SeatToken(Base):
    """A seat's personal link: the SHA-256 of its token (never the token), bound to one seat of one game.
    At most one is live per seat (``revoked_at`` null); re-issuing revokes the old one."""

    __tablename__ = "seat_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class JoinRequest(Base):
    """A player's request to take a seat, made with the table code; the host approves or denies it. The
    requester holds a secret (kept as a SHA-256 hash) with which he collects his seat's token, once."""

    __tablename__ = "join_requests"
    __table_args__ = (CheckConstraint("status IN ('pending', 'approved', 'denied', 'claimed')", name="status"),
                      Index("ix_join_requests_game_id_requester", "game_id", "requester"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    requester: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """A keyed hash of the requester's client address (never the address; migration 0012): one pending request
    per address and table, and the cooldown after a denial, whichever server process answers."""


# --- shared rate limits and the installation (docs/security.md, "Rate limits"; migration 0012) ------------
class RateLimit(Base):
    """One record of the rate limits (``web.limits``) when they are kept in the database: a keyed hash of what is
    counted (an address, an account, a table) and its short list of numbers, as JSON. ``expires_at`` (seconds
    since the epoch) is when nothing of it counts any more: such rows are pruned."""

    __tablename__ = "rate_limits"

    key: Mapped[str] = mapped_column(String(96), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    expires_at: Mapped[float] = mapped_column(Float, index=True)


class InstallationFact(Base):
    """Facts of this installation, one row each: ``id``, a random id made once (the prefix of its Redis keys, so
    that two installations sharing one Redis never share a count)."""

    __tablename__ = "installation"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


# --- bots at a table (docs/bots.md, "Bots at an online table"; migration 0015) ---------------------------------
class SaidClaim(Base):
    """A claim a seat made in his speech (``bots.claims``), kept beside the game: ``n`` numbers the game's claims
    from 0, ``at`` is the length of the log when it was made. Claims are public; the engine never reads them (a
    game record stays the engine's)."""

    __tablename__ = "claims"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    at: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    target: Mapped[int | None] = mapped_column(Integer, nullable=True)
    role: Mapped[str | None] = mapped_column(String(16), nullable=True)
    color: Mapped[str | None] = mapped_column(String(8), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TableBots(Base):
    """An online table some of whose seats bots play (``agents``: ``{"seat": "agent name"}``), and whether the
    server also plays the host's part (``runs_table``: the deal, the draws, the speeches' ends, "Next"): a practice
    table, or a table of programs that took seats by the open seat protocol. ``pace``: how fast the table runs
    (``normal`` or ``fast``); ``seed``: the bots' and the table's draws."""

    __tablename__ = "table_bots"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    agents: Mapped[dict[str, str]] = mapped_column(JSON)
    runs_table: Mapped[bool] = mapped_column(Boolean, default=False)
    pace: Mapped[str] = mapped_column(String(16), default="normal")
    seed: Mapped[int] = mapped_column(Integer, default=0)
    practice: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    runner: Mapped[str | None] = mapped_column(String(40), nullable=True)
    """The server process running the table's bots (its hub's origin), while its lease holds."""
    lease_until: Mapped[float] = mapped_column(Float, default=0.0)
    """Seconds since the epoch until which ``runner`` holds the table; past it, another process takes it."""
