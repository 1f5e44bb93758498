"""Statistics kept up to date as games end (docs/seasons.md, "Statistics"): each person's (``person_counts``)
and each club's (``club_counts``), so that a profile or a club's page reads one row, not thousands.

A person's statistics are the sum of his seats' counts (``seasons.stats.seat_counts``), a club's the sum of its
games' counts (``seasons.stats.game_counts``). This module keeps those sums: :func:`add_game` adds a game when
its index rows are written and :func:`drop_game` takes it away when they are dropped (an undo that reopens
the game, a correction, a reindex), in the same transaction; a merge joins the duplicate's counts to the
person's (:func:`join`). Every such transaction has first moved the club's ``index_version``, which locks the
club's row: no two of them bring the same counts forward at once. :func:`refill` computes them again from the
index (the migration that made the tables, ``sportmafia reindex --all``); :func:`recounted` is what the
integrity check compares them with."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Column, Connection, Table, delete, func, insert, select, true, update

from ..seasons.facts import GameFacts, SeatFacts
from ..seasons.stats import PlayedSeat, game_counts, seat_counts
from .models import Club, ClubPlayer, as_utc
from .season_tables import ClubCounts, GameIndex, PersonCounts, SeatIndex

PERSONS = cast(Table, PersonCounts.__table__)
CLUB_COUNTS = cast(Table, ClubCounts.__table__)
GAME_INDEX = cast(Table, GameIndex.__table__)
SEAT_INDEX = cast(Table, SeatIndex.__table__)
PLAYERS = cast(Table, ClubPlayer.__table__)
CLUBS = cast(Table, Club.__table__)
Counts = dict[str, int]


def _person_counts(game_id: str, ended_at: datetime, ruleset: str, result: str, detail: bool,
                   seats: Iterable[tuple[int | None, SeatFacts]]) -> dict[int, Counter[str]]:
    """What one game's seats add to their persons' counts (a guest's seat, and the seats of a person at two seats
    of the game, as ``store.seasons.persons_once`` has it: nobody's)."""
    seats = list(seats)
    at = Counter(person for person, _ in seats)
    out: dict[int, Counter[str]] = {}
    for person, seat in seats:
        if person is not None and at[person] == 1:
            out.setdefault(person, Counter()).update(
                seat_counts(PlayedSeat(game_id, ended_at, seat, ruleset, result, detail)))
    return out


def _club_counts(ended_at: datetime, ruleset: str, winner: str | None, result: str, table_no: int | None,
                 host_id: int | None) -> Counter[str]:
    return game_counts(as_utc(ended_at) or ended_at, ruleset, winner, result,
                       None if table_no is None else str(table_no), None if host_id is None else str(host_id))


def add_game(s: Connection, facts: GameFacts, *, club_id: int, game_id: str, ended_at: datetime,
             people: Sequence[int | None], host_id: int | None, table_no: int | None) -> None:
    """A game's index rows written: its seats' counts added to their persons', its own to the club's."""
    _change(s, PERSONS, PERSONS.c.player_id, club_id, _person_counts(
        game_id, ended_at, facts.ruleset, facts.result, facts.detail, zip(people, facts.seats, strict=True)), 1)
    _change(s, CLUB_COUNTS, CLUB_COUNTS.c.club_id, club_id, {club_id: _club_counts(
        ended_at, facts.ruleset, facts.winner, facts.result, table_no, host_id)}, 1)


def drop_game(s: Connection, game_id: str) -> int | None:
    """A game's index rows about to be dropped: its counts taken away; returns its club (None: not indexed)."""
    game = s.execute(select(GAME_INDEX).where(GAME_INDEX.c.game_id == game_id)).one_or_none()
    if game is None:
        return None
    seats = s.execute(select(SEAT_INDEX.c.player_id, SEAT_INDEX.c.facts).where(SEAT_INDEX.c.game_id == game_id,
                                                                             SEAT_INDEX.c.player_id.is_not(None)))
    _change(s, PERSONS, PERSONS.c.player_id, game.club_id, _person_counts(
        game_id, game.ended_at, game.ruleset, game.result, game.detail,
        ((r.player_id, SeatFacts.from_json(r.facts)) for r in seats)), -1)
    _change(s, CLUB_COUNTS, CLUB_COUNTS.c.club_id, game.club_id, {game.club_id: _club_counts(
        game.ended_at, game.ruleset, game.winner, game.result, game.table_no, game.host_id)}, -1)
    return int(game.club_id)


def _change(s: Connection, table: Table, key: Column[Any], club_id: int, deltas: Mapping[int, Mapping[str, int]],
            sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) counts of rows of ``table`` by ``key``; a row left with none is deleted."""
    if not deltas:
        return
    kept = {r[0]: r[1] for r in s.execute(select(key, table.c.counts).where(key.in_(list(deltas))))}
    for row, delta in sorted(deltas.items()):
        now: Counter[str] = Counter(kept.get(row) or {})
        if sign > 0:
            now.update(delta)
        else:
            now.subtract(delta)
        counts = {k: v for k, v in sorted(now.items()) if v}
        if row not in kept:
            if counts:
                s.execute(insert(table).values({key.name: row, "club_id": club_id, "counts": counts}))
        elif counts:
            s.execute(update(table).where(key == row).values(counts=counts))
        else:
            s.execute(delete(table).where(key == row))


def person_counts(s: Connection, person_id: int) -> Counts:
    """A person's kept counts (none: no seat of his is indexed)."""
    return dict(s.scalar(select(PERSONS.c.counts).where(PERSONS.c.player_id == person_id)) or {})


def club_counts(s: Connection, club_id: int) -> Counts:
    """A club's kept counts (none: no game of it is indexed)."""
    return dict(s.scalar(select(CLUB_COUNTS.c.counts).where(CLUB_COUNTS.c.club_id == club_id)) or {})


def games_played(s: Connection, club_id: int) -> dict[int, int]:
    """How many indexed games each person of the club played, from the kept counts."""
    return {r.player_id: int(r.counts.get("games/all", 0)) for r in s.execute(
        select(PERSONS.c.player_id, PERSONS.c.counts).where(PERSONS.c.club_id == club_id))}


def join(s: Connection, club_id: int, moved: Iterable[int], into_id: int) -> None:
    """A merge: the counts of the persons ``moved`` are ``into_id``'s now."""
    rows = s.execute(select(PERSONS.c.player_id, PERSONS.c.counts).where(PERSONS.c.player_id.in_(list(moved)))).all()
    total: Counter[str] = Counter()
    for row in rows:
        total.update(row.counts)
    s.execute(delete(PERSONS).where(PERSONS.c.player_id.in_([r.player_id for r in rows])))
    _change(s, PERSONS, PERSONS.c.player_id, club_id, {into_id: total}, 1)


def recounted(s: Connection) -> tuple[dict[int, Counts], dict[int, Counts]]:
    """Every person's and every club's counts computed again from the index."""
    persons: dict[int, Counter[str]] = {}
    doubled = _doubled(s)
    for r in s.execute(select(SEAT_INDEX.c.player_id, SEAT_INDEX.c.facts, GAME_INDEX.c.game_id,
                              GAME_INDEX.c.ended_at, GAME_INDEX.c.ruleset, GAME_INDEX.c.result, GAME_INDEX.c.detail)
                       .join(GAME_INDEX, GAME_INDEX.c.game_id == SEAT_INDEX.c.game_id)
                       .where(SEAT_INDEX.c.player_id.is_not(None))):
        if (r.game_id, r.player_id) in doubled:
            continue
        persons.setdefault(r.player_id, Counter()).update(seat_counts(PlayedSeat(
            r.game_id, r.ended_at, SeatFacts.from_json(_json(r.facts)), r.ruleset, r.result, r.detail)))
    clubs: dict[int, Counter[str]] = {}
    for g in s.execute(select(GAME_INDEX.c.club_id, GAME_INDEX.c.ended_at, GAME_INDEX.c.ruleset, GAME_INDEX.c.winner,
                              GAME_INDEX.c.result, GAME_INDEX.c.table_no, GAME_INDEX.c.host_id)):
        clubs.setdefault(g.club_id, Counter()).update(
            _club_counts(g.ended_at, g.ruleset, g.winner, g.result, g.table_no, g.host_id))
    return _plain(persons), _plain(clubs)


def kept(s: Connection) -> tuple[dict[int, Counts], dict[int, Counts]]:
    """Every person's and every club's kept counts."""
    return ({r.player_id: dict(r.counts) for r in s.execute(select(PERSONS.c.player_id, PERSONS.c.counts))},
            {r.club_id: dict(r.counts) for r in s.execute(select(CLUB_COUNTS.c.club_id, CLUB_COUNTS.c.counts))})


def refill(s: Connection) -> int:
    """Every kept count written anew from the index; returns how many persons have some. The clubs' rows are
    locked first, as every change of the index does (no game ends meanwhile on another connection)."""
    s.execute(select(CLUBS.c.id).with_for_update())
    persons, clubs = recounted(s)
    club_of = dict(s.execute(select(PLAYERS.c.id, PLAYERS.c.club_id)).all()) if persons else {}
    s.execute(delete(PERSONS))
    s.execute(delete(CLUB_COUNTS))
    if persons:
        s.execute(insert(PERSONS), [{"player_id": p, "club_id": club_of[p], "counts": c} for p, c in persons.items()])
    if clubs:
        s.execute(insert(CLUB_COUNTS), [{"club_id": c, "counts": counts} for c, counts in clubs.items()])
    return len(persons)


def once(s: Connection, person_id: int) -> Any:
    """The condition that a ``seat_index`` row of ``person_id`` is in a game where he sits at no other seat (a
    person at two seats is nobody at either, as ``store.seasons.persons_once`` has it). Such games are rare:
    when his seats are as many as his kept games, there are none, and the condition is no condition."""
    seats = s.scalar(select(func.count()).select_from(SEAT_INDEX).where(SEAT_INDEX.c.player_id == person_id))
    if seats == person_counts(s, person_id).get("games/all", 0):
        return true()
    doubled = (select(SEAT_INDEX.c.game_id).where(SEAT_INDEX.c.player_id == person_id)
               .group_by(SEAT_INDEX.c.game_id).having(func.count() > 1))
    return SEAT_INDEX.c.game_id.not_in(doubled)


def _doubled(s: Connection) -> set[tuple[str, int]]:
    """Every (game, person) of a person at two seats of a game."""
    return {(r.game_id, r.player_id) for r in s.execute(
        select(SEAT_INDEX.c.game_id, SEAT_INDEX.c.player_id).where(SEAT_INDEX.c.player_id.is_not(None))
        .group_by(SEAT_INDEX.c.game_id, SEAT_INDEX.c.player_id).having(func.count() > 1))}


def _plain(counts: Mapping[int, Counter[str]]) -> dict[int, Counts]:
    return {k: {key: v for key, v in sorted(c.items()) if v} for k, c in counts.items()}


def _json(value: Any) -> Any:
    """A JSON column's value (a migration's plain connection may hand it over as text)."""
    if isinstance(value, str):
        import json
        return json.loads(value)
    return value
