"""Scenario tests of the `club` preset: nominations (A.nom.*).

Each test drives a game with real commands, names the rule it proves and cites the clause id in its
docstring and its ``clause`` marker. ``new_game("club")`` deals a fixed deck: Don at 3, mafia at 4 and 7,
Sheriff at 6, civilians at 1, 2, 5, 8, 9 and 10. Shared helpers: ``tests/engine/helpers.py``.
"""

from __future__ import annotations

import pytest

from sportmafia.engine import (
    Advance,
    Foul,
    Nominate,
    Remove,
    Shoot,
    Withdraw,
)
from sportmafia.engine import events as E
from tests.conftest import advance_until, new_game, refused
from tests.engine.helpers import (
    BLACK,
    adv,
    cast,
    finish_day,
    finish_night,
    nominate_all,
    of,
    one,
    refused_as,
    run,
    steps,
    to_shooting,
    to_speeches,
)


@pytest.mark.clause("A.nom.own")
def test_nom_own_only_in_own_speech_one_living_player_at_a_time() -> None:
    """A.nom.own: a player nominates only during his own speech, one living player at a time."""
    game = new_game("club")
    refused(game, Nominate(1, 5), code="wrong-step", clause="A.nom.own")  # night 0
    advance_until(game, "speech", day=1, seat=1)
    refused(game, Nominate(2, 5), code="not-your-speech", clause="A.nom.own")
    refused_as(game, Nominate(1, 5), actor=2, code="not-yours")
    events = run(game, Nominate(1, 5))
    assert one(events, E.Nominated) == E.Nominated(1, 5)
    assert game.candidates == [5]
    refused(game, Nominate(1, 6), code="one-nomination", clause="A.nom.own")
    adv(game)
    events = game.execute(Nominate(2, 2), actor=2)  # from his own device, himself: allowed
    assert game.candidates == [5, 2] and one(events, E.Nominated).target == 2
    adv(game)
    refused(game, Nominate(2, 6), code="not-your-speech")  # his speech is over
    refused(game, Nominate(3, 11), code="bad-seat")
    # outside a speech: at voting, at the last word, at night
    while game.step == "speech":
        adv(game)
    assert game.step == "voting"
    refused(game, Nominate(game.seat, 1), code="wrong-step", clause="A.nom.own")
    cast(game, {5: list(range(1, 11))})
    assert game.step == "last_word" and game.seat == 5
    refused(game, Nominate(5, 1), code="wrong-step", clause="A.nom.own")
    refused(game, Nominate(1, 2), code="wrong-step", clause="A.nom.own")


@pytest.mark.clause("A.nom.first-free")
def test_nom_first_free_of_several_numbers() -> None:
    """A.nom.first-free: of several numbers named, the first not yet nominated is accepted."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    events = run(game, Nominate(1, 5, also=(6,)))
    assert one(events, E.Nominated) == E.Nominated(1, 5, (5, 6))
    adv(game)
    events = run(game, Nominate(2, 5, also=(6, 7)))  # 5 is taken: 6 is accepted
    assert one(events, E.Nominated).target == 6
    adv(game)
    events = run(game, Nominate(3, 5, also=(6, 8)))  # 5 and 6 taken: 8
    assert one(events, E.Nominated).target == 8
    assert game.candidates == [5, 6, 8]
    adv(game)
    events = run(game, Nominate(4, 5, also=(6,)))  # all taken: the first named, a repeat
    assert one(events, E.Nominated).target == 5
    assert game.candidates == [5, 6, 8]
    assert game.nominators[5] == [1, 4]


@pytest.mark.clause("A.nom.repeat")
def test_nom_repeat_accepted_and_changes_nothing() -> None:
    """A.nom.repeat: nominating someone already nominated is accepted; the order stays as first nominated."""
    game = new_game("club")
    nominate_all(game, [7, 4, 7, 4, 9])
    assert game.step == "voting"
    assert game.candidates == [7, 4, 9]
    started = one(game.log, E.VotingStarted)
    assert started.candidates == (7, 4, 9)
    accepted = of(game.log, E.Nominated)
    assert [(n.by, n.target) for n in accepted] == [(1, 7), (2, 4), (3, 7), (4, 4), (5, 9)]
    assert game.nominators == {7: [1, 3], 4: [2, 4], 9: [5]}


@pytest.mark.clause("A.nom.withdraw")
def test_nom_withdraw_own_nomination_before_speech_ends() -> None:
    """A.nom.withdraw: before his speech ends a player may withdraw his own nomination; the candidate
    stays if another player had nominated him earlier; he may then nominate again (another or the same)."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    run(game, Nominate(1, 5))
    events = run(game, Withdraw(1, 5))
    assert one(events, E.Withdrawn) == E.Withdrawn(1, 5)
    assert game.candidates == []
    run(game, Nominate(1, 6))  # another
    run(game, Withdraw(1, 6), Nominate(1, 6))  # or the same again
    assert game.candidates == [6]
    refused(game, Withdraw(1, 5), code="nothing-to-withdraw", clause="A.nom.withdraw")
    adv(game)
    refused(game, Withdraw(1, 6), code="wrong-step", clause="A.nom.withdraw")  # his speech is over
    refused(game, Withdraw(2, 6), code="nothing-to-withdraw")  # not his nomination
    run(game, Nominate(2, 6))  # a repeat of 1's candidate
    run(game, Withdraw(2, 6))
    assert game.candidates == [6] and game.nominators[6] == [1]  # 6 stays: 1 nominated him earlier
    run(game, Nominate(2, 8))
    assert game.candidates == [6, 8]


@pytest.mark.clause("A.nom.withdraw")
def test_nom_withdraw_renominated_candidate_goes_to_the_end() -> None:
    """A.nom.withdraw D: a withdrawn candidate nominated again goes to the end of the order."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    run(game, Nominate(1, 5))
    adv(game)
    run(game, Nominate(2, 6))
    adv(game)
    run(game, Nominate(3, 7), Withdraw(3, 7))
    adv(game)
    run(game, Nominate(4, 8))
    adv(game)
    run(game, Nominate(5, 7))  # 7 again, after 8
    assert game.candidates == [5, 6, 8, 7]


@pytest.mark.clause("A.nom.withdraw")
def test_nom_withdraw_refused_under_fiim() -> None:
    """A.nom.withdraw is a club rule: under fiim (F.withdraw) a nomination cannot be withdrawn."""
    game = new_game("fiim")
    advance_until(game, "speech", day=1, seat=1)
    run(game, Nominate(1, 5))
    refused(game, Withdraw(1, 5), code="no-withdrawal", clause="F.withdraw")


@pytest.mark.clause("A.nom.muted")
def test_nom_muted_player_still_nominates() -> None:
    """A.nom.muted: a player who lost his speech to fouls may still nominate when his turn comes."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    events = run(game, Foul(2, "gestures"), Foul(2, "gestures"), Foul(2, "gestures"))
    assert one(events, E.Muted) == E.Muted(2, 1)
    events = adv(game)
    assert steps(events) == [("muted", 2, 0)]
    refused(game, Nominate(1, 7), code="not-your-speech")
    events = run(game, Nominate(2, 7))
    assert one(events, E.Nominated).target == 7 and game.candidates == [7]
    run(game, Withdraw(2, 7), Nominate(2, 9))
    assert game.candidates == [9]
    events = adv(game)
    assert steps(events) == [("speech", 3, 60)]


@pytest.mark.clause("A.nom.dead")
def test_nom_dead_only_living_players_nominated_removed_cannot_nominate() -> None:
    """A.nom.dead: only living players can be nominated; removed players cannot nominate or be nominated."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    finish_day(game)
    to_shooting(game)
    run(game, Remove(5, "left_seat"))  # removed at night
    run(game, *[Shoot(s, 2) for s in BLACK])
    finish_night(game)
    to_speeches(game)
    assert game.seat == 3  # day 2 opens with 3: 2 was killed
    refused(game, Nominate(3, 2), code="not-alive", clause="A.nom.dead")  # killed
    refused(game, Nominate(3, 5), code="not-alive", clause="A.nom.dead")  # removed
    events = run(game, Nominate(3, 5, also=(2, 6)))  # the first living, not nominated number
    assert one(events, E.Nominated).target == 6
    speakers = [game.seat]
    while True:
        adv(game)
        if game.step != "speech":
            break
        speakers.append(game.seat)
        refused(game, Nominate(5, 1), code="not-your-speech")
    assert 5 not in speakers and 2 not in speakers
    assert Nominate(5, 1) not in game.legal_commands()


@pytest.mark.clause("A.nom.withdraw")
def test_withdrawn_candidate_renominated_goes_last_or_keeps_his_place_by_option() -> None:
    """A.nom.withdraw D: a withdrawn candidate nominated again goes to the end (option
    withdrawn_renominated_last; with it off he returns to his first place)."""
    from sportmafia.rules import CLUB

    from ..conftest import CLUB_DECK

    for rs, expected in ((CLUB, [6, 5]), (CLUB.variant("keep-place", withdrawn_renominated_last=False), [5, 6])):
        game = new_game(rs, roles=CLUB_DECK)
        advance_until(game, "speech", day=1, seat=1)
        game.execute(Nominate(1, 5))
        game.execute(Withdraw(1, 5))
        game.execute(Advance())
        game.execute(Nominate(2, 6))
        game.execute(Advance())
        game.execute(Nominate(3, 5))
        assert game.candidates == expected, rs.name
