"""T.final: finalists play three more games each; the number, the games and the carry-over are settings."""

from __future__ import annotations

import pytest

from sportmafia.tournament import FinalSettings, TournamentError, final_standings, finalists, standings

from .test_standings import order, row, sheet


def prelim():  # type: ignore[no-untyped-def]
    # a 3 points, b 2, c 1, d 0 (one game each way)
    # e has not played: no place until he plays (listed after d, who played and lost)
    results = [sheet(["a", "b", "c"], ["d"], size=4, game_id="g1"), sheet(["a", "b"], ["c", "d"], size=4, game_id="g2"),
               sheet(["a"], ["b", "c", "d"], size=4, game_id="g3")]
    return standings(results, participants=["e"])


def final_games(winner_each_game: list[list[str]], finals: list[str]):  # type: ignore[no-untyped-def]
    out = []
    for i, winners in enumerate(winner_each_game):
        losers = [p for p in finals if p not in winners]
        out.append(sheet(winners, losers, size=len(finals), game_id=f"h{i}"))
    return out


@pytest.mark.clause("T.final")
def test_the_default_final_is_three_games_each_with_points_carried_over() -> None:
    s = FinalSettings()
    assert s.games_each == 3 and s.carry_over is True and s.finalists >= 1


@pytest.mark.clause("T.final")
def test_finalists_are_the_best_k_and_a_shared_cut_is_the_judges_call() -> None:
    rows = prelim()
    assert finalists(rows, 2) == ["a", "b"]
    assert finalists(rows, 3) == ["a", "b", "c"]
    tied = standings([sheet(["a", "b"], game_id="g1")])
    with pytest.raises(TournamentError) as info:
        finalists([r for r in tied if r.participant in ("a", "b")], 1)
    assert "judge" in info.value.message_en and "судья" in info.value.message_ru
    assert finalists([r for r in tied if r.participant in ("a", "b")], 1, include_ties=True) == ["a", "b"]
    with pytest.raises(TournamentError):
        finalists(rows, 0)


@pytest.mark.clause("T.final")
def test_carry_over_on_adds_the_preliminary_points() -> None:
    rows = prelim()
    finals = finalists(rows, 3)  # a 3, b 2, c 1
    games = final_games([["c"], ["c"], ["b"]], finals)
    table = final_standings(rows, games, carry_over=True, finalist_ids=finals, games_each=3)
    # a 3+0, b 2+1, c 1+2: all 3 points, then wins in the final: c 2, b 1, a 0
    assert [row(table, p).points for p in "abc"] == [3.0, 3.0, 3.0]
    assert order(table)[:3] == ["c", "b", "a"]
    assert row(table, "a").carried == 3.0
    assert [row(table, p).place for p in ("d", "e")] == [4, None]


@pytest.mark.clause("T.final")
def test_carry_over_off_counts_only_the_final_games() -> None:
    rows = prelim()
    finals = finalists(rows, 3)
    games = final_games([["c"], ["c"], ["b"]], finals)
    table = final_standings(rows, games, carry_over=False, finalist_ids=finals)
    assert [row(table, p).points for p in "cba"] == [2.0, 1.0, 0.0]
    assert order(table) == ["c", "b", "a", "d", "e"]
    assert [r.place for r in table] == [1, 2, 3, 4, None]
    assert row(table, "c").top_three and not row(table, "d").top_three


@pytest.mark.clause("T.final")
def test_final_games_are_checked_against_the_finalists() -> None:
    rows = prelim()
    finals = finalists(rows, 3)
    with pytest.raises(TournamentError):
        final_standings(rows, final_games([["d"]], [*finals, "d"]), finalist_ids=finals)
    with pytest.raises(TournamentError) as info:
        final_standings(rows, final_games([["a"], ["b"]], finals), finalist_ids=finals, games_each=3)
    assert "3" in info.value.message_en


@pytest.mark.clause("T.final")
def test_the_rest_of_a_tie_split_at_the_cut_shares_the_places_left_to_it() -> None:
    # a 2 points; b, c, d and e 1 each (shared places 2-5); f 0. The judge takes a, b and c to the final
    results = [sheet(["a", "b", "c"], ["f"], size=4, game_id="g1"), sheet(["a", "d", "e"], ["f"], size=4, game_id="g2")]
    rows = standings(results)
    assert [(row(rows, p).place, row(rows, p).place_to) for p in "bcde"] == [(2, 5)] * 4
    finals = ["a", "b", "c"]
    table = final_standings(rows, final_games([["a"], ["b"], ["c"]], finals), finalist_ids=finals, games_each=3)
    # d and e share what is left of their range, places 4-5; f is 6th, the last of 6 participants
    assert [(row(table, p).place, row(table, p).last_place) for p in "def"] == [(4, 5), (4, 5), (6, 6)]
    assert all(r.last_place is not None and r.last_place <= len(table) for r in table)
