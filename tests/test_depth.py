"""The depths of the volume tests (tests/depth.py): the count of each depth, the default, a wrong name refused."""

from __future__ import annotations

import pytest

from tests.depth import ENV, count, depth, examples


@pytest.mark.parametrize(("name", "expected"), [("check", 1), ("suite", 10), ("deep", 100), ("", 10)])
def test_each_depth_has_its_count(monkeypatch: pytest.MonkeyPatch, name: str, expected: int) -> None:
    monkeypatch.setenv(ENV, name)
    assert count(check=1, suite=10, deep=100) == expected
    assert examples(check=1, suite=10, deep=100).max_examples == expected


def test_the_suite_is_the_default_and_a_wrong_depth_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert depth() == "suite"
    monkeypatch.setenv(ENV, "quick")
    with pytest.raises(ValueError, match="check, suite, deep"):
        count(check=1, suite=2, deep=3)


def test_a_deeper_depth_never_runs_fewer() -> None:
    with pytest.raises(AssertionError):
        count(check=5, suite=2, deep=3)
