"""Scenario tests of the `club` preset: the night: meetings, shots, checks, misses, four-player nights (A.night0, A.night.*).

Each test drives a game with real commands, names the rule it proves and cites the clause id in its
docstring and its ``clause`` marker. ``new_game("club")`` deals a fixed deck: Don at 3, mafia at 4 and 7,
Sheriff at 6, civilians at 1, 2, 5, 8, 9 and 10. Shared helpers: ``tests/engine/helpers.py``.
"""

from __future__ import annotations

import pytest

from sportmafia.engine import (
    Advance,
    Check,
    DealCards,
    Game,
    Nominate,
    Remove,
    Shoot,
    Undo,
    Volley,
    describe_event_line,
    feed_length,
    last_action,
    replay,
    to_record,
    view,
    visible_events,
)
from sportmafia.engine import events as E
from sportmafia.rules import RuleSet
from tests.conftest import CLUB_DECK, advance_until, new_game, refused
from tests.engine.helpers import (
    BLACK,
    CLUB,
    DON,
    MAFIA_A,
    MAFIA_B,
    SHERIFF,
    adv,
    down_to_five,
    finish_day,
    finish_night,
    four_players,
    miss_night,
    nominate_all,
    of,
    one,
    refused_as,
    run,
    shoot_all,
    steps,
    to_shooting,
    to_speeches,
    vote_out,
)


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
def test_night0_black_meeting_has_its_minute_on_every_timer() -> None:
    """A.night0, A.timing: the black team's meeting is timed (FIIM: exactly one minute), from the rule set's
    ``meeting_seconds``: every viewer's view gives it as the step's seconds. The ``step`` event keeps no seconds,
    as in the records made before, which still replay; the host's meetings stay untimed."""
    game = Game(CLUB, 10)
    events = game.execute(DealCards(roles=CLUB_DECK))
    assert game.step == "meet_black" and CLUB.meeting_seconds == 60
    assert [ev.seconds for ev in of(events, E.Step)] == [0]
    assert view(game, "host")["seconds"] == view(game, "spectator")["seconds"] == view(game, 5)["seconds"] == 60
    adv(game)
    assert game.step == "meet_don" and view(game, "host")["seconds"] == 0
    slow = Game(RuleSet.from_options({**CLUB.options(), "meeting_seconds": 90}), 10)
    slow.execute(DealCards(roles=CLUB_DECK))
    assert view(slow, "host")["seconds"] == 90


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


@pytest.mark.clause("A.night.shoot")
def test_night_all_shoot_is_one_action_taken_back_by_one_undo() -> None:
    """A.night.shoot: the host's "all shoot" (``Volley``) records the shot of every living black player as one
    action: one event, one line ("All shoot: #5"), one Undo takes the whole volley back. It is the host's (a
    player's device acts only for himself), only at the shooting step and only before anyone shot tonight;
    its record replays, and only the shooters see it in their feeds."""
    game = new_game("club")
    nominate_all(game, [])
    assert game.step == "shooting"
    legal = game.legal_commands()
    assert Volley(5) in legal and Volley(11) not in legal and all(Volley(t) in legal for t in game.living())
    refused_as(game, Volley(5), actor=DON, code="not-yours")
    refused(game, Volley(11), code="bad-seat")
    seq = len(game.log)
    events = run(game, Volley(5))
    assert events == [E.VolleyFired((DON, MAFIA_A, MAFIA_B), 5)]
    assert game.shots == {DON: [5], MAFIA_A: [5], MAFIA_B: [5]}
    assert not any(isinstance(c, Volley) for c in game.legal_commands())  # they have all shot
    refused(game, Volley(1), code="volley-after-shot", clause="A.night.shoot")
    assert describe_event_line(events[0], "ru") == "Стреляют все: №5"
    assert describe_event_line(events[0], "en") == "All shoot: #5"
    last = last_action(game)
    assert last is not None and last.seq == seq and last.events == tuple(events)
    assert [e["type"] for e in visible_events(game, DON, feed_length(game, DON) - 1)] == ["volley_fired"]
    assert not any(e["type"] == "volley_fired" for e in visible_events(game, "spectator"))
    assert not any(e["type"] == "volley_fired" for e in visible_events(game, SHERIFF))
    run(game, Undo())  # one undo: the whole volley
    assert game.shots == {} and game.step == "shooting"
    run(game, Shoot(DON, 5))  # once one of them shot, the others' shots are recorded one by one
    refused(game, Volley(5), code="volley-after-shot")
    run(game, Undo(), Volley(5))
    events = finish_night(game)
    assert one(events, E.NightResult) == E.NightResult(1, 5)
    again = replay(to_record(game))
    assert again.log == game.log and not again.alive[5]


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
