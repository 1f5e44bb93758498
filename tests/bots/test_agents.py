"""Agents at a bots' table (``sportmafia.bots.agents``, ``sportmafia.bots.table``): every preset and table size
played to a real end, every command legal, the same seed the same game, and an agent's choices blind to what its
seat may not see."""

from __future__ import annotations

import random
from collections import Counter as Tally
from collections.abc import Sequence
from typing import Any

import pytest

from sportmafia.bots import AGENTS
from sportmafia.bots.agents import Agent, RandomAgent
from sportmafia.bots.claims import Claim, Said
from sportmafia.bots.table import Seat, play_table
from sportmafia.engine import Command, Shoot, Volley, Vote
from sportmafia.engine.events import NightResult, ShotFired
from sportmafia.rules import get_ruleset
from tests.conftest import advance_until, new_game
from tests.engine.helpers import DON, MAFIA_A
from tests.pairs import KINDS, TABLES, make_pair, play

SIZES = [(p, n) for p in ("club", "fiim", "tournament")
         for n in sorted({get_ruleset(p).min_players, get_ruleset(p).max_players})]


@pytest.mark.parametrize(("preset", "players"), SIZES)
@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_every_preset_and_size_is_played_to_a_real_end(preset: str, players: int, agent: str) -> None:
    rules = get_ruleset(preset)
    results = set()
    # 12 games at least, until two end differently: a strong side wins most one way (the belief agent's town at
    # 16 seats of the tournament about 19 games in 20)
    for seed in range(80):
        if seed >= 12 and len(results) > 1:
            break
        played = play_table(rules, [AGENTS[agent]() for _ in range(players)], seed)
        assert played.game.over and (played.game.winner in ("red", "black") or played.game.result == "draw")
        assert played.illegal == 0 and played.defaults == 0
        # a game the table itself decided: no judge's override, award or team defeat
        assert played.game.result not in ("override", "award", "team-defeat"), played.game.result
        results.add(played.game.result)
        assert all(said.at <= len(played.game.log) for said in played.claims)
    assert len(results) > 1


def _nights(played: Any) -> tuple[int, int]:
    """A game's nights and its nights that killed; fails where a black player shot twice in one night."""
    nights = kills = 0
    tonight: Tally[int] = Tally()
    for ev in played.game.log:
        if isinstance(ev, ShotFired):
            tonight[ev.shooter] += 1
            assert tonight[ev.shooter] == 1, f"seat {ev.shooter} shot twice on night {nights + 1}"
        elif isinstance(ev, NightResult):
            nights, kills, tonight = nights + 1, kills + bool(ev.killed), Tally()
    return nights, kills


@pytest.mark.parametrize("preset", ["club", "fiim"])
@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_a_black_player_shoots_once_a_night_and_a_team_agrees(preset: str, agent: str) -> None:
    """A.night.shoot: every living black player shoots once; a second shot of his makes the night a miss. An agent
    asked again after its shot passes; a team of rule-following agents (of one kind, or both: the deal mixes
    them) works out the same target, so each of its nights kills."""
    rules = get_ruleset(preset)
    n = rules.min_players
    nights = kills = 0
    for seed in range(12):
        agents = [AGENTS[agent]() for _ in range(n)]
        if agent == "baseline":  # the black team of seats 1, 2 and 3 split between the two agents
            agents[1] = AGENTS["belief"]()
        roles = ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * (n - 4)
        played = play_table(rules, agents, seed, roles=roles if agent == "baseline" else None)
        game_nights, game_kills = _nights(played)
        nights, kills = nights + game_nights, kills + game_kills
    assert nights > 12
    if agent != "random":
        assert kills == nights


def test_the_same_seed_plays_the_same_game() -> None:
    rules = get_ruleset("club")
    a, b, c = (play_table(rules, [RandomAgent() for _ in range(10)], seed) for seed in (5, 5, 6))
    assert a.game.log == b.game.log and a.claims == b.claims
    assert a.game.log != c.game.log


class Cheat(Agent):
    """Offers what it may not: another seat's command, a vote for nobody, a claim in another's speech."""

    name = "cheat"

    def speak(self) -> list[Claim]:
        other = self.seat % self.players + 1
        return [Claim(other, "suspect", target=self.seat), Claim(self.seat, "trust", target=other)]

    def act(self, legal: Sequence[Command]) -> Command | None:
        if legal and isinstance(legal[0], Vote):
            return Vote(legal[0].voter % self.players + 1, legal[0].candidate)
        return legal[0] if legal else None


def test_what_an_agent_may_not_do_is_refused_and_counted() -> None:
    played = play_table(get_ruleset("club"), [Cheat() for _ in range(10)], seed=3)
    assert played.game.over
    assert played.illegal > 0
    assert not any(ev.type == "vote_cast" for ev in played.game.log)  # no hand of another seat got in
    assert played.claims and all(said.claim.kind == "trust" for said in played.claims)


class Recorder(Agent):
    """An agent that keeps every input its inner agent was given and every answer it gave."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.trace: list[Any] = []

    def start(self, seat: int, rules: Any, players: int, rng: random.Random) -> None:
        super().start(seat, rules, players, rng)
        self.inner.start(seat, rules, players, rng)

    def observe(self, entries: Sequence[dict[str, Any]], claims: Sequence[Said]) -> None:
        super().observe(entries, claims)
        self.inner.observe(entries, claims)

    def act(self, legal: Sequence[Command]) -> Command | None:
        out = self.inner.act(legal)
        self.trace.append((len(self.feed), [c.to_json() for c in legal], out and out.to_json()))
        return out


PAIRS = [(table, kind) for table in TABLES for kind in KINDS if kind != "foul"  # a night foul is named at day
         and any(make_pair(table, seed, kind) is not None for seed in range(40))]


@pytest.mark.parametrize(("table", "kind"), PAIRS)
@pytest.mark.parametrize("name", sorted(AGENTS))
def test_an_agents_choices_are_blind_to_what_its_seat_may_not_see(table: tuple[str, int], kind: str,
                                                                   name: str) -> None:
    """Pairs of games that differ only in a night's secret (tests/pairs.py): an agent at a seat that may not
    see it, at its place at the table (told its seat's feed, offered its own commands when something it can
    see changed) after every command of either game, is told the same and answers the same in both."""
    checked = offers = 0
    for seed in range(40):
        pair = make_pair(table, seed, kind)
        if pair is None:
            continue
        for seat in range(1, pair.players + 1):
            if seat in pair.holders or pair.public_at_day:
                continue
            traces = []
            for which in ("a", "b"):
                game = pair.game()
                agent = Recorder(AGENTS[name]())
                agent.start(seat, game.rules, game.n, random.Random(seed))
                link = Seat(agent, seat)
                for command, rng in pair.steps(which):
                    play(game, [(command, rng)])
                    link.offer(game, [], game.legal_commands(seat))
                traces.append((agent.feed, agent.trace))
            assert traces[0] == traces[1], (pair.kind, seed, seat)
            checked += 1
            offers += len(traces[0][1])
        if checked >= 12:
            break
    assert checked and offers > 3 * checked


class Counter(RandomAgent):
    """Passes always; counts how often it was asked."""

    asked = 0

    def act(self, legal: Sequence[Command]) -> Command | None:
        self.asked += 1
        return None


def test_a_teammates_shot_does_not_make_a_seat_be_asked_again() -> None:
    """At night 1 of a club game the Don shoots (his shot is shown to him alone) or does not: his teammate, asked
    for his own shot before and after, is asked as often either way (being asked again would tell him)."""
    asked = []
    for don_shoots in (True, False):
        game = new_game("club")
        advance_until(game, "shooting")
        mafia = Counter()
        mafia.start(MAFIA_A, game.rules, game.n, random.Random(1))
        link = Seat(mafia, MAFIA_A)
        link.offer(game, [], game.legal_commands(MAFIA_A))
        if don_shoots:
            game.execute(Shoot(DON, 1), actor=DON)
        link.offer(game, [], game.legal_commands(MAFIA_A))
        asked.append((mafia.asked, mafia.feed))
    assert asked[0] == asked[1] and asked[0][0] == 1


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_after_the_hosts_all_shoot_a_black_seat_shoots_no_more(agent: str) -> None:
    """Where a person hosts an online table with bots in some seats, he may record "all shoot" (a volley: one shot
    for every black player). A bot at a black seat then has shot that night: asked again, it passes."""
    game = new_game("club")
    advance_until(game, "shooting")
    bot = AGENTS[agent]()
    bot.start(MAFIA_A, game.rules, game.n, random.Random(1))
    Seat(bot, MAFIA_A).tell(game, [])
    assert not bot.shot_tonight()
    game.execute(Volley(1))
    answers = []
    for seed in range(6):  # the random agent's choice too
        bot = AGENTS[agent]()
        bot.start(MAFIA_A, game.rules, game.n, random.Random(seed))
        answers.append(Seat(bot, MAFIA_A).offer(game, [], game.legal_commands(MAFIA_A)))
    assert game.legal_commands(MAFIA_A) and answers == [None] * 6


def test_the_table_keeps_nothing_of_a_game_once_it_is_over() -> None:
    """The table reads each list of a step's commands once, by the list the engine shares by all games: it
    keeps no list a game made for itself (the deal's, the first speaker's draw), so a long run (an arena, the
    lab) does not grow with the games it played."""
    from sportmafia.bots import table
    from sportmafia.engine import cache

    rules = get_ruleset("club")
    for seed in range(3):
        play_table(rules, [RandomAgent() for _ in range(10)], seed)
    shared = {id(cmds) for kept in (cache.SPEECH_LEGAL, cache.VOTE_LEGAL, cache.KEYED_LEGAL)
              for cmds in kept.values()} | {id(cache.ADVANCE_ONLY)}
    kept_before = {key for key in table._OFFERED if key not in shared}
    for seed in range(3, 23):
        play_table(rules, [RandomAgent() for _ in range(10)], seed)
    shared |= {id(cmds) for kept in (cache.SPEECH_LEGAL, cache.VOTE_LEGAL, cache.KEYED_LEGAL)
               for cmds in kept.values()}
    assert {key for key in table._OFFERED if key not in shared} <= kept_before


def test_the_table_reads_each_seats_commands_from_a_list_in_any_order() -> None:
    """The table's reading of a step's list: each seat's own commands in their order, in seat order, the chance
    draw, "Next" and the team's apart; the same where a seat's commands lie apart in the list (no step of the
    engine's lists them so today)."""
    from sportmafia.bots.table import _layout
    from sportmafia.engine import Advance, Kill, Nominate, Withdraw

    def read(commands: list[Command]) -> dict[int, list[Command]]:
        _, pool, chance, advance, team, spans = _layout(commands)
        assert chance is None and advance and team == (Kill(4),)
        return {seat: pool[a:b] for seat, a, b in spans}

    together: list[Command] = [Advance(), Vote(2, 5), Vote(3, 5), Nominate(7, 1), Withdraw(7, 1), Kill(4)]
    apart: list[Command] = [Advance(), Nominate(7, 1), Vote(3, 5), Kill(4), Vote(2, 5), Withdraw(7, 1)]
    expected = {2: [Vote(2, 5)], 3: [Vote(3, 5)], 7: [Nominate(7, 1), Withdraw(7, 1)]}
    assert read(together) == read(apart) == expected
    assert list(read(apart)) == [2, 3, 7]
