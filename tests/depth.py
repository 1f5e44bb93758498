"""How many examples the volume tests run: the property tests' examples, the random games of the leak tests,
the pairs of the non-interference tests. Each such test states its three counts here, one for each depth:

- ``check``: ``make check``, the inner loop: every behaviour reached once or a few times;
- ``suite``: ``make test`` and CI (the default): every behaviour, the rare ones included (an ending of each kind,
  each kind of hidden action on each preset), reached many times;
- ``deep``: ``make deep``: a long search for what the suite's examples miss, before a release or after a change
  to the engine's views or the live layer.

The depth is ``$SPORTMAFIA_TEST_DEPTH`` (``check``, ``suite`` or ``deep``). Every depth draws the same examples
on every run (seeded, derandomized): a deeper run adds examples, it never draws other ones for the same count.
The tests that count what their examples reached (the endings, the kinds of pairs) check it at every depth."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

ENV = "SPORTMAFIA_TEST_DEPTH"
DEPTHS = ("check", "suite", "deep")


def depth() -> str:
    """The depth of this run (``suite`` unless ``$SPORTMAFIA_TEST_DEPTH`` says another)."""
    value = os.environ.get(ENV, "suite") or "suite"
    if value not in DEPTHS:
        raise ValueError(f"${ENV} is {value!r}: one of {', '.join(DEPTHS)}")
    return value


def count(*, check: int, suite: int, deep: int) -> int:
    """The count of this run's depth."""
    assert 0 < check <= suite <= deep, (check, suite, deep)
    return {"check": check, "suite": suite, "deep": deep}[depth()]


def examples(*, check: int, suite: int, deep: int) -> settings:
    """A property test's settings: ``count`` examples, no deadline (the games' lengths vary)."""
    return settings(max_examples=count(check=check, suite=suite, deep=deep), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
