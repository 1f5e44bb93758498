"""Helpers of the club scenario tests (tests/engine/test_*.py by rule family): drive a `club` game
through days, votes and nights with real commands."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, TypeVar

import pytest

from sportmafia.engine import (
    Advance,
    Game,
    Nominate,
    Remove,
    RuleViolation,
    Shoot,
    Vote,
)
from sportmafia.engine import events as E
from sportmafia.rules import get_ruleset
from tests.conftest import CLUB_DECK, advance_until, new_game

CLUB = get_ruleset("club")


DON, MAFIA_A, MAFIA_B, SHERIFF = 3, 4, 7, 6


BLACK = (DON, MAFIA_A, MAFIA_B)


Ev = TypeVar("Ev", bound=E.Event)


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


def _nine_tied_twice(game: Game) -> list[E.Event]:
    """Day 2 at nine players: 2, 5 and 8 nominated, tied 3-3-3 in the vote and again in the revote."""
    nominate_all(game, [2, 5, 8])
    events = cast(game, {2: [2, 3, 4], 5: [5, 6, 7]})  # 3, 3, 3
    assert one(events, E.VoteResult).leaving == (2, 5, 8)
    while game.step == "tie_speech":
        adv(game)
    return cast(game, {2: [2, 3, 4], 5: [5, 6, 7]})


def nine_players_with(rules: Any) -> Game:
    game = new_game(rules, roles=CLUB_DECK)
    advance_until(game, "speech", day=1, seat=1)
    finish_day(game)
    shoot_all(game, 1)
    return game


def red_won_by_removals() -> Game:
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    run(game, *[Remove(s, "insult") for s in BLACK])
    assert game.winner == "red" and game.result == "black-gone"
    return game
