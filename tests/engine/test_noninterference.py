"""Non-interference, through the engine: two games that differ only in what a viewer may not see give that viewer
the same messages, byte for byte (their numbering, their count and their content), until the difference becomes
public. The pairs (tests/pairs.py) differ in who shot whom and how many black players shot on a miss, the order
of the shots of a kill, whom the Sheriff, the Commissar or the Don checked, the kill the host recorded after a
wrong one undone, and who got a foul at night; each for the three presets.

A viewer is sent a message exactly when his feed grows (``feed_length``), as the server's sockets do; the
message is what the sockets send: his feed from the number he held, his view and, for a seat, his commands.
The same pairs are played through the real sockets in tests/web/test_noninterference.py.
"""

from __future__ import annotations

import os
import random
from collections.abc import Collection
from typing import Any

import orjson
import pytest

from sportmafia.engine import Game, Views, feed_length, visible_events
from tests.depth import count
from tests.pairs import EVERY_KIND, KINDS, TABLES, Pair, make_pair

PAIRS = int(os.environ.get("SPORTMAFIA_PAIRS", "0")) or count(check=120, suite=800, deep=4000)
"""The pairs compared in process (``$SPORTMAFIA_PAIRS`` or the run's depth, tests/depth.py)."""


def message(game: Game, views: Views, viewer: str | int, since: int) -> dict[str, Any]:
    out: dict[str, Any] = {"since": since, "next_seq": feed_length(game, viewer), "view": views(viewer),
                           "events": visible_events(game, viewer, since)}
    if isinstance(viewer, int):
        out["legal"] = [c.to_json() for c in game.legal_commands(viewer)]
    return out


def streams(pair: Pair, which: str, only: Collection[str | int] | None = None,
            until_day: bool = False) -> dict[str | int, list[bytes]]:
    """Every viewer's messages from the point where the two games part (before it they are one game).

    ``only``: the viewers whose messages are wanted (default: all). ``until_day``: for a pair whose difference
    is public in the morning (``public_at_day``), stop once the game has left the night: every message from then
    on shows the day, and :func:`until_public` cuts it off."""
    game = pair.game()
    viewers: list[str | int] = [v for v in ("spectator", *range(1, pair.players + 1)) if only is None or v in only]
    steps = pair.steps(which)
    for cmd, rng in steps[:len(pair.prefix)]:
        game.execute(cmd, rng)
    views = Views(game)
    cursors = {v: feed_length(game, v) for v in viewers}
    out = {v: [orjson.dumps(message(game, views, v, cursors[v]))] for v in viewers}
    for cmd, rng in steps[len(pair.prefix):]:
        game.execute(cmd, rng)
        if until_day and pair.public_at_day and game.phase != "night":
            break
        views = Views(game)
        for v in viewers:
            n = feed_length(game, v)
            if n > cursors[v]:
                out[v].append(orjson.dumps(message(game, views, v, cursors[v])))
                cursors[v] = n
    return out


def others(pair: Pair) -> list[str | int]:
    """The viewers who may not see the pair's difference: the spectators and every seat but its holders."""
    return ["spectator", *(s for s in range(1, pair.players + 1) if s not in pair.holders)]


def until_public(messages: list[bytes], pair: Pair, viewer: str | int) -> list[bytes]:
    """The messages up to the first one of the day after the night the games parted, for a night foul (the
    player is named in the morning); all of them otherwise."""
    if not pair.public_at_day:
        return messages
    for i, m in enumerate(messages):
        if orjson.loads(m)["view"]["phase"] != "night":
            return messages[:i]
    return messages


def assert_non_interference(pair: Pair, a: dict[Any, list[Any]], b: dict[Any, list[Any]],
                            cut: Any = until_public) -> int:
    """The viewers who may not see the difference got the same messages; returns how many were compared."""
    compared = 0
    for viewer in a:
        if viewer in pair.holders:
            continue
        left, right = cut(a[viewer], pair, viewer), cut(b[viewer], pair, viewer)
        assert left == right, (f"{pair.preset} {pair.kind}: viewer {viewer} can tell the games apart "
                               f"(holders {sorted(pair.holders)}, segments {pair.a} / {pair.b})")
        compared += len(left)
    return compared


def pairs(count: int, seed: int = 0) -> list[Pair]:
    """``count`` pairs, spread over the tables and kinds (a kind a rule set has not, such as a shot in the
    tournament preset, is skipped)."""
    rng = random.Random(seed)
    out: list[Pair] = []
    attempts = 0
    while len(out) < count:
        attempts += 1
        assert attempts < count * 20, "the games offer too few pairs"
        table = TABLES[attempts % len(TABLES)]
        kind = KINDS[(attempts // len(TABLES)) % len(KINDS)]
        pair = make_pair(table, rng.getrandbits(32), kind)
        if pair is not None:
            out.append(pair)
    return out


def test_the_games_of_a_pair_differ_where_their_holders_look() -> None:
    """A pair really differs: a holder's messages differ between its two games (else the test proves nothing)."""
    differing = {kind: 0 for kind in KINDS}
    for pair in pairs(120, seed=1):
        a, b = streams(pair, "a", pair.holders), streams(pair, "b", pair.holders)  # the holders' alone
        if any(a[h] != b[h] for h in pair.holders):
            differing[pair.kind] += 1
        elif pair.kind == "kill":  # nobody holds it: the host's log differs
            differing["kill"] += 1
    assert all(differing.values()), differing


@pytest.mark.parametrize("part", range(4))
def test_a_viewer_cannot_tell_a_pair_apart(part: int) -> None:
    """PAIRS pairs in all (a quarter in each part, so that the suite's workers share them)."""
    compared = kinds = 0
    seen: set[tuple[str, str]] = set()
    for pair in pairs(PAIRS // 4, seed=100 + part):
        # the messages compared: the other viewers', up to the morning for a night foul (the holders' and the
        # rest are not compared, so not made)
        a, b = streams(pair, "a", others(pair), until_day=True), streams(pair, "b", others(pair), until_day=True)
        compared += assert_non_interference(pair, a, b)
        seen.add((pair.preset, pair.kind))
        kinds += 1
    # every preset's hidden actions were tried: shots (club, fiim: the shooting), checks, kills, night fouls
    assert EVERY_KIND - {("fiim", "foul")} <= seen, seen
    assert compared > kinds * 10
