"""Reading a game piecewise, as a live server does: folding the log in pieces (``Game.fold_in``) and asking
for the visible events from a seq on (``visible_events(game, viewer, since)``) give what reading it whole
gives."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sportmafia.bots import random_command
from sportmafia.bots.plausible import PlausibleTable, play_plausible
from sportmafia.engine import (
    Advance,
    Game,
    SeatFeeds,
    Shoot,
    Undo,
    feed_length,
    feed_position,
    told_entry,
    view,
    visible_events,
)
from sportmafia.rules import get_ruleset

TABLES = [("club", 10), ("fiim", 10), ("tournament", 13)]
RARE = {"foul": 0.05, "sanction": 0.01, "remove": 0.004, "undo": 0.05}


def _play(table: tuple[str, int], seed: int) -> tuple[Game, random.Random]:
    """A random game of ``table`` (preset, players) played to its end, and a generator seeded alike."""
    preset, n = table
    rng = random.Random(seed)
    game = Game(get_ruleset(preset), n)
    while not game.over:
        game.execute(random_command(game, rng, RARE), rng)
    return game, random.Random(seed)


WHOLE_GAME = {**RARE, "award": 0.0, "team_defeat": 0.0, "override": 0.0}
"""The rare commands of ``RARE``, and never the judge's decisions that end a game at once: games played to a
real end (nights, checks, votes, fouls given at night, undos among them)."""

random_games = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""40 examples of (table, seed) each."""
TABLE_AND_SEED = {"table": st.sampled_from(TABLES), "seed": st.integers(0, 2**32 - 1)}


@random_games
@given(**TABLE_AND_SEED)
def test_events_from_a_seq_are_the_tail_of_the_whole_feed(table: tuple[str, int], seed: int) -> None:
    game, rng = _play(table, seed)
    n = game.n
    for viewer in ("host", "spectator", rng.randint(1, n)):
        whole = visible_events(game, viewer)
        # numbered in the viewer's own feed: 0, 1, 2, ... with no gap where something was hidden from him
        assert [e["seq"] for e in whole] == list(range(len(whole))) == list(range(feed_length(game, viewer)))
        for since in sorted(rng.sample(range(len(whole) + 1), min(6, len(whole) + 1))):
            assert visible_events(game, viewer, since) == whole[since:]
    assert feed_length(game, "host") == len(game.log)
    if any(ev.type in ("shot_fired", "volley_fired", "kill_chosen", "checked") for ev in game.log):  # a hidden night action
        assert feed_length(game, "spectator") < len(game.log)


@random_games
@given(**TABLE_AND_SEED)
def test_a_viewer_is_shown_a_change_only_with_an_entry_of_his_feed(table: tuple[str, int], seed: int) -> None:
    """What a viewer is sent (his view, and a seat's commands) changes only when his feed grows: so a server
    that sends him a message exactly when his feed grows misses nothing, and a hidden move sends him nothing."""
    preset, n = table
    rng = random.Random(seed)
    game = Game(get_ruleset(preset), n)
    viewers: list[str | int] = ["spectator", *range(1, n + 1)]

    def seen(v: str | int) -> tuple[int, Any, Any]:
        return (feed_length(game, v), view(game, v),
                [c.to_json() for c in game.legal_commands(v)] if isinstance(v, int) else None)

    before = {v: seen(v) for v in viewers}
    hidden = 0
    while not game.over:
        game.execute(random_command(game, rng, RARE), rng)
        for v in viewers:
            now = seen(v)
            if now[0] == before[v][0]:
                assert now == before[v], f"viewer {v}: his view changed with no entry in his feed"
                hidden += v == "spectator"
            else:
                assert now[0] > before[v][0]
            before[v] = now
    assert hidden > 0 or not any(ev.type in ("shot_fired", "volley_fired", "kill_chosen", "checked") for ev in game.log)


@random_games
@given(**TABLE_AND_SEED)
def test_a_feed_position_is_where_the_viewers_entries_stand(table: tuple[str, int], seed: int) -> None:
    """``feed_position(game, viewer, k)`` is the log's length when the viewer's feed had its first k entries
    (and not the next one); the feed of a log read in pieces is the feed of the log read whole."""
    game, rng = _play(table, seed)
    for viewer in ("spectator", rng.randint(1, game.n)):
        count = feed_length(game, viewer)
        for k in sorted(rng.sample(range(count + 1), min(8, count + 1))):
            at = feed_position(game, viewer, k)
            prefix = Game.from_events(game.rules, game.n, game.log[:at])
            assert feed_length(prefix, viewer) == k
            assert visible_events(prefix, viewer) == visible_events(game, viewer)[:k]
            if k:
                assert feed_length(Game.from_events(game.rules, game.n, game.log[:at - 1]), viewer) == k - 1
        with pytest.raises(ValueError):
            feed_position(game, viewer, count + 1)
        piecewise = Game.from_events(game.rules, game.n, [])
        cut = 0
        while cut < len(game.log):
            piecewise.fold_in(game.log[cut:cut + rng.randint(1, 8)])
            cut = len(piecewise.log)
            assert visible_events(piecewise, viewer) == visible_events(
                Game.from_events(game.rules, game.n, game.log[:cut]), viewer)


def test_a_hidden_action_undone_is_not_in_the_feed() -> None:
    """The host takes back a shot: the spectators' and the other seats' feeds show neither the shot nor its
    undoing; the shooter sees both; an undone public move is shown undone, naming its entry in each feed."""
    rng = random.Random(5)
    game = Game(get_ruleset("club"), 10)
    table = PlausibleTable(game, rng)
    while game.step != "shooting":
        game.execute(table.next_command(), rng)
    shooter = next(s for s in game.living() if game.roles[s] in ("mafia", "don"))
    counts = {v: feed_length(game, v) for v in ("spectator", shooter, shooter % 10 + 1)}
    game.execute(Shoot(shooter, shooter % 10 + 1))
    game.execute(Undo())
    assert feed_length(game, "spectator") == counts["spectator"]
    assert feed_length(game, shooter % 10 + 1) == counts[shooter % 10 + 1]
    assert [e["type"] for e in visible_events(game, shooter, counts[shooter])] == ["shot_fired", "undone"]
    assert visible_events(game, shooter, counts[shooter])[1]["undoes"] == counts[shooter]
    game.execute(Advance())
    game.execute(Undo())
    mine = visible_events(game, "spectator", counts["spectator"])
    assert mine[0]["type"] == "advanced" and mine[-1]["type"] == "undone"  # the group: "Next" and its step
    assert mine[-1]["undoes"] == mine[0]["seq"] == counts["spectator"]


@random_games
@given(**TABLE_AND_SEED)
def test_folding_in_pieces_gives_the_game_folded_whole(table: tuple[str, int], seed: int) -> None:
    game, rng = _play(table, seed)
    n = game.n
    cut = 0
    piecewise = Game.from_events(game.rules, n, [])
    while cut < len(game.log):
        step = rng.randint(1, 8)
        piecewise.fold_in(game.log[cut:cut + step])
        cut = min(cut + step, len(game.log))
        assert piecewise.snapshot() == Game.from_events(game.rules, n, game.log[:cut]).snapshot()
        assert piecewise.legal_commands() == Game.from_events(game.rules, n, game.log[:cut]).legal_commands()


def _spoil(value: Any) -> None:
    """Change every dict and list inside ``value`` in place, as a careless consumer might."""
    if isinstance(value, dict):
        for key in list(value):
            _spoil(value[key])
            value[key] = "spoilt" if not isinstance(value[key], dict | list) else value[key]
        value["spoilt"] = True
    elif isinstance(value, list):
        for item in value:
            _spoil(item)
        value.append("spoilt")


@pytest.mark.parametrize("table", TABLES)
def test_a_consumer_changing_his_entries_changes_no_other_feed(table: tuple[str, int]) -> None:
    """Every viewer who sees an event is shown one form of it, worked out once; each gets entries of his own
    (his lists too, the vote's tally pairs included), so one that changes what it was given changes no other
    viewer's entries, nor what it is given again."""
    preset, n = table
    game, rng = play_plausible(get_ruleset(preset), n, 11), random.Random(11)
    viewers: list[str | int] = ["host", "spectator", *range(1, game.n + 1)]
    kept = {v: copy.deepcopy(visible_events(game, v)) for v in viewers}
    assert any(isinstance(x, list) and x and isinstance(x[0], list)
               for e in kept["spectator"] for x in e.values())  # a tally's pairs among them
    for spoiler in viewers:
        _spoil(visible_events(game, spoiler))
        _spoil(visible_events(game, spoiler, rng.randint(0, feed_length(game, spoiler))))
        for v in viewers:
            assert visible_events(game, v) == kept[v], f"{spoiler} changed the feed of {v}"


@random_games
@given(**TABLE_AND_SEED)
def test_a_seats_feed_taken_piecewise_is_his_visible_events(table: tuple[str, int], seed: int) -> None:
    """``SeatFeeds`` (the bots' table's feeds, made once per event for all the seats) gives every seat, at every
    moment it asks, exactly ``visible_events(game, seat, since)`` from where it left off, each entry as an agent
    is told it (``told_entry``: without its number, read-only), nothing of another seat's (shots, checks, the
    deal, a foul given at night, an undo among the host's rare commands); no entry can be changed, so one
    seat cannot change what another is told."""
    preset, n = table
    rng = random.Random(seed)
    game = Game(get_ruleset(preset), n)
    feeds = SeatFeeds(game)
    told = [0] * (n + 1)
    taken: list[list[Mapping[str, Any]]] = [[] for _ in range(n + 1)]

    def ask(seat: int) -> None:
        new = feeds.take(seat)
        assert new == [told_entry(e) for e in visible_events(game, seat, told[seat])], \
            f"seat {seat} after {len(game.log)} events"
        told[seat] += len(new)
        taken[seat] += new

    while not game.over:
        game.execute(random_command(game, rng, WHOLE_GAME), rng)
        for seat in rng.sample(range(1, n + 1), rng.randint(0, 3)):  # some seats ask now, the others later
            ask(seat)
    for seat in range(1, n + 1):
        ask(seat)
        assert feeds.take(seat) == []
        assert taken[seat] == [told_entry(e) for e in visible_events(game, seat)]
        assert told[seat] == feed_length(game, seat)
    for entry in taken[1]:
        with pytest.raises(TypeError):
            entry["type"] = "spoilt"  # type: ignore[index]
        assert not any(isinstance(v, list | dict) for v in entry.values())
