"""A club's games exchanged with other platforms (docs/exchange.md): a file of games imported into the club
(each game replayed through the engine and kept whole, or refused whole with its reason: the game, the event
and the rule), and the club's games exported as Polemica, mafiaratings or sportmafia records."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from ..engine import RecordError, replay
from ..exchange import ExportRefused, Imported, ImportRefused, import_games, to_mafiaratings, to_polemica
from ..i18n import Text, msg
from ..seasons.facts import game_facts, result_only_facts
from ..store import Store
from ..store import seasons as db
from .errors import Refusal

FORMATS = ("sportmafia", "polemica", "mafiaratings")
PLAYED_AT = time(16, 0)
"""When an imported game of a known day ended, in UTC (19:00 in Moscow): the games of one file and day keep the
file's order, a second apart (the ratings take games in the order they ended)."""


OUTCOMES = {"red won": msg("red won"), "black won": msg("black won"), "no winner": msg("no winner")}


@dataclass(frozen=True)
class ImportLine:
    """What became of one game of a file: ``imported`` (with the new game's id), ``already`` (that source's game
    is in the club: the one kept), or ``refused`` (with the reason, the event and the clause)."""

    status: str
    source: str
    source_id: str
    outcome: str
    game_id: str | None = None
    detail: bool = False
    kept: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()
    reason: Text | None = None
    event: str | None = None
    clause: str | None = None

    def outcome_text(self, lang: str) -> str:
        text = OUTCOMES.get(self.outcome)
        return self.outcome if text is None else text.render(lang)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "source": self.source, "game": self.source_id,
                               "outcome": self.outcome, "outcome_text": self.outcome_text(lang),
                               "game_id": self.game_id, "detail": self.detail,
                               "kept": list(self.kept), "left_out": list(self.left_out)}
        if self.reason is not None:
            out.update(reason=self.reason.render(lang), event=self.event, clause=self.clause)
        return out


def _source_id(imported: Imported) -> str:
    if imported.source_id not in ("", "?"):
        return imported.source_id[:64]
    text = json.dumps(imported.record, sort_keys=True, ensure_ascii=False)  # a record without an id: its content
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()[:48]


def _ended(played_on: date | None, order: int) -> datetime:
    if played_on is None:
        return datetime.now(UTC) + timedelta(microseconds=order)
    return datetime.combine(played_on, PLAYED_AT, UTC) + timedelta(seconds=order)


def import_text(store: Store, club_id: int, text: str, user_id: int | None = None) -> list[ImportLine]:
    """Import every game of a file (one game, a list, or ``{"games": [...]}``; each game's format detected)
    into the club: persons matched by name (made when new). Each game is one transaction, its persons
    included: a game refused or already kept adds no one to the roster."""
    try:
        done, refused = import_games(text)
    except (ValueError, TypeError) as exc:
        raise Refusal("invalid", "bad-file", msg("Not a file of games: %(detail)s", detail=str(exc)[:200])) from None
    lines = [ImportLine("refused", "?", r.game, "", reason=r.reason, event=r.event, clause=r.clause) for r in refused]
    for order, imported in enumerate(done):
        lines.append(_keep(store, club_id, imported, order, user_id))
    return lines


def _keep(store: Store, club_id: int, imported: Imported, order: int, user_id: int | None) -> ImportLine:
    source_id = _source_id(imported)
    ended = _ended(imported.played_on, order)
    line = ImportLine("imported", imported.source, source_id, imported.outcome, detail=imported.record is not None,
                      kept=imported.kept, left_out=imported.left_out)
    try:
        if imported.record is not None:
            game = imported.game or replay(imported.record)  # replayed once, by the import itself
            if not game.over:
                return ImportLine("refused", imported.source, source_id, imported.outcome, reason=msg(
                    "The game is not over in its source: only finished games are kept."), event="game",
                    clause="A.win")
            game_id = db.import_game(store, club_id, facts=game_facts(game), ended_at=ended, names=imported.names,
                                     source=imported.source, source_id=source_id, game=game, user_id=user_id)
        else:
            res = imported.result
            assert res is not None
            facts = result_only_facts(res.ruleset, res.names, res.roles, res.winner, res.result, res.fouls, res.left)
            game_id = db.import_game(store, club_id, facts=facts, ended_at=ended, names=imported.names,
                                     source=imported.source, source_id=source_id)
    except db.AlreadyImported as exc:
        return ImportLine("already", imported.source, source_id, imported.outcome, game_id=exc.game_id,
                          detail=line.detail, kept=line.kept, left_out=line.left_out)
    except (RecordError, ValueError) as exc:
        return ImportLine("refused", imported.source, source_id, imported.outcome,
                          reason=msg("Not kept: %(detail)s", detail=str(exc)[:300]), event="game", clause="format")
    return ImportLine(line.status, line.source, line.source_id, line.outcome, game_id, line.detail, line.kept,
                      line.left_out)


def export_games(store: Store, club_id: int, fmt: str, tournament_id: int | None = None
                 ) -> tuple[list[dict[str, Any]], list[tuple[str, Text]]]:
    """The club's finished games with a whole log in ``fmt`` (``tournament_id``: that tournament's only), in the
    order they ended; beside them the games left out and why (a result-only import has no log; a format that
    cannot hold a game)."""
    if fmt not in FORMATS:
        raise Refusal("invalid", "bad-format", msg("No such format: %(format)s.", format=fmt))
    games: list[dict[str, Any]] = []
    skipped: list[tuple[str, Text]] = []
    chosen = [g for g in db.index_games(store, club_id) if tournament_id is None or g.tournament_id == tournament_id]
    for number, indexed in enumerate(chosen, 1):
        if not indexed.facts.detail:  # a result-only import: no log to export
            skipped.append((indexed.game_id, msg("only its result is known")))
            continue
        meta: dict[str, Any] = {"id": indexed.game_id, "date": indexed.ended_at.date().isoformat()}
        if indexed.tournament_id is not None:
            meta.update(tournament=indexed.tournament_id, table=indexed.table_no)
        record = store.record(indexed.game_id, meta=meta)
        try:
            games.append(record if fmt == "sportmafia" else
                         (to_polemica if fmt == "polemica" else to_mafiaratings)(record, game_id=number))
        except ExportRefused as exc:
            skipped.append((indexed.game_id, exc.text))
    return games, skipped


__all__ = ["FORMATS", "ImportLine", "ImportRefused", "export_games", "import_text"]
