"""The rule-following agent: plays as a club's steady player does, from its seat's feed and the public claims
only.

- **Suspicion** of each seat (a red player's picture of the table): a seat checked black by a Sheriff the town
  believes is black; one he checked red is trusted. A Sheriff is believed while nobody else claims the role;
  two claimants are both doubted. Who voted for a player the night then killed (the mafia kills reds) or the
  Sheriff then showed red draws suspicion, as does being suspected or called a liar in the speeches, a little.
- **The Sheriff** checks the most suspicious seat he has not checked, and once he has found a black player he
  says so in his speech ("I am the Sheriff", each of his checks) and asks for the vote; in his last word he
  tells whatever he found.
- **First impressions**: each player hears the speeches his own way, which the claims do not carry: a seeded
  impression of every other seat, added to what he is told (a black player's spread less). On the first day,
  with nothing else to go on, they spread the nominations and hands as a club's are spread.
- **The town** nominates and votes for the most suspicious candidate (an uncontested Sheriff's black check
  first). An "I trust N" with no check behind it reads as a pair: both draw suspicion.
- **The mafia** shoots the Sheriff who came out, else the red player the town trusts most (every black player
  works it out from what the whole team knows, so the shots agree); by day it nominates and votes as the town
  does, for a teammate only now and then (to look red), and when the Sheriff names a teammate black, one of them
  claims the Sheriff too and calls him a liar. In his first speech a black player sometimes shields a teammate
  ("I trust N"), as a red one now and then trusts the seat he likes best. **The Don** checks for the Sheriff
  among the reds the town trusts.

Its choices depend on its generator only where the picture leaves a tie.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import BLACK_ROLES, BestMove, Check, Command, Kill, LiftVote, Nominate, Shoot, Vote
from ..rules import RuleSet
from .agents import Agent
from .claims import Claim, Said

CHECKERS = ("sheriff", "commissar")
IMPRESSION = 0.35
"""A red player's first impression of each other seat (the speeches as people hear them, which the claims do not
carry): drawn from his own generator at the deal, normal with this spread, and added to what he is told. It
spreads the first day's nominations and hands as a club's are spread (docs/bots.md, "How bots play")."""
SHIELD = 0.2
"""How often a black player shields a teammate in his first speech ("I trust N" with no check behind it)."""
PAIR = 0.4
"""The suspicion an unfounded "I trust N" draws on who says it (half as much on N): the town reads a pair."""
RED_TRUST = 0.1
"""How often a red player says he trusts the seat he likes best in his first speech (so a trust is a hint, not
proof)."""
BLACK_SPREAD = 0.55
"""A black player's first impressions count this much of a red's (he knows the colours; he only spreads his hands)."""
HIDE = 0.07
"""How often a black player votes for a teammate on the ballot, to look red."""
WATCHED = frozenset({"dealt", "player_left", "checked", "voting_started", "vote_cast"})
"""The feed's entries the agent reads (the others it only keeps)."""


class BaselineAgent(Agent):
    """See the module doc."""

    name = "baseline"

    def start(self, seat: int, rules: RuleSet, players: int, rng: random.Random) -> None:
        super().start(seat, rules, players, rng)
        self.role = ""
        self.team: set[int] = set()  # black teammates (a black seat's)
        self.alive = set(range(1, players + 1))
        self._living_others: list[int] | None = None
        self.my_checks: dict[int, bool] = {}  # target: found (black for the Sheriff, the Sheriff for the Don)
        self.heat: dict[int, float] = defaultdict(float)
        self.voters: dict[int, list[int]] = defaultdict(list)  # candidate: who voted for him, this game
        self.candidates: tuple[int, ...] = ()
        self.ballot: int | None = None
        self.lifted: set[int] = set()
        self.nominated = 0
        self.claimants: set[int] = set()
        self.checks_told: dict[int, dict[int, str]] = defaultdict(dict)  # claimant: target: color
        self.countered: set[int] = set()
        self.came_out = False
        self.spoke = False
        self.trusted: set[int] = set()
        self._suspicions: dict[int, float] = {}  # each seat's suspicion, until it is told something that changes it
        self._spared: frozenset[int] = frozenset()  # a black seat's team, itself included
        self.impression = {s: rng.gauss(0.0, IMPRESSION) for s in range(1, players + 1) if s != seat}
        self._felt: dict[int, float] = {}  # the impressions a red seat adds (none for a black one)

    # --- what it is told ----------------------------------------------------------------------------------
    def observe(self, entries: Sequence[Mapping[str, Any]], claims: Sequence[Said]) -> None:
        Agent.observe(self, entries, claims)  # its feed and claims kept (a call without super())
        known = self._suspicions  # what it changes is looked at again
        for e in entries:
            kind = e["type"]
            if kind not in WATCHED:
                continue
            if kind == "dealt":
                self.role = e.get("role", "")
                self.team = set(e.get("teammates", ()))
                self._spared = frozenset(self.team | {self.seat}) if self.black else frozenset()
                self._felt = {k: v * BLACK_SPREAD for k, v in self.impression.items()} if self.black \
                    else self.impression
                known.clear()
            elif kind == "player_left":
                self.alive.discard(e["seat"])
                self._living_others = None
                if e.get("how") == "kill":  # the night took a red player: who voted for him is suspect
                    for voter in self.voters.get(e["seat"], ()):
                        self.heat[voter] += 0.5
                        known.pop(voter, None)
            elif kind == "checked" and e.get("checker") == self.seat:
                self.my_checks[e["target"]] = bool(e["found"])
                known.pop(e["target"], None)
            elif kind == "voting_started":
                self.candidates = tuple(e["candidates"])
                self.ballot = None
            elif kind == "vote_cast":
                self.voters[e["candidate"]].append(e["voter"])
        for said in claims:
            self._heard(said.claim)

    def _heard(self, c: Claim) -> None:
        known, kind, target = self._suspicions, c.kind, c.target  # what it changes is looked at again
        if kind == "role":
            if c.role in CHECKERS:
                self.claimants.add(c.seat)
                known.clear()
        elif kind == "suspect" or kind == "lying":
            if target is not None:
                self.heat[target] += 0.3 if kind == "suspect" else 0.6
                known.pop(target, None)
        elif kind == "check":
            if target is not None and c.color is not None:
                self.checks_told[c.seat][target] = c.color
                known.pop(target, None)
        elif kind == "trust" and target is not None and c.seat != self.seat and \
                not any(told.get(target) == "red" for told in self.checks_told.values()):
            self.heat[c.seat] += PAIR  # nobody told him red: a pair, or a red's hunch
            self.heat[target] += PAIR / 2
            known.pop(c.seat, None)
            known.pop(target, None)

    # --- the picture ------------------------------------------------------------------------------------------
    @property
    def black(self) -> bool:
        return self.role in BLACK_ROLES

    def sheriff(self) -> int | None:
        """The Sheriff the town believes: the one claimant, while alive or not."""
        return next(iter(self.claimants)) if len(self.claimants) == 1 else None

    def suspicion(self, seat: int) -> float:
        """How black ``seat`` looks from what it was told (kept until it is told something that changes it)."""
        found = self._suspicions.get(seat)
        if found is None:
            found = self._suspicions[seat] = self._suspicion(seat)
        return found

    def _suspicion(self, seat: int) -> float:
        if seat in self.my_checks and self.role in CHECKERS:
            return 100.0 if self.my_checks[seat] else -100.0
        s = self.heat.get(seat, 0.0)
        claimants = self.claimants
        if not claimants and not self.checks_told:
            return s
        believed = self.sheriff()
        if believed is not None and believed != self.seat:
            color = self.checks_told[believed].get(seat)
            s += 50.0 if color == "black" else -50.0 if color == "red" else 0.0
            if seat == believed:
                s -= 20.0
        if len(claimants) > 1 and seat in claimants:
            s += 5.0
        for claimant, told in self.checks_told.items():  # a red check from a doubted claimant helps a little
            if claimant != believed and seat in told:
                s += 1.0 if told[seat] == "black" else -1.0
        return s

    def _rank(self, seats: Sequence[int], worst: bool = True) -> list[int]:
        """``seats`` most suspicious first (least, with ``worst`` false); ties in a seeded order."""
        jitter = {s: self.rng.random() for s in seats}
        return sorted(seats, key=lambda s: ((-1 if worst else 1) * self._view_of(s), jitter[s]))

    def _top(self, seats: Sequence[int]) -> int:
        """``_rank(seats)[0]``, drawing the same numbers, without the sort: the most suspicious of ``seats``."""
        draw, spared, known, felt = self.rng.random, self._spared, self._suspicions, self._felt
        top, worst, tie = 0, 0.0, 0.0
        for s in seats:  # as _view_of
            view = -1000.0 if s in spared else known.get(s)
            if view is None:
                view = self.suspicion(s)
            view += felt.get(s, 0.0)
            jitter = draw()
            if not top or view > worst or (view == worst and jitter < tie):
                top, worst, tie = s, view, jitter
        return top

    def _view_of(self, seat: int) -> float:
        """How the seat looks to this player: a red one adds his first impression, a black one sees the town's
        picture, its teammates spared."""
        if seat in self._spared:
            return -1000.0
        found = self._suspicions.get(seat)
        return (found if found is not None else self.suspicion(seat)) + self._felt.get(seat, 0.0)

    def _others(self) -> list[int]:
        """The other living seats, in order (kept while nobody leaves: do not change it)."""
        others = self._living_others
        if others is None:
            others = self._living_others = [s for s in sorted(self.alive) if s != self.seat]
        return others

    # --- its speech -------------------------------------------------------------------------------------------
    def speak(self) -> list[Claim]:
        self.nominated = 0  # his turn to speak: a nomination of his own again
        out: list[Claim] = []
        if self.role in CHECKERS:
            found = [t for t, black in self.my_checks.items() if black]
            dying = self.seat not in self.alive
            if (found or dying) and not self.came_out and self.my_checks:
                self.came_out = True
                out.append(Claim(self.seat, "role", role=self.role))
                out += [Claim(self.seat, "check", target=t, color="black" if b else "red")
                        for t, b in self.my_checks.items() if t != self.seat]
            elif self.came_out:  # the checks since
                told = self.checks_told[self.seat]
                out += [Claim(self.seat, "check", target=t, color="black" if b else "red")
                        for t, b in self.my_checks.items() if t not in told]
        elif self.black:
            accused = [c for c in self.claimants if c not in self.team and c != self.seat and
                       any(self.checks_told[c].get(m) == "black" for m in self.team | {self.seat})]
            if accused and not self.countered and self.seat == min((self.team | {self.seat}) & self.alive):
                liar = accused[0]
                self.countered.add(liar)
                checker = self.rules.checker
                out += [Claim(self.seat, "role", role=checker), Claim(self.seat, "lying", target=liar),
                        Claim(self.seat, "check", target=liar, color="black")]
        others = self._others()
        if others and not out:
            top = self._top(others)
            if self._view_of(top) > 0.5:
                out.append(Claim(self.seat, "suspect", target=top))
                if self._view_of(top) > 10.0:  # checked black by the believed Sheriff (or by itself)
                    out.append(Claim(self.seat, "vote", target=top))
        return self._small_talk(out, others)

    def _small_talk(self, out: list[Claim], others: Sequence[int]) -> list[Claim]:
        """What a club's player says besides: "I am red" in his first speech (unless he claimed a role), and that he
        trusts a seat the believed Sheriff checked red. It says nothing the agents weigh, and draws no number
        from the generator (the games stay as they were)."""
        if not self.spoke:
            self.spoke = True
            if not any(c.kind == "role" for c in out):
                out.insert(0, Claim(self.seat, "role", role="civilian"))
            mates = sorted(self.team & self.alive)
            if mates and self.rng.random() < SHIELD:
                out.append(Claim(self.seat, "trust", target=self.rng.choice(mates)))
            elif not self.black and others and self.rng.random() < RED_TRUST:
                out.append(Claim(self.seat, "trust", target=min(others, key=lambda s: (self._view_of(s), s))))
        believed = self.sheriff()
        if believed is not None and believed != self.seat:
            cleared = [s for s in others if self.checks_told[believed].get(s) == "red" and s not in self.trusted]
            if cleared:
                self.trusted.add(cleared[0])
                out.append(Claim(self.seat, "trust", target=cleared[0]))
        return out

    # --- its commands -----------------------------------------------------------------------------------------
    def act(self, legal: Sequence[Command]) -> Command | None:
        if not legal:
            return None
        first = legal[0]
        if isinstance(first, Nominate) or first.type == "withdraw":
            return self._nominate(legal)
        if isinstance(first, Vote):
            return self._vote(legal)
        if isinstance(first, LiftVote):
            return self._lift(first)
        if isinstance(first, Shoot | Kill):
            if isinstance(first, Shoot) and self.shot_tonight():
                return None  # one shot a night (a second would make the night a miss)
            target = self._team_target()
            return next((c for c in legal if getattr(c, "target", None) == target), legal[0])
        if isinstance(first, Check):
            return self._check(legal)
        if isinstance(first, BestMove):
            return self._best_move(legal)
        return None

    def _nominate(self, legal: Sequence[Command]) -> Command | None:
        if self.nominated:
            return None
        options = {c.target: c for c in legal if isinstance(c, Nominate)}
        if not options:
            return None
        seat = self._top(list(options))
        if self._view_of(seat) > 0.2 or (self.black and self.rng.random() < 0.3):
            self.nominated = 1
            return options[seat]
        return None

    def _vote(self, legal: Sequence[Command]) -> Command | None:
        if self.ballot is None:
            pool = [c for c in self.candidates if c in self.alive] or \
                list(dict.fromkeys(c.candidate for c in legal if isinstance(c, Vote)))
            self.ballot = self._top(pool) if pool else None
            mates = [c for c in pool if c in self.team]
            if mates and self.rng.random() < HIDE:
                self.ballot = self.rng.choice(mates)
        ballot = self.ballot
        if ballot is None:
            return None
        for c in legal:  # its hand for its ballot's candidate (a seat is offered one a candidate)
            if isinstance(c, Vote) and c.candidate == ballot:
                return c
        return None

    def _lift(self, offer: LiftVote) -> Command | None:
        key = len(self.feed)
        if key in self.lifted:
            return None
        self.lifted.add(key)
        worst = max((self._view_of(c) for c in self.candidates if c in self.alive), default=0.0)
        return offer if worst > 10.0 else None

    def _team_target(self) -> int | None:
        """The black team's target, from what every one of them knows: the Sheriff who came out, else the red
        the town trusts most."""
        reds = [s for s in sorted(self.alive) if s not in self.team and s != self.seat]
        if not reds:
            return None
        out = [c for c in sorted(self.claimants) if c in reds]
        return out[0] if out else self._hidden_checker(reds)

    def _hidden_checker(self, reds: Sequence[int]) -> int:
        """Where the team thinks the checker sits while he has not come out: the red the town trusts most."""
        return min(reds, key=lambda s: (self.suspicion(s), s))

    def _check(self, legal: Sequence[Command]) -> Command:
        options = {c.target: c for c in legal if isinstance(c, Check)}
        fresh = [s for s in options if s not in self.my_checks] or list(options)
        if self.black:  # the Don looks for the Sheriff among those the town trusts
            pick = min(fresh, key=lambda s: (self.suspicion(s), self.rng.random()))
        else:
            pick = self._top(fresh)
        return options[pick]

    def _best_move(self, legal: Sequence[Command]) -> Command:
        moves = [c for c in legal if isinstance(c, BestMove)]
        ranked = self._rank(self._others())
        best = tuple(sorted(ranked[:3]))
        return next((c for c in moves if c.guesses == best), moves[0])
