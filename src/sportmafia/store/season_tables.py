"""The tables of a club's seasons: the players as persons across games (``club_players`` with
``merged_into``, the ``player_merges`` audit trail), the index of finished games that statistics and ratings
read (``game_index`` and ``seat_index``: derived from each game's log in the transaction that ends it, and
rebuilt from the logs at will, never a second source of truth), the games a judge left out of the ratings
(``rating_exclusions``) and seasons (``seasons``). See docs/seasons.md."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Date, DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, utcnow

RATING_KINDS = ("club", "tournament", "elite", "none")
"""How a game weighs in the team Elo (docs/seasons.md, "Ratings"): a club night, a tournament, an elite
tournament, or not rated at all (a fun game)."""
SOURCES = ("log", "polemica", "mafiaratings", "sportmafia")


class GameIndex(Base):
    """A finished game as statistics and ratings read it: its facts (``sportmafia.seasons.facts``), computed
    from the log when the game ends (or from an imported result when only that is known: ``detail`` false)."""

    __tablename__ = "game_index"
    __table_args__ = (UniqueConstraint("club_id", "source", "source_id"),
                      # a club's games in the ratings' order, with what the ratings read of them (0014)
                      Index("ix_game_index_club_id_ended_at", "club_id", "ended_at", "game_id", "winner", "kind"))

    game_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    """The stored game's id; an imported result-only game has an id of its own and no ``games`` row."""
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"))
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    ruleset: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    winner: Mapped[str | None] = mapped_column(String(16), nullable=True)
    result: Mapped[str] = mapped_column(String(64))
    host_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    tournament_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    table_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(16))
    detail: Mapped[bool] = mapped_column(Boolean)
    source: Mapped[str] = mapped_column(String(16))
    source_id: Mapped[str] = mapped_column(String(64))
    """The game's id in its source (the stored game's id for ``log``): importing a game twice is refused."""
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The game's facts (``GameFacts.to_json`` without its seats, which are each ``seat_index.facts``)."""


class SeatIndex(Base):
    """One seat of an indexed game: the person at it (after merges) and that seat's facts."""

    __tablename__ = "seat_index"
    __table_args__ = (Index("ix_seat_index_player_id_ended_at", "player_id", "ended_at", "game_id"),
                      # what the ratings read of a club's seats, in their order, from the index alone (0014)
                      Index("ix_seat_index_club_id_game_id", "club_id", "game_id", "seat", "player_id", "team"))

    game_id: Mapped[str] = mapped_column(ForeignKey("game_index.game_id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("club_players.id"), nullable=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"))
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    name: Mapped[str] = mapped_column(String(64))
    role: Mapped[str] = mapped_column(String(16))
    team: Mapped[str] = mapped_column(String(8))
    won: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)
    """This seat's facts (``SeatFacts.to_json``); the game's own facts, without its seats, are ``game_index.facts``."""


class PlayerMerge(Base):
    """A duplicate person merged into another, with the reason (the audit trail: who, when, why)."""

    __tablename__ = "player_merges"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("club_players.id"))
    into_id: Mapped[int] = mapped_column(ForeignKey("club_players.id"))
    from_name: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(Text)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingExclusion(Base):
    """A game a judge left out of the ratings, with the reason (lifting it keeps the row: ``lifted_*``)."""

    __tablename__ = "rating_exclusions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(36), index=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"))
    reason: Mapped[str] = mapped_column(Text)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    lifted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    lifted_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    lift_reason: Mapped[str | None] = mapped_column(Text, nullable=True)


class Season(Base):
    """A named date range of a club: its club nights and tournaments, standings by rating or by series points
    (places in its tournaments, as data), closed by a judge."""

    __tablename__ = "seasons"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    starts_on: Mapped[date] = mapped_column(Date)
    ends_on: Mapped[date] = mapped_column(Date)
    standings: Mapped[str] = mapped_column(String(16), default="rating")
    series_points: Mapped[list[float]] = mapped_column(JSON)
    """Points for the 1st, 2nd, ... place of each of the season's tournaments (standings by points)."""
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    closed_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    final: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """What the season's page shows from its closing on: the standings, the games and the tournaments as they
    stood when it was closed (``services.club_seasons``); None while it is open."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PersonCounts(Base):
    """A person's statistics kept as the sum of his seats' counts (``seasons.stats.seat_counts``): brought
    forward in the transaction that writes or drops a game's index rows, joined on a merge, and refilled from
    the index at will (``store.kept_counts``). A profile reads this one row, not his thousands of seats."""

    __tablename__ = "person_counts"

    player_id: Mapped[int] = mapped_column(ForeignKey("club_players.id"), primary_key=True, autoincrement=False)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    counts: Mapped[dict[str, int]] = mapped_column(JSON)


class ClubCounts(Base):
    """A club's statistics kept as the sum of its games' counts (``seasons.stats.game_counts``), as
    ``person_counts`` (``store.kept_counts``): the club's page reads this one row, not its thousands of games."""

    __tablename__ = "club_counts"

    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), primary_key=True, autoincrement=False)
    counts: Mapped[dict[str, int]] = mapped_column(JSON)
