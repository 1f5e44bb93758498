"""The seating generator: valid for any sizes, deterministic, constraints hold, figures equal the scorer's."""

from __future__ import annotations

import importlib.util
import json
import os
import random
from collections import Counter
from itertools import combinations, pairwise
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sportmafia.cli import app
from sportmafia.tournament.seating import (
    Seating,
    SeatingError,
    generate,
    pair_sq_least,
    parse_table,
    quality,
    regenerate,
    round_tables,
    seat_sq_least,
)
from sportmafia.tournament.seating.constraints import Constraints, rating_excess
from sportmafia.tournament.seating.cyclic import Cyclic, cyclic_orders
from sportmafia.tournament.seating.terms import Terms

SCORER = Path(__file__).parents[3] / "shared" / "tools" / "seating_quality.py"
STEPS = 4000  # a short search: the properties do not depend on its quality
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _rounds(seating: Seating) -> dict[int, list[tuple[int, ...]]]:
    out: dict[int, list[tuple[int, ...]]] = {}
    for g in seating.games:
        out.setdefault(g.round, []).append(g.seats)
    return out


def _check_valid(seating: Seating, players: int, rounds: int, low: int, high: int) -> Counter[int]:
    per_round = _rounds(seating)
    assert set(per_round) <= set(range(rounds))
    plays: Counter[int] = Counter()
    for tables in per_round.values():
        seated = [p for seats in tables for p in seats]
        assert len(seated) == len(set(seated)), "somebody sits twice in one round"
        assert all(0 <= p < players for p in seated)
        assert all(low <= len(seats) <= high for seats in tables)
        plays.update(seated)
    return plays


@st.composite
def requests(draw: st.DrawFn) -> tuple[int, int, tuple[int, int], int | None]:
    low = draw(st.integers(2, 10))
    high = draw(st.sampled_from([low, low, low + draw(st.integers(0, 4))]))
    players = draw(st.integers(high if low == high else low, 30))
    rounds = draw(st.integers(1, 6))
    gpp = draw(st.none() | st.integers(1, rounds)) if low == high else None
    return players, rounds, (low, high), gpp


@FAST
@given(requests(), st.integers(0, 3))
def test_any_size_gives_a_valid_balanced_seating(request: tuple[int, int, tuple[int, int], int | None],
                                                 seed: int) -> None:
    players, rounds, (low, high), gpp = request
    try:
        seating = generate(players, rounds, (low, high), games_per_player=gpp, seed=seed, steps=STEPS)
    except SeatingError as exc:
        # only a range that no number of tables fits, or more games than the rounds' tables hold, may fail
        too_many = gpp is not None and players * gpp // low > rounds * (players // low)
        assert too_many or (low != high and round_tables(players, low, high) is None), exc.message_en
        return
    plays = _check_valid(seating, players, rounds, low, high)
    counts = [plays[p] for p in range(players)]
    assert max(counts) - min(counts) <= 1
    if gpp is not None:
        assert min(counts) >= gpp - 1
    if low != high and round_tables(players, low, high) is not None:
        assert all(c == rounds for c in counts), "with a range of table sizes everyone plays"
    q = quality(seating)
    if len(q["table_sizes"]) == 1:
        assert q["seat_rmse"] == pytest.approx(q["seat_rmse_floor"], abs=1e-9)


@FAST
@given(requests(), st.integers(0, 1000))
def test_the_same_seed_gives_the_same_seating(request: tuple[int, int, tuple[int, int], int | None],
                                              seed: int) -> None:
    players, rounds, table, gpp = request
    try:
        first = generate(players, rounds, table, games_per_player=gpp, seed=seed, steps=STEPS)
    except SeatingError:
        return
    assert generate(players, rounds, table, games_per_player=gpp, seed=seed, steps=STEPS) == first


@FAST
@given(st.integers(2, 4), st.integers(6, 10), st.integers(1, 5), st.data())
def test_players_who_must_not_meet_never_share_a_table(tables: int, size: int, rounds: int,
                                                       data: st.DataObject) -> None:
    players = tables * size
    # teams of at most `tables` players can always be kept apart
    order = data.draw(st.permutations(range(players)))
    teams: list[list[int]] = []
    i = 0
    while i < players:
        k = data.draw(st.integers(1, tables))
        teams.append(list(order[i:i + k]))
        i += k
    seating = generate(players, rounds, size, apart=teams, seed=data.draw(st.integers(0, 9)), steps=20000)
    team_of = {p: t for t, members in enumerate(teams) for p in members}
    for g in seating.games:
        assert len({team_of[p] for p in g.seats}) == len(g.seats)


@FAST
@given(st.integers(12, 24), st.integers(2, 5), st.data())
def test_absent_players_are_not_seated_in_their_rounds(players: int, rounds: int, data: st.DataObject) -> None:
    absent = {r: set(data.draw(st.lists(st.integers(0, players - 1), max_size=3))) for r in range(rounds)}
    seating = generate(players, rounds, 6, absent=absent, seed=1, steps=STEPS)
    for g in seating.games:
        assert not absent[g.round] & set(g.seats)


@FAST
@given(st.integers(10, 30), st.integers(2, 6), st.data())
def test_regeneration_keeps_the_played_rounds(players: int, rounds: int, data: st.DataObject) -> None:
    seating = generate(players, rounds, 10, seed=3, steps=STEPS)
    played = data.draw(st.integers(0, rounds))
    dropped = set(data.draw(st.lists(st.integers(0, players - 1), max_size=max(0, players - 10))))
    again = regenerate(seating, played, dropped=dropped, seed=4, steps=STEPS)
    assert [g for g in again.games if g.round < played] == [g for g in seating.games if g.round < played]
    plays = _check_valid(again, players, rounds, 10, 10)
    assert sum(plays.values()) > 0
    for g in again.games:
        if g.round >= played:
            assert not dropped & set(g.seats)


def test_a_pinned_player_stays_at_his_table() -> None:
    seating = generate(30, 6, 10, pinned={0: 2, 7: 0}, seed=2, steps=20000)
    for g in seating.games:
        assert (0 in g.seats) == (g.table == 2)
        assert (7 in g.seats) == (g.table == 0)


@pytest.mark.parametrize(("call", "why"), [
    (lambda: generate(5, 3, 10), "too few"),
    (lambda: generate(20, 3, 10, apart=[[0, 1, 2]]), "must not meet"),
    (lambda: generate(20, 3, (12, 16)), "cannot sit"),
    (lambda: generate(20, 3, 10, games_per_player=4), "between 1 and"),
    (lambda: generate(20, 3, 10, apart=[[0, 25]]), "not among"),
    (lambda: parse_table("ten"), "expected a number"),
])
def test_impossible_requests_say_why(call: object, why: str) -> None:
    with pytest.raises(SeatingError) as info:
        call()  # type: ignore[operator]
    assert why in info.value.message("en")
    assert info.value.message("ru") and info.value.message("ru") != info.value.message("en")
    assert isinstance(info.value, ValueError)


def test_a_perfect_schedule_is_found_where_one_exists() -> None:
    q = quality(generate(16, 16, 10, seed=1))
    assert q["pair_min"] == q["pair_max"] == 6 and q["pair_rmse_bound"] == 0
    assert q["seat_rmse"] == pytest.approx(q["seat_rmse_floor"]) == 0


def _scorer() -> ModuleType | None:
    if not SCORER.exists():
        return None
    spec = importlib.util.spec_from_file_location("seating_quality", SCORER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("players", "rounds", "table", "gpp"), [
    (20, 4, (10, 10), None), (28, 5, (10, 10), None), (16, 6, (10, 10), 3), (40, 3, (12, 16), None),
    (26, 3, (13, 13), None), (23, 4, (7, 8), None),
])
def test_quality_figures_equal_the_scorers(players: int, rounds: int, table: tuple[int, int],
                                           gpp: int | None) -> None:
    scorer = _scorer()
    if scorer is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the scorer {SCORER} is missing")
        print(f"skipped: the scorer {SCORER} is absent")
        pytest.skip(f"the scorer {SCORER} is absent")
    seating = generate(players, rounds, table, games_per_player=gpp, seed=5, steps=5000)
    theirs = scorer.evaluate(seating.to_json())
    ours = quality(seating)
    assert theirs["valid"], theirs["problems"]
    for key in ("pair_min", "pair_max"):
        assert ours[key] == theirs[key]
    for key in ("pair_rmse", "pair_rmse_floor", "pair_rmse_bound", "seat_rmse", "seat_rmse_floor"):
        assert round(ours[key], 4) == pytest.approx(theirs[key], abs=1e-9), key
    # and on a seating it did not make: everybody at one table, in a fixed order
    doc = {"players": 12, "games": [{"round": r, "table": 0, "seats": list(range(12))} for r in range(3)]}
    theirs, ours = scorer.evaluate(doc), quality(doc)
    for key in ("pair_rmse", "pair_rmse_bound", "seat_rmse", "seat_rmse_floor"):
        assert round(ours[key], 4) == pytest.approx(theirs[key], abs=1e-9), key


def test_cli_seat_writes_the_documented_json(tmp_path: Path) -> None:
    out = tmp_path / "seating.json"
    result = CliRunner().invoke(app, ["seat", "--players", "30", "--table", "10", "--rounds", "4",
                                      "--seed", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["players"] == 30 and len(doc["games"]) == 12
    assert set(doc["games"][0]) == {"round", "table", "seats"}
    for r in range(4):
        seated = [p for g in doc["games"] if g["round"] == r for p in g["seats"]]
        assert sorted(seated) == list(range(30))
    assert "meetings per pair" in result.output and "RMS" in result.output


def test_cli_seat_says_why_it_cannot(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["seat", "--players", "5", "--table", "10", "--rounds", "3",
                                      "--out", str(tmp_path / "s.json")])
    assert result.exit_code == 2
    assert "too few" in result.output


def test_every_pair_of_a_small_schedule_meets_as_evenly_as_possible() -> None:
    q = quality(generate(20, 10, 10, seed=1))
    assert q["pair_rmse"] == pytest.approx(q["pair_rmse_bound"], rel=0.02)
    seating = generate(12, 3, 6, seed=0)
    meet = Counter(pair for g in seating.games for pair in combinations(sorted(g.seats), 2))
    assert max(meet.values()) <= 3


# --- bounds and the cyclic start ------------------------------------------------------------------------


def _sum_sq_meetings(players: int, games: list[list[int]]) -> int:
    meet: Counter[tuple[int, int]] = Counter()
    for seats in games:
        meet.update(combinations(sorted(seats), 2))
    return sum(m * m for m in meet.values())


@st.composite
def random_schedules(draw: st.DrawFn) -> tuple[int, list[list[list[int]]], list[list[int]]]:
    """Any valid schedule (not the generator's): per round a random partition of a random subset."""
    players = draw(st.integers(4, 16))
    rounds = draw(st.integers(1, 5))
    order = draw(st.permutations(range(players)))
    out: list[list[list[int]]] = []
    for _ in range(rounds):
        perm = draw(st.permutations(order))
        seated = draw(st.integers(2, players))
        cuts = sorted(draw(st.lists(st.integers(1, seated - 1), max_size=3, unique=True)))
        bounds = [0, *cuts, seated]
        out.append([list(perm[a:b]) for a, b in pairwise(bounds)])
    seat_orders = [list(draw(st.permutations(seats))) for rnd in out for seats in rnd]
    return players, out, seat_orders


@settings(max_examples=200, deadline=None)
@given(random_schedules())
def test_the_tighter_bounds_hold_for_any_schedule(schedule: tuple[int, list[list[list[int]]], list[list[int]]]) -> None:
    players, rounds, ordered = schedule
    games = [seats for rnd in rounds for seats in rnd]
    plays = Counter(p for seats in games for p in seats)
    least = min(plays[p] for p in range(players))
    assert _sum_sq_meetings(players, games) >= pair_sq_least(players, [[len(s) for s in rnd] for rnd in rounds], least)
    doc: dict[str, Any] = {"players": players, "games": [{"round": r, "table": t, "seats": seats}
                                                         for r, rnd in enumerate(rounds) for t, seats in enumerate(rnd)]}
    q = quality(doc)
    assert q["pair_rmse"] >= q["pair_rmse_least"] - 1e-9 >= q["pair_rmse_bound"] - 2e-9
    # any order of the seats: the seat figure never beats the least, and the least never the scorer's floor
    for g, seats in zip(doc["games"], ordered, strict=True):
        g["seats"] = seats
    q = quality(doc)
    assert q["seat_rmse"] >= q["seat_rmse_least"] - 1e-9 >= q["seat_rmse_floor"] - 2e-9
    assert seat_sq_least(players, [g["seats"] for g in doc["games"]]) >= 0


@FAST
@given(requests(), st.integers(0, 3))
def test_seats_reach_the_least_any_order_can(request: tuple[int, int, tuple[int, int], int | None], seed: int) -> None:
    players, rounds, table, gpp = request
    try:
        seating = generate(players, rounds, table, games_per_player=gpp, seed=seed, steps=STEPS)
    except SeatingError:
        return
    q = quality(seating)
    assert q["seat_rmse"] == pytest.approx(q["seat_rmse_least"], abs=1e-9)


def test_mixed_tables_reach_both_least_figures_but_not_the_scorers_seat_floor() -> None:
    """40 players in tables of 13, 13 and 14 for 9 rounds: the pair figure equals the bound of pair_sq_least
    (sum of m^2 = 7263, RMS 1.0904) and the seat figure its least; the scorer's seat floor needs every seat 14
    taken by a player who sits at the table of 14 in all 9 rounds, which no balanced schedule has."""
    seating = generate(40, 9, (12, 16), seed=1)
    q = quality(seating)
    assert sorted(len(g.seats) for g in seating.games if g.round == 0) == [13, 13, 14]
    games = [list(g.seats) for g in seating.games]
    assert _sum_sq_meetings(40, games) == pair_sq_least(40, [[13, 13, 14]] * 9, 9) == 7263
    assert q["pair_rmse"] == pytest.approx(q["pair_rmse_least"]) == pytest.approx(1.0904, abs=1e-4)
    assert q["seat_rmse"] == pytest.approx(q["seat_rmse_least"])
    assert q["seat_rmse_least"] > q["seat_rmse_floor"] + 0.01
    at_14 = Counter(p for g in seating.games if len(g.seats) == 14 for p in g.seats)
    assert max(at_14.values()) < 9


@pytest.mark.parametrize(("players", "rounds", "table", "tables"), [
    (28, 14, 10, 2), (20, 10, 10, 2), (16, 16, 10, 1), (30, 10, 10, 3), (24, 6, 6, 3), (18, 6, 4, 4),
])
def test_a_cyclic_schedule_costs_what_its_developed_rounds_do(players: int, rounds: int, table: int,
                                                               tables: int) -> None:
    for c in cyclic_orders(players, rounds, players - table * tables):
        cyclic = Cyclic(players, c, rounds // c, table, tables, random.Random(c))
        cyclic.run(3000, 0)
        relabel = list(range(players))
        random.Random(1).shuffle(relabel)
        developed = cyclic.rounds(relabel)
        assert len(developed) == rounds
        plays: Counter[int] = Counter()
        for groups, bench in developed:
            seated = [p for seats in groups for p in seats]
            assert sorted(seated + bench) == list(range(players))
            assert all(len(seats) == table for seats in groups)
            plays.update(seated)
        assert len({plays[p] for p in range(players)}) == 1
        games = [seats for groups, _ in developed for seats in groups]
        assert _sum_sq_meetings(players, games) == cyclic.cost


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_28_players_on_2_tables_of_10_for_14_rounds_meet_as_evenly_as_any_schedule(seed: int) -> None:
    seating = generate(28, 14, 10, seed=seed)
    q = quality(seating)
    assert q["games_per_player"] == [10, 10]
    assert q["pair_rmse"] <= q["pair_rmse_bound"] * 1.02
    assert q["seat_rmse"] == pytest.approx(q["seat_rmse_floor"], abs=1e-9)


@st.composite
def constrained(draw: st.DrawFn) -> tuple[int, int, int, Constraints, dict[int, set[int]]]:
    """A random tournament with a random set of constraints that can hold: caps on pairs, groups kept low,
    tables banned to players (never all tables of a round to one player, never a table to more players than it
    can spare), absences and a rating tolerance wide enough."""
    tables = draw(st.integers(2, 3))
    size = draw(st.integers(4, 7))
    players = tables * size + draw(st.integers(0, 3))
    rounds = draw(st.integers(2, 5))
    pair = st.tuples(st.integers(0, players - 1), st.integers(0, players - 1)).filter(lambda p: p[0] != p[1])
    caps = tuple((x, y, k) for (x, y), k in draw(st.lists(st.tuples(pair, st.integers(0, 2)), max_size=4)))
    groups = tuple(tuple(g) for g in draw(st.lists(st.lists(st.integers(0, players - 1), min_size=2, max_size=5,
                                                            unique=True), max_size=2)))
    banned_players = draw(st.lists(st.integers(0, players - 1), max_size=size // 2, unique=True))
    banned = tuple((p, draw(st.integers(0, tables - 1)), draw(st.none() | st.integers(0, rounds - 1)))
                   for p in banned_players)
    ratings = tuple(float(draw(st.integers(1000, 2000))) for _ in range(players))
    tolerance = draw(st.none() | st.just(400.0))
    absent = {r: set(draw(st.lists(st.integers(0, players - 1), max_size=2))) for r in range(rounds)}
    return players, rounds, size, Constraints(caps, groups, banned, ratings, tolerance), absent


@FAST
@given(constrained(), st.integers(0, 3))
def test_hard_constraints_hold_or_the_refusal_says_why(case: tuple[int, int, int, Constraints, dict[int, set[int]]],
                                                       seed: int) -> None:
    players, rounds, size, cons, absent = case
    try:
        seating = generate(players, rounds, size, constraints=cons, absent=absent, seed=seed, steps=STEPS)
    except SeatingError as exc:
        assert exc.message("en") and exc.message("ru") != exc.message("en")
        return
    _check_valid(seating, players, rounds, size, size)
    meet: Counter[tuple[int, int]] = Counter()
    for g in seating.games:
        assert not absent[g.round] & set(g.seats)
        meet.update(combinations(sorted(g.seats), 2))
        for p, t, r in cons.banned:
            assert not (p in g.seats and g.table == t and r in (None, g.round))
    for x, y, k in cons.caps:
        assert meet[(min(x, y), max(x, y))] <= k
    if cons.tolerance is not None:
        for tables in _rounds(seating).values():
            assert max(rating_excess(tables, cons.ratings)) <= cons.tolerance + 1e-9


@FAST
@given(constrained(), st.integers(0, 4), st.data())
def test_regeneration_under_constraints_never_touches_a_played_round(
        case: tuple[int, int, int, Constraints, dict[int, set[int]]], seed: int, data: st.DataObject) -> None:
    players, rounds, size, cons, _ = case
    try:
        seating = generate(players, rounds, size, seed=seed, steps=STEPS)
        played = data.draw(st.integers(0, rounds))
        dropped = set(data.draw(st.lists(st.integers(0, players - 1), max_size=2)))
        added = data.draw(st.integers(0, 2))  # players who joined since, numbered after the others
        again = regenerate(seating, played, dropped=dropped, players=players + added, constraints=cons,
                           seed=seed + 1, steps=STEPS)
    except SeatingError:
        return
    assert [g for g in again.games if g.round < played] == [g for g in seating.games if g.round < played]
    assert again.players == players + added
    for g in again.games:
        if g.round >= played:
            assert not dropped & set(g.seats)
            for p, t, r in cons.banned:
                assert not (p in g.seats and g.table == t and r in (None, g.round))


@pytest.mark.parametrize(("cons", "why"), [
    (Constraints(banned=tuple((p, 0, None) for p in range(12))), "only 8 of those playing may sit at it"),
    (Constraints(caps=((0, 1, 1),)), "pinned to table 1"),
    (Constraints(ratings=(1500.0,) * 20, tolerance=-1), "cannot be negative"),
    (Constraints(tolerance=10), "needs a rating"),
])
def test_constraints_that_cannot_hold_say_which_and_why(cons: Constraints, why: str) -> None:
    with pytest.raises(SeatingError) as info:
        generate(20, 3, 10, constraints=cons, pinned={0: 0, 1: 0}, steps=STEPS)
    assert why in info.value.message("en")
    assert info.value.message("ru") != info.value.message("en")


@pytest.mark.parametrize("seed", range(6))
def test_a_player_who_may_sit_at_no_table_of_a_round_sits_it_out(seed: int) -> None:
    # 13 players at one table of 10 a round; player 0 may not sit at it in round 2 (its host's conflict), so he
    # is among the three who sit that round out, and the others' games stay as even as before
    cons = Constraints(banned=((0, 0, 1),))
    seating = generate(13, 4, 10, constraints=cons, seed=seed, steps=STEPS)
    assert all(0 not in g.seats for g in seating.games if g.round == 1)
    games = Counter(p for g in seating.games for p in g.seats)
    assert max(games.values()) - min(games[p] for p in range(13)) <= 1


def test_a_player_added_later_joins_the_unplayed_rounds() -> None:
    seating = generate(20, 6, 10, seed=1, steps=STEPS)
    again = regenerate(seating, 3, players=21, seed=2, steps=STEPS)
    assert [g for g in again.games if g.round < 3] == [g for g in seating.games if g.round < 3]
    assert any(20 in g.seats for g in again.games if g.round >= 3)


@FAST
@given(st.integers(0, 5), st.data())
def test_seat_wishes_hold(seed: int, data: st.DataObject) -> None:
    wishers = data.draw(st.lists(st.integers(0, 19), max_size=4, unique=True))
    wishes = tuple((p, tuple(data.draw(st.lists(st.integers(0, 9), min_size=3, max_size=6, unique=True))))
                   for p in wishers)
    try:
        seating = generate(20, 4, 10, constraints=Constraints(seats=wishes), seed=seed, steps=STEPS)
    except SeatingError as exc:
        assert "seat wishes" in exc.message("en")
        return
    _check_valid(seating, 20, 4, 10, 10)
    allowed = dict(wishes)
    for g in seating.games:
        for s, p in enumerate(g.seats):
            assert p not in allowed or s in allowed[p]


def test_clashing_seat_wishes_say_whose() -> None:
    with pytest.raises(SeatingError) as info:
        generate(10, 2, 10, constraints=Constraints(seats=((0, (0,)), (1, (0,)))), steps=STEPS)
    assert "seat wishes of 0 and 1" in info.value.message("en")


@FAST
@given(st.integers(0, 1000))
def test_the_constraints_terms_price_every_move_as_their_total_changes(seed: int) -> None:
    rng = random.Random(seed)
    n, size = 24, 6
    ratings = tuple(float(rng.randint(1000, 2000)) for _ in range(n))
    cons = Constraints(caps=((0, 1, 1), (2, 3, 0), (4, 5, 2)), ratings=ratings, tolerance=150.0)
    order = list(range(n))
    tables: list[list[list[int]]] = []
    for _ in range(3):
        rng.shuffle(order)
        tables.append([order[i:i + size] for i in range(0, 18, size)])  # 6 sit out each round
    terms = Terms(n, cons, tables, [], [0, 1, 2])
    pos = [[-1] * n for _ in tables]
    for r, rnd in enumerate(tables):
        for t, seats in enumerate(rnd):
            for p in seats:
                pos[r][p] = t
    for _ in range(60):
        r = rng.randrange(3)
        t1, t2 = rng.sample(range(3), 2)
        i, j = rng.randrange(size), rng.randrange(size)
        x, y = tables[r][t1][i], tables[r][t2][j]
        bench = [p for p in range(n) if pos[r][p] < 0]
        moves = [(r, t1, x, y), (r, t2, y, x)] if rng.random() < 0.5 else [(r, t1, x, rng.choice(bench))]
        before = terms.total()
        delta = terms.delta(moves, pos)
        terms.apply(moves, pos)
        for rr, t, out, into in moves:
            seats = tables[rr][t]
            seats[seats.index(out)] = into
        for rr, t, out, into in moves:
            pos[rr][into] = t
            if pos[rr][out] == t and out not in tables[rr][t]:
                pos[rr][out] = -1
        assert terms.total() - before == pytest.approx(delta, abs=1e-6)
        fresh = Terms(n, cons, tables, [], [0, 1, 2])
        assert fresh.total() == pytest.approx(terms.total(), abs=1e-6)


def _opponents_sd(seating: Seating, ratings: tuple[float, ...]) -> float:
    total, count = [0.0] * len(ratings), [0] * len(ratings)
    for g in seating.games:
        table = sum(ratings[p] for p in g.seats)
        for p in g.seats:
            total[p] += table - ratings[p]
            count[p] += len(g.seats) - 1
    avg = [total[p] / count[p] for p in range(len(ratings)) if count[p]]
    mean = sum(avg) / len(avg)
    return float((sum((x - mean) ** 2 for x in avg) / len(avg)) ** 0.5)


@pytest.mark.parametrize("seed", range(2))
def test_with_ratings_alone_every_players_opponents_are_about_as_strong(seed: int) -> None:
    # ratings without a tolerance still make a search for even opponents (not the plain cyclic schedule), and the
    # pairs stay as even as without them
    rng = random.Random(seed)
    ratings = tuple(round(rng.gauss(1600, 200), 1) for _ in range(30))
    plain = generate(30, 6, 10, seed=seed, steps=200_000)
    even = generate(30, 6, 10, seed=seed, steps=200_000, constraints=Constraints(ratings=ratings))
    assert _opponents_sd(even, ratings) < 0.7 * _opponents_sd(plain, ratings)
    assert quality(even)["pair_rmse"] <= 1.02 * quality(plain)["pair_rmse"]
