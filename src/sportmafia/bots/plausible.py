"""A plausible table: a bot that plays like people do (no strategy, but no nonsense either).

Speakers nominate someone else about a third of the time; each voter raises his hand once, spread over the
candidates; the black team shoots together at a red player (and now and then misses); checkers check
players they have not checked; the host gives an occasional foul with one of the seed's reasons. Used by
``sportmafia demo`` so that a demo game reads like a game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine import (
    BLACK_ROLES,
    FOUL_REASONS,
    Advance,
    BestMove,
    Check,
    Command,
    Foul,
    Game,
    Kill,
    LiftVote,
    Nominate,
    Shoot,
    Vote,
)
from ..rules import RuleSet


class PlausibleTable:
    """Chooses the host's next command for ``game``; keeps what the table decided (votes, targets)."""

    def __init__(self, game: Game, rng: random.Random, foul_rate: float = 0.01) -> None:
        self.game = game
        self.rng = rng
        self.foul_rate = foul_rate
        self._plan: dict[tuple[object, ...], object] = {}
        self._checked: dict[int, set[int]] = {}

    def _once(self, key: tuple[object, ...], make: object) -> object:
        if key not in self._plan:
            self._plan[key] = make() if callable(make) else make
        return self._plan[key]

    def next_command(self) -> Command:
        g, rng = self.game, self.rng
        legal = g.legal_commands(None, extras=False)
        kinds = {c.type for c in legal}
        step = g.step
        living = g.living()
        if g.rules.fouls and step not in ("deal", "first_speaker", "lot") and rng.random() < self.foul_rate:
            return Foul(rng.choice(living), rng.choice(FOUL_REASONS))
        if step in ("deal", "first_speaker", "lot"):
            return legal[0]
        if step in ("speech", "muted") and "nominate" in kinds:
            wants = self._once(("nominate", g.day, g.round, g.seat), lambda: rng.random() < 0.35)
            options = [c for c in legal if isinstance(c, Nominate) and c.target != g.seat
                       and c.target not in g.candidates]
            if wants and options:
                return rng.choice(options)
        if step == "voting":
            return self._vote(legal, living)
        if step == "lift":
            for c in legal:
                if isinstance(c, LiftVote) and self._once(("lift", g.day, c.voter), lambda: rng.random() < 0.5):
                    return c
        if step == "shooting":
            return self._shoot(legal, living)
        if step == "kill" and "kill" in kinds:
            reds = [s for s in living if g.roles[s] not in BLACK_ROLES] or living
            return Kill(rng.choice(reds))
        if step.startswith("check_") and "check" in kinds:
            checker = g.checker_seat()
            done = self._checked.setdefault(checker, set())
            fresh = [c for c in legal if isinstance(c, Check) and c.target not in done]
            if fresh:
                pick = rng.choice(fresh)
                done.add(pick.target)
                return pick
        if step == "last_word" and "best_move" in kinds:
            others = [s for s in range(1, g.n + 1) if s != g.seat and g.alive[s]]
            return BestMove(g.seat, tuple(sorted(rng.sample(others, min(3, len(others))))))
        return Advance()

    def _vote(self, legal: Sequence[Command], living: list[int]) -> Command:
        g, rng = self.game, self.rng
        cands = [c for c in g.vote_candidates if g.alive[c]] or g.vote_candidates
        key = ("ballot", g.day, g.vote_kind, tuple(g.vote_candidates), len(g.tie_sizes))

        def ballot() -> dict[int, int | None]:
            abstain = 0.15 if g.rules.nomination_style == "leaders" else 0.0
            return {v: (None if rng.random() < abstain else rng.choice(cands)) for v in living}

        plan = self._once(key, ballot)
        assert isinstance(plan, dict)
        for c in legal:
            if isinstance(c, Vote) and plan.get(c.voter) == c.candidate:
                return c
        return Advance()

    def _shoot(self, legal: Sequence[Command], living: list[int]) -> Command:
        g, rng = self.game, self.rng
        reds = [s for s in living if g.roles[s] not in BLACK_ROLES] or living

        def target() -> int:
            return rng.choice(reds)

        aim = self._once(("aim", g.day), target)
        miss = self._once(("miss", g.day), lambda: rng.random() < 0.15)
        for c in legal:
            if isinstance(c, Shoot) and c.shooter not in g.shots:
                if miss and c.shooter == min(s for s in living if g.roles[s] in BLACK_ROLES):
                    continue  # one black player does not shoot: a miss
                if c.target == aim:
                    return c
        return Advance()


def play_plausible(ruleset: RuleSet, players: int, seed: int, names: Sequence[str] | None = None,
                   max_commands: int = 5000) -> Game:
    """One whole game at a plausible table; the same seed plays the same game."""
    rng = random.Random(seed)
    game = Game(ruleset, players, names)
    table = PlausibleTable(game, rng)
    for _ in range(max_commands):
        if game.over:
            break
        game.execute(table.next_command(), rng)
    return game
