"""T.groups: tables of 12-16, as even as possible; hosts sit out; clear refusals."""

from __future__ import annotations

import pytest

from sportmafia.tournament import TournamentError, assign_round, plan_tables, split_tables


@pytest.mark.clause("T.groups")
def test_forty_players_make_three_even_tables() -> None:
    assert split_tables(40, (12, 16)) == [13, 13, 14]
    assert split_tables(40, range(12, 17)) == [13, 13, 14]


@pytest.mark.clause("T.groups")
def test_twenty_six_players_make_two_tables_of_thirteen() -> None:
    assert split_tables(26, (12, 16)) == [13, 13]


@pytest.mark.clause("T.groups")
@pytest.mark.parametrize("players", range(12, 17))
def test_twelve_to_sixteen_players_make_one_table(players: int) -> None:
    assert split_tables(players, (12, 16)) == [players]


@pytest.mark.clause("T.groups")
@pytest.mark.parametrize("players", range(12, 101))
def test_every_split_is_within_the_range_and_as_even_as_possible(players: int) -> None:
    possible = any(k * 12 <= players <= k * 16 for k in range(1, players // 12 + 1))
    if not possible:  # 17-23, 33-35: no number of tables seats everyone
        with pytest.raises(TournamentError):
            split_tables(players, (12, 16))
        return
    tables = split_tables(players, (12, 16))
    assert sum(tables) == players
    assert all(12 <= t <= 16 for t in tables)
    assert max(tables) - min(tables) <= 1
    assert tables == sorted(tables)


@pytest.mark.clause("T.groups")
def test_eleven_players_are_refused_in_english_and_russian() -> None:
    with pytest.raises(TournamentError) as info:
        split_tables(11, (12, 16))
    assert info.value.clause == "T.groups"
    assert "too few" in info.value.message_en
    assert "недостаточно" in info.value.message_ru
    with pytest.raises(TournamentError):
        plan_tables(11, (12, 16))


@pytest.mark.clause("T.groups")
def test_seventeen_players_cannot_all_play_but_one_can_sit_out() -> None:
    with pytest.raises(TournamentError, match="sit out"):
        split_tables(17, (12, 16))
    assert plan_tables(17, (12, 16)) == ([16], 1)


@pytest.mark.clause("T.groups")
def test_a_fixed_size_of_ten_leaves_the_extras_sitting_out() -> None:
    assert plan_tables(25, (10, 10)) == ([10, 10], 5)
    assert plan_tables(30, range(10, 11)) == ([10, 10, 10], 0)
    with pytest.raises(TournamentError):
        split_tables(25, (10, 10))


def test_a_bad_range_is_refused() -> None:
    with pytest.raises(TournamentError):
        split_tables(20, (16, 12))
    with pytest.raises(TournamentError):
        split_tables(20, range(12, 12))


@pytest.mark.clause("T.groups")
def test_a_participant_who_hosts_sits_the_round_out() -> None:
    people = [f"p{i}" for i in range(1, 29)]
    plan = assign_round(people, hosts={"p1", "p2", "judge-friend"}, sizes=(12, 16))
    assert plan.hosting == ("p1", "p2")
    assert [len(t) for t in plan.tables] == [13, 13]
    seated = [p for t in plan.tables for p in t]
    assert "p1" not in seated and "p2" not in seated
    assert sorted(seated + list(plan.hosting)) == sorted(people)
    assert plan.sitting_out == ()


@pytest.mark.clause("T.groups")
def test_the_last_listed_sit_out_when_the_size_is_fixed() -> None:
    people = [f"p{i}" for i in range(1, 24)]
    plan = assign_round(people, hosts={"h1", "h2"}, sizes=(10, 10))
    assert [len(t) for t in plan.tables] == [10, 10]
    assert plan.sitting_out == ("p21", "p22", "p23")


@pytest.mark.clause("T.groups")
def test_each_table_needs_a_host() -> None:
    with pytest.raises(TournamentError) as info:
        assign_round([f"p{i}" for i in range(30)], hosts={"h1"}, sizes=(12, 16))
    assert "hosts" in info.value.message_en and "ведущих" in info.value.message_ru
