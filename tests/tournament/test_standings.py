"""T.total and T.judge: points summed, the judge's tie-breaks, shared places, the top three."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from sportmafia.tournament import (
    FIIM,
    REGULATION,
    Adjustment,
    GameResult,
    PlayerResult,
    Sanction,
    TournamentError,
    standings,
)

from . import result_of


def sheet(winners: Sequence[str], losers: Sequence[str] = (), size: int | None = None, game_id: str = "",
          winner: str = "red") -> GameResult:
    """A confirmed sheet: ``winners`` on the winning team, ``losers`` on the other; filler players make up
    ``size`` (default 12) so that only the named participants matter."""
    size = size or 12
    named = [*winners, *losers]
    filler = [f"{game_id or 'g'}-x{i}" for i in range(size - len(named))]
    loser_team = "black" if winner == "red" else "red"
    players = []
    for seat, pid in enumerate([*named, *filler], 1):
        team = winner if pid in winners else loser_team
        role = "civilian" if team == "red" else "mafia"
        players.append(PlayerResult(participant=pid, seat=seat, name=pid, role=role, team=team))
    return GameResult(players=tuple(players), winner=winner, result="black-gone" if winner == "red" else "parity",
                      table_size=size, game_id=game_id)


def row(rows: list, pid: str):  # type: ignore[no-untyped-def,type-arg]
    return next(r for r in rows if r.participant == pid)


def order(rows: list) -> list[str]:  # type: ignore[type-arg]
    return [r.participant for r in rows if not r.participant.startswith(("g", "h"))]


@pytest.mark.clause("T.total")
def test_points_are_summed_over_real_games() -> None:
    results = [result_of("tournament", 15, seed) for seed in range(4)]
    rows = standings(results, REGULATION)
    for r in rows:
        wins = sum(1 for res in results if res.player(r.participant).team == res.winner)
        assert r.points == pytest.approx(1.2 * wins)
        assert r.wins == wins and r.games == 4
        assert sum(n for _, n in r.wins_by_role) == wins
    assert [r.place for r in rows] == sorted(r.place for r in rows if r.place is not None)
    assert all(r.top_three == (r.place is not None and r.place <= 3) for r in rows)


@pytest.mark.clause("T.total")
def test_points_decide_first() -> None:
    rows = standings([sheet(["a", "b"], ["c"], game_id="g1"), sheet(["a"], ["b", "c"], game_id="g2")])
    assert order(rows)[:3] == ["a", "b", "c"]
    assert (row(rows, "a").place, row(rows, "b").place) == (1, 2)
    assert row(rows, "c").place > 2 and row(rows, "a").top_three and not row(rows, "c").top_three


@pytest.mark.clause("T.total")
def test_more_wins_break_a_tie_in_points() -> None:
    # a: 5 wins at 15-player tables = 6.0; b: 6 wins at 12 = 6.0
    results = [sheet(["a"], size=15, game_id=f"g{i}") for i in range(5)]
    results += [sheet(["b"], size=12, game_id=f"h{i}") for i in range(6)]
    rows = standings(results)
    assert row(rows, "a").points == row(rows, "b").points == pytest.approx(6.0)
    assert order(rows)[:2] == ["b", "a"] and row(rows, "b").place == 1 and row(rows, "a").place == 2


@pytest.mark.clause("T.total")
def test_fewer_games_break_a_tie_in_points_and_wins() -> None:
    results = [sheet(["a"], game_id="g1"), sheet(["a"], game_id="g2")]
    results += [sheet(["b"], game_id="h1"), sheet(["b"], game_id="h2"), sheet([], ["b"], game_id="h3")]
    rows = standings(results)
    assert (row(rows, "a").wins, row(rows, "b").wins) == (2, 2)
    assert order(rows)[:2] == ["a", "b"] and row(rows, "a").place == 1


@pytest.mark.clause("T.total")
def test_head_to_head_breaks_a_tie_in_points_wins_and_games() -> None:
    # they met once and b won it; a won a game without b, b lost one without a
    results = [sheet(["b"], ["a"], game_id="g1"), sheet(["a"], game_id="g2"), sheet([], ["b"], game_id="g3")]
    rows = standings(results)
    a, b = row(rows, "a"), row(rows, "b")
    assert (a.points, a.wins, a.games) == (b.points, b.wins, b.games) == (1.0, 1, 2)
    assert (b.place, a.place) == (1, 2)


@pytest.mark.clause("T.total")
def test_equal_rows_after_every_tie_break_share_a_place() -> None:
    results = [sheet(["a", "b"], ["c"], game_id="g1"), sheet(["c"], game_id="g2"), sheet([], ["c"], game_id="g3")]
    rows = standings(results)
    a, b, c = row(rows, "a"), row(rows, "b"), row(rows, "c")
    assert a.place == b.place == 1
    assert a.top_three and b.top_three
    # c has 1 point too but played more games: third, and the next place after two firsts is 3
    assert c.place == 3 and c.top_three


@pytest.mark.clause("T.judge")
def test_points_always_decide_first_and_unknown_keys_are_refused() -> None:
    results = [sheet(["a"], game_id="g1"), sheet(["a"], game_id="g2"), sheet(["b"], game_id="h1")]
    rows = standings(results, tie_breaks=["fewer_games"])  # b has fewer games, a more points
    assert order(rows)[:2] == ["a", "b"]
    with pytest.raises(TournamentError) as info:
        standings(results, tie_breaks=["wins", "charm"])
    assert "charm" in info.value.message_en and info.value.message_ru


@pytest.mark.clause("T.judge")
def test_the_judges_list_decides_which_key_wins() -> None:
    # a: 2 wins in 3 games; b: 1 win (1.2 at 15 + 0.8 adjustment) in 1 game
    results = [sheet(["a"], game_id="g1"), sheet(["a"], game_id="g2"), sheet([], ["a"], game_id="g3"),
               sheet(["b"], size=15, game_id="h1")]
    adjust = [Adjustment("b", 0.8, "best player of round 1, by the judge")]
    by_wins = standings(results, tie_breaks=["wins", "fewer_games"], adjustments=adjust)
    by_games = standings(results, tie_breaks=["fewer_games", "wins"], adjustments=adjust)
    assert row(by_wins, "a").points == row(by_wins, "b").points == pytest.approx(2.0)
    assert order(by_wins)[:2] == ["a", "b"]
    assert order(by_games)[:2] == ["b", "a"]
    assert row(by_wins, "b").adjustments == tuple(adjust)


@pytest.mark.clause("T.judge")
def test_a_manual_adjustment_needs_a_reason_and_is_kept() -> None:
    with pytest.raises(TournamentError) as info:
        Adjustment("a", 1.0, " ")
    assert info.value.clause == "T.judge" and "причину" in info.value.message_ru
    rows = standings([sheet(["a"], game_id="g1")], adjustments=[Adjustment("a", -0.5, "phone at the table")])
    assert row(rows, "a").points == 0.5 and row(rows, "a").adjustments[0].reason == "phone at the table"


@pytest.mark.clause("T.total")
def test_a_disqualified_participant_has_no_place_and_is_listed_last() -> None:
    results = [sheet(["a", "b"], game_id="g1"), sheet(["a"], ["c"], game_id="g2")]
    rows = standings(results, sanctions=[Sanction("a", "tournament", "drunk")], participants=["d"])
    a = row(rows, "a")
    assert a.disqualified and a.place is None and not a.top_three and rows[-1] is a
    assert row(rows, "b").place == 1 and row(rows, "d").games == 0
    round_only = standings(results, sanctions=[Sanction("a", "round", "eyes open")])
    assert not row(round_only, "a").disqualified and row(round_only, "a").place == 1


@pytest.mark.clause("T.total")
def test_a_ban_in_a_real_game_disqualifies_and_fiim_columns_add_up() -> None:
    from .test_scoring import _remove_once

    banned = result_of("tournament", 13, seed=2, hook=_remove_once("mafia", "ban"))  # type: ignore[arg-type]
    who = next(p.participant for p in banned.players if p.removed)
    rows = standings([banned, result_of("tournament", 13, seed=3)])
    assert row(rows, who).disqualified and row(rows, who).sanctions[0].scope == "ban"
    fiim = standings([result_of("fiim", 10, seed=0)], FIIM)
    for r in fiim:
        assert r.points == pytest.approx(r.wins + r.extra_points + r.penalties)


@pytest.mark.clause("T.total")
def test_a_participant_with_no_game_has_no_place_until_he_plays() -> None:
    fourteen = [f"p{i:02}" for i in range(14)]
    rows = standings([], participants=fourteen)
    # nobody has played: nobody has a place, nobody is a prize winner (not 14 "top three" at place 1)
    assert [r.place for r in rows] == [None] * 14 and not any(r.top_three or r.prize_tie for r in rows)
    assert not any(r.disqualified for r in rows)
    # one game: the loser has a place; who has not played is listed after him, without one
    results = [sheet(["a"], ["b"], size=4, game_id="g1")]
    rows = standings(results, participants=["a", "b", "c"], sanctions=[Sanction("d", "tournament", "drunk")])
    assert [r.participant for r in rows if not r.participant.startswith("g")] == ["a", "b", "c", "d"]
    assert row(rows, "b").place is not None and row(rows, "b").place > row(rows, "a").place  # type: ignore[operator]
    assert row(rows, "c").place is None and not row(rows, "c").disqualified and row(rows, "c").games == 0
    assert rows.index(row(rows, "c")) > max(rows.index(r) for r in rows if r.place is not None)
    assert row(rows, "d").disqualified and rows[-1] is row(rows, "d")


@pytest.mark.clause("T.total")
@pytest.mark.clause("T.judge")
def test_a_tie_the_tie_breaks_cannot_split_shares_a_range_and_the_prize_only_within_the_top_three() -> None:
    # one game of 7 winners and 7 losers: every winner is equal after every tie-break (head-to-head too)
    winners, losers = [f"w{i}" for i in range(7)], [f"l{i}" for i in range(7)]
    rows = standings([sheet(winners, losers, size=14, game_id="g1")])
    for pid in winners:
        r = row(rows, pid)
        assert (r.place, r.last_place, r.shared) == (1, 7, True)
        # the range straddles place 3: the regulation gives three prize places, the judge decides (T.judge)
        assert r.prize_tie and not r.top_three
    for pid in losers:
        assert (row(rows, pid).place, row(rows, pid).last_place) == (8, 14)
        assert not row(rows, pid).prize_tie and not row(rows, pid).top_three
    # a, b, c lead alone; d, e, f share 4-6; g is 7th alone
    results = [sheet(["a", "b", "c"], game_id="g1"), sheet(["a", "b"], game_id="g2"), sheet(["a", "b"], game_id="g3"),
               sheet(["a", "c"], game_id="g4"), sheet(["d", "e", "f"], ["g"], game_id="h1")]
    rows = standings(results, tie_breaks=["points", "wins"])
    assert [(row(rows, p).place, row(rows, p).last_place) for p in "abc"] == [(1, 1), (2, 2), (3, 3)]
    assert all(row(rows, p).top_three and not row(rows, p).shared for p in "abc")
    for p in "def":
        assert (row(rows, p).place, row(rows, p).last_place, row(rows, p).top_three) == (4, 6, False)
        assert not row(rows, p).prize_tie
    assert row(rows, "g").place == 7
