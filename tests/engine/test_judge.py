"""Scenario tests of the `club` preset: the judge: award, protest, override (A.award, A.protest, A.judge).

Each test drives a game with real commands, names the rule it proves and cites the clause id in its
docstring and its ``clause`` marker. ``new_game("club")`` deals a fixed deck: Don at 3, mafia at 4 and 7,
Sheriff at 6, civilians at 1, 2, 5, 8, 9 and 10. Shared helpers: ``tests/engine/helpers.py``.
"""

from __future__ import annotations

import pytest

from sportmafia.engine import (
    Award,
    Game,
    Override,
    Protest,
    Undo,
    view,
)
from sportmafia.engine import events as E
from tests.conftest import advance_until, new_game, refused
from tests.engine.helpers import (
    CLUB,
    finish_day,
    of,
    red_won_by_removals,
    run,
    shoot_all,
)


@pytest.mark.clause("A.award")
def test_award_judge_gives_the_win_to_the_opposite_team() -> None:
    """A.award: the judge awards the win to the opposite team for hints from players who left or from
    spectators."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    finish_day(game)
    shoot_all(game, 5)
    assert Award("red") in game.legal_commands() and Award("black") in game.legal_commands()
    refused(game, Award("black"), code="reason-required", clause="A.judge")
    refused(game, Award("black", "   "), code="reason-required")
    refused(game, Award("green", "hints"), code="bad-team", clause="A.award")
    events = run(game, Award("black", "player 5, killed, signalled the red team from the audience"))
    assert events == [E.Awarded("black", "player 5, killed, signalled the red team from the audience"),
                      E.GameEnded("black", "award")]
    assert (game.winner, game.result, game.over) == ("black", "award", True)
    refused(game, Award("red", "again"), code="game-over")


@pytest.mark.clause("A.protest")
def test_protest_annul_when_all_losers_and_one_winner_vote() -> None:
    """A.protest: after the game the result is annulled if the whole losing team and at least one player of
    the winning team (players who left included) vote for it; the console records the vote."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    refused(game, Protest("annul", (3, 4, 7, 1)), code="protest-during-game", clause="A.protest")
    game = red_won_by_removals()
    events = run(game, Protest("annul", (7, 4, 3, 1)))  # the black team left the table: they vote
    assert events == [E.ProtestVoted("annul", (1, 3, 4, 7), True), E.GameEnded(None, "protest-annul")]
    assert (game.winner, game.result) == (None, "protest-annul")
    assert game.protest == ("annul", (1, 3, 4, 7), True)
    assert view(game, "spectator")["protest"] == {"outcome": "annul", "voters": [1, 3, 4, 7], "passed": True,
                                                  "rule": ""}
    refused(game, Protest("annul", (3, 4, 7, 1)), code="protest-twice")


@pytest.mark.clause("A.protest")
def test_protest_reverse_and_failed_protests() -> None:
    """A.protest: a result is reversed by the same majority; without the whole losing team, or without a
    winner among the voters, the protest fails and the result stands."""
    game = red_won_by_removals()
    events = run(game, Protest("reverse", (3, 4, 7, 10)))
    assert events[-1] == E.GameEnded("black", "protest-reverse")
    assert (game.winner, game.result) == ("black", "protest-reverse")
    for voters in [(3, 4, 1, 2, 5), (3, 4, 7), ()]:
        game = red_won_by_removals()
        events = run(game, Protest("annul", voters))
        assert events == [E.ProtestVoted("annul", tuple(sorted(voters)), False)]
        assert (game.winner, game.result) == ("red", "black-gone")
        refused(game, Protest("reverse", (3, 4, 7, 1)), code="protest-twice", clause="A.protest")
    game = red_won_by_removals()
    refused(game, Protest("cancel", (3, 4, 7, 1)), clause="A.protest")
    refused(game, Protest("annul", (3, 4, 7, 11)), code="bad-seat")
    assert Protest("annul", ()) in game.legal_commands()


@pytest.mark.clause("A.judge")
def test_judge_overrides_with_a_reason_logged_and_final() -> None:
    """A.judge: the judge may decide a disputed situation at his discretion (a result override with a
    reason); it cannot be appealed, and every override is in the log."""
    game = Game(CLUB, 10)
    refused(game, Override("red", "too early"), code="not-dealt")
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    refused(game, Override("red"), code="reason-required", clause="A.judge")
    refused(game, Override("blue", "x"), code="bad-team")
    events = run(game, Override(None, "the deck was shown by mistake"))
    assert events == [E.Overridden(None, "the deck was shown by mistake"), E.GameEnded(None, "override")]
    assert game.over and game.winner is None
    refused(game, Protest("annul", ()), code="protest-no-winner")
    # a finished game: the judge may still change the result; a protest cannot appeal his decision
    game = red_won_by_removals()
    run(game, Override("black", "the red team was prompted by a spectator"))
    assert (game.winner, game.result) == ("black", "override")
    refused(game, Protest("reverse", (1, 2, 5, 6, 8, 9, 10, 3)), clause="A.judge")
    assert not [c for c in game.legal_commands() if isinstance(c, Protest)]
    run(game, Override("red", "on review the prompt did not matter"))
    assert game.results == [("red", "black-gone"), ("black", "override"), ("red", "override")]
    assert [e.reason for e in of(game.log, E.Overridden)] == [
        "the red team was prompted by a spectator", "on review the prompt did not matter"]
    # undoing an override keeps it in the log (audit)
    run(game, Undo())
    assert (game.winner, game.result) == ("black", "override")
    assert len(of(game.log, E.Overridden)) == 2 and isinstance(game.log[-1], E.Undone)
