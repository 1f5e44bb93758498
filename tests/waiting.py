"""Waiting for a condition: the one place in tests/ that reads a clock or sleeps to wait.

A test that waits for something (a server to answer, a socket to close, a worker to come back) waits for the
condition itself with :func:`wait_until`; the timeout is only a guard against waiting for ever, generous
enough that a loaded machine never reaches it, and it is never what a test asserts. How long something took
is measured in ``bench/``, not in a test. ``tests/test_hygiene.py`` finds clocks, sleeps and unseeded chance
anywhere else in tests/."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

GUARD = 60.0
"""The default guard, in seconds: long enough that only a hang reaches it."""


def wait_until(condition: Callable[[], T], what: str, *, timeout: float = GUARD, every: float = 0.02) -> T:
    """Call ``condition`` until it returns something true, and return that; after ``timeout`` seconds without
    it, fail naming ``what`` (a hang, not a slow machine)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(every)


def pause(seconds: float) -> None:
    """Let ``seconds`` pass on purpose: for a test whose subject is time itself passing on a real clock (a
    window that must run out, a kill at a random moment), never to wait for something that could be waited
    for. Each caller is in the allow-list of ``tests/test_hygiene.py`` with its reason."""
    time.sleep(seconds)

