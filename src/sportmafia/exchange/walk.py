"""Reading a sportmafia record for export: its actions still in effect (undone ones left out), played again
through a new game so that each comes with where the game stood (:class:`~.drive.Pos`) and what the rules
made of it. Every exporter reads a record through :func:`walk`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import Game, RecordError, replay
from ..engine import events as E
from ..engine.record import command_for
from ..i18n import msg
from .drive import Pos, pos_of
from .model import ExportRefused


@dataclass(frozen=True)
class Step:
    """One action of the record: where the game stood before it (``at``, ``day``), the action and the events
    the rules made of it (``produced``: the action first)."""

    at: Pos
    day: int
    action: E.Event
    produced: tuple[E.Event, ...]


def effective(events: list[E.Event]) -> list[E.Event]:
    """The action events still in effect: neither an undo nor an action an undo took back."""
    undone = {ev.seq for ev in events if isinstance(ev, E.Undone)}
    return [ev for i, ev in enumerate(events) if ev.action and not isinstance(ev, E.Undone) and i not in undone]


def checked_game(record: Mapping[str, Any], target: str) -> Game:
    """The record replayed; a ten-seat game with a Sheriff and a Don, as both formats hold."""
    try:
        game = replay(dict(record))
    except RecordError as exc:
        raise ExportRefused(target, msg("The record does not replay: %(detail)s", detail=str(exc))) from None
    rules = game.rules
    if game.n != 10 or not rules.don or rules.checker != "sheriff" or rules.night_kill != "shoot":
        raise ExportRefused(target, msg(
            "This format holds ten-seat games with a Sheriff and a Don that shoot at night; this game is "
            "played under %(ruleset)s.", ruleset=rules.name))
    return game


def walk(game: Game) -> Iterator[tuple[Step, Game]]:
    """Every action in effect of ``game``'s log, played again through a fresh game (yielded after each)."""
    again = Game(game.rules, game.n, game.names)
    for ev in effective(game.log):
        at, day = pos_of(again), again.day
        produced = again.execute(command_for(ev))
        yield Step(at, day, ev, tuple(produced)), again


def departures(game: Game) -> dict[int, tuple[str, int, bool]]:
    """How and when each player left (seat: (how, day or night, at night))."""
    return {seat: (how, day, night) for seat, how, day, night in game.departures}
