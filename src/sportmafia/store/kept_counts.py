"""Each person's statistics kept up to date as games end (``person_counts``; docs/seasons.md, "Statistics").

A person's statistics are the sum of his seats' counts (``seasons.stats.seat_counts``). This module keeps that
sum: :func:`change` adds a game's seats when its index rows are written and takes them away when they are
dropped (an undo that reopens the game, a correction, a reindex), in the same transaction; a merge joins the
duplicate's counts to the person's. Every such transaction has first moved the club's ``index_version``, which
locks the club's row: no two of them bring the same person's counts forward at once. :func:`refill` computes
them again from the index (the migration that made the table, ``sportmafia reindex --all``), and
:func:`recounted` is what the integrity check compares with."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, delete, insert, select, update

from ..seasons.facts import SeatFacts
from ..seasons.stats import PlayedSeat, seat_counts
from .models import Club, ClubPlayer
from .season_tables import GameIndex, PersonCounts, SeatIndex

COUNTS = cast(Table, PersonCounts.__table__)
GAME_INDEX = cast(Table, GameIndex.__table__)
SEAT_INDEX = cast(Table, SeatIndex.__table__)
PLAYERS = cast(Table, ClubPlayer.__table__)
CLUBS = cast(Table, Club.__table__)


def counts_of(game_id: str, ended_at: datetime, ruleset: str, result: str, detail: bool,
              seats: Iterable[tuple[int | None, SeatFacts]]) -> dict[int, Counter[str]]:
    """What one game's seats add to their persons' counts (a guest's seat: nobody's)."""
    out: dict[int, Counter[str]] = {}
    for person, seat in seats:
        if person is not None:
            out.setdefault(person, Counter()).update(
                seat_counts(PlayedSeat(game_id, ended_at, seat, ruleset, result, detail)))
    return out


def game_counts(s: Connection, game_id: str) -> tuple[int | None, dict[int, Counter[str]]]:
    """The club of an indexed game and what its seats add to their persons' counts (no club: not indexed)."""
    game = s.execute(select(GAME_INDEX.c.club_id, GAME_INDEX.c.ended_at, GAME_INDEX.c.ruleset, GAME_INDEX.c.result,
                            GAME_INDEX.c.detail).where(GAME_INDEX.c.game_id == game_id)).one_or_none()
    if game is None:
        return None, {}
    seats = s.execute(select(SEAT_INDEX.c.player_id, SEAT_INDEX.c.facts).where(SEAT_INDEX.c.game_id == game_id,
                                                                             SEAT_INDEX.c.player_id.is_not(None)))
    return game.club_id, counts_of(game_id, game.ended_at, game.ruleset, game.result, game.detail,
                                   ((r.player_id, SeatFacts.from_json(r.facts)) for r in seats))


def change(s: Connection, club_id: int, deltas: Mapping[int, Mapping[str, int]], sign: int = 1) -> None:
    """Add (``sign`` 1) or take away (-1) counts of persons of the club; a person left with none loses his row."""
    if not deltas:
        return
    kept = {r.player_id: r.counts for r in s.execute(select(COUNTS.c.player_id, COUNTS.c.counts)
                                                     .where(COUNTS.c.player_id.in_(list(deltas))))}
    for person, delta in sorted(deltas.items()):
        now: Counter[str] = Counter(kept.get(person) or {})
        if sign > 0:
            now.update(delta)
        else:
            now.subtract(delta)
        counts = {k: v for k, v in sorted(now.items()) if v}
        if person not in kept:
            if counts:
                s.execute(insert(COUNTS).values(player_id=person, club_id=club_id, counts=counts))
        elif counts:
            s.execute(update(COUNTS).where(COUNTS.c.player_id == person).values(counts=counts))
        else:
            s.execute(delete(COUNTS).where(COUNTS.c.player_id == person))


def person_counts(s: Connection, person_id: int) -> dict[str, int]:
    """A person's kept counts (none: no seat of his is indexed)."""
    return dict(s.scalar(select(COUNTS.c.counts).where(COUNTS.c.player_id == person_id)) or {})


def join(s: Connection, club_id: int, moved: Iterable[int], into_id: int) -> None:
    """A merge: the counts of the persons ``moved`` are ``into_id``'s now."""
    rows = s.execute(select(COUNTS.c.player_id, COUNTS.c.counts).where(COUNTS.c.player_id.in_(list(moved)))).all()
    total: Counter[str] = Counter()
    for row in rows:
        total.update(row.counts)
    s.execute(delete(COUNTS).where(COUNTS.c.player_id.in_([r.player_id for r in rows])))
    change(s, club_id, {into_id: total})


def recounted(s: Connection, club_id: int | None = None) -> dict[int, dict[str, int]]:
    """Every person's counts computed again from the index (``club_id``: that club's persons only)."""
    query = (select(SEAT_INDEX.c.player_id, SEAT_INDEX.c.facts, GAME_INDEX.c.game_id, GAME_INDEX.c.ended_at,
                    GAME_INDEX.c.ruleset, GAME_INDEX.c.result, GAME_INDEX.c.detail)
             .join(GAME_INDEX, GAME_INDEX.c.game_id == SEAT_INDEX.c.game_id)
             .where(SEAT_INDEX.c.player_id.is_not(None)))
    if club_id is not None:
        query = query.where(SEAT_INDEX.c.club_id == club_id)
    out: dict[int, Counter[str]] = {}
    for r in s.execute(query):
        out.setdefault(r.player_id, Counter()).update(seat_counts(PlayedSeat(
            r.game_id, r.ended_at, SeatFacts.from_json(_json(r.facts)), r.ruleset, r.result, r.detail)))
    return {p: {k: v for k, v in sorted(c.items()) if v} for p, c in out.items()}


def kept_counts(s: Connection, club_id: int | None = None) -> dict[int, dict[str, int]]:
    """Every person's kept counts (``club_id``: that club's persons only)."""
    query = select(COUNTS.c.player_id, COUNTS.c.counts)
    if club_id is not None:
        query = query.where(COUNTS.c.club_id == club_id)
    return {r.player_id: dict(r.counts) for r in s.execute(query)}


def refill(s: Connection, club_id: int | None = None) -> int:
    """The kept counts written anew from the index (``club_id``: that club's); returns how many persons. The clubs'
    rows are locked first, as every change of the index does (no game ends meanwhile on another connection)."""
    locked = select(CLUBS.c.id).with_for_update()
    s.execute(locked if club_id is None else locked.where(CLUBS.c.id == club_id))
    fresh = recounted(s, club_id)
    clubs = dict(s.execute(select(PLAYERS.c.id, PLAYERS.c.club_id)).all()) if fresh else {}
    s.execute(delete(COUNTS) if club_id is None else delete(COUNTS).where(COUNTS.c.club_id == club_id))
    if fresh:
        s.execute(insert(COUNTS), [{"player_id": p, "club_id": clubs[p], "counts": c} for p, c in fresh.items()])
    return len(fresh)


def _json(value: Any) -> Any:
    """A JSON column's value (a migration's plain connection may hand it over as text)."""
    if isinstance(value, str):
        import json
        return json.loads(value)
    return value
