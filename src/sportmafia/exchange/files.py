"""Files of games: one game, a list of games, or ``{"games": [...]}``, each game's format told by its shape
(:func:`detect`); :func:`import_games` imports each game alone (a refused game does not stop the others)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..engine import RecordError, replay
from ..i18n import msg
from .common import day_of
from .mafiaratings import from_mafiaratings
from .model import Imported, ImportRefused, outcome_of
from .polemica import from_polemica


def read_games(text: str) -> list[Mapping[str, Any]]:
    """The games of a JSON text: one game, a list of games, or an object with ``games``; ValueError otherwise."""
    data = json.loads(text)
    if isinstance(data, Mapping) and isinstance(data.get("games"), list):
        data = data["games"]
    games = data if isinstance(data, list) else [data]
    if not all(isinstance(g, Mapping) for g in games):
        raise ValueError("every game is a JSON object")
    return list(games)


def detect(game: Mapping[str, Any]) -> str:
    """The format of one game: ``sportmafia``, ``polemica`` or ``mafiaratings``; ValueError if none fits."""
    if game.get("format") == "sportmafia-game":
        return "sportmafia"
    players = game.get("players")
    if isinstance(players, list) and players and isinstance(players[0], Mapping):
        first = players[0]
        if "position" in first or isinstance(first.get("role"), int) or "votes" in game:
            return "polemica"
        if "winner" in game or isinstance(first.get("role"), str) or "name" in first:
            return "mafiaratings"
    raise ValueError("not a game of a known format")


def from_record(record: Mapping[str, Any]) -> Imported:
    """A sportmafia record, checked by replaying it."""
    meta = record.get("meta") if isinstance(record.get("meta"), Mapping) else {}
    assert isinstance(meta, Mapping)
    gid = str(meta.get("source_id", meta.get("id", "?")))
    try:
        game = replay(dict(record))
    except RecordError as exc:
        raise ImportRefused(gid, "game" if exc.index is None else f"events[{exc.index}]", exc.clause,
                            msg("The record does not replay: %(detail)s", detail=exc.detail)) from None
    return Imported("sportmafia", gid, dict(record), None, day_of(meta.get("date")), tuple(game.names),
                    (None,) * game.n, ("everything",), (), outcome_of(game.winner), game)


IMPORTERS = {"sportmafia": from_record, "polemica": from_polemica, "mafiaratings": from_mafiaratings}


def import_game(game: Mapping[str, Any]) -> Imported:
    """One game of any known format."""
    return IMPORTERS[detect(game)](game)


def import_games(text: str) -> tuple[list[Imported], list[ImportRefused]]:
    """Every game of a file, each imported whole or refused whole with its reason: the refused ones are
    returned beside the imported ones, never half of a game."""
    done: list[Imported] = []
    refused: list[ImportRefused] = []
    for i, game in enumerate(read_games(text)):
        try:
            done.append(import_game(game))
        except ImportRefused as exc:
            refused.append(exc)
        except ValueError as exc:
            refused.append(ImportRefused(str(game.get("id", i)), "game", "format",
                                         msg("This is not valid data of the format: %(what)s.", what=str(exc))))
    return done, refused
