"""Rulings on the `club` preset where seed A speaks (issue 15): an awarded win cannot be protested
("Решение судьи обжалованию не подлежит", A.protest), a protest records the rule that was broken
(A.protest), and the reasons the seed names for day conduct (A.foul.reasons).
"""

from __future__ import annotations

import json

import pytest

from sportmafia.engine import FOUL_REASONS, Award, Foul, Protest, replay, to_record, view
from sportmafia.engine import events as E
from sportmafia.engine.describe import REASON_NAMES, describe
from tests.conftest import advance_until, new_game, refused
from tests.engine.helpers import red_won_by_removals, run


@pytest.mark.clause("A.protest")
@pytest.mark.clause("A.award")
def test_protest_cannot_reverse_an_awarded_win() -> None:
    """A.protest: "Решение судьи обжалованию не подлежит": after the judge awards the win (A.award) the
    protest vote is refused, even with every vote it would need, and is not offered."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    run(game, Award("black", "hints from a spectator to the red team"))
    assert (game.winner, game.result) == ("black", "award")
    assert not [c for c in game.legal_commands() if isinstance(c, Protest)]
    voters = (1, 2, 5, 6, 8, 9, 10, 3)  # the whole red team and a black player
    violation = refused(game, Protest("reverse", voters), code="protest-judge", clause="A.protest")
    assert "обжалованию не подлежит" in violation.message_ru
    refused(game, Protest("annul", voters), code="protest-judge")
    assert (game.winner, game.result, game.protest) == ("black", "award", None)


@pytest.mark.clause("A.protest")
def test_protest_records_the_rule_that_was_broken() -> None:
    """A.protest: a protest stands only "если имело место нарушение правил игры": the protest carries the
    rule broken, kept in the event, the view, the text and the record; a record without it still replays."""
    game = red_won_by_removals()
    events = run(game, Protest("annul", (7, 4, 3, 1), "  A.remove.reasons: removed without a reason  "))
    assert events[0] == E.ProtestVoted("annul", (1, 3, 4, 7), True, "A.remove.reasons: removed without a reason")
    assert view(game, "after")["protest"]["rule"] == "A.remove.reasons: removed without a reason"
    assert "нарушено: A.remove.reasons" in describe(events[0], "ru")
    assert "rule broken: A.remove.reasons" in describe(events[0], "en")
    record = json.loads(json.dumps(to_record(game)))
    assert replay(record).protest_rule == "A.remove.reasons: removed without a reason"
    # a record made before the rule existed: protest_voted without "rule"
    for ev in record["events"]:
        if ev["type"] == "protest_voted":
            del ev["rule"]
    old = replay(record)
    assert (old.result, old.protest, old.protest_rule) == ("protest-annul", ("annul", (1, 3, 4, 7), True), "")


@pytest.mark.clause("A.foul.reasons")
def test_foul_reasons_religion_and_touching() -> None:
    """A.foul.reasons: seed A forbids appealing to any religion and touching another player or the judge;
    the console offers both as foul reasons, in Russian and English."""
    assert {"religion", "touching"} <= set(FOUL_REASONS)
    religion = REASON_NAMES["religion"]
    assert (religion.render("en"), religion.render("ru")) == ("appealing to religion", "апелляция к религии")
    assert REASON_NAMES["touching"].render("ru") == "прикосновение к игроку или судье"
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    assert run(game, Foul(2, "religion"), Foul(2, "touching")) == [
        E.Fouled(2, "religion", False, 1), E.Fouled(2, "touching", False, 2)]
