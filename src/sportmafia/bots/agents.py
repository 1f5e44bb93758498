"""Agents: the players behind the seats of a bots' table (:mod:`sportmafia.bots.table`), and later of a
practice table and of an open seat.

An agent sees exactly what its seat's phone sees: its seat's feed (``engine.visible_events``: the entries the
player's page gets, the night's secrets of others left out), the public claims (:mod:`sportmafia.bots.claims`),
and, when asked to act, its own legal commands. Each entry is as ``engine.told_entry`` makes it: read-only (its
lists tuples; an entry every seat who sees it is shown alike is one object handed to each), without its number,
which is its place in ``feed``. It never gets the game: what it knows is only what it was told
(``tests/bots/test_agents.py`` checks that an agent's choices are the same in two games that differ only in
what its seat may not see).

One interface (:class:`Agent`): ``start`` (its seat, the rules, its own seeded generator), ``observe`` (new feed
entries and new claims, in order), ``speak`` (the claims of its speech, asked once a speech) and ``act`` (one
of the commands offered, or None to pass). Seeded: the same seed plays the same game.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..engine import Command, LiftVote, Nominate, Shoot, Vote
from ..rules import RuleSet
from .claims import Claim, Said


class Agent(ABC):
    """A seat's player; see the module doc. ``feed`` and ``claims`` are everything it was told, in order."""

    name: ClassVar[str] = "agent"

    def start(self, seat: int, rules: RuleSet, players: int, rng: random.Random) -> None:
        self.seat, self.rules, self.players, self.rng = seat, rules, players, rng
        self.feed: list[Mapping[str, Any]] = []
        self.claims: list[Said] = []

    def observe(self, entries: Sequence[Mapping[str, Any]], claims: Sequence[Said]) -> None:
        """New entries of its seat's feed and new public claims, each in the order they came."""
        self.feed.extend(entries)
        self.claims.extend(claims)

    def speak(self) -> list[Claim]:
        """The claims of its speech (asked once, when the speech begins); none by default."""
        return []

    def shot_tonight(self) -> bool:
        """Whether its seat has shot in this night's shooting (its feed since the step began: its own shot, or the
        host's "all shoot" for it): a black player shoots once (A.night.shoot: a second shot of his makes the night
        a miss), so an agent asked again passes."""
        seat = self.seat
        for e in reversed(self.feed):
            kind = e.get("type")
            if (kind == "shot_fired" and e.get("shooter") == seat) or \
                    (kind == "volley_fired" and seat in e.get("shooters", ())):
                return True
            if kind == "step":
                return False
        return False

    @abstractmethod
    def act(self, legal: Sequence[Command]) -> Command | None:
        """One of ``legal`` (its own commands now), or None to pass."""


class RandomAgent(Agent):
    """Chooses at random, with a person's rhythm: a nomination in one speech of three, a hand raised for a
    candidate one time in two (once a candidate: the decision stands while only hands are raised), any night
    action (one shot a night) and best move at random; now and then a suspicion in its speech."""

    name = "random"

    def start(self, seat: int, rules: RuleSet, players: int, rng: random.Random) -> None:
        super().start(seat, rules, players, rng)
        self._moves = 0  # feed entries that are not hands: a new one is a new decision
        self._decided: set[tuple[int, str, int]] = set()

    def observe(self, entries: Sequence[Mapping[str, Any]], claims: Sequence[Said]) -> None:
        super().observe(entries, claims)
        self._moves += sum(1 for e in entries if e.get("type") not in ("vote_cast", "lift_vote_cast"))

    def speak(self) -> list[Claim]:
        others = [s for s in range(1, self.players + 1) if s != self.seat]
        return [Claim(self.seat, "suspect", target=self.rng.choice(others))] if self.rng.random() < 0.3 else []

    def act(self, legal: Sequence[Command]) -> Command | None:
        if not legal:
            return None
        first = legal[0]
        if isinstance(first, Vote | LiftVote | Nominate) or first.type == "withdraw":
            key = (self._moves, first.type, getattr(first, "candidate", 0))
            if key in self._decided:
                return None
            self._decided.add(key)
            return self.rng.choice(legal) if self.rng.random() < (0.35 if isinstance(first, Nominate) else 0.5) \
                else None
        if isinstance(first, Shoot) and self.shot_tonight():
            return None
        return self.rng.choice(legal)
