"""Scenario tests of the `club` preset: discipline: fouls and removals (A.foul.*, A.remove.*).

Each test drives a game with real commands, names the rule it proves and cites the clause id in its
docstring and its ``clause`` marker. ``new_game("club")`` deals a fixed deck: Don at 3, mafia at 4 and 7,
Sheriff at 6, civilians at 1, 2, 5, 8, 9 and 10. Shared helpers: ``tests/engine/helpers.py``.
"""

from __future__ import annotations

import pytest

from sportmafia.engine import (
    FOUL_REASONS,
    REMOVAL_REASONS,
    Advance,
    Check,
    Foul,
    Nominate,
    Remove,
    Shoot,
    Vote,
    describe_event_line,
    view,
    visible_events,
)
from sportmafia.engine import events as E
from sportmafia.engine.describe import REASON_NAMES
from tests.conftest import advance_until, new_game, refused
from tests.engine.helpers import (
    BLACK,
    DON,
    MAFIA_A,
    MAFIA_B,
    SHERIFF,
    adv,
    cast,
    day_turns,
    down_to_five,
    finish_day,
    finish_night,
    four_players,
    miss_night,
    nominate_all,
    of,
    one,
    run,
    shoot_all,
    steps,
    to_shooting,
    to_speeches,
)


@pytest.mark.clause("A.foul.reasons")
def test_foul_reasons_the_seeds_list_and_free_text() -> None:
    """A.foul.reasons: the console offers the seed's foul reasons (in both languages) and a free text."""
    assert FOUL_REASONS == ("unethical", "night_conduct", "gestures", "hand_pulled", "out_of_turn",
                            "forbidden_words", "night_gestures", "table_banging", "late_mask", "religion",
                            "touching")
    for code in FOUL_REASONS:
        en, ru = REASON_NAMES[code].render("en"), REASON_NAMES[code].render("ru")
        assert en and ru and en != ru
    assert "честно" in REASON_NAMES["forbidden_words"].render("ru")
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    assert {Foul(s) for s in range(1, 11)} <= set(game.legal_commands())
    events = run(game, Foul(4, "forbidden_words"))
    assert events == [E.Fouled(4, "forbidden_words", False, 1)]
    assert "«честно»" in (describe_event_line(events[0], "ru") or "")
    events = run(game, Foul(4, "kept talking to the audience"))
    assert events == [E.Fouled(4, "kept talking to the audience", False, 2)]
    assert game.fouls[4] == 2
    # pulling the hand back before "спасибо": a foul, and the vote still counts
    finish_day(game)
    miss_night(game)
    nominate_all(game, [9, 2])
    assert game.step == "voting" and game.seat == 9
    run(game, Vote(5, 9), Foul(5, "hand_pulled"))
    assert game.votes[5] == 9
    events = cast(game, {})
    assert dict(one(events, E.VoteResult).tally)[9] == 1


@pytest.mark.clause("A.foul.night")
def test_foul_night_not_announced_by_name_counts_shown_by_day() -> None:
    """A.foul.night: a foul given at night is not announced with the player's name; the day view shows each
    player's foul count."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    run(game, Foul(5, "gestures"), Foul(5, "gestures"))  # day fouls: public with the name
    assert visible_events(game, "spectator", since=len(game.log) - 1)[0]["seat"] == 5
    finish_day(game)
    to_shooting(game)
    events = run(game, Foul(5, "night_gestures"))  # his third: it costs his day-2 speech
    assert of(events, E.Muted) == [E.Muted(5, 2)]
    seq = game.log.index(events[0])
    for viewer in ("spectator", 1, DON):
        assert visible_events(game, viewer, since=seq) == [{"seq": seq, "type": "fouled", "seat": None}]
        public = view(game, viewer)
        assert public["seats"][4]["fouls"] == 2  # the night foul is not shown yet ...
        assert public["seats"][4]["muted_day"] is None  # ... nor the speech it costs
        assert public["unnamed_night_fouls"] == 1
    assert visible_events(game, 5, since=seq)[0]["seat"] == 5  # he knows
    assert view(game, 5)["seats"][4]["fouls"] == 3
    assert view(game, "host")["seats"][4]["fouls"] == 3
    run(game, *[Shoot(s, 1) for s in BLACK])
    finish_night(game)
    assert game.phase == "day"
    for viewer in ("spectator", 2, DON):
        public = view(game, viewer)
        assert [seat["fouls"] for seat in public["seats"]] == [0, 0, 0, 0, 3, 0, 0, 0, 0, 0]
        assert public["seats"][4]["muted_day"] == 2
        assert public["unnamed_night_fouls"] == 0
        assert visible_events(game, viewer, since=seq)[0] == {"seq": seq, "type": "fouled", "seat": None}


@pytest.mark.clause("A.foul.three")
def test_foul_three_before_speech_costs_this_days_speech() -> None:
    """A.foul.three: the third foul before his speech costs this day's speech."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    events = run(game, Foul(3), Foul(3))
    assert not of(events, E.Muted)
    events = run(game, Foul(3))
    assert of(events, E.Muted) == [E.Muted(3, 1)]
    assert game.mute_day[3] == 1
    adv(game)
    events = adv(game)
    assert steps(events) == [("muted", 3, 0)]
    events = adv(game)
    assert steps(events) == [("speech", 4, 60)]
    finish_day(game)
    miss_night(game)
    advance_until(game, "speech", day=2, seat=3)
    assert game.seconds == 60  # only one speech is lost


@pytest.mark.clause("A.foul.three")
def test_foul_three_after_or_during_speech_costs_the_next_days() -> None:
    """A.foul.three: the third foul during or after his speech costs the next day's speech."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=2)
    events = run(game, Foul(2), Foul(2), Foul(2))  # during his own speech
    assert of(events, E.Muted) == [E.Muted(2, 2)]
    assert game.step == "speech" and game.seat == 2  # he finishes this speech
    adv(game)
    events = run(game, Foul(1), Foul(1), Foul(1))  # after his speech
    assert of(events, E.Muted) == [E.Muted(1, 2)]
    finish_day(game)
    to_shooting(game)
    events = run(game, Foul(9), Foul(9), Foul(9))  # at night: the next day
    assert of(events, E.Muted) == [E.Muted(9, 2)]
    finish_night(game)
    turns = day_turns(game)
    assert turns == [("muted", 2, 0), ("speech", 3, 60), ("speech", 4, 60), ("speech", 5, 60),
                          ("speech", 6, 60), ("speech", 7, 60), ("speech", 8, 60), ("muted", 9, 0),
                          ("speech", 10, 60), ("muted", 1, 0)]


@pytest.mark.clause("A.foul.three")
def test_foul_three_never_takes_a_last_word_or_a_tie_speech() -> None:
    """A.foul.three F: a last word or a tie speech is never taken; a player in a tie speaks there and loses
    his next speech instead."""
    game = new_game("club")
    nominate_all(game, [2, 8])
    run(game, Foul(8), Foul(8), Foul(8))  # during the vote, after his speech: he loses day 2's
    assert game.mute_day[8] == 2
    cast(game, {2: [1, 2, 3, 4, 5]})
    assert (game.step, game.seat, game.seconds) == ("tie_speech", 2, 30)
    events = adv(game)
    assert steps(events) == [("tie_speech", 8, 30)]  # his tie speech is not taken
    adv(game)
    cast(game, {2: [1, 2, 3, 4]})  # 8 leaves: his last word is not taken either
    assert (game.step, game.seat, game.seconds) == ("last_word", 8, 60)
    # a player muted for tomorrow who is killed tonight still speaks his last minute in the morning
    adv(game)
    run(game, Foul(10), Foul(10), Foul(10))
    assert game.mute_day[10] == 2
    run(game, *[Shoot(s, 10) for s in BLACK])
    finish_night(game)
    assert (game.day, game.step, game.seat, game.seconds) == (2, "last_word", 10, 60)


@pytest.mark.clause("A.foul.short")
def test_foul_short_muted_player_speaks_30s_at_four_and_three_players() -> None:
    """A.foul.short: with 3 or 4 players at the table a player who lost his speech speaks 30 s instead."""
    game = four_players()
    assert game.seat == SHERIFF  # day 4 opens with 6, the next living after day 3's opener 3
    run(game, Foul(9), Foul(9), Foul(9))
    events = adv(game)
    assert steps(events) == [("muted", 9, 30)]
    run(game, Nominate(9, 10))  # a short speech is still his turn
    finish_day(game)
    assert not game.alive[10] and game.alive_count == 3
    miss_night(game)
    assert game.day == 5 and game.alive_count == 3
    to_speeches(game)
    run(game, Foul(3), Foul(3), Foul(3))
    events = adv(game)
    while game.seat != DON:
        events += adv(game)
    assert (game.step, game.seat, game.seconds) == ("muted", DON, 30)


@pytest.mark.clause("A.foul.short")
def test_foul_short_not_at_five_players() -> None:
    """A.foul.short: with 5 players at the table a muted player loses his whole speech (no 30 s)."""
    game = new_game("club")
    down_to_five(game)
    to_shooting(game)
    assert game.alive_count == 5
    run(game, Foul(9), Foul(9), Foul(9))
    finish_night(game)  # a miss: 5 players on day 4
    advance_until(game, "muted", day=4, seat=9)
    assert game.seconds == 0


@pytest.mark.clause("A.foul.four")
def test_foul_four_removes_the_player() -> None:
    """A.foul.four: the fourth foul removes the player."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=2)
    run(game, Foul(2), Foul(2), Foul(2))
    events = run(game, Foul(2, "table_banging"))
    assert events[0] == E.Fouled(2, "table_banging", False, 4)
    assert one(events, E.Expelled) == E.Expelled(2, "foul4", "game")
    left = one(events, E.PlayerLeft)
    assert (left.seat, left.how) == (2, "removal")
    assert game.removed == {2: "game"} and not game.alive[2]
    assert (game.step, game.seat) == ("speech", 3)  # his speech ends, no last word
    assert not any(s[0] == "last_word" for s in steps(events))
    refused(game, Foul(2), code="not-alive")
    assert one(events, E.VoteCancelled) == E.VoteCancelled(1, "A.remove.day")


@pytest.mark.clause("A.remove.reasons")
def test_remove_reasons_the_seeds_list() -> None:
    """A.remove.reasons: removal for the 4th foul, insult, disputes and bets, oaths, arguing with the judge,
    night hints, peeping, leaving the seat, night touches (and a free text)."""
    assert REMOVAL_REASONS == ("foul4", "insult", "bets", "oath", "judge_dispute", "night_hints", "peeping",
                               "left_seat", "night_touch")
    for code in REMOVAL_REASONS:
        en, ru = REASON_NAMES[code].render("en"), REASON_NAMES[code].render("ru")
        assert en and ru and en != ru
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    assert {Remove(s) for s in range(1, 11)} <= set(game.legal_commands())
    events = run(game, Remove(5, "oath"))
    assert events[0] == E.Removed(5, "oath", "game")
    assert one(events, E.PlayerLeft).how == "removal"
    assert game.removed == {5: "game"}
    refused(game, Remove(5, "insult"), code="not-alive", clause="A.remove.reasons")
    refused(game, Remove(6, "oath", scope="tournament"), code="bad-scope")
    events = run(game, Remove(8, "said «даю зуб» twice"))
    assert events[0] == E.Removed(8, "said «даю зуб» twice", "game")
    assert Remove(5) not in game.legal_commands()


@pytest.mark.clause("A.remove.day")
def test_remove_day_counts_as_the_days_vote_no_last_word_no_voting() -> None:
    """A.remove.day: a player removed during the day counts as eliminated by that day's vote: no last
    word and no voting that day."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    run(game, Nominate(1, 9))
    adv(game)
    events = run(game, Remove(5, "insult"))
    assert one(events, E.VoteCancelled) == E.VoteCancelled(1, "A.remove.day")
    assert not any(s[0] == "last_word" for s in steps(events))
    assert game.step == "speech" and game.seat == 2
    refused(game, Nominate(2, 8), code="vote-cancelled", clause="A.remove.day")
    assert not [c for c in game.legal_commands() if isinstance(c, Nominate)]
    events = finish_day(game)
    assert not of(events, E.VotingStarted)
    assert one(events, E.VoteResult).outcome == "cancelled"
    assert game.step == "shooting" and game.alive[9]


@pytest.mark.clause("A.remove.day")
def test_remove_day_during_the_morning_last_word_cancels_the_vote() -> None:
    """A.remove.day: a removal in the morning (during the night victim's last word) cancels that day's
    vote."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    finish_day(game)
    shoot_all(game, 1)
    assert game.step == "last_word"
    events = run(game, Remove(10, "bets"))
    assert one(events, E.VoteCancelled) == E.VoteCancelled(2, "A.remove.day")
    assert game.step == "last_word" and game.seat == 1  # the victim's last word goes on
    to_speeches(game)
    refused(game, Nominate(game.seat, 5), code="vote-cancelled")


@pytest.mark.clause("A.remove.day")
def test_remove_day_counts_as_voted_out_for_the_misses_rule() -> None:
    """A.remove.day with A.night.misses: a day removal counts as eliminated by that day's vote, so it
    breaks a run of mafia misses like a vote would."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    finish_day(game)
    miss_night(game)  # miss 1
    run(game, Remove(10, "insult"))  # day 2: a removal
    finish_day(game)
    miss_night(game)  # miss 2
    finish_day(game)
    events = miss_night(game)  # miss 3: no red win, someone left by day 2's "vote"
    assert not of(events, E.GameEnded) and not game.over
    finish_day(game)
    events = miss_night(game)  # misses 2, 3, 4 with nobody leaving on days 3 and 4
    assert one(events, E.GameEnded) == E.GameEnded("red", "misses")


@pytest.mark.clause("A.remove.vote")
def test_remove_vote_removed_candidate_with_most_votes_nobody_else_leaves() -> None:
    """A.remove.vote: removed during voting he leaves without a last word and the voting goes on; votes for
    him count, and if he gets the most, nobody else leaves."""
    game = new_game("club")
    nominate_all(game, [4, 7])
    assert game.step == "voting" and game.seat == 4
    run(game, *[Vote(v, 4) for v in (1, 2, 3, 5, 6, 8)])
    events = run(game, Remove(4, "judge_dispute"))
    assert one(events, E.PlayerLeft).how == "removal"
    assert not of(events, E.VoteCancelled) and not any(s[0] == "last_word" for s in steps(events))
    assert game.step == "voting" and game.seat == 4  # the voting goes on
    refused(game, Vote(4, 4), code="cannot-vote")
    run(game, Vote(9, 4))
    events = adv(game)
    assert one(events, E.DefaultVotes) == E.DefaultVotes(7, (7, 10))
    result = one(events, E.VoteResult)
    assert result.tally == ((4, 7), (7, 2)) and result.outcome == "removed-leads"
    assert result.leaving == () and game.alive[7]
    assert game.step == "shooting"


@pytest.mark.clause("A.remove.vote")
def test_remove_vote_voting_goes_on_and_another_can_leave() -> None:
    """A.remove.vote: a removed candidate with fewer votes does not stop the vote: the leader leaves."""
    game = new_game("club")
    nominate_all(game, [4, 7, 9])
    run(game, Vote(1, 4))
    events = run(game, Remove(4, "oath"))
    assert game.step == "voting"
    adv(game)
    assert game.seat == 7
    run(game, *[Vote(v, 7) for v in (2, 3, 5, 6, 8, 10)])
    events = adv(game)
    result = one(events, E.VoteResult)
    assert result.tally == ((4, 1), (7, 6), (9, 2)) and result.leaving == (7,)
    assert (game.step, game.seat) == ("last_word", 7)
    # a removal of a non-candidate during the vote does not cancel it either
    game = new_game("club")
    nominate_all(game, [2, 8])
    events = run(game, Remove(5, "bets"))
    assert not of(events, E.VoteCancelled) and game.step == "voting"
    run(game, *[Vote(v, 2) for v in (1, 2, 3, 4, 6)])
    events = adv(game)
    assert one(events, E.VoteResult).leaving == (2,)


@pytest.mark.clause("A.remove.night")
def test_remove_night_black_who_had_not_shot_shot_judged_among_the_rest() -> None:
    """A.remove.night D: removed at night he leaves without a last word; if he was black and had not shot,
    the shot is judged among the remaining black players."""
    game = new_game("club")
    nominate_all(game, [])
    to_shooting(game)
    events = run(game, Remove(MAFIA_A, "peeping"))
    assert one(events, E.PlayerLeft) == E.PlayerLeft(MAFIA_A, "removal", 1, True)
    run(game, Shoot(DON, 9), Shoot(MAFIA_B, 9))
    events = finish_night(game)
    assert one(events, E.NightResult).killed == 9
    assert [s[:2] for s in steps(events) if s[0] == "last_word"] == [("last_word", 9)]
    # a black player who had shot before his removal: his shot still counts
    game = new_game("club")
    nominate_all(game, [])
    to_shooting(game)
    run(game, Shoot(MAFIA_A, 2), Remove(MAFIA_A, "night_hints"), Shoot(DON, 9), Shoot(MAFIA_B, 9))
    events = finish_night(game)
    assert one(events, E.NightResult).killed == 0  # 4 shot 2, the others 9: a miss
    game = new_game("club")
    nominate_all(game, [])
    to_shooting(game)
    run(game, Shoot(MAFIA_A, 9), Remove(MAFIA_A, "night_hints"), Shoot(DON, 9), Shoot(MAFIA_B, 9))
    events = finish_night(game)
    assert one(events, E.NightResult).killed == 9


@pytest.mark.clause("A.remove.night")
def test_remove_night_checker_removed_loses_his_check() -> None:
    """A.remove.night: a Don removed during his check leaves at once and loses his check; the step itself
    goes on (the host ends it as usual), then the Sheriff checks."""
    game = new_game("club")
    nominate_all(game, [])
    to_shooting(game)
    adv(game)
    assert game.step == "check_don" and game.checker_seat() == DON
    events = run(game, Remove(DON, "peeping"))
    assert one(events, E.PlayerLeft).seat == DON
    assert not steps(events) and game.step == "check_don" and game.checker_seat() == 0
    refused(game, Check(DON, SHERIFF), code="not-checker")
    assert [c.type for c in game.legal_commands(None, extras=False)] == ["advance"]
    events = adv(game)
    assert steps(events) == [("check_sheriff", 0, 0)] and game.checker_seat() == SHERIFF
    refused(game, Check(DON, SHERIFF), code="not-checker")
    events = finish_night(game)
    assert one(events, E.NightResult).killed == 0
    assert (game.step, game.seat) == ("speech", 2)  # no last word for the removed Don


@pytest.mark.clause("A.remove.vote")
def test_a_vote_cast_by_a_player_removed_during_the_vote_stays_counted() -> None:
    """A.remove.vote: a hand on the table before "спасибо" is a vote; after a removal the voting goes on, so a
    hand the removed player gave before he left stays counted; he gives no further and no default vote."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    game.execute(Nominate(1, 5))
    game.execute(Advance())
    game.execute(Nominate(2, 6))
    advance_until(game, "voting")
    for voter in (1, 2, 8, 9, 10):
        game.execute(Vote(voter, 5))
    game.execute(Remove(10, "insult"))  # removed during voting: leaves, the vote goes on
    assert game.step == "voting" and game.votes[10] == 5
    events = game.execute(Advance())  # 3, 4, 5, 6 and 7 default to 6; 10 gives none
    assert one(events, E.DefaultVotes) == E.DefaultVotes(6, (3, 4, 5, 6, 7))
    result = one(events, E.VoteResult)
    assert dict(result.tally) == {5: 5, 6: 5}  # 10's hand counts: a 5-5 tie
    assert result.outcome == "tie" and result.leaving == (5, 6)
    assert game.step == "tie_speech" and game.seat == 5
