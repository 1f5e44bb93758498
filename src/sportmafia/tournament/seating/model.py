"""What the generator returns: a :class:`Seating` of :class:`Game` s (who sits in which seat at which table of
which round), its JSON form, and :class:`SeatingError` for a request that cannot be met."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...errors import BilingualError
from ...i18n import Text

PLAYER_PARAMS = ("player", "other")
"""The parameters of a :class:`SeatingError`'s message that are players' indices (a service shows their names)."""


class SeatingError(BilingualError):
    """A seating request that cannot be met; ``text`` is the reason, a message of the catalogs (a player in it is
    his index, in a parameter of :data:`PLAYER_PARAMS`)."""

    def __init__(self, text: Text) -> None:
        super().__init__(text)


@dataclass(frozen=True, slots=True)
class Game:
    """One table of one round: ``seats[i]`` is the player (index from 0) in seat i + 1."""

    round: int
    table: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Seating:
    players: int
    games: tuple[Game, ...]

    @property
    def rounds(self) -> int:
        return 1 + max((g.round for g in self.games), default=-1)

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players,
                "games": [{"round": g.round, "table": g.table, "seats": list(g.seats)} for g in self.games]}

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> Seating:
        games = tuple(Game(int(g["round"]), int(g["table"]), tuple(int(p) for p in g["seats"]))
                      for g in doc["games"])
        return Seating(int(doc["players"]), games)
