"""The sportmafia command: demo, replay and simulate; and the bots behind them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sportmafia.bots import play_plausible, play_random
from sportmafia.cli import app
from sportmafia.engine import replay, to_record
from sportmafia.rules import PRESETS, get_ruleset

runner = CliRunner()


def test_demo_prints_the_rule_set_seats_events_and_outcome(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    result = runner.invoke(app, ["demo", "--seed", "3", "--save", str(out)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Правила: club" in text and "Ворон" in text
    assert "День 1" in text and "Ночь 0" in text
    assert "Итог:" in text
    record = json.loads(out.read_text(encoding="utf-8"))
    assert replay(record).over


def test_demo_in_english_for_a_tournament_table() -> None:
    result = runner.invoke(app, ["demo", "--preset", "tournament", "--players", "13", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "Rule set: tournament · 13 players" in result.output
    assert "Commissar" in result.output and "Outcome:" in result.output


def test_demo_refuses_a_table_the_rule_set_does_not_deal() -> None:
    result = runner.invoke(app, ["demo", "--preset", "tournament", "--players", "10", "--lang", "en"])
    assert result.exit_code == 2
    assert "12-16" in result.output


def test_replay_prints_the_course_and_json(tmp_path: Path) -> None:
    game = play_plausible(get_ruleset("fiim"), 10, 4)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(to_record(game)), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["winner"] == game.winner and summary["events"] == len(game.log)
    assert [d["seat"] for d in summary["departures"]] == [s for s, *_ in game.departures]
    text = runner.invoke(app, ["replay", str(path)]).output
    assert "Night 1" in text


def test_replay_of_a_missing_or_broken_file_exits_non_zero(tmp_path: Path) -> None:
    assert runner.invoke(app, ["replay", str(tmp_path / "none.json")]).exit_code == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 1 and "[record]" in result.output


def test_simulate_reports_how_games_ended() -> None:
    result = runner.invoke(app, ["simulate", "--games", "30", "--preset", "fiim"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert sum(data["winners"].values()) == 30


def test_simulate_with_an_agent_at_every_seat() -> None:
    result = runner.invoke(app, ["simulate", "--games", "20", "--agent", "baseline"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["agent"] == "baseline" and sum(data["winners"].values()) == 20
    assert not set(data["results"]) & {"override", "award", "team-defeat"}  # the table decides every game
    refused = runner.invoke(app, ["simulate", "--agent", "nobody"])
    assert refused.exit_code != 0 and "nobody" in refused.output


@pytest.mark.parametrize("preset", PRESETS)
def test_bots_play_whole_games_the_same_way_for_a_seed(preset: str) -> None:
    rs = get_ruleset(preset)
    for seed in range(20):
        a = play_plausible(rs, rs.min_players, seed)
        assert a.over and a.log == play_plausible(rs, rs.min_players, seed).log
        b = play_random(rs, rs.max_players, seed)
        assert b.over and b.log == play_random(rs, rs.max_players, seed).log


def test_the_servers_gc_keeper_freezes_what_lives_and_collects_it_in_full_rounds() -> None:
    import gc
    import weakref

    from sportmafia.collector import gc_keeper

    class Node:
        pass

    try:
        gc.unfreeze()
        node = Node()
        node.me = node  # type: ignore[attr-defined]  # a cycle: only the collector frees it
        ref = weakref.ref(node)
        gc_keeper(freeze_every=0.0, full_every=3600, rounds=1)
        assert gc.get_freeze_count() > 0
        del node
        gc.collect()
        assert ref() is not None  # frozen: out of the collector's reach
        gc_keeper(freeze_every=0.0, full_every=0.0, rounds=1)  # a full round unfreezes and collects
        assert ref() is None
        assert gc.get_freeze_count() > 0  # and freezes again
    finally:
        gc.unfreeze()


def test_serve_logs_a_line_per_socket_only_with_access_log(caplog: pytest.LogCaptureFixture) -> None:
    """uvicorn logs each socket opened or refused at info level; ``serve`` drops those lines unless
    ``--access-log`` asks for every request's line. Its other lines (and every warning) stay."""
    import inspect
    import logging

    from uvicorn.protocols.websockets import websockets_sansio_impl

    from sportmafia.cli import quiet_socket_access

    # the line dropped is the one uvicorn writes (its implementation here)
    assert "'%s - \"WebSocket %s\" [accepted]'" in inspect.getsource(websockets_sansio_impl)
    logger = logging.getLogger("uvicorn.error")

    def lines() -> list[str]:
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="uvicorn.error"):
            logger.info('%s - "WebSocket %s" [accepted]', "127.0.0.1:50000", "/ws/play")
            logger.info('%s - "WebSocket %s" 403', "127.0.0.1:50000", "/ws/watch/NOPE")
            logger.info("Started server process [%d]", 7)
            logger.warning('%s - "WebSocket %s" odd', "127.0.0.1:50000", "/ws/play")
        return [r.getMessage() for r in caplog.records]
    try:
        quiet_socket_access(False)
        assert lines() == ["Started server process [7]", '127.0.0.1:50000 - "WebSocket /ws/play" odd']
        quiet_socket_access(True)
        assert len(lines()) == 4
    finally:
        quiet_socket_access(True)
