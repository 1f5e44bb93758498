"""Scenario tests for the `fiim` preset (RULEBOOK.md, "Preset `fiim`"): F.withdraw, F.bestmove, F.draw,
F.remove.vote, F.technical, F.team-defeat, and that fiim has no protest while A.award and A.judge apply.

The fixed deck of ``new_game("fiim")``: Don 3, mafia 4 and 7, Sheriff 6, the rest civilians.
"""

from __future__ import annotations

import pytest

from sportmafia.engine import (
    Advance,
    Award,
    BestMove,
    Foul,
    Game,
    LiftVote,
    Nominate,
    Override,
    Protest,
    Remove,
    Shoot,
    TeamDefeat,
    Undo,
    Vote,
    Withdraw,
    view,
)
from sportmafia.engine import events as E
from sportmafia.rules import get_ruleset
from tests.conftest import CLUB_DECK, advance_until, new_game, refused

BLACK = (3, 4, 7)


# --- helpers ---------------------------------------------------------------------------------------
def day1() -> Game:
    """A fiim game at the first speech of day 1 (night 0 played)."""
    game = new_game("fiim")
    advance_until(game, "speech", day=1)
    return game


def speeches(game: Game, noms: dict[int, int] | None = None) -> list[E.Event]:
    """Play the day's speeches; ``noms``: speaker -> the player he nominates."""
    noms = noms or {}
    out: list[E.Event] = []
    while game.step in ("speech", "muted"):
        if game.seat in noms:
            out += game.execute(Nominate(game.seat, noms[game.seat]))
        out += game.execute(Advance())
    return out


def night(game: Game, target: int = 0) -> list[E.Event]:
    """Play a night: every living black player shoots ``target`` (0: nobody shoots, a miss)."""
    assert game.step == "shooting", game.step
    out: list[E.Event] = []
    if target:
        for s in BLACK:
            if game.alive[s]:
                out += game.execute(Shoot(s, target))
    while game.phase == "night":
        out += game.execute(Advance())
    return out


def quiet_day(game: Game) -> list[E.Event]:
    """A day with no nominations (and the morning last word if there is one): nobody leaves."""
    out: list[E.Event] = []
    while game.step == "last_word":
        out += game.execute(Advance())
    return out + speeches(game)


def of(events: list[E.Event], kind: type[E.Event]) -> list[E.Event]:
    return [e for e in events if isinstance(e, kind)]


def day1_vote_out(game: Game, out: int, other: int) -> list[E.Event]:
    """Day 1: ``out`` and ``other`` are nominated; ``out`` gets 6 votes of 10 and leaves."""
    speeches(game, {1: out, 2: other})
    assert game.step == "voting" and game.seat == out
    events: list[E.Event] = []
    for v in range(1, 7):
        events += game.execute(Vote(v, out))
    events += game.execute(Advance())  # the rest default to the last candidate
    return events


# --- F.withdraw ------------------------------------------------------------------------------------
@pytest.mark.clause("F.withdraw")
def test_f_withdraw_nomination_cannot_be_withdrawn() -> None:
    """F.withdraw: under fiim a nomination cannot be withdrawn (A.nom.withdraw does not apply)."""
    game = day1()
    game.execute(Nominate(1, 5))
    assert not any(isinstance(c, Withdraw) for c in game.legal_commands())
    err = refused(game, Withdraw(1, 5), code="no-withdrawal", clause="F.withdraw")
    assert "отозвать" in err.message_ru
    refused(game, Withdraw(1, 5), code="no-withdrawal")
    # he cannot swap it for another candidate either: one standing nomination per speech
    refused(game, Nominate(1, 6), code="one-nomination")
    assert game.candidates == [5]
    assert game.nominators == {5: [1]}


@pytest.mark.clause("F.withdraw")
def test_f_withdraw_withdrawal_is_a_club_rule_only() -> None:
    """F.withdraw: the same command is accepted under the club preset, so fiim really differs there."""
    club = new_game("club")
    advance_until(club, "speech", day=1)
    club.execute(Nominate(1, 5))
    club.execute(Withdraw(1, 5))
    assert club.candidates == []
    fiim = day1()
    fiim.execute(Nominate(1, 5))
    refused(fiim, Withdraw(1, 5), code="no-withdrawal")
    assert fiim.candidates == [5]


# --- F.bestmove ------------------------------------------------------------------------------------
@pytest.mark.clause("F.bestmove")
def test_f_bestmove_first_night_victim_names_three_players() -> None:
    """F.bestmove: the player shot on the first night names up to three players in his last minute; the
    console records them and (after the game) the sheet shows how many were black."""
    game = day1()
    speeches(game)  # day 1: nobody nominated
    events = night(game, 5)
    assert of(events, E.NightResult) == [E.NightResult(1, 5)]
    assert (game.step, game.day, game.seat) == ("last_word", 2, 5)
    assert BestMove(5, (3, 4, 8)) in game.legal_commands()
    events = game.execute(BestMove(5, (3, 4, 8)), actor=5)
    assert events == [E.BestMoveNamed(5, (3, 4, 8), 2)]
    assert game.best_move == (5, (3, 4, 8), 2)
    # the public sees the guesses, not how many were black; the host sees it
    assert view(game, "spectator")["best_move"] == {"seat": 5, "guesses": [3, 4, 8], "black": None}
    assert view(game, "host")["best_move"]["black"] == 2
    # recorded once only
    refused(game, BestMove(5, (1, 2)), code="no-best-move", clause="F.bestmove")
    # the sheet after the game shows the count
    game.execute(Override("red", reason="end of the scenario"))
    assert view(game, "after")["best_move"] == {"seat": 5, "guesses": [3, 4, 8], "black": 2}


@pytest.mark.clause("F.bestmove")
def test_f_bestmove_names_one_to_three_other_players() -> None:
    """F.bestmove: up to three players, each once, not himself; only the victim makes it."""
    game = day1()
    speeches(game)
    night(game, 5)
    assert game.step == "last_word" and game.seat == 5
    refused(game, BestMove(5, (1, 2, 3, 4)), code="bad-best-move", clause="F.bestmove")
    refused(game, BestMove(5, ()), code="bad-best-move")
    refused(game, BestMove(5, (3, 3)), code="bad-best-move")
    refused(game, BestMove(5, (5, 3)), code="bad-best-move")
    refused(game, BestMove(5, (11,)), code="bad-best-move")
    refused(game, BestMove(6, (3,)), code="no-best-move")
    game.execute(BestMove(5, (7,)))
    assert game.best_move == (5, (7,), 1)


@pytest.mark.clause("F.bestmove")
def test_f_bestmove_only_for_the_first_night_victim() -> None:
    """F.bestmove: a player voted out, or shot on a later night, has no best move."""
    game = day1()
    day1_vote_out(game, 5, 6)
    assert game.step == "last_word" and game.seat == 5
    refused(game, BestMove(5, (3,)), code="no-best-move")
    game.execute(Advance())
    night(game, 0)  # night 1: a miss
    quiet_day(game)  # day 2
    night(game, 8)  # night 2: 8 is shot
    assert (game.step, game.day, game.seat) == ("last_word", 3, 8)
    assert not any(isinstance(c, BestMove) for c in game.legal_commands())
    refused(game, BestMove(8, (3, 4, 7)), code="no-best-move", clause="F.bestmove")


@pytest.mark.clause("F.bestmove")
def test_f_bestmove_still_given_when_one_player_left_on_day1() -> None:
    """F.bestmove: one player leaving on day 1 does not take the best move away."""
    game = day1()
    day1_vote_out(game, 9, 10)
    advance_until(game, "shooting", day=1)
    night(game, 5)
    assert game.step == "last_word" and game.seat == 5
    game.execute(BestMove(5, (3, 4, 7)))
    assert game.best_move == (5, (3, 4, 7), 3)


@pytest.mark.clause("F.bestmove")
def test_f_bestmove_none_if_two_players_left_on_day1() -> None:
    """F.bestmove: no best move if two or more players left on day 1 (here: both tied players lifted)."""
    game = day1()
    speeches(game, {1: 1, 2: 2})
    for _ in range(2):  # vote, then revote: 5 votes each (the rest default to the last candidate)
        assert game.step == "voting" and game.seat == 1
        for v in range(1, 6):
            game.execute(Vote(v, 1))
        events = game.execute(Advance())
        assert of(events, E.VoteResult)[0].outcome == "tie"
        while game.step == "tie_speech":
            game.execute(Advance())
    assert game.step == "lift"
    for v in range(3, 9):
        game.execute(LiftVote(v))
    events = game.execute(Advance())
    assert [(e.seat, e.how) for e in of(events, E.PlayerLeft)] == [(1, "lift"), (2, "lift")]
    advance_until(game, "shooting", day=1)
    night(game, 8)
    assert (game.step, game.day, game.seat) == ("last_word", 2, 8)
    refused(game, BestMove(8, (3, 4, 7)), code="no-best-move", clause="F.bestmove")
    assert game.best_move is None


# --- F.draw ----------------------------------------------------------------------------------------
@pytest.mark.clause("F.draw")
def test_f_draw_after_three_quiet_cycles_from_a_night() -> None:
    """F.draw: nobody leaves during three consecutive night-and-day cycles (from night 1): a draw.
    Three misses in a row do not give red the win (A.night.misses is replaced)."""
    game = day1()
    quiet_day(game)  # day 1 is not part of a cycle
    for k in (1, 2, 3):
        events = night(game, 0)
        assert of(events, E.NightResult) == [E.NightResult(k, 0)]
        assert not game.over, "three misses must not end a fiim game"
        events = quiet_day(game)
        if k < 3:
            assert not game.over
            assert game.step == "shooting" and game.day == k + 1
    assert of(events, E.GameEnded) == [E.GameEnded(None, "draw")]
    assert game.over and game.winner is None and game.result == "draw"
    assert game.alive.count(True) == 10


@pytest.mark.clause("F.draw")
def test_f_draw_count_restarts_after_a_night_kill() -> None:
    """F.draw: a departure restarts the count: after a kill on night 1 the draw comes at the end of day 5."""
    game = day1()
    quiet_day(game)
    night(game, 5)  # night 1: 5 is killed
    quiet_day(game)  # day 2 (5's last word first)
    night(game, 0)
    quiet_day(game)  # day 3
    night(game, 0)
    quiet_day(game)  # day 4: only two quiet cycles so far
    assert not game.over and game.step == "shooting" and game.day == 4
    night(game, 0)
    events = quiet_day(game)  # day 5: the third quiet cycle
    assert of(events, E.GameEnded) == [E.GameEnded(None, "draw")]


@pytest.mark.clause("F.draw")
def test_f_draw_count_restarts_after_a_removal() -> None:
    """F.draw: a removal is a departure too: removed on day 3, the count starts again from night 3."""
    game = day1()
    quiet_day(game)
    night(game, 0)
    quiet_day(game)  # night 1 + day 2: quiet
    night(game, 0)
    assert game.step == "speech" and game.day == 3
    game.execute(Remove(10, reason="oath"))
    quiet_day(game)  # night 2 + day 3 is not quiet
    assert not game.over
    for day in (4, 5):
        night(game, 0)
        quiet_day(game)
        assert not game.over, day
    night(game, 0)
    events = quiet_day(game)  # day 6
    assert of(events, E.GameEnded) == [E.GameEnded(None, "draw")]


# --- F.remove.vote ---------------------------------------------------------------------------------
@pytest.mark.clause("F.remove.vote")
def test_f_remove_vote_removal_before_the_vote_cancels_it() -> None:
    """F.remove.vote: a removal during the day's speeches cancels that day's vote; no last word."""
    game = day1()
    game.execute(Nominate(1, 5))
    game.execute(Advance())
    game.execute(Nominate(2, 6))
    game.execute(Advance())
    assert game.seat == 3
    events = game.execute(Remove(8, reason="insult"))
    assert events[0] == E.Removed(8, "insult", "game")
    assert E.PlayerLeft(8, "removal", 1, False) in events
    assert of(events, E.VoteCancelled) == [E.VoteCancelled(1, "F.remove.vote")]
    assert (game.step, game.seat) == ("speech", 3)  # no last word for 8; 3 goes on speaking
    assert game.cancelled_days == {1}
    refused(game, Nominate(3, 9), code="vote-cancelled", clause="F.remove.vote")
    order = []
    events = []
    while game.step == "speech":
        order.append(game.seat)
        events += game.execute(Advance())
    assert order == [3, 4, 5, 6, 7, 9, 10]  # 8 is skipped
    assert of(events, E.VoteResult) == [E.VoteResult("vote", (), (), "cancelled")]
    assert not of(events, E.VotingStarted)
    assert game.step == "shooting" and game.day == 1
    assert game.alive.count(True) == 9


@pytest.mark.clause("F.remove.vote")
def test_f_remove_vote_removal_during_voting_cancels_it() -> None:
    """F.remove.vote: a removal during the voting cancels the current vote: nobody is voted out."""
    game = day1()
    speeches(game, {1: 5, 2: 6})
    assert game.step == "voting" and game.seat == 5
    game.execute(Vote(1, 5))
    game.execute(Vote(2, 5))
    events = game.execute(Remove(9, reason="bets"))
    assert E.PlayerLeft(9, "removal", 1, False) in events
    assert E.VoteCancelled(1, "F.remove.vote") in events
    result = of(events, E.VoteResult)
    assert len(result) == 1 and result[0].outcome == "cancelled" and result[0].leaving == ()
    assert game.step == "shooting" and game.day == 1
    assert [s for s, _, _, _ in game.departures] == [9]
    refused(game, Vote(3, 5))


@pytest.mark.clause("F.remove.vote")
def test_f_remove_vote_removal_at_night_cancels_the_next_days_vote() -> None:
    """F.remove.vote: the nearest vote of a removal at night is the next day's; Undo restores it."""
    game = day1()
    speeches(game)
    assert game.step == "shooting"
    events = game.execute(Remove(9, reason="peeping"))
    assert E.PlayerLeft(9, "removal", 1, True) in events
    assert E.VoteCancelled(2, "F.remove.vote") in events
    assert game.cancelled_days == {2}
    game.execute(Undo())
    assert game.cancelled_days == set() and game.alive[9]
    game.execute(Remove(9, reason="peeping"))
    night(game, 0)
    assert game.step == "speech" and game.day == 2
    refused(game, Nominate(game.seat, 5), code="vote-cancelled", clause="F.remove.vote")
    events = speeches(game)
    assert of(events, E.VoteResult)[0].outcome == "cancelled"
    assert game.step == "shooting" and game.day == 2


@pytest.mark.clause("F.remove.vote")
def test_f_remove_vote_removing_the_voted_out_player_cancels_nothing() -> None:
    """F.remove.vote: removing the player just voted out (in his last minute) cancels no vote."""
    game = day1()
    events = day1_vote_out(game, 5, 6)
    assert of(events, E.VoteResult)[0].outcome == "out"
    assert (game.step, game.seat) == ("last_word", 5)
    events = game.execute(Remove(5, reason="insult"))
    assert not of(events, E.VoteCancelled)
    assert not of(events, E.PlayerLeft)  # he had already left by the vote
    assert game.removed == {5: "game"}
    assert game.cancelled_days == set()
    assert game.step == "shooting"  # his last minute ends
    night(game, 0)
    assert game.step == "speech" and game.day == 2
    game.execute(Nominate(game.seat, 8))  # day 2 has its vote
    assert game.candidates == [8]


@pytest.mark.clause("F.remove.vote")
def test_f_remove_vote_removing_the_killed_player_cancels_nothing() -> None:
    """F.remove.vote: removing the player killed at night (in his morning last minute) cancels no vote."""
    game = day1()
    speeches(game)
    night(game, 8)
    assert (game.step, game.day, game.seat) == ("last_word", 2, 8)
    events = game.execute(Remove(8, reason="insult"))
    assert not of(events, E.VoteCancelled)
    assert game.cancelled_days == set()
    assert game.step == "speech" and game.day == 2
    game.execute(Nominate(game.seat, 5))
    assert game.candidates == [5]


@pytest.mark.clause("F.remove.vote")
def test_f_remove_vote_removal_after_the_result_cancels_the_next_days_vote() -> None:
    """F.remove.vote: a removal during the voting after the result was decided (here during the voted-out
    player's last minute) cancels the next day's vote instead."""
    game = day1()
    day1_vote_out(game, 5, 6)
    assert (game.step, game.seat) == ("last_word", 5)
    events = game.execute(Remove(9, reason="oath"))
    assert E.PlayerLeft(9, "removal", 1, False) in events
    assert of(events, E.VoteCancelled) == [E.VoteCancelled(2, "F.remove.vote")]
    assert (game.step, game.seat) == ("last_word", 5)  # 5 goes on with his last minute
    game.execute(Advance())
    night(game, 0)
    assert game.step == "speech" and game.day == 2
    refused(game, Nominate(game.seat, 6), code="vote-cancelled", clause="F.remove.vote")


@pytest.mark.clause("F.remove.vote")
def test_f_remove_vote_removal_in_the_morning_cancels_that_days_vote() -> None:
    """F.remove.vote: another player removed during the night victim's morning last word: the nearest
    vote is that day's."""
    game = day1()
    speeches(game)
    night(game, 8)
    assert (game.step, game.day, game.seat) == ("last_word", 2, 8)
    events = game.execute(Remove(10, reason="bets"))
    assert of(events, E.VoteCancelled) == [E.VoteCancelled(2, "F.remove.vote")]
    assert (game.step, game.seat) == ("last_word", 8)


# --- F.technical -----------------------------------------------------------------------------------
@pytest.mark.clause("F.technical")
def test_f_technical_fouls_are_off_by_default() -> None:
    """F.technical: technical fouls are an option, off by default (and in the fiim preset)."""
    assert get_ruleset("fiim").technical_fouls is False
    assert get_ruleset("fiim").technical_remove == 2
    game = day1()
    refused(game, Foul(2, reason="phone", technical=True), code="no-technical", clause="F.technical")
    assert not any(isinstance(c, Foul) and c.technical for c in game.legal_commands())
    game.execute(Foul(2, reason="gestures"))  # ordinary fouls still work
    assert game.fouls[2] == 1 and game.tech[2] == 0


@pytest.mark.clause("F.technical")
def test_f_technical_two_technical_fouls_remove_a_player() -> None:
    """F.technical: with the option on, two technical fouls remove a player (no last word; the removal
    cancels the day's vote by F.remove.vote). Technical fouls do not add to ordinary fouls."""
    rules = get_ruleset("fiim").variant("fiim-tech", technical_fouls=True)
    game = new_game(rules, roles=CLUB_DECK)
    advance_until(game, "speech", day=1)
    assert Foul(2, technical=True) in game.legal_commands()
    events = game.execute(Foul(2, reason="late", technical=True))
    assert events == [E.Fouled(2, "late", True, 1)]
    assert game.tech[2] == 1 and game.fouls[2] == 0 and game.alive[2]
    game.execute(Foul(2, reason="gestures"))
    game.execute(Foul(2, reason="gestures"))
    assert game.fouls[2] == 2 and game.tech[2] == 1 and game.alive[2]
    events = game.execute(Foul(2, reason="phone", technical=True))
    assert events[:2] == [E.Fouled(2, "phone", True, 2), E.Expelled(2, "technical", "game")]
    assert E.PlayerLeft(2, "removal", 1, False) in events
    assert E.VoteCancelled(1, "F.remove.vote") in events
    assert game.removed == {2: "game"} and not game.alive[2]
    assert game.step == "speech" and game.seat == 1  # no last word
    refused(game, Foul(2, technical=True))


# --- F.team-defeat ---------------------------------------------------------------------------------
@pytest.mark.clause("F.team-defeat")
def test_f_team_defeat_ends_the_game_for_the_other_team() -> None:
    """F.team-defeat: the judge declares a team defeat ("ППК") of the black team: red wins."""
    game = day1()
    speeches(game)
    assert game.step == "shooting"
    events = game.execute(TeamDefeat("black", reason="deliberate peeping"))
    assert events == [E.TeamDefeated("black", "deliberate peeping"), E.GameEnded("red", "team-defeat")]
    assert game.over and game.winner == "red" and game.result == "team-defeat"
    refused(game, TeamDefeat("red", reason="again"), code="game-over")


@pytest.mark.clause("F.team-defeat")
def test_f_team_defeat_of_red_gives_black_the_win() -> None:
    """F.team-defeat: a team defeat of red (an oath, a bet, a threat) gives black the win; it needs a
    reason and a team."""
    game = day1()
    assert TeamDefeat("red") in game.legal_commands()
    refused(game, TeamDefeat("red"), code="reason-required")
    refused(game, TeamDefeat("red", reason="   "), code="reason-required")
    refused(game, TeamDefeat("blue", reason="oath"), code="bad-team")
    events = game.execute(TeamDefeat("red", reason="oath"))
    assert events[-1] == E.GameEnded("black", "team-defeat")
    assert game.winner == "black"


@pytest.mark.clause("F.team-defeat")
def test_f_team_defeat_is_not_a_club_rule() -> None:
    """F.team-defeat: the club preset has no team defeat; fiim has it."""
    club = new_game("club")
    advance_until(club, "speech", day=1)
    refused(club, TeamDefeat("black", reason="peeping"), code="no-team-defeat", clause="F.team-defeat")


# --- no protest; A.award and A.judge apply ------------------------------------------------------------
@pytest.mark.clause("A.protest")
def test_fiim_has_no_protest_vote() -> None:
    """A.protest does not apply to fiim ("No protest vote"): after the game the protest is refused."""
    assert get_ruleset("fiim").protest is False
    game = day1()
    refused(game, Protest("annul", (1, 2, 3)), code="no-protest", clause="A.protest")
    game.execute(TeamDefeat("black", reason="hints from the audience"))
    assert game.over and game.winner == "red"
    assert not any(isinstance(c, Protest) for c in game.legal_commands())
    refused(game, Protest("annul", (3, 4, 7, 1)), code="no-protest", clause="A.protest")
    refused(game, Protest("reverse", (3, 4, 7, 1)), code="no-protest")
    assert game.protest is None and game.winner == "red"


@pytest.mark.clause("A.award")
def test_a_award_applies_in_fiim() -> None:
    """A.award applies in fiim: the judge awards the win to the opposite team for hints (reason needed)."""
    game = day1()
    speeches(game)
    night(game, 5)
    assert game.step == "last_word" and game.seat == 5
    refused(game, Award("black"), code="reason-required")
    refused(game, Award("green", reason="hints"), code="bad-team")
    events = game.execute(Award("black", reason="the dead player 5 hinted for red"))
    assert events == [E.Awarded("black", "the dead player 5 hinted for red"), E.GameEnded("black", "award")]
    assert game.over and game.winner == "black" and game.result == "award"


@pytest.mark.clause("A.judge")
def test_a_judge_applies_in_fiim() -> None:
    """A.judge applies in fiim: the judge overrides a result with a reason; every override is logged and
    there is no appeal (no protest)."""
    game = day1()
    refused(game, Override("red"), code="reason-required", clause="A.judge")
    game.execute(TeamDefeat("black", reason="peeping"))
    events = game.execute(Override(None, reason="the judge annuls: the deck was wrong"))
    assert events == [
        E.Overridden(None, "the judge annuls: the deck was wrong"),
        E.GameEnded(None, "override"),
    ]
    assert game.winner is None and game.result == "override"
    assert game.results == [("red", "team-defeat"), (None, "override")]
    assert [e for e in game.log if isinstance(e, E.Overridden)] == [events[0]]
    refused(game, Protest("reverse", tuple(range(1, 11))), code="no-protest")


@pytest.mark.clause("F.remove.vote")
def test_f_remove_vote_removal_during_tie_speeches_cancels_the_revote() -> None:
    """F.remove.vote: the tie speeches belong to the current vote; a removal there cancels it."""
    game = day1()
    speeches(game, {1: 5, 2: 6})
    for v in range(1, 6):
        game.execute(Vote(v, 5))
    game.execute(Advance())  # 5 to 5: a tie
    assert (game.step, game.seat) == ("tie_speech", 5)
    events = game.execute(Remove(9, reason="oath"))
    assert E.VoteCancelled(1, "F.remove.vote") in events
    assert of(events, E.VoteResult)[0].outcome == "cancelled"
    assert game.step == "shooting" and game.alive[5] and game.alive[6]


@pytest.mark.clause("F.remove.vote")
def test_f_remove_vote_fourth_foul_during_voting_cancels_it() -> None:
    """F.remove.vote: a removal by the fourth foul is a removal: during the voting it cancels the vote."""
    game = day1()
    for _ in range(3):
        game.execute(Foul(10, reason="gestures"))
    speeches(game, {1: 5, 2: 6})
    assert game.step == "voting"
    game.execute(Vote(1, 5))
    events = game.execute(Foul(10, reason="gestures"))
    assert E.Expelled(10, "foul4", "game") in events
    assert E.VoteCancelled(1, "F.remove.vote") in events
    assert game.step == "shooting" and not game.alive[10]
    assert [s for s, _, _, _ in game.departures] == [10]


@pytest.mark.clause("F.remove.vote")
def test_f_remove_vote_removal_on_night_zero_cancels_day_one_vote() -> None:
    """F.remove.vote: removed during the meeting night, the nearest vote is day 1's."""
    game = new_game("fiim")
    assert game.step == "meet_black"
    events = game.execute(Remove(2, reason="peeping"))
    assert of(events, E.VoteCancelled) == [E.VoteCancelled(1, "F.remove.vote")]
    advance_until(game, "speech", day=1)
    refused(game, Nominate(1, 5), code="vote-cancelled")
