"""The belief agent: the baseline's way of playing, with its picture of the table made by reasoning over every
deal consistent with what its seat knows.

The hypotheses are the deals the seat cannot tell apart: which seats are black (all of them but its own team,
for a red player; known, for a black one) and which red seat is the checker (the Sheriff or the Commissar).
Each has a weight, the prior being even, and each thing seen weighs them (the factors are the table's
habits, said once here):

- a player killed at night: the mafia kills its own rarely (x0.02 where he is black);
- a hand for a candidate: a black player votes for a teammate rarely (x0.3);
- "I am the Sheriff": a red player other than the Sheriff almost never says it (x0.02), a black one does to
  counter the one who claimed it before him (x0.3), and rarely claims it first (x0.05);
- a check told by the one who claimed the checker: the real checker tells what he found (x0.001 otherwise); a
  black one makes it up, red or black as it suits him (x0.5), and names his own teammate black rarely
  (x0.05); a red one who is not the checker does not tell checks (x0.02);
- "I suspect N": of a teammate, rarely (x0.5);
- "I trust N" with no check behind it (the baseline's first speech): a black player shields a teammate (x9
  where both are black), never a red seat (x0.1 where he is black and N red);
- its own checks: certain (a deal they contradict has no weight).

A red player's suspicion is then the town's reading of the seat (the baseline's: what the speeches and the
believed Sheriff say of it, without first impressions) plus the chance that the seat is black, above or below
the even chance, times 100: the deals' weights decide wherever they are not even. A black
player knows the colours and plays the town's picture as the baseline does (to vote with the town); the Don
checks, and the mafia shoots, the seat most likely the checker.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from itertools import accumulate, combinations, pairwise
from operator import mul
from typing import Any

from ..engine import BLACK_ROLES, Check, Command
from ..rules import RuleSet
from .baseline import CHECKERS, BaselineAgent
from .claims import Claim, Said

KILLED_BLACK = 0.02
TEAMMATE_VOTE = 0.3
RED_CLAIMS_CHECKER = 0.02
BLACK_CLAIMS_CHECKER = 0.3
BLACK_OPENS_CHECKER = 0.05
CHECKER_LIES = 0.001
BLACK_EXPOSES_TEAMMATE = 0.05
LIAR_SAYS = 0.5
TEAMMATE_SUSPECTED = 0.5
SHIELDED = 9.0
SHIELDS_RED = 0.1


class _Deals:
    """The deals a seat cannot tell apart (its black masks, each one's possible checkers), with the deals each
    seat is black in: the same for every agent at that seat of such a table, so made once and only read."""

    __slots__ = ("bounds", "cell_checkers", "cell_masks", "checkers", "factors", "holding", "masks", "together")

    def __init__(self, masks: list[int], players: int, checkers: Callable[[int], tuple[int, ...]]) -> None:
        self.masks = masks
        self.checkers = [checkers(mask) for mask in masks]
        # a deal is a black mask and its checker: the deals of a mask are its cells, one after another
        self.cell_masks = [i for i, cs in enumerate(self.checkers) for _ in cs]
        self.cell_checkers = [c for cs in self.checkers for c in cs]
        ends = list(accumulate((len(cs) for cs in self.checkers), initial=0))
        self.bounds = [slice(a, b) for a, b in pairwise(ends)]
        self.holding = {s: [i for i, mask in enumerate(masks) if mask >> s & 1] for s in range(1, players + 1)}
        self.together: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.factors: dict[tuple[Any, ...], list[float]] = {}

    def factor(self, key: tuple[Any, ...], factor: Callable[[int, int], float]) -> list[float]:
        """``factor(black mask, checker)`` of each cell, kept by ``key`` (what the factor is made of)."""
        found = self.factors.get(key)
        if found is None:
            masks = self.masks
            found = self.factors[key] = [factor(masks[i], c) for i, c in zip(self.cell_masks, self.cell_checkers,
                                                                              strict=True)]
        return found

    def black_together(self, seats: tuple[int, ...]) -> tuple[int, ...]:
        """The deals where every one of ``seats`` is black (found through the lists of each seat's deals)."""
        found = self.together.get(seats)
        if found is None:
            holding = self.holding
            both = set(holding[seats[0]]).intersection(*(holding[s] for s in seats[1:])) if seats else set()
            found = self.together[seats] = tuple(sorted(both))
        return found


_DEALS: dict[tuple[int, int, int, int, str], _Deals] = {}
"""The deals by (players, black players, seat, its team's mask or 0, who may be the checker)."""


class BeliefAgent(BaselineAgent):
    """See the module doc."""

    name = "belief"

    def start(self, seat: int, rules: RuleSet, players: int, rng: random.Random) -> None:
        super().start(seat, rules, players, rng)
        deck = rules.roles_for(players)
        self._blacks = sum(1 for r in deck if r in BLACK_ROLES)
        self._has_checker = any(r in CHECKERS for r in deck)
        self._deals = _Deals([], players, lambda mask: ())
        self._masks: list[int] = []
        self._cells: list[float] = []  # each deal's weight: its black mask's cells (_Deals), one a checker
        self._mask_weight: list[float] = []  # per black mask: its weight (times its checkers' weights)
        self._updates = 0
        self._claimed: set[int] = set()  # who claimed the checker, as far as its claims were weighed (in order)
        self._holding: dict[int, list[int]] = {}  # seat: the deals he is black in
        self._p_black: dict[int, float] | None = None
        self._p_checker: dict[int, float] | None = None
        self._shared: dict[int, float] = {}
        """A black seat's weights of where the checker is, from what its whole team knows (not the Don's checks):
        the team's shots agree only if each of them works the target out from the same things."""

    def _hypotheses(self) -> None:
        """The deals its seat cannot tell apart, evenly weighted (made when its card is seen)."""
        seat, players = self.seat, self.players
        team = (1 << seat | sum(1 << t for t in self.team)) if self.black else 0
        who = "self" if self.role in CHECKERS else "reds" if self._has_checker else "none"
        key = (players, self._blacks, seat, team, who)
        deals = _DEALS.get(key)
        if deals is None:
            others = [s for s in range(1, players + 1) if s != seat]
            masks = [team] if team else [sum(1 << s for s in combo) for combo in combinations(others, self._blacks)]

            def checkers(mask: int) -> tuple[int, ...]:
                if who == "self":
                    return (seat,)
                if who == "reds":
                    return tuple(s for s in range(1, players + 1) if not mask >> s & 1 and s != seat)
                return (0,)
            deals = _DEALS[key] = _Deals(masks, players, checkers)
        self._deals = deals
        self._masks = deals.masks
        self._cells = [1.0] * len(deals.cell_masks)
        self._mask_weight = [1.0] * len(self._masks)
        self._holding = deals.holding
        if self.black:
            self._shared = dict.fromkeys(deals.checkers[0], 1.0)
        self._dirty()

    def _dirty(self) -> None:
        self._p_black = self._p_checker = None
        self._suspicions.clear()

    def _weigh(self, factor: Callable[[int, int], float], private: bool = False, key: tuple[Any, ...] = ()) -> None:
        """Each deal's weight times ``factor(black mask, checker)``; ``private``: what only this seat knows;
        ``key``: what the factor is made of, for the factors of a seat's deals made once (none: made now)."""
        masks = self._masks
        each = self._deals.factor(key, factor) if key else [
            factor(masks[i], c) for i, c in zip(self._deals.cell_masks, self._deals.cell_checkers, strict=True)]
        self._cells = list(map(mul, self._cells, each))  # a deal of no weight stays of none (factors are 1 at most)
        if self._shared and not private:
            shared, mask = self._shared, self._masks[0]
            for checker in shared:
                shared[checker] *= factor(mask, checker)
            top = max(shared.values())
            for checker in shared:
                shared[checker] = shared[checker] / top if top > 0 else 1.0
        self._weighed()

    def _scale_black(self, seats: Sequence[int], factor: float) -> None:
        """The weight of each deal where every one of ``seats`` is black, times ``factor``."""
        weight = self._mask_weight
        for i in self._deals.black_together(tuple(seats)):
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
        total = sum(self._each())
        if total <= 0:  # nothing it saw fits any deal (a table that plays otherwise): start again, evenly
            self._mask_weight = [1.0] * len(self._masks)
            self._cells = [1.0] * len(self._cells)
        elif total < 1e-100 or total > 1e100:
            self._mask_weight = [w / total for w in self._mask_weight]
        self._dirty()

    def observe(self, entries: Sequence[Mapping[str, Any]], claims: Sequence[Said]) -> None:
        had_role = bool(self.role)
        super().observe(entries, claims)
        if self.role and not had_role:
            self._hypotheses()
            if not self.black:
                self._felt = {}  # its hunches are not evidence: the deals' weights are its whole picture
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
        who, seat = 1 << c.seat, c.seat
        if c.kind == "role" and c.role in CHECKERS:
            black = BLACK_CLAIMS_CHECKER if self._claimed - {seat} else BLACK_OPENS_CHECKER  # a counter, or the first
            self._claimed.add(seat)  # its own claim too: a black one's after it is a counter
            if seat != self.seat:
                def claimed(mask: int, checker: int) -> float:
                    return black if mask & who else 1.0 if checker == seat else RED_CLAIMS_CHECKER
                self._weigh(claimed, key=("role", seat, black))
            return
        if seat == self.seat:
            return
        if c.kind == "check" and c.target is not None and c.seat in self.claimants:
            bit, says_black = 1 << c.target, c.color == "black"

            def told(mask: int, checker: int) -> float:
                if checker == seat:  # the checker tells what he found
                    return 1.0 if bool(mask & bit) == says_black else CHECKER_LIES
                if mask & who:  # a black claimant makes his checks up: red or black, rarely a teammate black
                    return BLACK_EXPOSES_TEAMMATE if says_black and mask & bit else LIAR_SAYS
                return RED_CLAIMS_CHECKER  # a red player who is not the checker does not tell checks
            self._weigh(told, key=("check", seat, c.target, says_black))
        elif c.kind == "suspect" and c.target is not None:
            self._scale_black([c.seat, c.target], TEAMMATE_SUSPECTED)
        elif c.kind == "trust" and c.target is not None and c.target != self.seat and \
                not any(told.get(c.target) == "red" for told in self.checks_told.values()):
            speaker, target = 1 << c.seat, 1 << c.target

            def shielded(mask: int) -> float:
                return (SHIELDED if mask & target else SHIELDS_RED) if mask & speaker else 1.0
            self._weigh_masks(shielded)

    # --- the picture ------------------------------------------------------------------------------------------
    def _each(self) -> list[float]:
        """Each black mask's weight: its own times the sum of its cells."""
        return list(map(mul, self._mask_weight, map(sum, map(self._cells.__getitem__, self._deals.bounds))))

    def p_black(self) -> dict[int, float]:
        if self._p_black is None:
            each = self._each()
            total = sum(each)
            if not 1e-100 <= total <= 1e100:  # what _normalise changes (it is a deal's weight times its sum)
                self._normalise()
                each = self._each()
                total = sum(each)
            else:
                self._dirty()  # as _normalise leaves it
            holding, at = self._holding, each.__getitem__
            self._p_black = {s: (sum(map(at, holding[s])) / total if total else 0.0)
                             for s in range(1, self.players + 1)}
        return self._p_black

    def p_checker(self) -> dict[int, float]:
        if self._p_checker is None:
            self._normalise()
            out: dict[int, float] = {}
            total = 0.0
            scales = self._mask_weight
            for i, c, w in zip(self._deals.cell_masks, self._deals.cell_checkers, self._cells, strict=True):
                out[c] = out.get(c, 0.0) + scales[i] * w
                total += scales[i] * w
            self._p_checker = {s: v / total for s, v in out.items()} if total else {}
        return self._p_checker

    def _suspicion(self, seat: int) -> float:
        if not self._masks or self.black:  # a black player knows the colours: he plays the town's picture
            return super()._suspicion(seat)
        unknown = self.players - 1 - (len(self.team) if self.black else 0)
        prior = (self._blacks - (1 + len(self.team) if self.black else 0)) / unknown if unknown else 0.0
        return super()._suspicion(seat) + 100.0 * (self.p_black()[seat] - prior)

    def _hidden_checker(self, reds: Sequence[int]) -> int:
        """The red most likely the checker by what the whole team knows (not the Don's own checks); among the
        equally likely (as a rule, all of them until someone claims the role), the one the baseline's team
        shoots: the red the town trusts most. So a team of both agents shoots one seat."""
        likely = self._shared
        return max(reds, key=lambda s: (likely.get(s, 0.0), -self.suspicion(s), -s))

    def _check(self, legal: Sequence[Command]) -> Command:
        if not (self.black and self._masks):
            return super()._check(legal)
        options = {c.target: c for c in legal if isinstance(c, Check)}
        fresh = [s for s in options if s not in self.my_checks] or list(options)
        likely = self.p_checker()  # the Don: where the checker most likely sits, his own checks included
        return options[max(fresh, key=lambda s: (likely.get(s, 0.0), self.rng.random()))]
