"""A club's season: the index of finished games kept up to date (``reindex``), the players' ratings over it
(kept per process and brought forward game by game as games end: ``club_ratings``), and what a profile page
shows (docs/seasons.md)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import datetime

from ..i18n import msg
from ..seasons.elo import EloState, RatedGame, Ratings
from ..seasons.skill import SkillRatings, SkillState
from ..seasons.stats import (
    Filter,
    GroupStats,
    PersonStats,
    PlayedGame,
    PlayedSeat,
    counted_group,
    counted_stats,
    group_stats,
    seat_stats,
)
from ..store import Store, UserRecord
from ..store import seasons as db
from ..store.seasons import IndexedGame, IndexedSeat, Person
from .errors import Refusal


def reindex(store: Store, *, every: bool = False, progress: Callable[[str], None] | None = None) -> int:
    """Index the finished games missing from the index (those that ended before it existed), or, ``every``,
    rewrite every stored game's rows from its log; returns how many games were indexed."""
    if every:
        from sqlalchemy import select

        from ..store import StoredGame
        with store.read() as s:
            ids = list(s.scalars(select(StoredGame.id).where(StoredGame.status == "over")))
    else:
        ids = db.unindexed_games(store)
    for game_id in ids:
        db.reindex_game(store, game_id)
        if progress is not None:
            progress(game_id)
    if every:  # each game's rows were written anew, and each person's counts with them: made anew from them too
        db.refill_counts(store)
    return len(ids)


def people_of(game: IndexedGame) -> tuple[str | None, ...]:
    """The persons at the game's seats by their id as text, each once (``store.seasons.persons_once``)."""
    return db.persons_once(game.people)


def rated(game: IndexedGame) -> RatedGame:
    """A game of the index as the team Elo sees it (persons by their id as text; guests unrated)."""
    return RatedGame(game.game_id, game.ended_at, people_of(game),
                     tuple(s.team for s in game.facts.seats), game.facts.winner,
                     game.kind)


def played(game: IndexedGame) -> PlayedGame:
    """A game of the index as the statistics see it (persons, hosts and tournaments by their id as text; the
    table as its number)."""
    return PlayedGame(game.game_id, game.ended_at, game.facts, people_of(game), None,
                      None if game.host_id is None else str(game.host_id),
                      None if game.tournament_id is None else str(game.tournament_id),
                      None if game.table_no is None else str(game.table_no), game.kind)


def played_seat(seat: IndexedSeat) -> PlayedSeat:
    """A person's seat of the index as his statistics see it (as :func:`played` names the game's context)."""
    return PlayedSeat(seat.game_id, seat.ended_at, seat.seat, seat.ruleset, seat.result, seat.detail, None,
                      None if seat.host_id is None else str(seat.host_id),
                      None if seat.tournament_id is None else str(seat.tournament_id),
                      None if seat.table_no is None else str(seat.table_no), seat.kind)


@dataclass(frozen=True)
class ClubRatings:
    elo: Ratings
    skill: SkillRatings


@dataclass
class _Kept:
    """A club's ratings as far as its index has been read: the states, the last game applied and what tells
    whether that is still a prefix of the index (how many games up to it; merges and exclusions)."""

    elo: EloState
    skill: SkillState
    last: tuple[datetime, str] | None
    mark: tuple[int, int, int]
    version: int | None = None
    """The club's ``index_version`` read before the last catch-up: while it has not moved, nothing changed."""
    now: ClubRatings | None = None
    """The ratings as of ``last`` (copied once, shared by every page until the next game)."""


_KEPT: dict[tuple[int, int], _Kept] = {}
_KEPT_LOCK = threading.Lock()


@contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector held off while the ratings are computed from scratch (called under
    ``_KEPT_LOCK``). They make some 600,000 tuples for a club's year, none of them in a cycle; the young
    collections their making sets off walk ever more of them and took 40% of the time (bench/seasons.py)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def club_ratings(store: Store, club_id: int) -> ClubRatings:
    """The club's team Elo over its whole index, as of now. Kept in this process: a game that ended since is
    applied on top (one read of the games after the last one applied); anything else that changes the past (a
    merge, an exclusion or its lifting, a game reopened or ended again, a game imported that ended earlier)
    makes it rated again from scratch."""
    key = (id(store), club_id)
    with _KEPT_LOCK:
        kept = _KEPT.get(key)
        version = db.index_version(store, club_id)  # read first: a change made meanwhile moves it again
        if kept is not None and kept.now is not None and kept.version == version:
            return kept.now  # the index has not changed since: one read of the club's row per page
        if kept is not None and db.index_mark(store, club_id, kept.last) != kept.mark:
            kept = None
        if kept is None:
            excluded = db.exclusions(store, club_id)
            kept = _Kept(EloState(excluded=excluded), SkillState(excluded=excluded), None,
                         db.index_mark(store, club_id, None))
        kept.version = version
        with _gc_paused() if kept.last is None else nullcontext():
            for game in db.rating_games(store, club_id, since=kept.last):  # the seats' persons and teams alone
                if game.kind != "none":  # a tournament that is not rated
                    kept.elo.apply(game)
                    kept.skill.apply(game)
                kept.last = (game.ended, game.game_id)
                kept.mark = (kept.mark[0] + 1, *kept.mark[1:])
                kept.now = None
            if kept.now is None:
                kept.now = ClubRatings(kept.elo.ratings(), kept.skill.ratings())
        _KEPT[key] = kept
        return kept.now


@dataclass(frozen=True)
class Profile:
    """What a player's page shows: the person, his statistics over the games the filter keeps, his ratings now
    (team Elo, OpenSkill) with their history, and his newest games (his seat in each)."""

    person: Person
    club_name: str
    stats: PersonStats
    ratings: ClubRatings
    games: tuple[PlayedSeat, ...]
    """His newest games (at most ``NEWEST``), newest first."""
    excluded: frozenset[str] = frozenset()
    """The club's games left out of the ratings."""


NEWEST = 50
"""How many of a player's games his profile lists (newest first)."""


def profile(store: Store, person_id: int, where: Filter | None = None) -> Profile | None:
    """A person's page, None if there is no such person (or he was merged into another: his page is that one's).
    Over all his games, his statistics are the counts kept as games end (one row); narrowed by ``where``, they
    are computed from his seats."""
    person = db.person(store, person_id)
    if person is None or person.merged_into is not None:
        return None
    if where is None or where.everything:
        stats = counted_stats(str(person_id), db.counts(store, person_id))
        newest = [played_seat(s) for s in db.person_seats(store, person_id, newest=NEWEST)]
    else:
        seats = [s for s in map(played_seat, db.person_seats(store, person_id)) if where.keeps_seat(s)]
        stats, newest = seat_stats(str(person_id), seats), seats[-NEWEST:]
    return Profile(person, db.club_name(store, person.club_id), stats, club_ratings(store, person.club_id),
                   tuple(reversed(newest)), frozenset(db.exclusions(store, person.club_id)))


def club_stats(store: Store, club_id: int, where: Filter | None = None) -> GroupStats:
    """The club's games' statistics (red's wins by rule set, weekday, table, host): over all its games, the counts
    kept as games end (one row); narrowed by ``where``, computed from its games."""
    if where is None or where.everything:
        return counted_group(db.club_counts(store, club_id))
    return group_stats([played(g) for g in db.game_lines(store, club_id)], where)



STAFF = ("admin", "judge")
"""Who merges a club's persons and leaves its games out of the ratings."""
_REFUSALS = {
    "not-found": ("not-found", msg("No such player in your club.")),
    "same-person": ("invalid", msg("A player cannot be merged into himself.")),
    "already-merged": ("conflict", msg("That player was merged into another already.")),
    "same-game": ("conflict", msg("They played in the same game: two seats are two players.")),
    "not-indexed": ("not-found", msg("No such finished game in your club.")),
    "already-excluded": ("conflict", msg("That game is left out of the ratings already.")),
    "not-excluded": ("conflict", msg("That game is not left out of the ratings.")),
}


def _staff(user: UserRecord) -> None:
    if user.role not in STAFF:
        raise Refusal("forbidden", "forbidden", msg("Only an admin or a judge merges players and leaves games out "
                                                    "of the ratings."))


def _refused(exc: db.SeasonRefused) -> Refusal:
    kind, text = _REFUSALS[exc.code]
    return Refusal(kind, exc.code, text)


def merge(store: Store, user: UserRecord, from_id: int, into_id: int, reason: str) -> db.MergeRecord:
    """Merge a duplicate person of the user's club into another, with the reason (admins and judges)."""
    _staff(user)
    try:
        return db.merge(store, user.club_id, from_id, into_id, reason, user.id)
    except db.SeasonRefused as exc:
        raise _refused(exc) from None


def exclude(store: Store, user: UserRecord, game_id: str, reason: str, *, lift: bool = False) -> None:
    """Leave a finished game of the user's club out of the ratings, or (``lift``) count it again, with the
    reason (admins and judges)."""
    _staff(user)
    try:
        (db.lift_exclusion if lift else db.exclude)(store, user.club_id, game_id, reason, user.id)
    except db.SeasonRefused as exc:
        raise _refused(exc) from None
