"""Polemica games (real ones, tests/exchange/fixtures/README.md) imported: each replays through the engine and
gives the source's facts; a game played under a first-day rule the engine lacks is kept by its result; a game
that breaks the rules is refused naming the game, the fact and the clause."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from sportmafia.engine import Game, replay
from sportmafia.exchange import ImportRefused, from_polemica

FIXTURES = Path(__file__).with_name("fixtures")
FULL = ["328635", "328635_with_shot", "328635_with_voted_black", "328635_without_black_shot", "333915"]


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"polemica_{name}.json").read_text(encoding="utf-8"))
    return data


def game_of(name: str) -> Game:
    imported = from_polemica(load(name))
    assert imported.record is not None and imported.result is None
    return replay(imported.record)


@pytest.mark.parametrize("name", FULL)
def test_each_real_game_replays_through_the_engine_and_keeps_its_seats(name: str) -> None:
    data = load(name)
    imported = from_polemica(data)
    assert imported.source == "polemica" and imported.source_id == str(data["id"])
    assert imported.record is not None and imported.record["ruleset"]["name"] == "polemica"
    game = replay(imported.record)
    assert imported.names == tuple(p["username"] for p in data["players"])
    assert imported.external_ids == tuple(str(p["player"]["id"]) for p in data["players"])
    roles = {0: "don", 1: "mafia", 2: "civilian", 3: "sheriff"}
    assert game.roles[1:] == [roles[p["role"]] for p in data["players"]]
    assert imported.played_on is not None and imported.played_on.isoformat() == data["started"][:10]
    assert imported.outcome == "no winner" and not game.over  # these games were saved while running


def test_game_333915_gives_the_first_night_kill_the_checks_the_best_move_and_the_failed_lift() -> None:
    game = game_of("333915")
    assert game.night_kills == {1: 10}
    assert [(n, c, t) for n, c, t, _ in game.checks] == [(1, 4, 10), (1, 1, 9)]
    assert game.best_move is not None and game.best_move[:2] == (10, (4,))
    results = [(kind, tally, outcome) for kind, tally, _, outcome, _ in game.vote_results]
    assert results == [
        ("vote", ((3, 0), (4, 3), (5, 3), (6, 3), (8, 0)), "tie"),
        ("revote", ((4, 3), (5, 3), (6, 3)), "tie"),
        ("lift", ((0, 2),), "stay"),
    ]
    assert [s for s, *_ in game.departures] == [10]
    assert (game.step, game.day) == ("shooting", 2)  # the source's stage: night 2's shots


def test_game_328635_votes_out_the_self_nominated_player_after_a_night_miss() -> None:
    game = game_of("328635")
    assert game.night_kills == {1: 0}  # player 3 (black) did not shoot: a miss
    assert game.departures == [(3, "vote", 2, False)]
    assert game.shots == {2: [10], 4: [10]}  # night 2's shots, the Don's check not yet made
    assert (game.step, game.day) == ("check_don", 2)


def test_the_variants_of_328635_give_the_library_s_kills() -> None:
    assert game_of("328635_with_shot").night_kills == {1: 10}
    assert game_of("328635_without_black_shot").night_kills == {1: 0}
    voted_black = game_of("328635_with_voted_black")
    assert voted_black.shots == {2: [9], 4: [9]}  # two shooters left after 3 was voted out
    assert [(n, c, t) for n, c, t, _ in voted_black.checks] == [(1, 4, 1), (1, 1, 2)]


def test_game_334187_played_with_a_first_day_lift_is_kept_by_its_result() -> None:
    imported = from_polemica(load("334187"))
    assert imported.record is None and imported.result is not None
    res = imported.result
    assert res.winner == "red" and imported.outcome == "red won"
    assert res.left == (("kill", 3, True), ("vote", 3, False), None, ("kill", 1, True), ("kill", 4, True), None,
                        ("vote", 5, False), ("vote", 2, False), ("vote", 6, False), ("kill", 5, True))
    assert res.guess == (6, 8)
    assert res.fouls == (0, 1, 1, 0, 2, 3, 0, 3, 3, 3)
    assert res.roles[6] == "don" and res.roles[7] == "sheriff"
    assert any(x.startswith("zeroVoting=liftOnly") for x in imported.left_out)


def refused(data: dict[str, Any]) -> ImportRefused:
    with pytest.raises(ImportRefused) as info:
        from_polemica(data)
    return info.value


def test_a_vote_for_a_player_not_nominated_is_refused_with_its_place_and_clause() -> None:
    data = load("333915")
    data["votes"][6]["candidate"] = 7  # 1 votes for 7 in the first round; 7 was not nominated
    err = refused(data)
    assert (err.game, err.event, err.clause) == ("333915", "votes[6]", "A.vote.one")
    assert "333915" in err.message("ru") and "votes[6]" in err.message("en")


def test_a_shot_by_a_player_who_left_is_refused() -> None:
    data = load("328635")
    data["shots"].append({"night": 2, "shooter": 3, "victim": 10})  # 3 was voted out on day 2
    err = refused(data)
    assert (err.event, err.clause) == ("shots[4]", "A.night.shoot")


def test_two_sheriffs_are_refused_at_the_deal() -> None:
    data = load("328635")
    data["players"][4]["role"] = 3
    err = refused(data)
    assert (err.event, err.clause) == ("players", "A.setup")


def test_a_result_the_rules_do_not_give_is_refused() -> None:
    data = copy.deepcopy(load("328635_with_shot"))
    data["stage"] = {"type": "gameOver", "day": 2}
    data["result"] = 1
    err = refused(data)
    assert (err.event, err.clause) == ("game", "A.win")


def test_data_of_another_shape_is_refused_as_not_of_the_format() -> None:
    data = load("328635")
    data["players"][0]["role"] = 7
    err = refused(data)
    assert (err.event, err.clause) == ("players[0].role", "format")
