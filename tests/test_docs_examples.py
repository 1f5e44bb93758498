"""The examples in docs/ work: the Python example of docs/engine.md runs, and the complete record of
docs/game-record.md replays to the outcome the page states."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sportmafia.engine import replay, summary

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _block_after(page: str, marker: str, lang: str) -> str:
    text = (DOCS / page).read_text(encoding="utf-8")
    match = re.search(rf"<!-- {marker}\b.*?-->\s*```{lang}\n(.*?)```", text, re.S)
    assert match, f"{page}: no ```{lang} block after the <!-- {marker} --> marker"
    return match.group(1)


def test_engine_md_example_runs() -> None:
    code = _block_after("engine.md", "engine-example", "python")
    exec(compile(code, "docs/engine.md", "exec"), {"__name__": "docs_engine_example"})


def test_game_record_md_complete_example_replays() -> None:
    record = json.loads(_block_after("game-record.md", "example-record", "json"))
    game = replay(record)
    assert summary(game) == {"winner": "red", "result": "award", "departures": [], "events": 10}
    assert record["events"][5] == {"type": "undone", "seq": 4}
    assert game.fouls[5] == 0
