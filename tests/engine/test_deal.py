"""Scenario tests of the `club` preset: the deal (A.setup).

Each test drives a game with real commands, names the rule it proves and cites the clause id in its
docstring and its ``clause`` marker. ``new_game("club")`` deals a fixed deck: Don at 3, mafia at 4 and 7,
Sheriff at 6, civilians at 1, 2, 5, 8, 9 and 10. Shared helpers: ``tests/engine/helpers.py``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sportmafia.engine import (
    Advance,
    DealCards,
    Game,
    RuleViolation,
)
from sportmafia.engine import events as E
from sportmafia.rules import RuleSetError
from tests.conftest import refused
from tests.engine.helpers import (
    CLUB,
    one,
)


@pytest.mark.clause("A.setup")
def test_setup_ten_seats_three_black_dealt_at_random() -> None:
    """A.setup: 10 seats, 6 civilians + Sheriff (red) and 2 mafia + Don (black), dealt at random."""
    deals = []
    for seed in range(6):
        game = Game(CLUB, 10)
        ev = one(game.execute(DealCards(), random.Random(seed)), E.Dealt)
        assert Counter(ev.roles) == {"civilian": 6, "sheriff": 1, "mafia": 2, "don": 1}
        assert [game.team(s) for s in range(1, 11)].count("black") == 3
        deals.append(ev.roles)
    assert len(set(deals)) > 1  # the deal is random ...
    again = Game(CLUB, 10)
    assert one(again.execute(DealCards(), random.Random(3)), E.Dealt).roles == deals[3]  # ... and replayable
    with pytest.raises(RuleViolation) as info:
        Game(CLUB, 10).execute(DealCards())
    assert info.value.code == "need-rng"
    for size in (9, 11):
        with pytest.raises(RuleSetError):
            Game(CLUB, size)
    game = Game(CLUB, 10)
    four_black = ("mafia",) * 3 + ("don", "sheriff") + ("civilian",) * 5
    refused(game, DealCards(roles=four_black), code="bad-deal", clause="A.setup")
    refused(game, DealCards(roles=("civilian",) * 9), code="bad-deal", clause="A.setup")
    refused(game, DealCards(black=4), code="bad-deal", clause="A.setup")
    refused(game, Advance(), code="not-dealt")
