"""The remaining rounds mended with the fewest moves (``tournament/seating/repair.py``; issue 22, changes
mid-tournament): a withdrawal or a late arrival moves one seat a round, a new host's conflict moves only the
players it concerns, the played rounds and every hard constraint hold, and what cannot be mended so is refused
with the reason."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sportmafia.tournament.seating import Seating, SeatingError, generate
from sportmafia.tournament.seating.constraints import Constraints
from sportmafia.tournament.seating.repair import repair

from .test_seating import FAST, STEPS, _check_valid, constrained


def _places(seating: Seating, first: int) -> dict[tuple[int, int], tuple[int, int]]:
    """(round, player) -> (table, seat) in rounds ``first`` on."""
    return {(g.round, p): (g.table, s) for g in seating.games if g.round >= first for s, p in enumerate(g.seats)}


def _moved(old: Seating, new: Seating, first: int) -> Counter[int]:
    """By round: how many players' places differ (a different table or seat, or playing where he did not)."""
    a, b = _places(old, first), _places(new, first)
    return Counter(r for r, _ in {k for k in set(a) | set(b) if a.get(k) != b.get(k)})


@pytest.mark.parametrize("seed", range(4))
def test_a_withdrawal_moves_only_the_one_who_takes_his_seat(seed: int) -> None:
    old = generate(26, 5, 10, seed=seed, steps=STEPS)
    gone = next(s for g in old.games if g.round == 2 for s in g.seats)  # he plays round 3
    new = repair(old, 2, (10, 10), dropped={gone}, seed=seed)
    assert [g for g in new.games if g.round < 2] == [g for g in old.games if g.round < 2]
    assert all(gone not in g.seats for g in new.games if g.round >= 2)
    moved = _moved(old, new, 2)
    # where he was seated: he leaves and one who sat out takes exactly his seat (two places differ), else nothing
    for r in range(2, 5):
        was = any(gone in g.seats for g in old.games if g.round == r)
        assert moved[r] == (2 if was else 0)
        if was:
            [(t, s)] = [(g.table, g.seats.index(gone)) for g in old.games if g.round == r and gone in g.seats]
            [taker] = [g.seats[s] for g in new.games if g.round == r and g.table == t]
            assert not any(taker in g.seats for g in old.games if g.round == r)
    _check_valid(new, 26, 5, 10, 10)


@pytest.mark.parametrize("seed", range(4))
def test_a_late_arrival_takes_the_seats_of_those_with_most_games_and_nothing_else_moves(seed: int) -> None:
    old = generate(26, 6, 10, seed=seed, steps=STEPS)
    new = repair(old, 2, (10, 10), players=27, seed=seed)
    assert [g for g in new.games if g.round < 2] == [g for g in old.games if g.round < 2]
    plays = _check_valid(new, 27, 6, 10, 10)
    assert plays[26] >= 2  # four rounds left: he plays at least two of them
    moved = _moved(old, new, 2)
    assert all(moved[r] <= 2 for r in range(2, 6)) and sum(moved.values()) == 2 * plays[26]
    # the games stay as even as before among the others, and he has no more than anyone who played from round 1
    before = Counter(p for g in old.games for p in g.seats)
    assert max(plays[p] for p in range(26)) - min(plays[p] for p in range(26)) <= \
        max(before.values()) - min(before.values())
    assert plays[26] <= min(plays[p] for p in range(26))


def test_a_new_hosts_conflict_moves_only_the_players_it_concerns() -> None:
    old = generate(20, 4, 10, seed=3, steps=STEPS)
    at_table_1 = next(g.seats for g in old.games if g.round == 2 and g.table == 0)[:2]
    cons = Constraints(banned=tuple((p, 0, r) for p in at_table_1 for r in (2, 3)))
    new = repair(old, 2, (10, 10), constraints=cons, seed=1)
    for g in new.games:
        if g.round >= 2 and g.table == 0:
            assert not set(at_table_1) & set(g.seats)
    moved = _moved(old, new, 2)
    assert all(moved[r] <= 4 for r in (2, 3))  # each of the two swaps places with one from table 2
    _check_valid(new, 20, 4, 10, 10)


def test_tables_of_a_range_take_a_late_arrival_at_the_smallest_table() -> None:
    old = generate(23, 4, (10, 12), seed=2, steps=STEPS)  # tables of 12 and 11
    new = repair(old, 1, (10, 12), players=24, seed=2)
    for g in new.games:
        if g.round >= 1:
            assert len(g.seats) == 12
    assert all(any(23 in g.seats for g in new.games if g.round == r) for r in range(1, 4))
    assert sum(_moved(old, new, 1).values()) == 3  # only his own places are new


def test_what_cannot_be_mended_says_so_and_why() -> None:
    old = generate(20, 3, 10, seed=1, steps=STEPS)
    with pytest.raises(SeatingError) as info:  # two tables of 10 and nobody to take a place
        repair(old, 1, (10, 10), dropped={0})
    assert "fewer than 10" in info.value.message("en") or "other tables" in info.value.message("en")
    assert info.value.message("ru") != info.value.message("en")
    with pytest.raises(SeatingError) as info:  # ten more players make a third table
        repair(old, 1, (10, 10), players=30)
    assert "other tables than it has" in info.value.message("en")


@FAST
@given(constrained(), st.integers(0, 4), st.data())
def test_mending_keeps_the_played_rounds_and_every_hard_constraint(
        case: tuple[int, int, int, Constraints, dict[int, set[int]]], seed: int, data: st.DataObject) -> None:
    players, rounds, size, cons, absent = case
    try:  # seated under the constraints; then players leave, arrive and miss rounds
        old = generate(players, rounds, size, constraints=cons, seed=seed, steps=STEPS)
    except SeatingError:
        return
    played = data.draw(st.integers(0, rounds))
    dropped = set(data.draw(st.lists(st.integers(0, players - 1), max_size=2)))
    added = data.draw(st.integers(0, 2))
    if cons.ratings:  # the arrivals' ratings: the average
        cons = replace(cons, ratings=cons.ratings + (sum(cons.ratings) / len(cons.ratings),) * added)
    try:
        new = repair(old, played, (size, size), players=players + added, dropped=dropped, absent=absent,
                     constraints=cons, seed=seed)
    except SeatingError as exc:
        assert exc.message("ru") != exc.message("en")
        return
    assert [g for g in new.games if g.round < played] == [g for g in old.games if g.round < played]
    _check_valid(new, players + added, rounds, size, size)
    meet: Counter[tuple[int, int]] = Counter()
    for g in new.games:
        meet.update(combinations(sorted(g.seats), 2))
        if g.round >= played:
            assert not (dropped | absent.get(g.round, set())) & set(g.seats)
            for p, t, r in cons.banned:
                assert not (p in g.seats and g.table == t and r in (None, g.round))
    for x, y, k in cons.caps:
        # a cap broken in the played rounds already stays as it was; none is broken further
        before = sum(1 for g in old.games if g.round < played and {x, y} <= set(g.seats))
        assert meet[(min(x, y), max(x, y))] <= max(k, before)
    allowed = dict(cons.seats)
    for g in new.games:
        if g.round >= played:
            assert all(p not in allowed or s in allowed[p] for s, p in enumerate(g.seats))


def test_a_pair_kept_apart_from_now_on_that_met_already_is_kept_apart_in_the_rounds_left() -> None:
    old = generate(20, 4, 10, seed=5, steps=STEPS)
    x, y = next(g.seats for g in old.games if g.round == 0)[:2]  # they met in round 1
    new = repair(old, 1, (10, 10), constraints=Constraints(caps=((x, y, 0),)), seed=1)
    assert all(not {x, y} <= set(g.seats) for g in new.games if g.round >= 1)
