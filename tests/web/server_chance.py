"""The chance of a game played through a server process, decided by the test: a server draws a deal, a first
speaker or a lot with ``random.SystemRandom`` unless the command names its outcome, and a server in another
process cannot be seeded from the test (tests/web/seeded_draws.py does it for an app in the test's own process).
So a test that plays commands through a server sends each chance command with its outcome already drawn from
its own seeded generator (``DealCards(roles=...)``, ``DrawFirstSpeaker(seat=...)``, ``DrawLot(seat=...)``):
the same seed plays the same game every run."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from sportmafia.engine import Command, DealCards, DrawFirstSpeaker, DrawLot, Game
from sportmafia.engine import events as E
from sportmafia.services import table_bots


def decided(game: Game, command: Command, rng: random.Random) -> Command:
    """``command`` with its chance drawn from ``rng`` (on a copy of ``game``); any other command as it is."""
    if isinstance(command, DealCards) and command.roles is None:
        drawn = copy.deepcopy(game).execute(command, rng)
        return DealCards(roles=next(e.roles for e in drawn if isinstance(e, E.Dealt)))
    if isinstance(command, DrawFirstSpeaker | DrawLot) and command.seat is None:
        drawn = copy.deepcopy(game).execute(command, rng)
        seat = next(e.seat for e in drawn if isinstance(e, E.FirstSpeakerDrawn | E.LotDrawn))
        return dataclasses.replace(command, seat=seat)
    return command


def seed_tables(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The tables the server runs in this process (their bots, deals and draws) and its practice seats drawn from
    ``random.Random(seed)`` for the rest of the test, not from ``random.SystemRandom``."""
    monkeypatch.setattr(table_bots, "_system_random", random.Random(seed))
