"""A run's seeded batches, what one batch plays, and exact totals.

A batch is a :class:`Task`: one variant, ``size`` games at a table of agents, their seeds drawn from
``(seed, batch, game)`` alone in the paired design (every variant plays the same seeds: common random numbers),
or from ``(seed, variant, batch, game)`` when unpaired. :func:`play_batch` runs anywhere (a process of the
machine, a cluster's worker): it needs nothing but its task. Its :class:`Tally` is made of counts only, so the
totals of a run are the same whatever the order of its batches and the number of workers.

>>> t = Task("club", 0, 0, 2, "random", 10, 7)
>>> play_batch(t)["tally"]["games"]
2
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from .variants import parse_variant

EVENT_BIN = 50
"""The width of the histogram's bins of a game's length in events."""


UNFINISHED = "unfinished"
"""The result of a game the table stopped at its step limit before it ended (``bots.table.play_table``)."""


def game_seed(seed: int, batch: int, game: int, variant: int | None = None) -> int:
    """The seed of one game (63 bits), the same in every process and on every machine."""
    key = f"{seed}:{batch}:{game}" if variant is None else f"{seed}:{variant}:{batch}:{game}"
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big") >> 1


@dataclass(frozen=True)
class Task:
    """One batch: what a worker needs to play it."""

    spec: str
    variant: int
    batch: int
    size: int
    agent: str
    players: int
    seed: int
    paired: bool = True

    def seeds(self) -> list[int]:
        v = None if self.paired else self.variant
        return [game_seed(self.seed, self.batch, i, v) for i in range(self.size)]

    def key(self) -> str:
        """What a batch's result in the results file is found by (a resumed run skips the keys it has)."""
        rules = parse_variant(self.spec).rules.options()
        rules.pop("name")
        raw = json.dumps([rules, self.agent, self.players, self.seed, -1 if self.paired else self.variant,
                          self.batch, self.size], sort_keys=True)
        return hashlib.blake2b(raw.encode(), digest_size=12).hexdigest()


@dataclass
class Tally:
    """Exact counts of games: winners, results by kind, days and events (sums and histograms)."""

    games: int = 0
    red: int = 0
    black: int = 0
    results: Counter[str] = field(default_factory=Counter)
    days_sum: int = 0
    days: Counter[int] = field(default_factory=Counter)
    events_sum: int = 0
    events: Counter[int] = field(default_factory=Counter)
    """Games by their length in events, in bins of :data:`EVENT_BIN` (the key is the bin's first value)."""

    def add(self, winner: str, result: str, days: int, events: int) -> None:
        self.games += 1
        self.red += winner == "red"
        self.black += winner == "black"
        self.results[result] += 1
        self.days_sum += days
        self.days[days] += 1
        self.events_sum += events
        self.events[events // EVENT_BIN * EVENT_BIN] += 1

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.red += other.red
        self.black += other.black
        self.results.update(other.results)
        self.days_sum += other.days_sum
        self.days.update(other.days)
        self.events_sum += other.events_sum
        self.events.update(other.events)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for name in ("results", "days", "events"):
            out[name] = {str(k): v for k, v in sorted(getattr(self, name).items())}
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tally:
        return cls(data["games"], data["red"], data["black"], Counter(data["results"]), data["days_sum"],
                   Counter({int(k): v for k, v in data["days"].items()}), data["events_sum"],
                   Counter({int(k): v for k, v in data["events"].items()}))


def play_batch(task: Task) -> dict[str, Any]:
    """Play one batch: its tally, its games' rows ``[seed, winner, result, days, events]`` and the CPU seconds
    it took (``cpu_s``, the one figure that differs from one run to another)."""
    from ..bots import AGENTS
    from ..bots.table import play_table

    started = time.process_time()
    rules = parse_variant(task.spec).rules
    agent = AGENTS[task.agent]
    tally = Tally()
    rows: list[list[Any]] = []
    for seed in task.seeds():
        game = play_table(rules, [agent() for _ in range(task.players)], seed).game
        winner = game.winner or ""
        result = (game.result or "") if game.over else UNFINISHED
        tally.add(winner, result, game.day, len(game.log))
        rows.append([seed, winner, result, game.day, len(game.log)])
    return {"key": task.key(), "task": asdict(task), "tally": tally.to_json(), "rows": rows,
            "cpu_s": round(time.process_time() - started, 4)}
