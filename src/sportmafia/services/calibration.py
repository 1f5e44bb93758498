"""How a club's own games play, in the figures the bots are calibrated by (``bots.calibration``): the first
round's single votes of the club's whole stored games (played here or imported from Polemica, mafiaratings or
another sportmafia), beside the figures of 1,237 rated games on mafiaratings.com."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import select

from ..bots.calibration import REAL, single_votes
from ..engine import Game
from ..store import GameIndex, Store
from ..store.season_tables import SOURCES


def whole_games(store: Store, club_id: int, source: str | None = None) -> Iterator[Game]:
    """The club's finished games kept whole (not by their result only), oldest first; ``source``: only those
    from it (``log``: played here; ``polemica``, ``mafiaratings``, ``sportmafia``: imported)."""
    if source is not None and source not in SOURCES:
        raise ValueError(f"unknown source {source!r}; known: {', '.join(SOURCES)}")
    query = select(GameIndex.game_id).where(GameIndex.club_id == club_id, GameIndex.detail.is_(True))
    if source is not None:
        query = query.where(GameIndex.source == source)
    with store.read() as s:
        ids = list(s.scalars(query.order_by(GameIndex.ended_at, GameIndex.game_id)))
    for game_id in ids:
        yield store.load(game_id)


def club_single_votes(store: Store, club_id: int, source: str | None = None) -> dict[str, Any]:
    """The first round's single votes of the club's whole games (``source`` as in :func:`whole_games`), with the
    real figures beside them."""
    return {"club_id": club_id, "source": source, "round1_single_votes": single_votes(
        whole_games(store, club_id, source)).figures(), "real_round1_single_votes": REAL}
