"""The tables: clubs, their rosters and users, games (a summary row per game) and game events (the
append-only log).

A game *is* its event log: ``game_events`` holds every event the engine produced, numbered by ``seq`` from 0
(the index of the event in :attr:`Game.log`, the same number ``visible_events`` and ``Undone.seq`` use). The
``games`` row keeps what the engine needs to fold the log (rule set, table size, names) and a few columns
read often (status, winner, result, ``next_seq``), rewritten in the same transaction as every append.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
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


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Club(Base):
    __tablename__ = "clubs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


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
    """A name on a club's roster (the players a host picks when seating a table)."""

    __tablename__ = "club_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    name: Mapped[str] = mapped_column(String(64))


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
    __table_args__ = (CheckConstraint("role IN ('admin', 'host', 'judge')", name="role"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    login: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
