"""mafiaratings games (format 1.3): the documented game imports and replays with its deaths, checks, best move
and warnings; games lacking the detail are kept by their result; games that break the rules are refused; and
sportmafia → mafiaratings → sportmafia keeps every fact both hold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sportmafia.bots.plausible import play_plausible
from sportmafia.engine import replay, to_record
from sportmafia.exchange import ExportRefused, ImportRefused, from_mafiaratings, to_mafiaratings
from sportmafia.rules import get_ruleset

from .facts import facts

FIXTURE = Path(__file__).with_name("fixtures") / "mafiaratings_documented.json"
FIIM = get_ruleset("fiim")


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def test_the_documented_game_replays_with_its_deaths_and_result() -> None:
    imported = from_mafiaratings(load())
    assert imported.source == "mafiaratings" and imported.source_id == "1234"
    assert imported.record is not None and imported.record["ruleset"]["name"] == "fiim"
    game = replay(imported.record)
    assert game.winner == "red" and imported.outcome == "red won"
    assert game.departures == [(9, "vote", 1, False), (5, "kill", 1, True), (2, "vote", 2, False),
                               (4, "kill", 2, True), (6, "vote", 3, False)]
    assert [(n, c, t) for n, c, t, _ in game.checks] == [(1, 6, 4), (1, 4, 2), (2, 6, 1), (2, 4, 6)]
    assert game.best_move is not None and game.best_move[:2] == (5, (2, 6, 8))
    assert game.fouls[8] == 1 and game.fouls[10] == 1 and sum(game.fouls) == 2
    assert imported.external_ids[7] is None and imported.external_ids[0] == "101"
    assert imported.played_on is not None and imported.played_on.isoformat() == "2024-05-01"
    assert "players[7].bonus" in imported.left_out and "rules" in imported.left_out


def refused(data: dict[str, Any]) -> ImportRefused:
    with pytest.raises(ImportRefused) as info:
        from_mafiaratings(data)
    return info.value


def test_a_death_the_rules_do_not_give_is_refused_naming_the_player() -> None:
    data = load()
    data["players"][4]["death"] = {"round": 2, "type": "night"}  # 5 was killed on night 1, not 2
    err = refused(data)
    assert (err.game, err.event, err.clause) == ("1234", "players[4].death", "A.night.shoot")


def test_a_shot_by_a_dead_player_is_refused() -> None:
    data = load()
    data["players"][8]["shooting"] = [5]  # 9 was voted out on day 1
    err = refused(data)
    assert (err.event, err.clause) == ("players[8].shooting[0]", "A.night.shoot")


def test_a_vote_for_a_player_not_nominated_is_refused() -> None:
    data = load()
    data["players"][0]["voting"][0] = 7
    err = refused(data)
    assert (err.event, err.clause) == ("players[0].voting[0]", "A.vote.one")


def test_a_game_without_votes_is_kept_by_its_result() -> None:
    data = load()
    data["features"] = "gsdutclh"
    imported = from_mafiaratings(data)
    assert imported.record is None and imported.result is not None
    res = imported.result
    assert res.winner == "red" and res.ruleset == "fiim"
    assert res.left[8] == ("vote", 1, False) and res.left[4] == ("kill", 1, True) and res.left[0] is None
    assert res.guess == (2, 6, 8) and res.fouls[9] == 1
    assert res.roles[5] == "don" and res.roles[2] == "civilian"
    assert "features: no voting" in imported.left_out


@pytest.mark.parametrize("seed", range(1, 41))
def test_a_plausible_fiim_game_survives_the_round_trip(seed: int) -> None:
    game = play_plausible(FIIM, 10, seed)
    data = to_mafiaratings(to_record(game, meta={"date": "2025-05-01"}), game_id=seed)
    assert data["version"] == "1.3" and data["startTime"].startswith("2025-05-01")
    imported = from_mafiaratings(data)
    assert imported.record is not None
    assert facts(replay(imported.record)) == facts(game)


def test_an_unfinished_game_cannot_be_exported() -> None:
    game = play_plausible(FIIM, 10, 2, max_commands=40)
    with pytest.raises(ExportRefused) as info:
        to_mafiaratings(to_record(game))
    assert info.value.message("ru") and info.value.target == "mafiaratings"
