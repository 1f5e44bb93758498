"""B.sanctions across games: the tournament counts a participant's offences over all his games and the
judge's own records, and the n-th offence of a kind is due the seed's n-th step."""

from __future__ import annotations

import pytest

from sportmafia.engine import DrawFirstSpeaker, Game, Sanction
from sportmafia.tournament import from_game
from sportmafia.tournament.groups import TournamentError
from sportmafia.tournament.offences import LADDERS, Offence, automatic, due_step, from_sheet, history, next_step
from tests.engine.test_tournament_rules import MAFIA, day1

IDS = [f"p{i}" for i in range(1, 13)]


def game_with(offences: list[tuple[int, str]]) -> Game:
    """A 12-player tournament game where the host records ``offences`` (seat, offence) on day 1, then the
    three mafia players reveal their cards and are disqualified: red wins."""
    game = day1()
    game.execute(DrawFirstSpeaker(seat=3))
    for seat, offence in offences:
        game.execute(Sanction(seat, offence))
    for seat in MAFIA:
        if not game.over and seat not in game.removed:
            game.execute(Sanction(seat, "card_info"))
    assert game.over
    return game


@pytest.mark.clause("B.sanctions")
def test_eyes_open_after_a_removal_from_the_round_is_a_disqualification_in_a_later_game() -> None:
    """"Попытка открыть глаза … снятие с тура. При повторе — дисквалификация": the first time removes the
    player from the round (he leaves that game); the second time, in the next round's game, the engine
    starts counting anew and removes him from the round again, but the tournament's count is two: the
    step due is disqualification, and it applies without the judge's confirmation."""
    first = from_game(game_with([(1, "eyes_open")]), IDS, game_id="g1")
    second = from_game(game_with([(1, "eyes_open")]), IDS, game_id="g2")
    assert first.player("p1").offences == (("eyes_open", "round"),)
    assert second.player("p1").offences == (("eyes_open", "round"),)  # the engine alone: no escalation
    offences = from_sheet(first, (0, 1, 1), round_=1, table=1, by=7) + \
        from_sheet(second, (0, 2, 1), round_=2, table=1, by=8)
    entries = history(offences)["p1"]
    assert [(e.number, e.due.step, e.offence.applied, e.pending) for e in entries] == [
        (1, "round", "round", False), (2, "disqualification", "round", True)]
    assert [(e.offence.game_id, e.offence.round, e.offence.by) for e in automatic(entries)] == [("g2", 2, 8)]
    # applied (the acceptance records it): nothing is pending any more
    done = history(offences, {("p1", "g2", "eyes_open"): "disqualification"})["p1"]
    assert [e.pending for e in done] == [False, False] and done[1].steps == ("round", "disqualification")


@pytest.mark.clause("B.sanctions")
def test_each_ladder_is_the_seeds() -> None:
    """The seed's table, step by step; the last step repeats; "systematic" arguing is the judge's call."""
    steps = {k: [due_step(k, n).step for n in range(1, 6)] for k in LADDERS}
    assert steps == {
        "card_info": ["disqualification"] * 5,
        "rudeness": ["warning"] + ["disqualification"] * 4,
        "eyes_open": ["round"] + ["disqualification"] * 4,
        "disruption": ["ban"] * 5,
        "gestures": ["warning"] + ["game"] * 4,
        "drunk": ["tournament"] * 5,
        "arguing": ["warning", "warning", "round", "disqualification", "disqualification"],
    }
    assert [due_step("arguing", n).confirm for n in (1, 2, 3, 4)] == [False, False, False, True]
    with pytest.raises(TournamentError) as exc:
        due_step("spitting", 1)
    assert exc.value.clause == "B.sanctions"


@pytest.mark.clause("B.sanctions")
def test_rudeness_warned_in_one_game_and_repeated_in_the_next_is_a_disqualification() -> None:
    """"Грубые … выражения — предупреждение, при повторе — дисквалификация": a warning in round 1, the
    same in round 2 (a warning again for the engine) is due disqualification; an unaccepted sheet shows
    its offence but applies nothing yet; gestures count within a game only ("снятие с игры")."""
    first = from_game(game_with([(4, "rudeness"), (4, "gestures")]), IDS, game_id="g1")
    second = from_game(game_with([(4, "rudeness"), (4, "gestures")]), IDS, game_id="g2")
    offences = from_sheet(first, (0, 1, 1), round_=1) + from_sheet(second, (0, 2, 1), round_=2, accepted=False)
    entries = history(offences)["p4"]
    assert [(e.offence.offence, e.number, e.due.step, e.pending) for e in entries] == [
        ("rudeness", 1, "warning", False), ("gestures", 1, "warning", False),
        ("rudeness", 2, "disqualification", False), ("gestures", 1, "warning", False)]
    accepted = from_sheet(first, (0, 1, 1), round_=1) + from_sheet(second, (0, 2, 1), round_=2)
    assert [e.offence.game_id for e in automatic(history(accepted)["p4"])] == ["g2"]


@pytest.mark.clause("B.sanctions")
def test_arguing_two_warnings_then_the_round_then_the_judge_confirms_a_disqualification() -> None:
    """"Два предупреждения, затем снятие с тура. При систематическом нарушении — дисквалификация": the
    judge's records count with the games'; the fourth time is due disqualification on his confirmation."""
    sheet = from_game(game_with([(6, "arguing"), (6, "arguing")]), IDS, game_id="g1")
    offences = from_sheet(sheet, (0, 1, 1), round_=1)
    assert next_step(history(offences)["p6"], "arguing") == (3, due_step("arguing", 3))
    offences.append(Offence("p6", "arguing", "round", "judge", (0, 1, 99), round=1, by=3, id=1))
    entries = history(offences)["p6"]
    number, step = next_step(entries, "arguing")
    assert (number, step.step, step.confirm) == (4, "disqualification", True)
    later = from_game(game_with([(6, "arguing")]), IDS, game_id="g2")
    entries = history(offences + from_sheet(later, (0, 2, 1), round_=2))["p6"]
    assert entries[-1].pending and entries[-1].due.confirm and automatic(entries) == []
