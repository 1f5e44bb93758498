"""Scenario tests for the `tournament` preset (seed B, RULEBOOK.md "Preset `tournament`"): B.table, B.setup,
B.deal, B.flow, B.speech.order, B.rounds, B.leaders, B.defence, B.vote, B.tie, B.lot, B.lastword, B.night,
B.win, B.sanctions, B.sheet, B.timing.

The deck used by most scenarios (12 players): mafia 2, 5 and 9, Commissar 7, the rest civilians.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sportmafia.engine import (
    SANCTIONS,
    Advance,
    Award,
    Check,
    DealCards,
    DrawFirstSpeaker,
    DrawLot,
    Foul,
    Game,
    HiddenView,
    Kill,
    Nominate,
    Override,
    Remove,
    RuleViolation,
    Sanction,
    Shoot,
    TeamDefeat,
    Vote,
    replay,
    to_record,
    view,
)
from sportmafia.engine import events as E
from sportmafia.rules import RuleSetError, get_ruleset
from tests.conftest import new_game, refused

MAFIA = (2, 5, 9)
COMMISSAR = 7
DECK = tuple(
    "mafia" if s in MAFIA else "commissar" if s == COMMISSAR else "civilian" for s in range(1, 13)
)
TOURNAMENT = get_ruleset("tournament")


# --- helpers ---------------------------------------------------------------------------------------
def game12(names: list[str] | None = None) -> Game:
    """A 12-player tournament game with the fixed deck, at the day-0 first-speaker draw."""
    if names is None:
        return new_game("tournament", roles=DECK)
    game = Game(TOURNAMENT, 12, names)
    game.execute(DealCards(roles=DECK))
    return game


def of(events: list[E.Event], kind: type[E.Event]) -> list[E.Event]:
    return [e for e in events if isinstance(e, kind)]


def day0(game: Game, first: int = 1) -> list[E.Event]:
    """Day 0 and night 0: up to the first-speaker draw of day 1."""
    assert (game.step, game.day) == ("first_speaker", 0)
    out = game.execute(DrawFirstSpeaker(seat=first))
    while game.step != "first_speaker":
        out += game.execute(Advance())
    return out


def speeches(game: Game, first: int, noms: dict[int, int] | None = None) -> list[E.Event]:
    """Draw ``first`` as the day's first speaker and play both rounds; ``noms``: round-2 nominations."""
    noms = noms or {}
    out = game.execute(DrawFirstSpeaker(seat=first))
    while game.step == "speech":
        if game.round == 1 and game.seat in noms:
            out += game.execute(Nominate(game.seat, noms[game.seat]))
        out += game.execute(Advance())
    return out


def defences(game: Game) -> list[E.Event]:
    out: list[E.Event] = []
    while game.step == "defence":
        out += game.execute(Advance())
    return out


def vote(game: Game, ballots: dict[int, int]) -> list[E.Event]:
    """Cast ``ballots`` (voter -> leader; the others abstain) and close the vote."""
    assert game.step == "voting", game.step
    out: list[E.Event] = []
    for voter, leader in ballots.items():
        out += game.execute(Vote(voter, leader))
    return out + game.execute(Advance())


def ballots(voters: range | list[int] | tuple[int, ...], leader: int) -> dict[int, int]:
    return dict.fromkeys(voters, leader)


def last_words(game: Game) -> list[tuple[int, int]]:
    """Play the last words in a row: (seat, seconds) of each."""
    out = []
    while game.step == "last_word":
        out.append((game.seat, game.seconds))
        game.execute(Advance())
    return out


def night(game: Game, kill: int, check: int = 0) -> list[E.Event]:
    """Play a night N>=1: the Commissar checks ``check`` (0: no check), the mafia kills ``kill``."""
    out: list[E.Event] = []
    if game.step == "check_commissar":
        if check:
            out += game.execute(Check(COMMISSAR, check))
        out += game.execute(Advance())
    assert game.step == "kill", game.step
    out += game.execute(Kill(kill))
    return out + game.execute(Advance())


def refused_without_rng(game: Game, command: object, clause: str) -> None:
    """A chance command with no outcome and no random generator is refused (``refused`` passes one)."""
    before, log_len = game.snapshot(), len(game.log)
    with pytest.raises(RuleViolation) as info:
        game.execute(command)  # type: ignore[arg-type]
    assert info.value.code == "need-rng" and info.value.clause == clause, info.value
    assert info.value.message_ru and info.value.message_en
    assert game.snapshot() == before and len(game.log) == log_len


def day1() -> Game:
    game = game12()
    day0(game)
    assert (game.step, game.day) == ("first_speaker", 1)
    return game


# --- B.table ---------------------------------------------------------------------------------------
@pytest.mark.clause("B.table")
def test_b_table_twelve_to_sixteen_players() -> None:
    """B.table: tournament tables have 12 to 16 players; other sizes are refused in both languages."""
    for n in range(12, 17):
        game = Game(TOURNAMENT, n)
        assert game.n == n and game.living() == list(range(1, n + 1))
    for n in (10, 11, 17):
        with pytest.raises(RuleSetError) as info:
            Game(TOURNAMENT, n)
        assert info.value.message_ru and info.value.message_en
        assert "12-16" in info.value.message_en


@pytest.mark.clause("B.table")
def test_b_table_number_tags_seated_in_order() -> None:
    """B.table: number tags 1..N, seated strictly in order: there is no seat outside 1..N and the
    speeches go round the table by number."""
    game = game12()
    refused(game, DrawFirstSpeaker(seat=13), code="bad-seat")
    refused(game, DrawFirstSpeaker(seat=0), code="bad-seat")
    game.execute(DrawFirstSpeaker(seat=1))
    order = []
    while game.step == "speech":
        order.append(game.seat)
        game.execute(Advance())
    assert order == list(range(1, 13))


# --- B.setup ---------------------------------------------------------------------------------------
@pytest.mark.clause("B.setup")
def test_b_setup_role_counts_for_every_table_size() -> None:
    """B.setup: 3 mafia for 12-14 players, 4 for 15-16; the host may pick 3 or 4 for 13-15; one
    Commissar; the rest civilians: 9 to 12 peaceful players, the Commissar included. No Don, no Sheriff."""
    expected_options = {12: (3,), 13: (3, 4), 14: (3, 4), 15: (4, 3), 16: (4,)}
    for n, options in expected_options.items():
        assert TOURNAMENT.black_options(n) == options
        default = Counter(TOURNAMENT.roles_for(n))
        assert default["mafia"] == (3 if n <= 14 else 4)
        for black in options:
            deck = Counter(TOURNAMENT.roles_for(n, black))
            assert deck["mafia"] == black and deck["commissar"] == 1
            assert deck["civilian"] == n - black - 1
            assert 9 <= deck["civilian"] + deck["commissar"] <= 12
            assert not deck["don"] and not deck["sheriff"]
    for n, black in ((12, 4), (16, 3)):
        with pytest.raises(RuleSetError):
            TOURNAMENT.roles_for(n, black)


@pytest.mark.clause("B.setup")
def test_b_setup_host_picks_three_or_four_mafia() -> None:
    """B.setup: at 13-15 players the host picks 3 or 4 mafia; at 12 and 16 he cannot."""
    for n in (13, 14, 15):
        for black in (3, 4):
            game = Game(TOURNAMENT, n)
            events = game.execute(DealCards(black=black), random.Random(n))
            assert Counter(events[0].roles)["mafia"] == black
    refused(Game(TOURNAMENT, 12), DealCards(black=4), code="bad-deal")
    refused(Game(TOURNAMENT, 16), DealCards(black=3), code="bad-deal")
    sheriff_deck = ("sheriff", *DECK[1:])
    refused(Game(TOURNAMENT, 12), DealCards(roles=sheriff_deck), code="bad-deal")
    don_deck = ("don", *DECK[1:])
    refused(Game(TOURNAMENT, 12), DealCards(roles=don_deck), code="bad-deal")


# --- B.deal ----------------------------------------------------------------------------------------
@pytest.mark.clause("B.deal")
def test_b_deal_cards_dealt_at_random_for_every_game() -> None:
    """B.deal: the cards are dealt at random for every game anew; the deal is logged so a replay of the
    log gives the same cards."""
    game = Game(TOURNAMENT, 12)
    refused_without_rng(game, DealCards(), "B.deal")
    assert game.step == "deal"
    deals = set()
    for seed in range(8):
        game = Game(TOURNAMENT, 12)
        events = game.execute(DealCards(), random.Random(seed))
        assert isinstance(events[0], E.Dealt)
        assert Counter(events[0].roles) == Counter(TOURNAMENT.roles_for(12))
        assert tuple(game.roles[1:]) == events[0].roles
        deals.add(events[0].roles)
        again = Game.from_events(TOURNAMENT, 12, game.log)
        assert again.roles == game.roles and again.step == game.step
    assert len(deals) > 1
    refused(game, DealCards(), code="already-dealt")


@pytest.mark.clause("B.deal")
def test_b_deal_nothing_before_the_deal() -> None:
    """B.deal: the game starts with the deal; nothing else is possible before it."""
    game = Game(TOURNAMENT, 12)
    assert game.step == "deal" and game.phase == "setup"
    refused(game, DrawFirstSpeaker(seat=1), code="not-dealt")
    refused(game, Advance(), code="not-dealt")
    game.execute(DealCards(roles=DECK))
    assert game.step == "first_speaker"


# --- B.flow ----------------------------------------------------------------------------------------
@pytest.mark.clause("B.flow")
def test_b_flow_day_zero_introductions_and_night_zero_meetings() -> None:
    """B.flow: day 0 is one round of 30 s introductions, no nominations, no vote; night 0: the Commissar
    meets the host, then the mafia meets (B.night's order); no kill, no check; then day 1."""
    game = game12()
    assert (game.step, game.day, game.phase) == ("first_speaker", 0, "day")
    events = game.execute(DrawFirstSpeaker(seat=4))
    speakers = []
    while game.step == "speech":
        assert game.day == 0 and game.round == 0 and game.seconds == 30
        refused(game, Nominate(game.seat, 1), code="no-nominations-now")
        speakers.append(game.seat)
        events += game.execute(Advance())
    assert speakers == [4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2, 3]  # one round only
    assert (game.step, game.day, game.phase, game.seat) == ("meet_commissar", 0, "night", 0)
    assert view(game, "spectator")["seat"] == 0  # the step does not name the Commissar
    refused(game, Check(COMMISSAR, 2), code="wrong-step", clause="B.night")
    refused(game, Kill(1), code="wrong-step", clause="B.night")
    events += game.execute(Advance())
    assert (game.step, game.seat) == ("meet_black", 0)
    refused(game, Check(COMMISSAR, 2), code="wrong-step")
    refused(game, Kill(1), code="wrong-step")
    events += game.execute(Advance())
    assert (game.step, game.day, game.phase) == ("first_speaker", 1, "day")
    assert not of(events, E.VotingStarted) and not of(events, E.VoteResult)
    assert not of(events, E.NightResult) and not of(events, E.PlayerLeft)
    assert game.living() == list(range(1, 13)) and game.checks == []


@pytest.mark.clause("B.flow")
def test_b_flow_day_night_alternate_from_day_one() -> None:
    """B.flow: day 1, night 1, day 2, … each day after its night."""
    game = day1()
    steps = [(game.step, game.day)]
    speeches(game, 1, {1: 4})
    defences(game)
    vote(game, {})  # a single leader is the leader with the most votes: he leaves
    steps.append((game.step, game.day))
    last_words(game)
    night(game, 8)
    steps += [(game.step, game.day)]
    last_words(game)
    steps += [(game.step, game.day)]
    assert steps == [("first_speaker", 1), ("last_word", 1), ("last_word", 2), ("first_speaker", 2)]


# --- B.speech.order --------------------------------------------------------------------------------
@pytest.mark.clause("B.speech.order")
def test_b_speech_order_clockwise_from_a_drawn_first_speaker() -> None:
    """B.speech.order: each day's speeches go clockwise strictly in turn from the drawn first speaker,
    in both rounds, skipping players who left."""
    game = day1()
    refused(game, Advance(), code="need-rng", clause="B.speech.order")
    refused(game, Nominate(10, 1), code="wrong-step")
    order = []
    game.execute(DrawFirstSpeaker(seat=10))
    while game.step == "speech":
        order.append((game.round, game.seat))
        if (game.round, game.seat) == (1, 10):
            game.execute(Nominate(10, 4))
        game.execute(Advance())
    clockwise = [10, 11, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert order == [(0, s) for s in clockwise] + [(1, s) for s in clockwise]
    defences(game)
    vote(game, ballots(range(1, 8), 4))  # 4 leaves
    last_words(game)
    night(game, 11)  # 11 is killed
    last_words(game)
    assert game.step == "first_speaker" and game.day == 2
    refused(game, DrawFirstSpeaker(seat=11), code="not-alive", clause="B.speech.order")
    refused(game, DrawFirstSpeaker(seat=4), code="not-alive")
    game.execute(DrawFirstSpeaker(seat=3))
    order = []
    while game.step == "speech" and game.round == 0:
        order.append(game.seat)
        game.execute(Advance())
    assert order == [3, 5, 6, 7, 8, 9, 10, 12, 1, 2]


@pytest.mark.clause("B.speech.order")
def test_b_speech_order_first_speaker_drawn_at_random_among_the_living() -> None:
    """B.speech.order: the first speaker is drawn at random among the living players; the draw is logged."""
    seen = set()
    for seed in range(30):
        game = day1()
        game.execute(Remove(6, reason="left the table"))
        events = game.execute(DrawFirstSpeaker(), random.Random(seed))
        drawn = events[0]
        assert isinstance(drawn, E.FirstSpeakerDrawn)
        assert drawn.seat != 6 and game.alive[drawn.seat]
        assert (game.step, game.seat, game.round) == ("speech", drawn.seat, 0)
        assert game.log[-2] == drawn
        seen.add(drawn.seat)
    assert len(seen) > 3
    game = day1()
    refused_without_rng(game, DrawFirstSpeaker(), "B.speech.order")


# --- B.rounds --------------------------------------------------------------------------------------
@pytest.mark.clause("B.rounds")
def test_b_rounds_two_rounds_of_60_and_30_seconds() -> None:
    """B.rounds: from day 1 a day has two rounds, 60 s each, then 30 s each."""
    game = day1()
    game.execute(DrawFirstSpeaker(seat=1))
    seen = []
    while game.step == "speech":
        seen.append((game.round, game.seconds))
        game.execute(Advance())
    assert seen == [(0, 60)] * 12 + [(1, 30)] * 12


@pytest.mark.clause("B.rounds")
def test_b_rounds_nominations_only_in_round_two_one_each() -> None:
    """B.rounds: each player may nominate one candidate in the second round (only in his own speech)."""
    game = day1()
    game.execute(DrawFirstSpeaker(seat=1))
    assert game.round == 0
    refused(game, Nominate(1, 5), code="no-nominations-now", clause="B.rounds")
    assert not any(isinstance(c, Nominate) for c in game.legal_commands())
    while game.round == 0:
        game.execute(Advance())
    assert (game.round, game.seat) == (1, 1)
    assert Nominate(1, 5) in game.legal_commands()
    refused(game, Nominate(2, 5), code="not-your-speech")
    game.execute(Nominate(1, 5))
    refused(game, Nominate(1, 6), code="one-nomination", clause="B.rounds")
    assert not any(isinstance(c, Nominate) for c in game.legal_commands())
    game.execute(Advance())
    refused(game, Nominate(1, 6), code="not-your-speech")
    game.execute(Nominate(2, 5))  # the same candidate again counts as another nomination
    assert game.candidates == [5] and game.nominators == {5: [1, 2]}


# --- B.leaders -------------------------------------------------------------------------------------
@pytest.mark.clause("B.leaders")
def test_b_leaders_top_and_second() -> None:
    """B.leaders: unequal counts: the top one and the second go to the vote (3, 2 and 1 nominations)."""
    game = day1()
    events = speeches(game, 1, {1: 4, 2: 4, 3: 4, 4: 6, 5: 6, 6: 8})
    started = of(events, E.VotingStarted)
    assert len(started) == 1 and started[0].kind == "leaders"
    assert set(started[0].candidates) == {4, 6}
    assert game.vote_candidates == list(started[0].candidates)


@pytest.mark.clause("B.leaders")
def test_b_leaders_shared_top_count_all_go() -> None:
    """B.leaders: if two or more share the top count they are all leaders (and only they)."""
    game = day1()
    events = speeches(game, 1, {1: 4, 2: 4, 3: 6, 4: 6, 5: 8})
    assert set(of(events, E.VotingStarted)[0].candidates) == {4, 6}
    game = day1()
    events = speeches(game, 1, {1: 4, 2: 4, 3: 6, 4: 6, 5: 8, 6: 8, 7: 10})
    assert set(of(events, E.VotingStarted)[0].candidates) == {4, 6, 8}


@pytest.mark.clause("B.leaders")
def test_b_leaders_shared_second_count_all_go() -> None:
    """B.leaders: if several share the second count they all go with the top one."""
    game = day1()
    events = speeches(game, 1, {1: 4, 2: 4, 3: 4, 4: 6, 5: 8, 6: 10})
    assert set(of(events, E.VotingStarted)[0].candidates) == {4, 6, 8, 10}
    game = day1()
    events = speeches(game, 1, {1: 4, 2: 4, 3: 4, 4: 6, 5: 6, 6: 8, 7: 8, 8: 10})
    assert set(of(events, E.VotingStarted)[0].candidates) == {4, 6, 8}


@pytest.mark.clause("B.leaders")
def test_b_leaders_single_nominee_is_the_only_leader() -> None:
    """B.leaders D: a single nominated player is the only leader."""
    game = day1()
    events = speeches(game, 1, {1: 4, 2: 4, 3: 4})
    assert of(events, E.VotingStarted)[0].candidates == (4,)
    game = day1()
    events = speeches(game, 1, {12: 9})
    assert of(events, E.VotingStarted)[0].candidates == (9,)


# --- B.defence -------------------------------------------------------------------------------------
@pytest.mark.clause("B.defence")
def test_b_defence_each_leader_speaks_60_seconds_then_the_vote() -> None:
    """B.defence: each leader speaks 60 s in defence, then the final vote."""
    game = day1()
    speeches(game, 1, {1: 4, 2: 4, 3: 6, 4: 6, 5: 8, 6: 8, 7: 10})
    leaders = list(game.vote_candidates)
    assert set(leaders) == {4, 6, 8}
    seen = []
    while game.step == "defence":
        seen.append((game.seat, game.seconds))
        refused(game, Vote(1, game.seat), code="wrong-step", clause="B.vote")
        game.execute(Advance())
    assert seen == [(s, 60) for s in leaders]
    assert game.step == "voting"


@pytest.mark.clause("B.defence")
def test_b_defence_a_leader_who_left_does_not_speak() -> None:
    """B.defence: a leader removed before his defence does not speak; the others do."""
    game = day1()
    speeches(game, 1, {1: 4, 2: 4, 3: 6, 4: 6})
    assert game.step == "defence"
    first, second = game.vote_candidates
    game.execute(Remove(second, reason="insult"))
    assert (game.step, game.seat) == ("defence", first)
    game.execute(Advance())
    assert game.step == "voting"
    refused(game, Vote(1, second), code="not-a-leader")


@pytest.mark.clause("B.defence")
def test_b_defence_of_a_leader_removed_while_speaking_ends() -> None:
    """B.defence: a leader removed during his own defence speech stops; the next leader defends."""
    game = day1()
    speeches(game, 1, {1: 4, 2: 4, 3: 6, 4: 6})
    first, second = game.vote_candidates
    assert (game.step, game.seat) == ("defence", first)
    game.execute(Sanction(first, "card_info"))
    assert (game.step, game.seat, game.seconds) == ("defence", second, 60)


# --- B.vote ----------------------------------------------------------------------------------------
@pytest.mark.clause("B.vote")
def test_b_vote_the_leader_with_most_votes_leaves_no_default() -> None:
    """B.vote: each living player votes for one leader or abstains; the leader with the most votes
    leaves; no vote goes to anyone by default."""
    game = day1()
    speeches(game, 1, {1: 4, 2: 4, 3: 6})
    defences(game)
    assert game.step == "voting"
    events = vote(game, {1: 4, 4: 6, 6: 4})  # 9 abstain
    assert not of(events, E.DefaultVotes)
    assert of(events, E.VoteResult) == [E.VoteResult("leaders", ((4, 2), (6, 1)), (4,), "out")]
    assert E.PlayerLeft(4, "vote", 1, False) in events
    assert not game.alive[4] and game.alive[6]


@pytest.mark.clause("B.vote")
def test_b_vote_one_vote_each_for_a_leader_by_living_players() -> None:
    """B.vote: a vote goes to a leader only, once, and only from a living player."""
    game = day1()
    game.execute(Sanction(12, "card_info"))  # 12 is disqualified and leaves
    speeches(game, 1, {1: 4, 2: 6})
    defences(game)
    refused(game, Vote(1, 8), code="not-a-leader", clause="B.vote")
    refused(game, Vote(12, 4), code="cannot-vote", clause="B.vote")
    game.execute(Vote(1, 4))
    refused(game, Vote(1, 6), code="already-voted", clause="B.vote")
    refused(game, Vote(1, 4), code="already-voted")
    assert game.votes == {1: 4}
    legal_voters = {c.voter for c in game.legal_commands() if isinstance(c, Vote)}
    assert legal_voters == set(range(2, 12))


@pytest.mark.clause("B.vote")
def test_b_vote_single_leader_leaves_with_more_than_half() -> None:
    """B.vote: a single leader with 7 of 12 votes leaves (by either reading of the majority)."""
    game = day1()
    speeches(game, 1, {1: 4})
    defences(game)
    events = vote(game, ballots(range(1, 8), 4))
    assert of(events, E.VoteResult)[0].outcome == "out"
    assert E.PlayerLeft(4, "vote", 1, False) in events


@pytest.mark.clause("B.vote")
def test_b_vote_single_leader_stays_with_half() -> None:
    """B.vote, option single_leader_majority: a single leader with half of the votes (6 of 12) stays;
    night falls."""
    game = Game(TOURNAMENT.variant("half", single_leader_majority=True), 12)
    game.execute(DealCards(roles=DECK))
    day0(game)
    speeches(game, 1, {1: 4})
    defences(game)
    events = vote(game, ballots(range(1, 7), 4))
    assert of(events, E.VoteResult) == [E.VoteResult("leaders", ((4, 6),), (), "stay")]
    assert not of(events, E.PlayerLeft)
    assert game.alive[4] and game.step == "check_commissar"


# --- B.tie -----------------------------------------------------------------------------------------
@pytest.mark.clause("B.tie")
def test_b_tie_all_tied_leaders_leave() -> None:
    """B.tie: leaders sharing the most votes in the final vote all leave (each with a last word)."""
    game = day1()
    speeches(game, 1, {1: 4, 2: 4, 3: 6, 4: 6})
    defences(game)
    events = vote(game, {1: 4, 2: 4, 3: 4, 5: 6, 6: 6, 7: 6})
    result = of(events, E.VoteResult)[0]
    assert result.outcome == "tie-out" and set(result.leaving) == {4, 6}
    assert {(e.seat, e.how) for e in of(events, E.PlayerLeft)} == {(4, "vote"), (6, "vote")}
    assert sorted(s for s, _ in last_words(game)) == [4, 6]
    assert game.step == "check_commissar" and game.day == 1


@pytest.mark.clause("B.tie")
def test_b_tie_at_the_top_only() -> None:
    """B.tie: of three leaders the two sharing the most votes leave; the third stays."""
    game = day1()
    speeches(game, 1, {1: 4, 2: 4, 3: 6, 4: 6, 5: 8, 6: 8})
    defences(game)
    events = vote(game, {1: 4, 2: 4, 3: 6, 4: 6, 5: 8})
    assert set(of(events, E.VoteResult)[0].leaving) == {4, 6}
    assert game.alive[8] and not game.alive[4] and not game.alive[6]


# --- B.lot -----------------------------------------------------------------------------------------
@pytest.mark.clause("B.lot")
def test_b_lot_without_nominations_the_drawn_player_leaves() -> None:
    """B.lot: if nobody is nominated in round 2, a lot is drawn among the living and the drawn player
    leaves (with a last word)."""
    game = day1()
    events = speeches(game, 1)
    assert of(events, E.VoteResult) == [E.VoteResult("leaders", (), (), "no-candidates")]
    assert not of(events, E.VotingStarted)
    assert game.step == "lot"
    assert game.legal_commands()[0] == DrawLot()
    refused(game, Advance(), code="need-rng", clause="B.lot")
    refused(game, Vote(1, 2), code="wrong-step")
    refused_without_rng(game, DrawLot(), "B.lot")
    refused(game, DrawLot(seat=13), code="bad-seat")
    events = game.execute(DrawLot(seat=8))
    assert events[:2] == [E.LotDrawn(8), E.PlayerLeft(8, "lot", 1, False)]
    assert (game.step, game.seat, game.seconds) == ("last_word", 8, 40)
    game.execute(Advance())
    assert game.step == "check_commissar" and game.day == 1


@pytest.mark.clause("B.lot")
def test_b_lot_drawn_at_random_among_the_living() -> None:
    """B.lot: the lot is drawn among the living players only (a player who left is never drawn)."""
    seen = set()
    for seed in range(25):
        game = day1()
        game.execute(Remove(3, reason="drunk"))
        speeches(game, 1)
        refused(game, DrawLot(seat=3), code="not-alive", clause="B.lot")
        events = game.execute(DrawLot(), random.Random(seed))
        drawn = events[0]
        assert isinstance(drawn, E.LotDrawn) and drawn.seat != 3
        assert E.PlayerLeft(drawn.seat, "lot", 1, False) in events
        seen.add(drawn.seat)
    assert len(seen) > 3
    # the drawn outcome is in the log: a replay of the record is exact, with no random generator
    assert replay(to_record(game)).snapshot() == game.snapshot()


# --- B.lastword ------------------------------------------------------------------------------------
@pytest.mark.clause("B.lastword")
def test_b_lastword_40_seconds_after_vote_lot_and_night_kill() -> None:
    """B.lastword: 40 s of last word after leaving by vote, by lot, or by night kill (next morning)."""
    game = day1()
    speeches(game, 1, {1: 4})
    defences(game)
    vote(game, ballots(range(1, 9), 4))
    assert last_words(game) == [(4, 40)]  # by vote
    night(game, 8)
    assert game.day == 2
    assert last_words(game) == [(8, 40)]  # by night kill, at the start of the next day
    assert game.step == "first_speaker"
    speeches(game, 1)
    game.execute(DrawLot(seat=10))
    assert last_words(game) == [(10, 40)]  # by lot
    assert game.step == "check_commissar" and game.day == 2


@pytest.mark.clause("B.lastword")
def test_b_lastword_none_after_a_removal() -> None:
    """B.lastword (and the common model): a removed player gets no last word."""
    game = day1()
    game.execute(DrawFirstSpeaker(seat=1))
    assert game.seat == 1
    events = game.execute(Sanction(1, "card_info"))
    assert E.PlayerLeft(1, "removal", 1, False) in events
    assert (game.step, game.seat) == ("speech", 2)  # his speech ends, no last word
    events = game.execute(Remove(5, reason="drunk", scope="tournament"))
    assert (game.step, game.seat) == ("speech", 2)
    assert not any(isinstance(e, E.Step) and e.step == "last_word" for e in game.log)


# --- B.night ---------------------------------------------------------------------------------------
@pytest.mark.clause("B.night")
def test_b_night_commissar_checks_then_the_mafia_kills() -> None:
    """B.night: the Commissar wakes first and checks one player (mafia or not); then the mafia agrees on
    one victim; the victim leaves at the end of the night."""
    game = day1()
    speeches(game, 1, {1: 4})
    defences(game)
    vote(game, {})
    last_words(game)
    assert (game.step, game.day, game.seat) == ("check_commissar", 1, 0)  # the seat is not named
    assert game.checker_seat() == COMMISSAR and view(game, "spectator")["seat"] == 0
    refused(game, Kill(8), code="wrong-step", clause="B.night")
    refused(game, Check(2, 5), code="not-checker", clause="B.night")
    refused(game, Check(COMMISSAR, COMMISSAR), code="check-self")
    events = game.execute(Check(COMMISSAR, 5), actor=COMMISSAR)
    assert events == [E.Checked(COMMISSAR, 5, True)]
    refused(game, Check(COMMISSAR, 6), code="already-checked")
    game.execute(Advance())
    assert game.step == "kill"
    refused(game, Advance(), code="kill-required", clause="B.night")
    refused(game, Shoot(2, 8), code="wrong-step")
    assert Advance() not in game.legal_commands()
    events = game.execute(Kill(8))
    assert events == [E.KillChosen(8)]
    refused(game, Kill(10), code="already-killed")
    assert game.alive[8]  # at the end of the night
    events = game.execute(Advance())
    assert E.NightResult(1, 8) in events and E.PlayerLeft(8, "kill", 1, True) in events
    assert (game.step, game.day, game.seat) == ("last_word", 2, 8)
    assert game.checks == [(1, COMMISSAR, 5, True)]


@pytest.mark.clause("B.night")
def test_b_night_check_answers_not_mafia_for_peaceful() -> None:
    """B.night: the host answers "not mafia" for a civilian; the check is the Commissar's alone."""
    game = day1()
    speeches(game, 1, {1: 4})
    defences(game)
    vote(game, {})
    last_words(game)
    events = night(game, 8, check=6)
    assert E.Checked(COMMISSAR, 6, False) in events
    assert view(game, 6).get("you", {}).get("checks") == []
    assert view(game, COMMISSAR)["you"]["checks"] == [
        {"night": 1, "checker": COMMISSAR, "target": 6, "found": False}
    ]


@pytest.mark.clause("B.night")
def test_b_night_dead_commissar_is_still_called_but_cannot_check_and_kill_every_night() -> None:
    """B.night: with the Commissar gone the host still calls him (skipping the call would tell the table
    who held the role), but there is no check; one kill every night but night 0."""
    game = day1()
    speeches(game, 1, {1: 4})
    defences(game)
    vote(game, {})
    last_words(game)
    night(game, COMMISSAR, check=2)
    last_words(game)
    speeches(game, 1, {1: 6})
    defences(game)
    vote(game, {})
    last_words(game)
    assert (game.step, game.day, game.seat) == ("check_commissar", 2, 0)
    assert not game.alive[COMMISSAR] and game.checker_seat() == 0
    refused(game, Check(COMMISSAR, 2), code="not-checker", clause="B.night")
    assert [c.type for c in game.legal_commands(None, extras=False)] == ["advance"]
    game.execute(Advance())
    assert (game.step, game.day) == ("kill", 2)
    events = night(game, 10)
    assert E.NightResult(2, 10) in events
    assert game.night_kills == {1: COMMISSAR, 2: 10}


# --- B.win -----------------------------------------------------------------------------------------
@pytest.mark.clause("B.win")
def test_b_win_mafia_when_peaceful_are_no_more_than_mafia() -> None:
    """B.win: mafia wins when the peaceful players are no more than the mafia (3 against 3 after the
    night kill), at the moment it happens."""
    game = day1()
    for s in (1, 3, 4, 6):  # four civilians leave: 3 mafia against 5 peaceful, the game goes on
        game.execute(Remove(s, reason="left the table"))
    assert not game.over
    speeches(game, 7, {7: 8})
    defences(game)
    vote(game, ballots((2, 5), 8))  # a civilian voted out: 3 mafia against 4 peaceful
    last_words(game)
    assert not game.over
    events = night(game, 10, check=9)
    assert events[-1] == E.GameEnded("black", "parity")
    assert game.over and game.winner == "black" and game.result == "parity"
    assert game.step == "over"


@pytest.mark.clause("B.win")
def test_b_win_peaceful_when_the_mafia_is_gone() -> None:
    """B.win: peaceful players win when the mafia is gone (the last one voted out)."""
    game = day1()
    game.execute(Sanction(2, "card_info"))
    game.execute(Sanction(5, "drunk"))
    assert not game.over
    speeches(game, 1, {1: 9})
    defences(game)
    events = vote(game, ballots((1, 3, 4, 6, 7, 8), 9))  # 6 of 10 living
    assert E.PlayerLeft(9, "vote", 1, False) in events
    assert events[-1] == E.GameEnded("red", "black-gone")
    assert game.winner == "red"
    refused(game, Advance(), code="game-over")


@pytest.mark.clause("B.win")
def test_b_win_checked_after_a_tie_sends_several_out() -> None:
    """B.win: the win is checked when the tied leaders leave together (here red loses its majority)."""
    game = day1()
    for s in (1, 3, 4, 6):  # 3 mafia against 5 peaceful
        game.execute(Remove(s, reason="left the table"))
    speeches(game, 7, {7: 8, 8: 10})
    defences(game)
    events = vote(game, {2: 8, 5: 10})
    assert of(events, E.VoteResult)[0].outcome == "tie-out"
    assert events[-1] == E.GameEnded("black", "parity")


# --- B.sanctions -----------------------------------------------------------------------------------
SEED_TABLE = {
    "card_info": ["tournament"],
    "rudeness": ["warning", "tournament"],
    "eyes_open": ["round"],
    "disruption": ["ban"],
    "gestures": ["warning", "game"],
    "drunk": ["tournament"],
    "arguing": ["warning", "warning", "round"],
}


@pytest.mark.clause("B.sanctions")
@pytest.mark.parametrize("offence", sorted(SEED_TABLE))
def test_b_sanctions_seed_table(offence: str) -> None:
    """B.sanctions: the seed's table: each offence gets its sanctions in order of repetition; every
    sanction but a warning removes the player from this game with its scope, without a last word."""
    game = day1()
    game.execute(DrawFirstSpeaker(seat=3))
    given = []
    for expected in SEED_TABLE[offence]:
        events = game.execute(Sanction(1, offence))
        assert events[0] == E.Sanctioned(1, offence, expected)
        given.append(expected)
        if expected == "warning":
            assert game.alive[1] and len(events) == 1
    scope = given[-1]
    assert E.Expelled(1, offence, scope) in events
    assert E.PlayerLeft(1, "removal", 1, False) in events
    assert game.removed == {1: scope} and not game.alive[1]
    assert (game.step, game.seat) == ("speech", 3)
    assert view(game, "spectator")["seats"][0]["warnings"] == given.count("warning")
    assert view(game, "spectator")["seats"][0]["removed"] == scope
    refused(game, Sanction(1, offence), code="not-alive", clause="B.sanctions")


@pytest.mark.clause("B.sanctions")
def test_b_sanctions_table_matches_the_seed() -> None:
    """B.sanctions: the engine's table repeats the seed's; the eyes-open removal from the round is
    followed by disqualification when repeated (in a later game: he has left this one)."""
    full = {**SEED_TABLE, "eyes_open": ["round", "tournament"]}
    assert {k: list(v) for k, v in SANCTIONS.items()} == full


@pytest.mark.clause("B.sanctions")
def test_b_sanctions_instead_of_fouls() -> None:
    """B.sanctions: the tournament has warnings and sanctions, not fouls; removals have a scope; warnings
    are counted per offence."""
    game = day1()
    refused(game, Foul(1, reason="gestures"), code="no-fouls", clause="B.sanctions")
    refused(game, Sanction(1, "spitting"), code="bad-offence")
    refused(game, Remove(1, reason="?", scope="galaxy"), code="bad-scope")
    game.execute(Sanction(4, "rudeness"))
    game.execute(Sanction(4, "gestures"))
    game.execute(Sanction(4, "arguing"))
    assert game.alive[4] and game.sanctions[4] == [
        ("rudeness", "warning"), ("gestures", "warning"), ("arguing", "warning")
    ]
    events = game.execute(Remove(6, reason="disqualified by the judge", scope="round"))
    assert events[0] == E.Removed(6, "disqualified by the judge", "round")
    assert game.removed == {6: "round"}
    fiim = new_game("fiim")
    refused(fiim, Sanction(1, "rudeness"), code="no-sanctions")
    refused(fiim, Remove(1, scope="round"), code="bad-scope")


# --- B.sheet ---------------------------------------------------------------------------------------
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ian", "Joy", "Kim", "Lev"]


def finished_game() -> Game:
    """Red wins: mafia 2 and 5 disqualified, 9 drawn by lot."""
    game = game12(NAMES)
    day0(game)
    game.execute(Sanction(2, "card_info"))
    game.execute(Sanction(5, "card_info"))
    speeches(game, 1)
    game.execute(DrawLot(seat=9))
    assert game.over
    return game


@pytest.mark.clause("B.sheet")
def test_b_sheet_lists_seat_nick_role_and_winner() -> None:
    """B.sheet: after the game the result sheet lists seat, nick, role and the winning team."""
    game = finished_game()
    sheet = view(game, "after")
    assert sheet["winner"] == "red" and sheet["result"] == "black-gone" and sheet["over"]
    rows = [(s["seat"], s["name"], s["role"]) for s in sheet["seats"]]
    assert rows == [(i, NAMES[i - 1], DECK[i - 1]) for i in range(1, 13)]
    assert [s["removed"] for s in sheet["seats"] if s["removed"]] == ["tournament", "tournament"]


@pytest.mark.clause("B.sheet")
def test_b_sheet_hidden_while_the_game_runs() -> None:
    """B.sheet: the after-the-game view (with every role) is refused while the game runs."""
    game = game12(NAMES)
    with pytest.raises(HiddenView):
        view(game, "after")
    day0(game)
    with pytest.raises(HiddenView):
        view(game, "after")
    assert all("role" not in s for s in view(game, "spectator")["seats"])


@pytest.mark.clause("B.sheet")
def test_b_sheet_judge_corrects_with_a_logged_reason() -> None:
    """B.sheet: the tournament judge may correct the result with a logged reason."""
    game = finished_game()
    refused(game, Override("black"), code="reason-required")
    events = game.execute(Override("black", reason="the lot was drawn twice"))
    assert events == [E.Overridden("black", "the lot was drawn twice"), E.GameEnded("black", "override")]
    assert view(game, "after")["winner"] == "black"
    assert game.results == [("red", "black-gone"), ("black", "override")]
    # the tournament has no awarded win and no team defeat of the club and fiim rules
    refused(game12(), Award("red", reason="hints"), code="no-award")
    refused(game12(), TeamDefeat("red", reason="hints"), code="no-team-defeat")


# --- B.timing --------------------------------------------------------------------------------------
@pytest.mark.clause("B.timing")
def test_b_timing_all_durations() -> None:
    """B.timing: 60 s / 30 s rounds; 30 s on day 0; 60 s defence; 40 s last word."""
    game = game12()
    day0(game)
    speeches(game, 1, {1: 4, 2: 6})
    defences(game)
    vote(game, ballots(range(1, 6), 4))
    last_words(game)
    night(game, 8)
    last_words(game)
    seconds = {(e.step, e.day, e.round, e.seconds) for e in game.log if isinstance(e, E.Step) and e.seconds}
    assert seconds == {
        ("speech", 0, 0, 30),
        ("speech", 1, 0, 60),
        ("speech", 1, 1, 30),
        ("defence", 1, 0, 60),
        ("last_word", 1, 0, 40),
        ("last_word", 2, 0, 40),
    }
    rs = TOURNAMENT
    assert rs.speech_rounds == (60, 30) and rs.intro_seconds == 30
    assert rs.defence_seconds == 60 and rs.last_word_seconds == 40
