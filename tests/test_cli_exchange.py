"""``sportmafia import`` and ``export`` (docs/exchange.md): each game printed with its outcome and what was kept
or left out (or a JSON line each), a refused game naming the event and the rule with exit code 1; the club's
games exported in each format and imported again; ``sportmafia reindex``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sportmafia.cli import app
from sportmafia.store import open_store
from tests.exchange.test_files import FIXTURES

runner = CliRunner()


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data folder with a club (as ``serve`` makes it)."""
    monkeypatch.setenv("SPORTMAFIA_DATA", str(tmp_path))
    monkeypatch.delenv("SPORTMAFIA_DATABASE_URL", raising=False)
    with open_store(migrate=True) as store:
        store.create_club("Club")
    return tmp_path


def test_import_prints_each_game_and_exits_1_when_one_was_refused(data: Path) -> None:
    result = runner.invoke(app, ["import", str(FIXTURES / "mafiaratings_documented.json"),
                                 str(FIXTURES / "polemica_333915.json"), "--lang", "en"])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert any("mafiaratings game 1234: imported, red won (whole game)" in x for x in lines)
    assert any(x.startswith("  kept: roles") for x in lines) and any(x.startswith("  left out:") for x in lines)
    assert any("polemica game 333915: REFUSED: [A.win] game:" in x for x in lines)
    again = runner.invoke(app, ["import", str(FIXTURES / "mafiaratings_documented.json"), "--json"])
    assert again.exit_code == 0
    [line] = [json.loads(x) for x in again.output.splitlines()]
    assert line["status"] == "already" and line["source"] == "mafiaratings" and line["outcome"] == "red won"


def test_a_file_that_is_not_games_is_said_and_nothing_is_kept(data: Path) -> None:
    bad = data / "bad.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    result = runner.invoke(app, ["import", str(bad), "--lang", "en"])
    assert result.exit_code == 1 and "Not a file of games" in result.output
    missing = runner.invoke(app, ["import", str(data / "nope.json")])
    assert missing.exit_code == 2


@pytest.mark.parametrize("fmt", ["sportmafia", "polemica", "mafiaratings"])
def test_export_writes_the_clubs_games_which_import_again(data: Path, fmt: str, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    assert runner.invoke(app, ["import", str(FIXTURES / "mafiaratings_documented.json")]).exit_code == 0
    out = data / f"games-{fmt}.json"
    result = runner.invoke(app, ["export", "--format", fmt, "--out", str(out)])
    assert result.exit_code == 0, result.output
    games = json.loads(out.read_text(encoding="utf-8"))
    assert games["format"] == fmt and len(games["games"]) == 1
    with open_store() as store:
        other = store.create_club("Other")
    again = runner.invoke(app, ["import", str(out), "--club", str(other), "--json"])
    assert again.exit_code == 0 and json.loads(again.output)["status"] == "imported"
    assert runner.invoke(app, ["export", "--format", "csv"]).exit_code == 2
    assert runner.invoke(app, ["reindex", "--all"]).output.strip() == "2 games indexed"  # one in each club


def test_calibrate_counts_the_clubs_whole_games(data: Path) -> None:
    assert runner.invoke(app, ["import", str(FIXTURES / "mafiaratings_documented.json")]).exit_code == 0
    result = runner.invoke(app, ["calibrate"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["round1_single_votes"]["games"] == 1 and doc["real_round1_single_votes"]["red_targets"] == 0.645
    assert json.loads(runner.invoke(app, ["calibrate", "--source", "polemica"]).output)[
        "round1_single_votes"]["games"] == 0
    refused = runner.invoke(app, ["calibrate", "--source", "nowhere"])
    assert refused.exit_code != 0 and "nowhere" in refused.output
