"""sportmafia → Polemica → sportmafia keeps every fact both hold: games of a plausible table under `fiim`,
exported and imported again, give the same roles, result, departures, fouls, checks, shots, nominations, hands
and best move."""

from __future__ import annotations

import pytest

from sportmafia.bots.plausible import play_plausible
from sportmafia.engine import Game, replay, to_record
from sportmafia.exchange import ExportRefused, from_polemica, to_polemica
from sportmafia.rules import get_ruleset

from .facts import facts

FIIM = get_ruleset("fiim")


def round_trip(game: Game) -> Game:
    record = to_record(game, meta={"date": "2025-05-01"})
    data = to_polemica(record, game_id=77)
    imported = from_polemica(data)
    assert imported.record is not None
    return replay(imported.record)


@pytest.mark.parametrize("seed", range(1, 41))
def test_a_plausible_fiim_game_survives_the_round_trip(seed: int) -> None:
    game = play_plausible(FIIM, 10, seed)
    assert game.over
    assert facts(round_trip(game)) == facts(game)


def test_the_export_holds_the_polemica_fields() -> None:
    game = play_plausible(FIIM, 10, 3)
    data = to_polemica(to_record(game, meta={"date": "2025-05-01"}), game_id=5)
    assert data["id"] == 5 and data["version"] == 4 and data["started"] == "2025-05-01T00:00:00"
    assert [p["position"] for p in data["players"]] == list(range(1, 11))
    assert sorted(p["role"] for p in data["players"]) == [0, 1, 1, 2, 2, 2, 2, 2, 2, 3]
    assert data["stage"]["type"] == "gameOver"
    assert data["result"] == {"red": 0, "black": 1}.get(game.winner or "")
    assert all(v["num"] >= 0 for v in data["votes"] if "num" in v)


def test_an_unfinished_game_is_exported_at_its_stage_and_imported_up_to_it() -> None:
    game = play_plausible(FIIM, 10, 8, max_commands=60)
    assert not game.over
    data = to_polemica(to_record(game))
    assert data["result"] is None and data["stage"]["type"] != "gameOver"
    again = replay(from_polemica(data).record or {})
    assert facts(again) == facts(game)
    assert (again.step, again.day) == (game.step, game.day)


def test_a_tournament_game_cannot_be_exported() -> None:
    game = play_plausible(get_ruleset("tournament"), 12, 1)
    with pytest.raises(ExportRefused):
        to_polemica(to_record(game))
