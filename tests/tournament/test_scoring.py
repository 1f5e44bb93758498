"""T.score: the regulation's points and x1.2, FIIM extra points and penalties, custom tables; B.sheet."""

from __future__ import annotations

import json

import pytest

from sportmafia.engine import BLACK_ROLES, BestMove, Command, Foul, Game, Remove, Sanction, TeamDefeat, to_record
from sportmafia.tournament import (
    FIIM,
    REGULATION,
    ScoringSystem,
    TournamentError,
    corrected,
    custom,
    from_game,
    from_record,
    score_game,
)

from . import ids, play, result_of


@pytest.mark.clause("T.score")
@pytest.mark.parametrize(("players", "points"), [(12, 1.0), (13, 1.0), (14, 1.0), (15, 1.2), (16, 1.2)])
def test_each_winner_of_a_real_tournament_game_gets_one_point_times_1_2_above_fourteen(
        players: int, points: float) -> None:
    result = result_of("tournament", players, seed=players)
    assert result.winner in ("red", "black") and result.table_size == players
    scores = score_game(result, REGULATION)
    assert set(scores) == set(ids(players))
    for p in result.players:
        want = points if p.team == result.winner else 0.0
        assert scores[p.participant].points == pytest.approx(want)
        assert scores[p.participant].won == (p.team == result.winner)


@pytest.mark.clause("T.score")
def test_a_fifteen_player_game_gives_1_2_to_every_winner_over_several_seeds() -> None:
    for seed in range(5):
        result = result_of("tournament", 15, seed)
        winners = [p.participant for p in result.players if p.team == result.winner]
        scores = score_game(result)
        assert winners and all(scores[w].points == pytest.approx(1.2) for w in winners)
        assert sum(s.points for s in scores.values()) == pytest.approx(1.2 * len(winners))


@pytest.mark.clause("T.score")
def test_a_game_without_a_winner_scores_nothing_by_default() -> None:
    result = corrected(result_of("tournament", 12, 1), {"winner": None, "result": "override"},
                       "judge annulled the game")
    assert all(s.points == 0 and s.outcome == "draw" for s in score_game(result).values())


def _first_victim_names(black: int) -> object:
    def hook(game: Game) -> Command | None:
        if (game.step == "last_word" and game.day == 2 and game.best_move is None
                and game.night_kills.get(1) == game.seat):
            blacks = [s for s in range(1, game.n + 1) if game.roles[s] in BLACK_ROLES]
            reds = [s for s in range(1, game.n + 1) if s != game.seat and game.roles[s] not in BLACK_ROLES]
            return BestMove(game.seat, tuple(sorted(blacks[:black] + reds[:3 - black])))
        return None
    return hook


@pytest.mark.clause("T.score")
@pytest.mark.parametrize(("black", "bonus"), [(3, 0.4), (2, 0.25), (1, 0.0), (0, 0.0)])
def test_fiim_best_move_of_the_first_night_victim(black: int, bonus: float) -> None:
    result = result_of("fiim", 10, seed=3, hook=_first_victim_names(black))  # type: ignore[arg-type]
    assert result.first_killed and result.best_move_black == black
    victim = result.by_seat(result.first_killed)
    score = score_game(result, FIIM)[victim.participant]
    win = 1.0 if victim.team == result.winner else 0.0
    assert score.points == pytest.approx(win + bonus)
    assert dict(score.breakdown).get("best_move", 0.0) == bonus
    assert score_game(result, REGULATION)[victim.participant].points == win  # not in the regulation


def _remove_once(seat_of: str, scope: str = "game", reason: str = "insult") -> object:
    done: list[int] = []

    def hook(game: Game) -> Command | None:
        if not done and game.day == 1 and game.phase == "day":
            seat = next(s for s in range(1, game.n + 1) if game.alive[s] and game.roles[s] == seat_of)
            done.append(seat)
            return Remove(seat, reason, scope)
        return None
    return hook


@pytest.mark.clause("T.score")
def test_fiim_removal_costs_half_a_point() -> None:
    result = result_of("fiim", 10, seed=5, hook=_remove_once("civilian"))  # type: ignore[arg-type]
    removed = [p for p in result.players if p.removed]
    assert len(removed) == 1 and removed[0].removed == "game" and removed[0].removal_reason == "insult"
    p = removed[0]
    score = score_game(result, FIIM)[p.participant]
    win = 1.0 if p.team == result.winner else 0.0
    assert score.points == pytest.approx(win - 0.5)
    assert ("removal", -0.5) in score.breakdown and score.penalties == -0.5
    assert score.sanction is None  # only this game
    others = [q for q in result.players if not q.removed and not q.fouls]
    assert all(score_game(result, FIIM)[q.participant].penalties == 0 for q in others)


@pytest.mark.clause("T.score")
def test_fiim_four_fouls_cost_half_a_point_once() -> None:
    fouls: list[int] = []

    def hook(game: Game) -> Command | None:
        if len(fouls) < 4 and game.day == 1 and game.phase == "day":
            seat = next(s for s in range(1, game.n + 1) if game.alive[s] and game.roles[s] == "civilian")
            fouls.append(seat)
            return Foul(seat, "gestures")
        return None
    result = result_of("fiim", 10, seed=2, hook=hook)
    p = result.by_seat(fouls[0])
    assert p.fouls == 4 and p.removed == "game"
    score = score_game(result, FIIM)[p.participant]
    assert [k for k, _ in score.breakdown].count("removal") == 1
    assert score.penalties == -0.5


@pytest.mark.clause("T.score")
@pytest.mark.parametrize("loser", ["black", "red"])
def test_fiim_team_defeat_costs_the_defeated_team_0_7(loser: str) -> None:
    def hook(game: Game) -> Command | None:
        if game.day == 1 and game.phase == "day":
            return TeamDefeat(team=loser, reason="hints at the table")
        return None
    result = result_of("fiim", 10, seed=4, hook=hook)
    assert result.result == "team-defeat" and result.winner != loser
    scores = score_game(result, FIIM)
    for p in result.players:
        want = -0.7 if p.team == loser else 1.0
        assert scores[p.participant].points == pytest.approx(want), p
    assert all(s.points in (0.0, 1.0) for s in score_game(result, REGULATION).values())


@pytest.mark.clause("T.score")
def test_compensation_is_off_by_default_and_configurable() -> None:
    result = result_of("fiim", 10, seed=8)
    victim = result.by_seat(result.first_killed)
    assert victim.team == "red"
    assert "compensation" not in dict(score_game(result, FIIM)[victim.participant].breakdown)
    with_ci = FIIM.variant("fiim-ci", compensation=0.4)
    assert dict(score_game(result, with_ci)[victim.participant].breakdown)["compensation"] == 0.4
    missed = result_of("fiim", 10, seed=7)  # night 1 was a miss: nobody to compensate
    assert missed.first_killed == 0
    assert all("compensation" not in dict(s.breakdown) for s in score_game(missed, with_ci).values())


@pytest.mark.clause("T.score")
def test_a_custom_table_by_role_and_outcome() -> None:
    result = result_of("tournament", 13, seed=2)
    system = custom("club-cup", {"commissar": {"win": 1.5, "loss": 0.25}, "mafia": {"win": 1.2}})
    scores = score_game(result, system)
    for p in result.players:
        won = p.team == result.winner
        want = {("commissar", True): 1.5, ("commissar", False): 0.25, ("mafia", True): 1.2}.get(
            (p.role, won), 1.0 if won else 0.0)
        assert scores[p.participant].points == pytest.approx(want)
    with pytest.raises(TournamentError):
        custom("bad", {"mafia": {"victory": 1}})


@pytest.mark.clause("T.score")
def test_scoring_systems_are_data_that_round_trip_through_json() -> None:
    for system in (REGULATION, FIIM, custom("c", {"commissar": {"win": 2}})):
        text = system.dumps()
        assert ScoringSystem.from_json(json.loads(text)) == system
    assert REGULATION.to_json()["large_multiplier"] == 1.2 and REGULATION.to_json()["large_table"] == 14
    edited = ScoringSystem.from_json({**REGULATION.to_json(), "large_table": 13})
    assert score_game(result_of("tournament", 14, 14), edited) != score_game(result_of("tournament", 14, 14))
    with pytest.raises(TournamentError):
        ScoringSystem.from_json({"name": "x", "bonus": 3})


@pytest.mark.clause("B.sanctions")
@pytest.mark.parametrize("scope", ["round", "tournament", "ban"])
def test_a_removal_beyond_the_game_is_returned_as_a_sanction(scope: str) -> None:
    result = result_of("tournament", 14, seed=1, hook=_remove_once("civilian", scope))  # type: ignore[arg-type]
    p = next(q for q in result.players if q.removed)
    assert p.removed == scope
    assert score_game(result)[p.participant].sanction == scope


@pytest.mark.clause("B.sanctions")
def test_a_sanctioned_offence_reaches_the_sheet() -> None:
    done: list[int] = []

    def hook(game: Game) -> Command | None:
        if not done and game.day == 1 and game.phase == "day":
            done.append(1)
            seat = next(s for s in range(1, game.n + 1) if game.alive[s])
            return Sanction(seat, "drunk")
        return None
    result = result_of("tournament", 12, seed=3, hook=hook)
    p = result.by_seat(next(q.seat for q in result.players if q.removed))
    assert p.removed == "tournament" and p.removal_reason == "drunk"
    assert score_game(result)[p.participant].sanction == "tournament"


@pytest.mark.clause("B.sheet")
def test_the_sheet_lists_seat_nick_role_and_winner_and_survives_a_record() -> None:
    game = play("tournament", 15, 9)
    result = from_game(game, ids(15), game_id="g9")
    assert [p.seat for p in result.players] == list(range(1, 16))
    assert all(p.role in ("civilian", "commissar", "mafia") for p in result.players)
    assert result.winner in ("red", "black")
    assert from_record(to_record(game), ids(15), game_id="g9") == result
    with pytest.raises(TournamentError):
        from_game(game, ids(14))
    with pytest.raises(TournamentError):
        from_game(Game(game.rules, 12), ids(12))  # not over


@pytest.mark.clause("B.sheet")
def test_a_correction_needs_a_reason_and_is_kept() -> None:
    result = result_of("tournament", 15, 3)
    for reason in ("", "   "):
        with pytest.raises(TournamentError) as info:
            corrected(result, {"winner": "red"}, reason)
        assert "reason" in info.value.message_en and "причину" in info.value.message_ru
    loser = "red" if result.winner == "black" else "black"
    fixed = corrected(result, {"winner": loser}, "host marked the wrong team", by="judge")
    assert fixed.winner == loser and result.corrections == ()
    assert fixed.corrections[0].reason == "host marked the wrong team" and fixed.corrections[0].by == "judge"
    twice = corrected(fixed, {"p1": {"role": "mafia"}}, "cards were swapped")
    assert twice.player("p1").team == "black" and len(twice.corrections) == 2
    scores = score_game(twice)
    assert scores["p1"].points == (1.2 if loser == "black" else 0.0)
    with pytest.raises(TournamentError):
        corrected(result, {"nobody": {"role": "mafia"}}, "typo")
    with pytest.raises(TournamentError):
        corrected(result, {"p1": {"removed": "forever"}}, "typo")
