"""What an import gives (:class:`Imported`, :class:`ResultOnly`) and how it is refused (:class:`ImportRefused`,
:class:`ExportRefused`): plain frozen values and bilingual refusals (docs/exchange.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ..engine import Game
from ..errors import BilingualError
from ..i18n import Text, msg

SOURCES = ("polemica", "mafiaratings", "sportmafia")
ROLES = ("civilian", "sheriff", "mafia", "don")


@dataclass(frozen=True)
class ResultOnly:
    """A game known by its result only (the source lacks the detail to replay it, or was played under a rule
    the engine has no option for). ``left``: per seat, (how, day or night number, at night) or None for a player
    who stayed; ``guess``: the first-night victim's best move."""

    ruleset: str
    names: tuple[str, ...]
    roles: tuple[str, ...]
    winner: str | None
    result: str
    fouls: tuple[int, ...]
    left: tuple[tuple[str, int, bool] | None, ...]
    guess: tuple[int, ...]


@dataclass(frozen=True)
class Imported:
    """One game brought in from another platform: a record that replays (``record``), or its result only."""

    source: str
    source_id: str
    record: dict[str, Any] | None
    result: ResultOnly | None
    played_on: date | None
    names: tuple[str, ...]
    external_ids: tuple[str | None, ...]
    kept: tuple[str, ...]
    left_out: tuple[str, ...]
    outcome: str
    game: Game | None = field(default=None, compare=False, repr=False)
    """The game the engine played from ``record`` (the import's own replay, kept so it is not replayed twice)."""


def outcome_of(winner: str | None) -> str:
    return {"red": "red won", "black": "black won"}.get(winner or "", "no winner")


class ImportRefused(BilingualError):
    """A game not imported: ``game`` (its id in the source), ``event`` (where in the source: ``votes[12]``,
    ``players[3].voting[1]``, or ``game`` for the whole of it), ``clause`` (the rulebook id the refusal rests
    on, or ``format`` for data that is not of the format) and the reason in either language."""

    def __init__(self, game: str, event: str, clause: str, reason: Text) -> None:
        self.game = game
        self.event = event
        self.clause = clause
        self.reason = reason
        super().__init__(msg("Game %(game)s, %(event)s: %(reason)s", game=game, event=event, reason=reason),
                         prefix=f"[{clause}] ")

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "event": self.event, "clause": self.clause, **self.text.to_json()}


class ExportRefused(BilingualError):
    """A record the target format cannot hold (another table size or other roles)."""

    def __init__(self, target: str, reason: Text) -> None:
        self.target = target
        super().__init__(reason, prefix=f"[{target}] ")


def malformed(game: str, event: str, what: str) -> ImportRefused:
    """A refusal for data that is not of the format (``what``: the English name of what is wrong)."""
    return ImportRefused(game, event, "format", msg("This is not valid data of the format: %(what)s.", what=what))
