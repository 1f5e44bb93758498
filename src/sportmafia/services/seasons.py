"""A club's season: the index of finished games kept up to date (``reindex``), the players' ratings over it
(kept per process and brought forward game by game as games end: ``club_ratings``), and what a profile page
shows (docs/seasons.md)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from ..seasons.elo import EloState, RatedGame, Ratings
from ..store import Store
from ..store import seasons as db
from ..store.seasons import IndexedGame


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
    return len(ids)


def rated(game: IndexedGame) -> RatedGame:
    """A game of the index as the team Elo sees it (persons by their id as text; guests unrated)."""
    return RatedGame(game.game_id, game.ended_at, tuple(None if p is None else str(p) for p in game.people),
                     tuple(s.team for s in game.facts.seats), game.facts.winner,
                     game.kind)


@dataclass
class _Kept:
    """A club's ratings as far as its index has been read: the state, the last game applied and what tells
    whether that is still a prefix of the index (how many games up to it; merges and exclusions)."""

    elo: EloState
    last: tuple[datetime, str] | None
    mark: tuple[int, int, int]


_KEPT: dict[tuple[int, int], _Kept] = {}
_KEPT_LOCK = threading.Lock()


def club_ratings(store: Store, club_id: int) -> Ratings:
    """The club's team Elo over its whole index, as of now. Kept in this process: a game that ended since is
    applied on top (one read of the games after the last one applied); anything else that changes the past (a
    merge, an exclusion or its lifting, a game reopened or ended again, a game imported that ended earlier)
    makes it rated again from scratch."""
    key = (id(store), club_id)
    with _KEPT_LOCK:
        kept = _KEPT.get(key)
        if kept is not None and db.index_mark(store, club_id, kept.last) != kept.mark:
            kept = None
        if kept is None:
            kept = _Kept(EloState(excluded=db.exclusions(store, club_id)), None, db.index_mark(store, club_id, None))
        for game in db.index_games(store, club_id, since=kept.last):
            if game.kind != "none":  # a tournament that is not rated
                kept.elo.apply(rated(game))
            kept.last = (game.ended_at, game.game_id)
            kept.mark = (kept.mark[0] + 1, *kept.mark[1:])
        _KEPT[key] = kept
        return kept.elo.ratings()

