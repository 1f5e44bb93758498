"""An arena: agents against each other over many games, seated so that each meets each evenly and plays every
role about equally often, with standings, confidence intervals and ratings.

Each agent enters as many players as a table has seats (``copies``): the tournament's seating generator
(``tournament.seating.generate``) seats them over the rounds so that pairs of players meet as evenly as the
sizes allow and each player's seat numbers are spread. Each game's deal is made for the arena: each role goes
to the agent furthest behind its fair share of that role so far (its share of the seats it has had), so an
agent cannot win by having been dealt the Sheriff more often. A standing gives the seats an agent played, its
wins, its win rate with its Wilson 95% interval (each seat counted: the seats of one game are not independent,
so the interval is narrower than it should be by up to the square root of the agent's seats a table), its wins by role, and its players' mean OpenSkill skill (``seasons.skill``,
as the club's pages rate people).
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from ..engine import team_of
from ..rules import RuleSet
from ..seasons.elo import RatedGame
from ..seasons.skill import rate_skill
from ..seasons.stats import wilson
from ..tournament.seating import generate
from .agents import Agent
from .table import play_table


@dataclass
class Standing:
    """One agent's line of the arena's standings."""

    agent: str
    seats: int = 0
    """Seats it played (its players' games: a game with four of its players counts four)."""
    wins: int = 0
    by_role: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    """role: [seats, wins]"""
    skill: float = 0.0
    """Its players' mean OpenSkill ordinal (mu - 3 sigma)."""

    def to_json(self) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.seats)
        return {"agent": self.agent, "seats": self.seats, "wins": self.wins,
                "win_rate": round(self.wins / self.seats, 3) if self.seats else None,
                "ci95": [round(lo, 3), round(hi, 3)],
                "by_role": {r: {"seats": g, "wins": w} for r, (g, w) in sorted(self.by_role.items())},
                "skill": round(self.skill, 2)}


def deal_for(agent_of_seat: Sequence[int], deck: Sequence[str], dealt: dict[int, Counter[str]],
             seats_had: Counter[int], rng: random.Random) -> list[str]:
    """A deal of ``deck`` to the seats: each role (the rarest first) to a seat whose agent is furthest behind its
    fair share of that role (the seats it has had so far times the role's share of a deck); ties at random."""
    n = len(deck)
    roles = Counter(deck)
    out: list[str | None] = [None] * n
    for role in sorted(roles, key=lambda r: (roles[r], r)):
        if role == "civilian":
            continue
        for _ in range(roles[role]):
            free = [s for s in range(n) if out[s] is None]

            def behind(seat: int, role: str = role) -> tuple[float, float]:
                agent = agent_of_seat[seat]
                return (dealt[agent][role] - seats_had[agent] * roles[role] / n, rng.random())
            seat = min(free, key=behind)
            out[seat] = role
    return [r if r is not None else "civilian" for r in out]


def arena(agents: Sequence[tuple[str, Callable[[], Agent]]], games: int, rules: RuleSet, seed: int = 0,
          progress: Callable[[int], None] | None = None) -> list[Standing]:
    """``games`` games (whole rounds of tables: at least ``games``) of the named ``agents``, best first."""
    n = rules.min_players
    k = len(agents)
    if k < 1:
        raise ValueError("an arena needs an agent")
    players = k * n  # each agent enters a table's worth of players
    tables = players // n
    rounds = max(1, -(-games // tables))
    seating = generate(players, rounds, n, seed=seed)
    rng = random.Random(seed)
    deck = rules.roles_for(n)
    standings = [Standing(name) for name, _ in agents]
    dealt: dict[int, Counter[str]] = defaultdict(Counter)
    seats_had: Counter[int] = Counter()
    rated: list[RatedGame] = []
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for number, g in enumerate(sorted(seating.games, key=lambda g: (g.round, g.table))):
        agent_of_seat = [p % k for p in g.seats]
        roles = deal_for(agent_of_seat, deck, dealt, seats_had, rng)
        played = play_table(rules, [agents[a][1]() for a in agent_of_seat], rng.randrange(1 << 32), roles=roles)
        winner = played.game.winner
        for a, role in zip(agent_of_seat, roles, strict=True):
            dealt[a][role] += 1
            seats_had[a] += 1
            line = standings[a]
            won = winner is not None and team_of(role) == winner
            line.seats += 1
            line.wins += won
            line.by_role[role][0] += 1
            line.by_role[role][1] += won
        rated.append(RatedGame(f"arena-{number}", start + timedelta(minutes=number),
                               tuple(f"{agents[p % k][0]}#{p}" for p in g.seats),
                               tuple(team_of(r) for r in roles), winner))
        if progress is not None:
            progress(number + 1)
    skills = rate_skill(rated)
    for a, line in enumerate(standings):
        mine = [skills.skill(f"{agents[a][0]}#{p}").ordinal for p in range(players) if p % k == a]
        line.skill = sum(mine) / len(mine)
    return sorted(standings, key=lambda s: (-s.skill, s.agent))
