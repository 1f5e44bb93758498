"""A file of games: one, a list or ``{"games": [...]}``, each game's format detected, each imported whole or
refused whole (a bad game does not stop the others)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sportmafia.bots.plausible import play_plausible
from sportmafia.engine import to_record
from sportmafia.exchange import detect, import_games, read_games
from sportmafia.rules import get_ruleset

FIXTURES = Path(__file__).with_name("fixtures")


def fixture(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def test_a_file_holds_one_game_a_list_or_an_object_with_games() -> None:
    game = fixture("polemica_333915.json")
    assert len(read_games(json.dumps(game))) == 1
    assert len(read_games(json.dumps([game, game]))) == 2
    assert len(read_games(json.dumps({"games": [game]}))) == 1
    with pytest.raises(ValueError):
        read_games("[1, 2]")


def test_each_game_s_format_is_detected() -> None:
    assert detect(fixture("polemica_334187.json")) == "polemica"
    assert detect(fixture("mafiaratings_documented.json")) == "mafiaratings"
    assert detect(to_record(play_plausible(get_ruleset("fiim"), 10, 1))) == "sportmafia"
    with pytest.raises(ValueError):
        detect({"players": []})


def test_a_bad_game_is_refused_alone_and_the_others_are_imported() -> None:
    bad = fixture("polemica_328635.json")
    bad["shots"].append({"night": 2, "shooter": 3, "victim": 10})  # type: ignore[attr-defined]
    games = [fixture("polemica_333915.json"), bad, fixture("mafiaratings_documented.json"),
             to_record(play_plausible(get_ruleset("club"), 10, 4)), {"players": []}]
    done, refused = import_games(json.dumps(games))
    assert [g.source for g in done] == ["polemica", "mafiaratings", "sportmafia"]
    assert [(r.game, r.event, r.clause) for r in refused] == [("328635", "shots[4]", "A.night.shoot"),
                                                           ("4", "game", "format")]


def test_a_sportmafia_record_that_does_not_replay_is_refused_with_its_event() -> None:
    record = to_record(play_plausible(get_ruleset("club"), 10, 5))
    record["events"][3] = {"type": "advanced"}
    done, refused = import_games(json.dumps(record))
    assert not done and refused[0].event.startswith("events[")
