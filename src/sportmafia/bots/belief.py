"""The belief agent: the baseline's way of playing, with its picture of the table made by reasoning over every
deal consistent with what its seat knows.

The hypotheses are the deals the seat cannot tell apart: which seats are black (all of them but its own team,
for a red player; known, for a black one) and which red seat is the checker (the Sheriff or the Commissar).
Each has a weight, the prior being even, and each thing seen weighs them (the factors are the table's
habits, said once here):

- a player killed at night: the mafia kills its own rarely (x0.02 where he is black);
- a hand for a candidate: a black player votes for a teammate rarely (x0.3);
- "I am the Sheriff": a red player other than the Sheriff almost never says it (x0.02), a black one does to
  counter the real one (x0.3);
- a check told by the one who claimed the checker: the real checker tells what he found (x0.001 otherwise); a
  black one makes it up, red or black as it suits him (x0.5), and names his own teammate black rarely
  (x0.05); a red one who is not the checker does not tell checks (x0.02);
- "I suspect N": of a teammate, rarely (x0.5);
- its own checks: certain (a deal they contradict has no weight).

A red player's suspicion is then the chance that a seat is black, above or below the even chance. A black
player knows the colours and plays the town's picture as the baseline does (to vote with the town); the Don
checks, and the mafia shoots, the seat most likely the checker.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from ..engine import BLACK_ROLES, Check, Command
from ..rules import RuleSet
from .baseline import CHECKERS, BaselineAgent
from .claims import Claim, Said

KILLED_BLACK = 0.02
TEAMMATE_VOTE = 0.3
RED_CLAIMS_CHECKER = 0.02
BLACK_CLAIMS_CHECKER = 0.3
CHECKER_LIES = 0.001
BLACK_EXPOSES_TEAMMATE = 0.05
LIAR_SAYS = 0.5
TEAMMATE_SUSPECTED = 0.5


class BeliefAgent(BaselineAgent):
    """See the module doc."""

    name = "belief"

    def start(self, seat: int, rules: RuleSet, players: int, rng: random.Random) -> None:
        super().start(seat, rules, players, rng)
        deck = rules.roles_for(players)
        self._blacks = sum(1 for r in deck if r in BLACK_ROLES)
        self._has_checker = any(r in CHECKERS for r in deck)
        self._masks: list[int] = []
        self._weights: list[dict[int, float]] = []  # per black mask: checker seat (0: none) -> weight
        self._mask_weight: list[float] = []  # per black mask: its weight (times its checkers' weights)
        self._updates = 0
        self._holding: dict[int, list[int]] = {}  # seat: the deals he is black in
        self._p_black: dict[int, float] | None = None
        self._p_checker: dict[int, float] | None = None
        self._shared: dict[int, float] = {}
        """A black seat's weights of where the checker is, from what its whole team knows (not the Don's checks):
        the team's shots agree only if each of them works the target out from the same things."""

    def _hypotheses(self) -> None:
        """The deals its seat cannot tell apart, evenly weighted (made when its card is seen)."""
        me = 1 << self.seat
        others = [s for s in range(1, self.players + 1) if s != self.seat]
        if self.black:
            masks = [me | sum(1 << t for t in self.team)]
        else:
            masks = [sum(1 << s for s in combo) for combo in combinations(others, self._blacks)]
        for mask in masks:
            reds = [s for s in range(1, self.players + 1) if not mask >> s & 1]
            if self.role in CHECKERS:
                checkers = [self.seat]
            elif self._has_checker:
                checkers = [s for s in reds if s != self.seat]
            else:
                checkers = [0]
            self._masks.append(mask)
            self._weights.append({c: 1.0 for c in checkers})
        self._mask_weight = [1.0] * len(self._masks)
        self._holding = {s: [i for i, mask in enumerate(self._masks) if mask >> s & 1]
                         for s in range(1, self.players + 1)}
        if self.black:
            self._shared = dict.fromkeys(self._weights[0], 1.0)
        self._dirty()

    def _dirty(self) -> None:
        self._p_black = self._p_checker = None
        self._suspicions.clear()

    def _weigh(self, factor: Callable[[int, int], float], private: bool = False) -> None:
        """Each deal's weight times ``factor(black mask, checker)``; ``private``: what only this seat knows."""
        for i, (mask, weights) in enumerate(zip(self._masks, self._weights, strict=True)):
            if self._mask_weight[i]:
                for checker in weights:
                    weights[checker] *= factor(mask, checker)
        if self._shared and not private:
            shared, mask = self._shared, self._masks[0]
            for checker in shared:
                shared[checker] *= factor(mask, checker)
            top = max(shared.values())
            for checker in shared:
                shared[checker] = shared[checker] / top if top > 0 else 1.0
        self._weighed()

    def _scale_black(self, seats: Sequence[int], factor: float) -> None:
        """The weight of each deal where every one of ``seats`` is black, times ``factor`` (the deals are found
        through the lists of deals each seat is black in, not by looking at all of them)."""
        holding = self._holding
        found = set(holding[seats[0]]).intersection(*(holding[s] for s in seats[1:])) if seats else set()
        weight = self._mask_weight
        for i in found:
            weight[i] *= factor
        self._weighed()

    def _weigh_masks(self, factor: Callable[[int], float]) -> None:
        """Each deal's weight times ``factor(black mask)``: what says nothing of where the checker is."""
        weight = self._mask_weight
        for i, mask in enumerate(self._masks):
            if weight[i]:
                weight[i] *= factor(mask)
        self._weighed()

    def _weighed(self) -> None:
        self._dirty()
        self._updates += 1
        if self._updates % 16 == 0:  # kept from under- and overflow, now and then (a factor is 0.001 at least)
            self._normalise()

    def _normalise(self) -> None:
        totals = [w * sum(ws.values()) for w, ws in zip(self._mask_weight, self._weights, strict=True)]
        total = sum(totals)
        if total <= 0:  # nothing it saw fits any deal (a table that plays otherwise): start again, evenly
            self._mask_weight = [1.0] * len(self._masks)
            for weights in self._weights:
                for checker in weights:
                    weights[checker] = 1.0
        elif total < 1e-100 or total > 1e100:
            self._mask_weight = [w / total for w in self._mask_weight]
        self._dirty()

    def observe(self, entries: Sequence[dict[str, Any]], claims: Sequence[Said]) -> None:
        had_role = bool(self.role)
        super().observe(entries, claims)
        if self.role and not had_role:
            self._hypotheses()
        if not self._masks:
            return
        for e in entries:
            kind = e.get("type")
            if kind == "player_left" and e.get("how") == "kill":
                self._scale_black([e["seat"]], KILLED_BLACK)
            elif kind == "vote_cast":
                self._scale_black([e["voter"], e["candidate"]], TEAMMATE_VOTE)
            elif kind == "checked" and e.get("checker") == self.seat:
                self._own_check(e["target"], bool(e["found"]))
        for said in claims:
            self._heard_claim(said.claim)

    def _own_check(self, target: int, found: bool) -> None:
        if self.black:  # the Don: found is "he is the checker"
            def fits(_mask: int, checker: int) -> float:
                return 1.0 if (checker == target) == found else 0.0
            self._weigh(fits, private=True)
        else:
            bit = 1 << target
            self._weigh_masks(lambda mask: 1.0 if bool(mask & bit) == found else 0.0)

    def _heard_claim(self, c: Claim) -> None:
        if c.seat == self.seat:
            return
        who, seat = 1 << c.seat, c.seat
        if c.kind == "role" and c.role in CHECKERS:
            def claimed(mask: int, checker: int) -> float:
                return BLACK_CLAIMS_CHECKER if mask & who else 1.0 if checker == seat else RED_CLAIMS_CHECKER
            self._weigh(claimed)
        elif c.kind == "check" and c.target is not None and c.seat in self.claimants:
            bit, says_black = 1 << c.target, c.color == "black"

            def told(mask: int, checker: int) -> float:
                if checker == seat:  # the checker tells what he found
                    return 1.0 if bool(mask & bit) == says_black else CHECKER_LIES
                if mask & who:  # a black claimant makes his checks up: red or black, rarely a teammate black
                    return BLACK_EXPOSES_TEAMMATE if says_black and mask & bit else LIAR_SAYS
                return RED_CLAIMS_CHECKER  # a red player who is not the checker does not tell checks
            self._weigh(told)
        elif c.kind == "suspect" and c.target is not None:
            self._scale_black([c.seat, c.target], TEAMMATE_SUSPECTED)

    # --- the picture ------------------------------------------------------------------------------------------
    def p_black(self) -> dict[int, float]:
        if self._p_black is None:
            self._normalise()
            each = [scale * sum(weights.values()) for scale, weights in
                    zip(self._mask_weight, self._weights, strict=True)]
            total = sum(each)
            self._p_black = {s: (sum(each[i] for i in self._holding[s]) / total if total else 0.0)
                             for s in range(1, self.players + 1)}
        return self._p_black

    def p_checker(self) -> dict[int, float]:
        if self._p_checker is None:
            self._normalise()
            out: dict[int, float] = {}
            total = 0.0
            for weights, scale in zip(self._weights, self._mask_weight, strict=True):
                for c, w in weights.items():
                    out[c] = out.get(c, 0.0) + scale * w
                    total += scale * w
            self._p_checker = {s: v / total for s, v in out.items()} if total else {}
        return self._p_checker

    def _suspicion(self, seat: int) -> float:
        if not self._masks or self.black:  # a black player knows the colours: he plays the town's picture
            return super()._suspicion(seat)
        unknown = self.players - 1 - (len(self.team) if self.black else 0)
        prior = (self._blacks - (1 + len(self.team) if self.black else 0)) / unknown if unknown else 0.0
        return 100.0 * (self.p_black()[seat] - prior)

    def _hidden_checker(self, reds: Sequence[int]) -> int:
        likely = self._shared  # what the whole team knows, not the Don's own checks
        return max(reds, key=lambda s: (likely.get(s, 0.0), -s))

    def _check(self, legal: Sequence[Command]) -> Command:
        if not (self.black and self._masks):
            return super()._check(legal)
        options = {c.target: c for c in legal if isinstance(c, Check)}
        fresh = [s for s in options if s not in self.my_checks] or list(options)
        likely = self.p_checker()  # the Don: where the checker most likely sits, his own checks included
        return options[max(fresh, key=lambda s: (likely.get(s, 0.0), self.rng.random()))]
