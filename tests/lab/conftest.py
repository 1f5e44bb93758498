"""A backend for the lab's tests: it plays a batch in the test's own process when it is handed in, and hands
the finished ones back a random part at a time (the totals must not depend on the order)."""

from __future__ import annotations

import random
from typing import Any

from sportmafia.lab.batches import Task, play_batch


class Keyed:
    """Plays each batch at once, in this process; its futures are numbers; :meth:`wait` returns a random part
    of what is pending."""

    name = "inline"

    def __init__(self, workers: int = 3, seed: int = 0) -> None:
        self.workers = workers
        self.rng = random.Random(seed)
        self.played = 0
        self.records: dict[int, dict[str, Any]] = {}

    def submit(self, task: Task) -> int:
        self.played += 1
        self.records[self.played] = play_batch(task)
        return self.played

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        ids = sorted(pending)
        done = set(self.rng.sample(ids, self.rng.randint(1, len(ids))))
        return done, set(ids) - done

    def result(self, future: Any) -> dict[str, Any]:
        return self.records[future]

    def close(self) -> None:
        pass
