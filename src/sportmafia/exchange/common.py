"""What both formats share: reading plain JSON values, and turning a played script into :class:`Imported`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from ..engine import Game, to_record
from .drive import Script
from .model import Imported, ResultOnly, malformed, outcome_of


def as_int(value: Any, game: str, where: str, lo: int = 0, hi: int = 10**9) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise malformed(game, where, f"{value!r} is not a number from {lo} to {hi}")
    return value


def as_list(value: Any, game: str, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise malformed(game, where, "a list is expected")
    return value


def as_map(value: Any, game: str, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise malformed(game, where, "an object is expected")
    return value


def day_of(value: Any) -> date | None:
    """A date from an ISO-8601 text or a Unix time; None when there is none."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return datetime.fromtimestamp(value, tz=UTC).date()
    if isinstance(value, str) and len(value) >= 10:
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            return None
    return None


def meta_date(record: Mapping[str, Any]) -> str | None:
    meta = record.get("meta")
    if isinstance(meta, Mapping) and isinstance(meta.get("date"), str):
        return str(meta["date"])[:10]
    return None


def full(source: str, script: Script, game: Game, played_on: date | None, external_ids: Sequence[str | None],
         kept: Sequence[str]) -> Imported:
    """The import of a game the engine played from the script's facts."""
    meta: dict[str, Any] = {"source": source, "source_id": script.game_id}
    if played_on is not None:
        meta["date"] = played_on.isoformat()
    return Imported(source, script.game_id, to_record(game, meta=meta), None, played_on, script.names,
                    tuple(external_ids), tuple(kept), tuple(script.left_out), outcome_of(game.winner), game)


def result_only(source: str, script: Script, played_on: date | None, external_ids: Sequence[str | None],
                result: str, fouls: Sequence[int], left: Sequence[tuple[str, int, bool] | None],
                guess: Sequence[int], kept: Sequence[str]) -> Imported:
    """The import of a game known by its result only."""
    res = ResultOnly(script.ruleset.name, script.names, script.roles, script.winner, result, tuple(fouls),
                     tuple(left), tuple(guess))
    return Imported(source, script.game_id, None, res, played_on, script.names, tuple(external_ids),
                    tuple(kept), tuple(script.left_out), outcome_of(script.winner))


SOURCE_RESULT = "source"
"""The result code of a result-only game: the winner is the source's word, the reason unknown."""
