"""How bots play, in the figures real play is measured by: the first round's single votes, as in the analysis of
1,237 rated games on mafiaratings.com ("Анализ голосования первого раунда", the `docs/article=1.txt` article of
the public szotin/mafiaratings repository).

A **single vote** is a hand for a candidate no one else voted for, in the first vote of the first day with one
(its first round, not a revote). A player who raised no hand and is counted for the last candidate
(A.vote.default) votes too. The article's figures:

- reds cast 57% of single votes (491 of 862), blacks 43%;
- 65% of single votes' targets were red (556 of 862);
- the mafia aimed 84% of its single votes at reds (312 of 371).

>>> REAL["red_share_of_single_votes"], REAL["red_targets"], REAL["black_votes_at_reds"]
(0.57, 0.645, 0.841)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ..engine import BLACK_ROLES, Game
from ..engine import events as E

REAL: dict[str, float] = {
    "red_share_of_single_votes": round(491 / 862, 3),
    "red_targets": round(556 / 862, 3),
    "black_votes_at_reds": round(312 / 371, 3),
}
"""The article's figures (rounded to 0.001): see the module doc."""


@dataclass
class SingleVotes:
    """The first round's single votes of many games, counted by the voter's and the target's team."""

    red_at_red: int = 0
    red_at_black: int = 0
    black_at_red: int = 0
    black_at_black: int = 0
    games: int = 0

    @property
    def total(self) -> int:
        return self.red_at_red + self.red_at_black + self.black_at_red + self.black_at_black

    def figures(self) -> dict[str, float | int | None]:
        """The article's three shares (None without a single vote), and the counts behind them."""
        total, black = self.total, self.black_at_red + self.black_at_black

        def share(k: int, n: int) -> float | None:
            return round(k / n, 3) if n else None
        return {"red_share_of_single_votes": share(self.red_at_red + self.red_at_black, total),
                "red_targets": share(self.red_at_red + self.black_at_red, total),
                "black_votes_at_reds": share(self.black_at_red, black),
                "single_votes": total, "games": self.games}


def first_round(game: Game) -> dict[int, list[int]] | None:
    """Who voted for whom in the first vote of the first day with one (its first round), default votes
    included: candidate -> voters; None when no day had a vote. The log's undone actions are left out."""
    undone = {ev.seq for ev in game.log if isinstance(ev, E.Undone)}
    hands: dict[int, list[int]] | None = None
    action = -1
    for i, ev in enumerate(game.log):
        if ev.action:
            action = i
        if action in undone or isinstance(ev, E.Undone):
            continue
        if isinstance(ev, E.VotingStarted):
            if hands is not None:
                break  # the first round is over: a revote, a lift or the next day's vote
            hands = {c: [] for c in ev.candidates}
        elif hands is not None and isinstance(ev, E.VoteCast):
            hands.setdefault(ev.candidate, []).append(ev.voter)
        elif hands is not None and isinstance(ev, E.DefaultVotes):
            hands.setdefault(ev.candidate, []).extend(ev.voters)
        elif hands is not None and isinstance(ev, E.VoteResult):
            break
    return hands


def single_votes(games: Iterable[Game]) -> SingleVotes:
    """The first round's single votes of ``games`` (finished or not), by team."""
    out = SingleVotes()
    for game in games:
        out.games += 1
        hands = first_round(game)
        if not hands:
            continue
        team: Counter[str] = Counter()
        for candidate, voters in hands.items():
            if len(voters) != 1:
                continue
            voter_black = game.roles[voters[0]] in BLACK_ROLES
            target_black = game.roles[candidate] in BLACK_ROLES
            team[("black" if voter_black else "red") + ("_at_black" if target_black else "_at_red")] += 1
        out.red_at_red += team["red_at_red"]
        out.red_at_black += team["red_at_black"]
        out.black_at_red += team["black_at_red"]
        out.black_at_black += team["black_at_black"]
    return out
