"""Scenario tests for every clause of the `club` preset (RULEBOOK.md, section "Preset `club`").

Each test drives a game with real commands, names the rule it proves and cites the clause id in its
docstring and its ``clause`` marker. ``new_game("club")`` deals a fixed deck: Don at 3, mafia at 4 and 7,
Sheriff at 6, civilians at 1, 2, 5, 8, 9 and 10.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any, TypeVar

import pytest

from sportmafia.engine import (
    FOUL_REASONS,
    REMOVAL_REASONS,
    Advance,
    Award,
    Check,
    DealCards,
    Foul,
    Game,
    LiftVote,
    Nominate,
    Override,
    Protest,
    Remove,
    RuleViolation,
    Shoot,
    Undo,
    Vote,
    Withdraw,
    describe_event_line,
    view,
    visible_events,
)
from sportmafia.engine import events as E
from sportmafia.engine.describe import REASON_NAMES
from sportmafia.rules import RuleSetError, get_ruleset
from tests.conftest import CLUB_DECK, advance_until, new_game, refused

CLUB = get_ruleset("club")
DON, MAFIA_A, MAFIA_B, SHERIFF = 3, 4, 7, 6
BLACK = (DON, MAFIA_A, MAFIA_B)

Ev = TypeVar("Ev", bound=E.Event)


# --- helpers ------------------------------------------------------------------------------------------
def run(game: Game, *commands: Any) -> list[E.Event]:
    """Execute the commands in order; return every event they produced."""
    out: list[E.Event] = []
    for cmd in commands:
        out += game.execute(cmd, random.Random(0))
    return out


def adv(game: Game, times: int = 1) -> list[E.Event]:
    return run(game, *[Advance()] * times)


def of(events: Iterable[E.Event], kind: type[Ev]) -> list[Ev]:
    return [e for e in events if isinstance(e, kind)]


def one(events: Iterable[E.Event], kind: type[Ev]) -> Ev:
    found = of(events, kind)
    assert len(found) == 1, found
    return found[0]


def steps(events: Iterable[E.Event]) -> list[tuple[str, int, int]]:
    """(step, seat, seconds) of every Step event."""
    return [(e.step, e.seat, e.seconds) for e in of(events, E.Step)]


def black_alive(game: Game) -> list[int]:
    return [s for s in game.living() if game.team(s) == "black"]


def refused_as(game: Game, command: Any, actor: int, code: str) -> None:
    """Like ``refused`` for a command sent from a player's device."""
    before = game.snapshot()
    with pytest.raises(RuleViolation) as info:
        game.execute(command, random.Random(0), actor=actor)
    assert info.value.code == code
    assert info.value.message_en and info.value.message_ru
    assert game.snapshot() == before


def to_speeches(game: Game) -> list[E.Event]:
    """From night 0 or a morning last word (or a speech already), to the first regular speech of the day."""
    out: list[E.Event] = []
    while game.step == "last_word" or game.day == 0:
        out += adv(game)
    assert game.step in ("speech", "muted"), game.step
    return out


def finish_day(game: Game) -> list[E.Event]:
    """Press "Next" through the rest of the day (speeches, no further votes) until night falls."""
    out: list[E.Event] = []
    while not game.over and game.phase == "day":
        out += adv(game)
    return out


def finish_night(game: Game) -> list[E.Event]:
    out: list[E.Event] = []
    while not game.over and game.phase == "night":
        out += adv(game)
    return out


def to_shooting(game: Game) -> list[E.Event]:
    out: list[E.Event] = []
    while game.step != "shooting":
        assert not game.over
        out += adv(game)
    return out


def shoot_all(game: Game, target: int) -> list[E.Event]:
    """Night: every living black player shoots ``target``; the night runs out (checks skipped)."""
    to_shooting(game)
    out = run(game, *[Shoot(s, target) for s in black_alive(game)])
    return out + finish_night(game)


def miss_night(game: Game) -> list[E.Event]:
    """Night: nobody shoots (a miss); the night runs out."""
    to_shooting(game)
    return finish_night(game)


def vote_out(game: Game, target: int) -> list[E.Event]:
    """Day: ``target`` is nominated (with a second candidate on day 1) and voted out by everyone."""
    out = to_speeches(game)
    out += run(game, Nominate(game.seat, target))
    if game.day == 1:
        out += adv(game)
        other = next(s for s in game.living() if s not in game.candidates)
        out += run(game, Nominate(game.seat, other))
    while game.step in ("speech", "muted"):
        out += adv(game)
    if game.step == "voting":
        assert game.seat == target
        out += run(game, *[Vote(v, target) for v in game.living()])
        out += adv(game)
    assert not game.alive[target]
    assert one(out, E.VoteResult).leaving == (target,)
    return out


def nominate_all(game: Game, targets: list[int]) -> list[E.Event]:
    """Day: the day's speakers, in turn, nominate ``targets``; then the rest of the speeches pass."""
    out = to_speeches(game)
    for i, t in enumerate(targets):
        if i:
            out += adv(game)
        out += run(game, Nominate(game.seat, t))
    while game.step in ("speech", "muted"):
        out += adv(game)
    return out


def cast(game: Game, ballots: dict[int, list[int]]) -> list[E.Event]:
    """During voting: for each candidate being voted in turn, the listed voters vote; "Next" closes it.
    The last candidate is not voted explicitly: he gets the remaining votes by default (A.vote.default)."""
    out: list[E.Event] = []
    while game.step == "voting":
        cand = game.seat
        out += run(game, *[Vote(v, cand) for v in ballots.get(cand, [])])
        out += adv(game)
    return out


def day_turns(game: Game) -> list[tuple[str, int, int]]:
    """The day's regular turns (step, seat, seconds) from its first speech until the speeches end."""
    to_speeches(game)
    turns = [(game.step, game.seat, game.seconds)]
    while True:
        adv(game)
        if game.step not in ("speech", "muted"):
            return turns
        turns.append((game.step, game.seat, game.seconds))


def nine_players() -> Game:
    """Day 2 of a game where seat 1 was killed on night 1: 9 players at the table."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    finish_day(game)
    shoot_all(game, 1)
    to_speeches(game)
    assert game.alive_count == 9 and game.day == 2
    return game


def down_to_five(game: Game) -> None:
    """From the deal to day 3's vote: mafia 4 and 7 voted out, 1 and 2 shot, 5 voted out (5 left: 3, 6, 8,
    9, 10; night 3 is next)."""
    advance_until(game, "speech", day=1, seat=1)
    vote_out(game, MAFIA_A)
    shoot_all(game, 1)
    vote_out(game, MAFIA_B)
    shoot_all(game, 2)
    vote_out(game, 5)


def four_players() -> Game:
    """Day 4 with 3 (Don), 6 (Sheriff), 9 and 10 at the table: 1 black, 3 red."""
    game = new_game("club")
    down_to_five(game)
    shoot_all(game, 8)
    to_speeches(game)
    assert game.living() == [3, 6, 9, 10] and game.day == 4 and not game.over
    return game


# --- setup and flow -----------------------------------------------------------------------------------
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


@pytest.mark.clause("A.night0")
def test_night0_meetings_without_shot_or_check() -> None:
    """A.night0: the black team meets, then the Don, then the Sheriff meets the host; no kill, no check.
    The role steps do not name the seat (that would tell the table who holds the role)."""
    game = Game(CLUB, 10)
    events = game.execute(DealCards(roles=CLUB_DECK))
    assert steps(events) == [("meet_black", 0, 0)]
    assert game.phase == "night" and game.day == 0
    refused(game, Shoot(DON, 1), code="wrong-step", clause="A.night.shoot")
    refused(game, Check(DON, SHERIFF), code="wrong-step", clause="A.night.checks")
    events = adv(game)
    assert steps(events) == [("meet_don", 0, 0)]
    assert game.seat == 0 and view(game, "spectator")["seat"] == 0
    refused(game, Check(DON, SHERIFF), code="wrong-step", clause="A.night.checks")
    refused(game, Shoot(MAFIA_A, 1), code="wrong-step")
    events = adv(game)
    assert steps(events) == [("meet_sheriff", 0, 0)]
    assert game.seat == 0 and view(game, "spectator")["seat"] == 0
    refused(game, Check(SHERIFF, DON), code="wrong-step", clause="A.night.checks")
    refused(game, Nominate(1, 2), code="wrong-step")
    events = adv(game)
    assert steps(events) == [("speech", 1, 60)]
    assert game.day == 1 and game.phase == "day"
    everything = game.log
    assert not of(everything, E.NightResult) and not of(everything, E.PlayerLeft)
    assert not of(everything, E.Checked) and not of(everything, E.ShotFired)
    assert game.checks == [] and game.alive_count == 10


@pytest.mark.clause("A.night0")
def test_night0_still_calls_the_meeting_of_a_player_removed_at_night0() -> None:
    """A.night0: the host still calls a Sheriff removed during night 0 (skipping the call would tell the
    table who held the role), but nothing happens at that meeting; day 1 then opens."""
    game = new_game("club")
    adv(game)  # meet_don
    events = run(game, Remove(SHERIFF, "peeping"))
    assert one(events, E.PlayerLeft).seat == SHERIFF
    assert not game.alive[SHERIFF] and game.step == "meet_don"
    events = adv(game)
    assert steps(events) == [("meet_sheriff", 0, 0)]
    assert not game.alive[SHERIFF]
    refused(game, Check(SHERIFF, DON), code="wrong-step", clause="A.night.checks")
    assert [c.type for c in game.legal_commands(None, extras=False)] == ["advance"]
    events = adv(game)
    assert steps(events) == [("speech", 1, 60)]
    assert not of(game.log, E.Checked)


@pytest.mark.clause("A.speech.order")
def test_speech_order_each_day_opens_with_the_next_living_seat() -> None:
    """A.speech.order: every living player speaks once, 60 s, in seat order; day 1 opens with seat 1 and
    each later day with the next living seat after the previous day's opener."""
    game = new_game("club")
    assert day_turns(game) == [("speech", s, 60) for s in range(1, 11)]
    shoot_all(game, 2)  # night 1: seat 2, the next after day 1's opener, is killed
    assert game.step == "last_word" and game.seat == 2
    assert [t[1] for t in day_turns(game)] == [3, 4, 5, 6, 7, 8, 9, 10, 1]  # the next living after 1
    shoot_all(game, 4)  # night 2: day 2's opener 3 lives; 4 is killed
    assert [t[1] for t in day_turns(game)] == [5, 6, 7, 8, 9, 10, 1, 3]
    miss_night(game)
    assert (game.day, game.step, game.seat) == (4, "speech", 6)


@pytest.mark.clause("A.speech.order")
def test_speech_order_opener_is_the_next_living_after_a_dead_opener() -> None:
    """A.speech.order: if the previous day's opener left, the day opens with the next living seat after
    him."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    vote_out(game, 1)  # day 1's opener leaves by the vote
    shoot_all(game, 2)  # and the next seat dies at night
    to_speeches(game)
    assert (game.day, game.seat) == (2, 3)


@pytest.mark.clause("A.lastword")
def test_lastword_voted_out_at_once_killed_next_morning_removed_none() -> None:
    """A.lastword: voted out: a last minute at once; killed at night: at the start of the next day;
    a removed player gets none."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    events = vote_out(game, 5)
    left = one(events, E.PlayerLeft)
    assert (left.seat, left.how, left.night) == (5, "vote", False)
    assert (game.step, game.seat, game.seconds, game.day) == ("last_word", 5, 60, 1)
    events = adv(game)
    assert steps(events)[0] == ("shooting", 0, 0)  # night falls after the last word
    events = run(game, *[Shoot(s, 8) for s in BLACK])
    assert game.alive[8]  # killed at the end of the night, not at the shot
    events = finish_night(game)
    assert one(events, E.NightResult).killed == 8
    assert (game.day, game.step, game.seat, game.seconds) == (2, "last_word", 8, 60)
    events = adv(game)
    assert steps(events) == [("speech", 2, 60)]
    # a removal during the day: no last word, the speeches go on
    events = run(game, Remove(9, "insult"))
    assert one(events, E.PlayerLeft).how == "removal"
    assert all(s[0] != "last_word" for s in steps(events))
    assert game.step == "speech" and game.seat == 2
    # a removal at night: no last word either; the morning belongs to the night's victim only
    finish_day(game)
    to_shooting(game)
    run(game, Remove(MAFIA_A, "night_touch"), Shoot(DON, 1), Shoot(MAFIA_B, 1))
    events = finish_night(game)
    assert [s[:2] for s in steps(events) if s[0] == "last_word"] == [("last_word", 1)]
    events = adv(game)
    assert steps(events)[0][0] == "speech"


# --- nominations --------------------------------------------------------------------------------------
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


# --- voting -------------------------------------------------------------------------------------------
@pytest.mark.clause("A.vote.order")
def test_vote_order_candidates_voted_one_by_one_in_nomination_order() -> None:
    """A.vote.order: after the last speech the candidates are voted one by one in nomination order,
    opened by the host's "в городе голосование, выставлены игроки под номерами…"."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    refused(game, Vote(1, 1), code="wrong-step", clause="A.vote.order")
    run(game, Nominate(1, 7))
    adv(game)
    run(game, Nominate(2, 4))
    adv(game)
    run(game, Nominate(3, 9))
    events: list[E.Event] = []
    while game.step == "speech":
        events += adv(game)
        if game.step == "speech":
            assert not of(events, E.VotingStarted)  # not before the last speech
    assert game.seat == 7 and game.step == "voting"
    started = one(events, E.VotingStarted)
    assert started.candidates == (7, 4, 9) and started.kind == "vote"
    assert describe_event_line(started, "ru").startswith("В городе голосование")
    assert "7" in describe_event_line(started, "ru")
    refused(game, Vote(1, 4), code="not-a-candidate", clause="A.vote.one")
    run(game, Vote(1, 7), Vote(2, 7))
    events = adv(game)
    assert steps(events) == [("voting", 4, 0)] and game.round == 1
    refused(game, Vote(3, 7), code="not-a-candidate")
    run(game, Vote(3, 4), Vote(4, 4), Vote(5, 4))
    events = adv(game)
    result = one(events, E.VoteResult)
    assert result.tally == ((7, 2), (4, 3), (9, 5))
    assert result.leaving == (9,) and result.outcome == "out"


@pytest.mark.clause("A.vote.one")
def test_vote_one_each_living_player_votes_at_most_once() -> None:
    """A.vote.one: each living player (candidates too) votes for at most one candidate."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    finish_day(game)
    shoot_all(game, 10)
    nominate_all(game, [5, 8, 1])
    assert game.step == "voting" and game.seat == 5
    run(game, Vote(5, 5))  # a candidate votes, even for himself
    refused(game, Vote(5, 5), code="already-voted", clause="A.vote.one")
    refused(game, Vote(10, 5), code="cannot-vote", clause="A.vote.one")  # killed last night
    refused_as(game, Vote(2, 5), actor=3, code="not-yours")
    game.execute(Vote(8, 5), actor=8)
    adv(game)
    assert game.seat == 8
    refused(game, Vote(5, 8), code="already-voted")  # he voted for 5 already
    refused(game, Vote(8, 8), code="already-voted")
    run(game, Vote(1, 8))
    assert {Vote(v, 8) for v in (2, 3, 4, 6, 7, 9)} <= set(game.legal_commands())
    assert not {Vote(v, 8) for v in (1, 5, 8, 10)} & set(game.legal_commands())
    events = adv(game)
    result = one(events, E.VoteResult)
    assert result.tally == ((5, 2), (8, 1), (1, 6))
    assert sum(v for _, v in result.tally) == 9  # 9 living voters, one vote each


@pytest.mark.clause("A.vote.default")
def test_vote_default_goes_to_the_last_candidate() -> None:
    """A.vote.default: a player who did not vote has his vote go to the last candidate in the order."""
    game = new_game("club")
    nominate_all(game, [2, 5, 9])
    events = cast(game, {2: [1, 3, 4, 6], 5: [2, 7]})
    default = one(events, E.DefaultVotes)
    assert default.candidate == 9 and default.voters == (5, 8, 9, 10)
    result = one(events, E.VoteResult)
    assert result.tally == ((2, 4), (5, 2), (9, 4))
    assert result.outcome == "tie"  # 2 and 9 share the most: 4 each


@pytest.mark.clause("A.vote.day1-single")
def test_vote_day1_single_candidate_not_voted_later_days_he_leaves() -> None:
    """A.vote.day1-single: on day 1 a single candidate is not voted on and night falls; on later days a
    single candidate receives every vote and leaves."""
    game = new_game("club")
    events = nominate_all(game, [5])
    result = one(events, E.VoteResult)
    assert result.outcome == "single-day1" and result.leaving == ()
    assert not of(events, E.VotingStarted) and not of(events, E.PlayerLeft)
    assert game.step == "shooting" and game.alive[5]
    miss_night(game)
    events = nominate_all(game, [5])
    started = one(events, E.VotingStarted)
    assert started.candidates == (5,)
    assert one(events, E.DefaultVotes).voters == tuple(range(1, 11))
    result = one(events, E.VoteResult)
    assert result.tally == ((5, 10),) and result.outcome == "out"
    assert not game.alive[5] and game.step == "last_word" and game.seat == 5


@pytest.mark.clause("A.vote.result")
def test_vote_result_most_votes_leaves_and_speaks() -> None:
    """A.vote.result: the candidate with the most votes leaves and speaks his last minute."""
    game = new_game("club")
    nominate_all(game, [8, 2, 10])
    events = cast(game, {8: [1, 2, 3, 4, 5, 6], 2: [7, 8]})
    result = one(events, E.VoteResult)
    assert result.tally == ((8, 6), (2, 2), (10, 2))
    assert result.leaving == (8,) and result.outcome == "out"
    left = one(events, E.PlayerLeft)
    assert (left.seat, left.how, left.day) == (8, "vote", 1)
    assert (game.step, game.seat, game.seconds) == ("last_word", 8, 60)
    assert game.alive == [False] + [True] * 7 + [False, True, True]
    adv(game)
    assert game.step == "shooting"


# --- ties ---------------------------------------------------------------------------------------------
@pytest.mark.clause("A.tie")
def test_tie_speeches_then_revote_among_the_tied_only() -> None:
    """A.tie: the tied speak 30 s each in nomination order, then a revote among them only, in the same
    order (A.vote.default applies to the last of them)."""
    game = new_game("club")
    nominate_all(game, [9, 2, 5])
    events = cast(game, {9: [1, 2, 3, 4], 2: [5, 6]})  # 9: 4, 2: 2, 5: 4 by default
    tie = one(events, E.VoteResult)
    assert tie.outcome == "tie" and tie.leaving == (9, 5)
    assert of(events, E.VotingStarted) == [E.VotingStarted("revote", (9, 5))]
    assert steps(events)[-1] == ("tie_speech", 9, 30)
    assert game.alive_count == 10
    events = adv(game)
    assert steps(events) == [("tie_speech", 5, 30)]
    events = adv(game)
    assert steps(events) == [("voting", 9, 0)]
    refused(game, Vote(1, 2), code="not-a-candidate")  # 2 is out of the revote
    run(game, Vote(1, 9), Vote(2, 9), Vote(3, 9))
    events = adv(game)
    assert one(events, E.DefaultVotes) == E.DefaultVotes(5, (4, 5, 6, 7, 8, 9, 10))
    result = one(events, E.VoteResult)
    assert result.kind == "revote" and result.tally == ((9, 3), (5, 7))
    assert result.outcome == "out" and result.leaving == (5,)
    assert (game.step, game.seat, game.seconds) == ("last_word", 5, 60)


@pytest.mark.clause("A.tie.again")
def test_tie_again_different_number_revotes_same_number_asks_to_lift() -> None:
    """A.tie.again: a revote tying a different number of players is revoted among those; tying the same
    number (same or different composition) leads to "Кто за то, чтобы все голосуемые покинули игру?"."""
    game = new_game("club")
    nominate_all(game, [1, 2, 3, 4])
    events = cast(game, {1: [1, 2, 3], 2: [4, 5, 6], 3: [7, 8, 9]})  # 3, 3, 3, 1
    assert one(events, E.VoteResult).leaving == (1, 2, 3)
    while game.step == "tie_speech":
        adv(game)
    events = cast(game, {1: [1, 2, 3, 4], 2: [5, 6, 7, 8]})  # 4, 4, 2: two tied now
    tie = one(events, E.VoteResult)
    assert tie.outcome == "tie" and tie.leaving == (1, 2)
    assert of(events, E.VotingStarted) == [E.VotingStarted("revote", (1, 2))]
    assert game.step == "tie_speech"
    while game.step == "tie_speech":
        adv(game)
    events = cast(game, {1: [1, 2, 3, 4, 5]})  # 5, 5: the same number again
    assert one(events, E.VoteResult).leaving == (1, 2)
    lift = of(events, E.VotingStarted)[-1]
    assert lift == E.VotingStarted("lift", (1, 2))
    assert describe_event_line(lift, "ru").startswith("Кто за то, чтобы")
    assert game.step == "lift" and game.alive_count == 10


@pytest.mark.clause("A.tie.again")
def test_tie_again_same_number_different_composition_asks_to_lift() -> None:
    """A.tie.again: the same number tied, with a different composition, also goes to the lift question."""
    game = new_game("club")
    nominate_all(game, [1, 2, 3])
    events = cast(game, {1: [1, 2, 3, 4], 2: [5, 6, 7, 8]})  # 4, 4, 2
    assert one(events, E.VoteResult).leaving == (1, 2)
    while game.step == "tie_speech":
        adv(game)
    # the revote is among 1 and 2 only: the composition can only stay; revoting again keeps two tied
    events = cast(game, {1: [1, 2, 3, 4, 5]})
    assert of(events, E.VotingStarted)[-1].kind == "lift"
    # a three-way tie that comes back as a different pair of two after a two-way revote
    game = new_game("club")
    nominate_all(game, [1, 2, 3, 4])
    cast(game, {1: [1, 2, 3], 2: [4, 5, 6], 3: [7, 8, 9]})  # 1, 2, 3 tied (3 each)
    while game.step == "tie_speech":
        adv(game)
    events = cast(game, {1: [1, 2, 3, 4], 2: [5, 6, 7, 8]})  # 1 and 2 tied (2 players)
    assert one(events, E.VoteResult).leaving == (1, 2)
    while game.step == "tie_speech":
        adv(game)
    events = cast(game, {1: [1, 2, 3, 4, 5]})
    assert of(events, E.VotingStarted)[-1] == E.VotingStarted("lift", (1, 2))


@pytest.mark.clause("A.tie.lift")
def test_tie_lift_more_than_half_sends_all_with_last_words() -> None:
    """A.tie.lift: the tied all leave if more than half of the living vote yes; each gets a last minute."""
    game = new_game("club")
    nominate_all(game, [2, 8])
    cast(game, {2: [1, 2, 3, 4, 5]})
    while game.step == "tie_speech":
        adv(game)
    cast(game, {2: [1, 2, 3, 4, 5]})
    assert game.step == "lift"
    refused(game, Vote(1, 2), code="wrong-step")
    run(game, *[LiftVote(v) for v in (1, 2, 3, 4, 5, 6)])
    refused(game, LiftVote(1), code="already-voted", clause="A.tie.lift")
    events = adv(game)
    result = one(events, E.VoteResult)
    assert result.outcome == "lift" and result.leaving == (2, 8) and result.tally == ((0, 6),)
    assert [(e.seat, e.how) for e in of(events, E.PlayerLeft)] == [(2, "lift"), (8, "lift")]
    assert (game.step, game.seat, game.seconds) == ("last_word", 2, 60)
    events = adv(game)
    assert steps(events) == [("last_word", 8, 60)]
    events = adv(game)
    assert steps(events)[0][0] == "shooting"
    refused(game, LiftVote(3), code="wrong-step", clause="A.tie.lift")


@pytest.mark.clause("A.tie.lift")
def test_tie_lift_even_split_or_no_majority_all_stay() -> None:
    """A.tie.lift: if no is the majority or the votes split evenly, the tied all stay."""
    for yes in (5, 2):
        game = new_game("club")
        nominate_all(game, [2, 8])
        cast(game, {2: [1, 2, 3, 4, 5]})
        while game.step == "tie_speech":
            adv(game)
        cast(game, {2: [1, 2, 3, 4, 5]})
        run(game, *[LiftVote(v) for v in range(1, yes + 1)])
        events = adv(game)
        result = one(events, E.VoteResult)
        assert result.outcome == "stay" and result.leaving == () and result.tally == ((0, yes),)
        assert not of(events, E.PlayerLeft) and game.alive_count == 10
        assert game.step == "shooting"


@pytest.mark.clause("A.tie.four")
def test_tie_four_two_tied_lifted_together_at_four_players() -> None:
    """A.tie.four: with 4 players at the table two tied players may be lifted together."""
    game = four_players()
    nominate_all(game, [9, 3])
    assert game.step == "voting"
    cast(game, {9: [6, 9]})  # 2 and 2
    while game.step == "tie_speech":
        adv(game)
    cast(game, {9: [6, 9]})
    assert game.step == "lift"
    run(game, LiftVote(6), LiftVote(9), LiftVote(10))  # 3 of 4
    events = adv(game)
    result = one(events, E.VoteResult)
    assert result.outcome == "lift" and result.leaving == (9, 3)
    assert [e.seat for e in of(events, E.PlayerLeft)] == [9, 3]
    assert one(events, E.GameEnded) == E.GameEnded("red", "black-gone")  # the Don was lifted with 9


@pytest.mark.clause("A.tie.four")
def test_tie_four_two_of_four_lifted_gives_parity_when_red_goes() -> None:
    """A.tie.four: lifting two red players at four leaves 1 black and 1 red: black wins at once."""
    game = four_players()
    nominate_all(game, [9, 10])
    cast(game, {9: [3, 9]})
    while game.step == "tie_speech":
        adv(game)
    cast(game, {9: [3, 9]})
    run(game, LiftVote(3), LiftVote(6), LiftVote(9))
    events = adv(game)
    assert [e.seat for e in of(events, E.PlayerLeft)] == [9, 10]
    assert one(events, E.GameEnded) == E.GameEnded("black", "parity")


@pytest.mark.clause("A.tie.four")
def test_tie_four_lift_needs_three_of_four_and_is_an_option() -> None:
    """A.tie.four: at four the lift still needs more than half (3 of 4); the rule is an option
    (lift_two_at_four): with it off, two tied at four are not lifted."""
    game = four_players()
    nominate_all(game, [9, 10])
    cast(game, {9: [3, 9]})
    while game.step == "tie_speech":
        adv(game)
    cast(game, {9: [3, 9]})
    run(game, LiftVote(3), LiftVote(9))  # 2 of 4: an even split
    events = adv(game)
    assert one(events, E.VoteResult).outcome == "stay" and game.living() == [3, 6, 9, 10]
    variant = CLUB.variant("club-no-lift4", lift_two_at_four=False)
    game = new_game(variant, roles=CLUB_DECK)
    down_to_five(game)
    shoot_all(game, 8)
    nominate_all(game, [9, 10])
    cast(game, {9: [3, 9]})
    while game.step == "tie_speech":
        adv(game)
    events = cast(game, {9: [3, 9]})
    assert one(events, E.VoteResult).outcome == "no-lift"
    assert game.step == "shooting" and game.alive_count == 4


def _nine_tied_twice(game: Game) -> list[E.Event]:
    """Day 2 at nine players: 2, 5 and 8 nominated, tied 3-3-3 in the vote and again in the revote."""
    nominate_all(game, [2, 5, 8])
    events = cast(game, {2: [2, 3, 4], 5: [5, 6, 7]})  # 3, 3, 3
    assert one(events, E.VoteResult).leaving == (2, 5, 8)
    while game.step == "tie_speech":
        adv(game)
    return cast(game, {2: [2, 3, 4], 5: [5, 6, 7]})


@pytest.mark.clause("A.tie.nine")
def test_tie_nine_three_tied_are_put_to_the_lift_question_in_club() -> None:
    """A.tie.nine (D): seed A's lift rule has no exception at nine players (only four is special), so in
    `club` three players tied twice at nine are asked "все голосуемые покинули игру?" like any others."""
    game = nine_players()
    events = _nine_tied_twice(game)
    assert of(events, E.VotingStarted)[-1] == E.VotingStarted("lift", (2, 5, 8))
    assert game.step == "lift"
    run(game, *[LiftVote(v) for v in (2, 3, 4, 5, 6)])  # 5 of 9
    events = adv(game)
    assert one(events, E.VoteResult).outcome == "lift"
    assert [e.seat for e in of(events, E.PlayerLeft)] == [2, 5, 8]


@pytest.mark.clause("A.tie.nine")
def test_tie_nine_is_an_option_with_three_readings() -> None:
    """A.tie.nine: `lift_three_at_nine` is 'allowed' (club), 'never' (fiim) or 'not-day1'."""
    assert CLUB.lift_three_at_nine == "allowed" and get_ruleset("fiim").lift_three_at_nine == "never"
    never = CLUB.variant("club-never9", lift_three_at_nine="never")
    game = nine_players_with(never)
    events = _nine_tied_twice(game)
    result = one(events, E.VoteResult)
    assert result.outcome == "no-lift" and result.leaving == ()
    assert not of(events, E.PlayerLeft) and game.alive_count == 9 and game.step == "shooting"
    not_day1 = CLUB.variant("club-day1", lift_three_at_nine="not-day1")
    game = nine_players_with(not_day1)  # day 2: the question is put
    _nine_tied_twice(game)
    assert game.step == "lift"
    # day 1 at nine players: 10 removed during the vote, three tied twice: no lift question
    game = new_game(not_day1, roles=CLUB_DECK)
    nominate_all(game, [2, 5, 8])
    run(game, Vote(1, 2), Vote(2, 2), Remove(10, "insult"), Vote(3, 2))
    events = cast(game, {5: [4, 5, 6]})  # 3, 3 and 7, 8, 9 by default
    assert one(events, E.VoteResult).leaving == (2, 5, 8) and game.alive_count == 9
    while game.step == "tie_speech":
        adv(game)
    events = cast(game, {2: [2, 3, 4], 5: [5, 6, 7]})
    assert one(events, E.VoteResult).outcome == "no-lift" and game.step == "shooting"
    with pytest.raises(RuleSetError):
        CLUB.variant("club-bad9", lift_three_at_nine="sometimes")


def nine_players_with(rules: Any) -> Game:
    game = new_game(rules, roles=CLUB_DECK)
    advance_until(game, "speech", day=1, seat=1)
    finish_day(game)
    shoot_all(game, 1)
    return game


@pytest.mark.clause("A.tie.all")
def test_tie_all_the_whole_table_tied_speaks_and_revotes_first() -> None:
    """A.tie.all: a whole-table tie in the first vote is a tie like any other (A.tie): every player speaks
    30 s and the table votes again; nobody leaves only if the revote ties every living player again."""
    game = new_game("club")
    nominate_all(game, list(range(1, 11)))
    assert game.candidates == list(range(1, 11))
    events = cast(game, {c: [c] for c in range(1, 10)})  # one vote each; 10's is his default
    assert one(events, E.DefaultVotes) == E.DefaultVotes(10, (10,))
    result = one(events, E.VoteResult)
    assert result.outcome == "tie" and result.leaving == tuple(range(1, 11))
    assert of(events, E.VotingStarted)[-1] == E.VotingStarted("revote", tuple(range(1, 11)))
    assert steps(events)[-1] == ("tie_speech", 1, 30)
    speakers = []
    while game.step == "tie_speech":
        speakers.append(game.seat)
        adv(game)
    assert speakers == list(range(1, 11))
    events = cast(game, {c: [c] for c in range(1, 10)})
    result = one(events, E.VoteResult)
    assert result.kind == "revote" and result.outcome == "all-tied" and result.leaving == ()
    assert not of(events, E.PlayerLeft) and game.step == "shooting" and game.alive_count == 10
    # at four players: all four tied twice
    game = four_players()
    nominate_all(game, [6, 9, 10, 3])
    events = cast(game, {6: [6], 9: [9], 10: [10]})
    assert one(events, E.VoteResult).outcome == "tie" and game.step == "tie_speech"
    while game.step == "tie_speech":
        adv(game)
    events = cast(game, {6: [6], 9: [9], 10: [10]})
    assert one(events, E.VoteResult).outcome == "all-tied"
    assert game.step == "shooting" and game.alive_count == 4


@pytest.mark.clause("A.foul.reasons")
def test_foul_reasons_the_seeds_list_and_free_text() -> None:
    """A.foul.reasons: the console offers the seed's foul reasons (in both languages) and a free text."""
    assert FOUL_REASONS == ("unethical", "night_conduct", "gestures", "hand_pulled", "out_of_turn",
                            "forbidden_words", "night_gestures", "table_banging", "late_mask", "religion",
                            "touching")
    for code in FOUL_REASONS:
        en, ru = REASON_NAMES[code]
        assert en and ru and en != ru
    assert "честно" in REASON_NAMES["forbidden_words"][1]
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


# --- removals -----------------------------------------------------------------------------------------
@pytest.mark.clause("A.remove.reasons")
def test_remove_reasons_the_seeds_list() -> None:
    """A.remove.reasons: removal for the 4th foul, insult, disputes and bets, oaths, arguing with the judge,
    night hints, peeping, leaving the seat, night touches (and a free text)."""
    assert REMOVAL_REASONS == ("foul4", "insult", "bets", "oath", "judge_dispute", "night_hints", "peeping",
                               "left_seat", "night_touch")
    for code in REMOVAL_REASONS:
        en, ru = REASON_NAMES[code]
        assert en and ru
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


# --- night --------------------------------------------------------------------------------------------
@pytest.mark.clause("A.night.shoot")
def test_night_shoot_all_black_on_one_living_player_kills() -> None:
    """A.night.shoot: every living black player shoots once; all on the same living player kill him at the
    end of the night."""
    game = new_game("club")
    nominate_all(game, [])
    assert game.step == "shooting" and game.day == 1
    refused(game, Shoot(1, 5), code="not-black", clause="A.night.shoot")
    refused(game, Shoot(SHERIFF, 5), code="not-black")
    refused(game, Shoot(DON, 11), code="bad-seat")
    refused_as(game, Shoot(DON, 5), actor=MAFIA_A, code="not-yours")
    events = run(game, Shoot(DON, 5), Shoot(MAFIA_A, 5), Shoot(MAFIA_B, 5))
    assert [e for e in events if isinstance(e, E.ShotFired)] == [
        E.ShotFired(DON, 5), E.ShotFired(MAFIA_A, 5), E.ShotFired(MAFIA_B, 5)]
    assert game.alive[5]
    events = finish_night(game)
    assert one(events, E.NightResult) == E.NightResult(1, 5)
    assert one(events, E.PlayerLeft) == E.PlayerLeft(5, "kill", 1, True)
    refused(game, Shoot(DON, 1), code="wrong-step", clause="A.night.shoot")
    # a black player may be shot by his own team too, and a dead player cannot be shot
    to_speeches(game)
    finish_day(game)
    refused(game, Shoot(DON, 5), code="not-alive", clause="A.night.shoot")
    run(game, Shoot(DON, MAFIA_A), Shoot(MAFIA_A, MAFIA_A), Shoot(MAFIA_B, MAFIA_A))
    events = finish_night(game)
    assert one(events, E.NightResult).killed == MAFIA_A


@pytest.mark.clause("A.night.shoot")
@pytest.mark.parametrize("shots", [
    [(DON, 5), (MAFIA_A, 5), (MAFIA_A, 5), (MAFIA_B, 5)],  # one player shot twice
    [(DON, 5), (MAFIA_A, 5), (MAFIA_B, 6)],  # two shot different players
    [(DON, 5), (MAFIA_A, 5)],  # one did not shoot
    [],  # nobody shot
], ids=["twice", "different", "one-missing", "none"])
def test_night_shoot_miss(shots: list[tuple[int, int]]) -> None:
    """A.night.shoot: a miss is declared if one player shot twice, two shot different players, or one did
    not shoot."""
    game = new_game("club")
    nominate_all(game, [])
    run(game, *[Shoot(s, t) for s, t in shots])
    events = finish_night(game)
    assert one(events, E.NightResult) == E.NightResult(1, 0)
    assert not of(events, E.PlayerLeft) and game.alive_count == 10
    assert (game.day, game.step, game.seat) == (2, "speech", 2)  # no last word after a miss


@pytest.mark.clause("A.night.shoot")
def test_night_shoot_no_third_shot() -> None:
    """A.night.shoot: a black player shoots once; a second shot spoils the night, a third is refused."""
    game = new_game("club")
    nominate_all(game, [])
    run(game, Shoot(DON, 5), Shoot(DON, 5))
    refused(game, Shoot(DON, 5), code="shot-twice", clause="A.night.shoot")


@pytest.mark.clause("A.night.checks")
def test_night_checks_order_shot_don_sheriff_and_a_shot_sheriff_still_checks() -> None:
    """A.night.checks: the order is shot, Don check, Sheriff check; each checks one player; a Sheriff shot
    that night still checks."""
    game = new_game("club")
    nominate_all(game, [])
    assert game.step == "shooting"
    refused(game, Check(DON, SHERIFF), code="wrong-step", clause="A.night.checks")
    run(game, *[Shoot(s, SHERIFF) for s in BLACK])
    events = adv(game)
    assert steps(events) == [("check_don", 0, 0)] and game.checker_seat() == DON
    assert view(game, "spectator")["seat"] == 0
    refused(game, Check(SHERIFF, 4), code="not-checker", clause="A.night.checks")
    refused(game, Check(DON, DON), code="check-self")
    refused(game, Shoot(DON, 1), code="wrong-step")
    events = run(game, Check(DON, SHERIFF))
    assert events == [E.Checked(DON, SHERIFF, True)]
    refused(game, Check(DON, 1), code="already-checked", clause="A.night.checks")
    events = adv(game)
    assert steps(events) == [("check_sheriff", 0, 0)] and game.checker_seat() == SHERIFF
    assert view(game, "spectator")["seat"] == 0
    assert game.alive[SHERIFF]
    events = run(game, Check(SHERIFF, MAFIA_B))
    assert events == [E.Checked(SHERIFF, MAFIA_B, True)]
    refused(game, Check(SHERIFF, 1), code="already-checked")
    events = adv(game)
    assert one(events, E.NightResult).killed == SHERIFF
    assert game.checks == [(1, DON, SHERIFF, True), (1, SHERIFF, MAFIA_B, True)]
    # the Don looks for the Sheriff ("no" for anyone else), the Sheriff for black ("no" for red)
    finish_day(game)
    to_shooting(game)
    adv(game)
    assert one(run(game, Check(DON, 1)), E.Checked).found is False


@pytest.mark.clause("A.night.checks")
def test_night_checks_dead_checker_does_not_check() -> None:
    """A.night.checks: a dead checker does not check: the host still calls his step (skipping it would
    tell the table who held the role), but the step only ends."""
    game = new_game("club")
    nominate_all(game, [])
    shoot_all(game, SHERIFF)  # the Sheriff dies on night 1
    vote_out(game, DON)  # the Don leaves on day 2
    to_shooting(game)
    events = adv(game)
    assert steps(events) == [("check_don", 0, 0)] and game.checker_seat() == 0
    refused(game, Check(DON, 1), code="not-checker", clause="A.night.checks")
    assert [c.type for c in game.legal_commands(None, extras=False)] == ["advance"]
    events = adv(game)
    assert steps(events) == [("check_sheriff", 0, 0)] and game.checker_seat() == 0
    refused(game, Check(SHERIFF, 1), code="not-checker", clause="A.night.checks")
    assert [c.type for c in game.legal_commands(None, extras=False)] == ["advance"]
    events = adv(game)
    assert one(events, E.NightResult).night == 2
    assert game.phase == "day"
    night2 = [(e.step, e.seat) for e in game.log
              if isinstance(e, E.Step) and e.day == 2 and e.step.startswith("check")]
    assert night2 == [("check_don", 0), ("check_sheriff", 0)]
    assert not [c for c in game.checks if c[0] == 2]


@pytest.mark.clause("A.night.misses")
def test_night_misses_three_in_a_row_without_a_vote_red_wins() -> None:
    """A.night.misses: after three mafia misses in a row, with no one voted out on the days between, red
    wins (a vote on day 1, before the first of them, does not matter)."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    vote_out(game, 5)
    for night in (1, 2):
        events = miss_night(game)
        assert one(events, E.NightResult) == E.NightResult(night, 0) and not game.over
        nominate_all(game, [])
    events = miss_night(game)
    assert one(events, E.NightResult) == E.NightResult(3, 0)
    assert one(events, E.GameEnded) == E.GameEnded("red", "misses")
    assert (game.over, game.winner, game.result, game.step) == (True, "red", "misses", "over")
    refused(game, Advance(), code="game-over", clause="A.win")


@pytest.mark.clause("A.night.misses")
def test_night_misses_a_vote_between_or_a_kill_restarts_the_count() -> None:
    """A.night.misses: a player voted out on a day between the misses, or a kill, restarts the count."""
    game = new_game("club")
    nominate_all(game, [])
    miss_night(game)  # night 1
    nominate_all(game, [])
    miss_night(game)  # night 2
    vote_out(game, 9)  # day 3, between nights 2 and 3
    miss_night(game)  # night 3: the third miss in a row, but someone was voted out between
    assert not game.over
    nominate_all(game, [])
    miss_night(game)  # night 4
    assert not game.over
    nominate_all(game, [])
    events = miss_night(game)  # night 5: nights 3, 4, 5 with no vote on days 4 and 5
    assert one(events, E.GameEnded) == E.GameEnded("red", "misses")
    # a kill in the middle
    game = new_game("club")
    nominate_all(game, [])
    miss_night(game)  # 1
    nominate_all(game, [])
    shoot_all(game, 10)  # 2: a kill
    nominate_all(game, [])
    miss_night(game)  # 3
    nominate_all(game, [])
    miss_night(game)  # 4
    assert not game.over
    nominate_all(game, [])
    events = miss_night(game)  # 5
    assert one(events, E.GameEnded).result == "misses"


@pytest.mark.clause("A.night.four")
def test_night_four_three_nights_without_a_kill_at_four_players_red_wins() -> None:
    """A.night.four: with 4 players at the table, three nights in a row without a kill give red the win."""
    game = four_players()
    nominate_all(game, [])
    miss_night(game)  # night 4
    nominate_all(game, [])
    to_shooting(game)
    run(game, Shoot(DON, 9), Shoot(DON, 10))  # night 5: a shot spoiled
    events = finish_night(game)
    assert one(events, E.NightResult).killed == 0 and not game.over
    nominate_all(game, [])
    events = miss_night(game)  # night 6
    assert one(events, E.GameEnded) == E.GameEnded("red", "four-nights")
    assert game.living() == [3, 6, 9, 10]


@pytest.mark.clause("A.night.four")
def test_night_four_counts_only_nights_at_four_players() -> None:
    """A.night.four: nights with more than four players at the table do not count towards it."""
    variant = CLUB.variant("club-no-misses", misses_win=0)
    game = new_game(variant, roles=CLUB_DECK)
    down_to_five(game)
    miss_night(game)  # night 3 at 5 players
    nominate_all(game, [])
    miss_night(game)  # night 4 at 5 players
    vote_out(game, 8)  # day 5: 4 players now
    for _ in range(2):
        miss_night(game)
        assert not game.over
        nominate_all(game, [])
    events = miss_night(game)  # nights 5, 6, 7 at 4 players
    assert one(events, E.GameEnded) == E.GameEnded("red", "four-nights")


# --- results ------------------------------------------------------------------------------------------
@pytest.mark.clause("A.win")
def test_win_red_when_no_black_left_checked_at_the_departure() -> None:
    """A.win: red wins when no black player is left, checked at the moment of the departure; the final
    minute changes nothing (fouls during it are not taken)."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    vote_out(game, MAFIA_A)
    shoot_all(game, 1)
    vote_out(game, MAFIA_B)
    shoot_all(game, 2)
    events = vote_out(game, DON)
    assert [type(e) for e in events[-3:]] == [E.VoteResult, E.PlayerLeft, E.GameEnded]
    assert one(events, E.GameEnded) == E.GameEnded("red", "black-gone")
    assert (game.over, game.winner, game.result, game.phase) == (True, "red", "black-gone", "over")
    refused(game, Foul(DON), code="game-over", clause="A.win")
    refused(game, Foul(SHERIFF), code="game-over")
    refused(game, Advance(), code="game-over")
    refused(game, Remove(9), code="game-over")
    assert {type(c) for c in game.legal_commands()} <= {Override, Protest, Undo}


@pytest.mark.clause("A.win")
def test_win_black_at_parity_after_a_night_kill() -> None:
    """A.win: black wins when black players are at least as many as red ones (here after a night kill)."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    vote_out(game, 1)
    shoot_all(game, 2)
    vote_out(game, 5)
    events = shoot_all(game, 8)  # 3 black, 3 red
    assert one(events, E.PlayerLeft) == E.PlayerLeft(8, "kill", 2, True)
    assert one(events, E.GameEnded) == E.GameEnded("black", "parity")
    assert game.winner == "black" and game.over


@pytest.mark.clause("A.win")
def test_win_checked_after_removals_too() -> None:
    """A.win: the win is checked after every departure, removals included."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    run(game, Remove(DON, "oath"), Remove(MAFIA_A, "oath"))
    assert not game.over
    events = run(game, Remove(MAFIA_B, "oath"))
    assert one(events, E.GameEnded) == E.GameEnded("red", "black-gone")
    # and removals of red players at parity give black the win
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    run(game, Remove(1), Remove(2), Remove(5))
    assert not game.over  # 3 black, 4 red
    events = run(game, Remove(8))
    assert one(events, E.GameEnded) == E.GameEnded("black", "parity")


def red_won_by_removals() -> Game:
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    run(game, *[Remove(s, "insult") for s in BLACK])
    assert game.winner == "red" and game.result == "black-gone"
    return game


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


@pytest.mark.clause("A.timing")
def test_timing_speech_tie_last_word_short() -> None:
    """A.timing: speech 60 s; tie speech 30 s; last word 60 s; short speech 30 s."""
    assert CLUB.speech_rounds == (60,)
    assert (CLUB.tie_speech_seconds, CLUB.last_word_seconds, CLUB.short_speech_seconds) == (30, 60, 30)
    game = new_game("club")
    events = nominate_all(game, [2, 8])
    assert {s[2] for s in steps(events) if s[0] == "speech"} == {60}
    cast(game, {2: [1, 2, 3, 4, 5]})
    assert (game.step, game.seconds) == ("tie_speech", 30)
    while game.step == "tie_speech":
        adv(game)
    cast(game, {2: [1, 2, 3, 4, 5, 6]})
    assert (game.step, game.seat, game.seconds) == ("last_word", 2, 60)
    game = four_players()
    run(game, Foul(10), Foul(10), Foul(10))
    advance_until(game, "muted", seat=10)
    assert game.seconds == 30


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


@pytest.mark.clause("A.win")
def test_the_player_whose_departure_ends_the_game_has_a_final_word() -> None:
    """A.win F: the last player to leave still speaks his final minute; fouls during it change nothing."""
    from sportmafia.engine import view

    game = new_game("club")
    advance_until(game, "shooting", day=1)
    game.execute(Remove(3, "insult"))
    game.execute(Remove(4, "insult"))
    game.execute(Shoot(7, 1))
    game.execute(Advance())
    advance_until(game, "speech", day=2)
    game.execute(Nominate(game.seat, 7))
    while not game.over:  # the rest speak; 7 is the only candidate: every vote goes to him, and red wins
        game.execute(Advance())
    assert game.over and game.winner == "red"
    assert game.final_words() == [7]
    assert view(game, "spectator")["final_words"] == [7]
    refused(game, Foul(7), "game-over", "A.win")


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


@pytest.mark.clause("A.vote.default")
def test_without_the_default_vote_the_last_candidate_is_voted_on_too() -> None:
    """A.vote.default as an option: a club variant without it votes on the last candidate like the others,
    and a player who raised no hand gives no vote."""
    from sportmafia.rules import CLUB

    from ..conftest import CLUB_DECK

    game = new_game(CLUB.variant("no-default", default_vote=False), roles=CLUB_DECK)
    advance_until(game, "speech", day=1, seat=1)
    game.execute(Nominate(1, 5))
    game.execute(Advance())
    game.execute(Nominate(2, 6))
    advance_until(game, "voting")
    game.execute(Vote(1, 5))
    game.execute(Advance())
    assert (game.step, game.seat) == ("voting", 6)
    game.execute(Vote(2, 6))
    game.execute(Vote(3, 6))
    game.execute(Advance())
    result = [e for e in game.log if e.type == "vote_result"][-1]
    assert dict(result.tally) == {5: 1, 6: 2} and result.leaving == (6,)
    assert not any(e.type == "default_votes" for e in game.log)
