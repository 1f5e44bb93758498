"""Backends for the lab's tests: one that plays a batch in the test's own process when it is handed in, and
hands the finished ones back in a shuffled order (the totals must not depend on it)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sportmafia.lab.batches import Task, play_batch


class Inline:
    """Plays each batch at once, in this process; :meth:`wait` returns a random part of what is pending."""

    name = "inline"

    def __init__(self, workers: int = 3, seed: int = 0) -> None:
        self.workers = workers
        self.rng = random.Random(seed)
        self.played = 0

    def submit(self, task: Task) -> dict[str, Any]:
        self.played += 1
        return {"id": self.played, "record": play_batch(task)}

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        ids = sorted(pending)
        done = set(self.rng.sample(ids, self.rng.randint(1, len(ids))))
        return done, set(ids) - done

    def result(self, future: Any) -> dict[str, Any]:
        out: dict[str, Any] = self.records[future]
        return out

    def close(self) -> None:
        pass


class Keyed(Inline):
    """:class:`Inline` with hashable futures (their numbers)."""

    def __init__(self, workers: int = 3, seed: int = 0) -> None:
        super().__init__(workers, seed)
        self.records: dict[int, dict[str, Any]] = {}

    def submit(self, task: Task) -> Any:
        played = super().submit(task)
        self.records[played["id"]] = played["record"]
        return played["id"]


@pytest.fixture
def inline() -> Keyed:
    return Keyed()
