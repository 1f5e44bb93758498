"""Result sheets (B.sheet): a finished game's sheet made from its log with every correction applied, its
signature by the host, the judge's corrections with a reason, and the sheet as JSON.

The sheet is :func:`sportmafia.tournament.results.from_game` of the game as its stored log folds, then each
stored correction applied in order (:func:`~sportmafia.tournament.results.apply_changes`). A signature locks the
game (the store refuses its appends from then on); a correction is checked against the sheet as it stands
(:func:`~sportmafia.tournament.results.check_changes`) in the transaction that records it. The store keeps
the rows (:mod:`sportmafia.store.sheets`); everything decided about them is here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..engine.describe import RESULT_NAMES
from ..i18n import Text, msg, pmsg
from ..rules import RuleSet
from ..store import CorrectionRecord, GameSummary, Store, season_index
from ..store import sheets as rows
from ..store.models import utcnow
from ..store.tournaments import TournamentGameRecord
from ..tournament.groups import TournamentError
from ..tournament.results import (
    REMOVAL_SCOPES,
    SEAT_FIELDS,
    SHEET_FIELDS,
    GameResult,
    PlayerResult,
    apply_changes,
    check_changes,
    from_game,
)
from .errors import Refusal

CLAUSE = "B.sheet"
_SHEET_TOP = ("winner", "result", "first_killed", "best_move_black")


class SheetRefused(Refusal):
    """A result sheet's signature or correction refused (B.sheet); nothing was written. ``code``:
    ``not-over`` (the game goes on), ``signed`` (signed already), ``unsigned`` (a correction before the
    signature), ``bad-correction`` (no reason, or a change the sheet does not allow: ``invalid``; the others
    are ``conflict``); ``text``: the reason, a message of the catalogs."""

    def __init__(self, code: str, text: Text) -> None:
        super().__init__("invalid" if code == "bad-correction" else "conflict", code, text, clause=CLAUSE)


@dataclass(frozen=True, slots=True)
class Sheet:
    """A game's result sheet: ``result`` is the game's own result with every correction applied in order
    (None while the game goes on); participant ids are the seats' names (``#<seat> <name>`` when a name is not
    unique), or a tournament's participant ids for a tournament's game (``link``)."""

    game: GameSummary
    result: GameResult | None
    signed_by_login: str | None = None
    corrections: tuple[CorrectionRecord, ...] = ()
    roles: tuple[str, ...] = ()
    """The roles of the game's rule set: the values a correction may give a seat."""
    max_fouls: int = 0
    """The most fouls a seat's line may show (the rule set's removing foul)."""
    link: TournamentGameRecord | None = None
    """The game's place in a tournament (stage, round, table, seats, acceptance), for a tournament's sheet."""

    @property
    def status(self) -> str:
        return self.game.status

    @property
    def signed_at(self) -> datetime | None:
        return self.game.signed_at

    @property
    def signed_by(self) -> int | None:
        return self.game.signed_by

    def final(self) -> GameResult:
        """The result of a finished game's sheet (a sheet made by :func:`sheet` always has one)."""
        assert self.result is not None, "the game is not over"
        return self.result


def participant_ids(names: Sequence[str]) -> list[str]:
    """The sheet's participant ids for a game's seats: the names, or ``#<seat> <name>`` for a name that is
    not unique at the table (or that is a field name of the sheet)."""
    counts = {name: names.count(name) for name in names}
    return [name if counts[name] == 1 and name not in _SHEET_TOP else f"#{seat} {name}"
            for seat, name in enumerate(names, 1)]


def sheet_choices(rules: RuleSet, players: int) -> tuple[tuple[str, ...], int]:
    """The roles a correction may give a seat (those of the deck) and the most fouls a line may show."""
    deck = rules.roles_for(players)
    roles = tuple(r for r in dict.fromkeys(("civilian", rules.checker, "mafia", "don")) if r in deck)
    return roles, max(rules.foul_remove, 1)


def _made(stored: rows.StoredSheet) -> Sheet:
    game, played = stored.game, stored.played
    if played is None:
        raise SheetRefused("not-over", msg("The game is not over: its result sheet is made at the end."))
    result = from_game(played, participant_ids(game.names), game_id=game.id)
    for c in stored.corrections:
        result = apply_changes(result, c.changes, c.reason, by=c.login)
    roles, max_fouls = sheet_choices(played.rules, game.players)
    return Sheet(game, result, stored.signed_by_login, stored.corrections, roles, max_fouls)


def sheet(store: Store, game_id: str) -> Sheet:
    """The finished game's result sheet with every correction applied in order. Raises :class:`SheetRefused`
    (``not-over``) while the game goes on: its roles are not to be seen yet; ``GameNotFound``."""
    with store.read() as s:
        return _made(rows.stored_sheet(store, s, game_id))


def sign(store: Store, game_id: str, user_id: int) -> GameSummary:
    """The host (or an admin) signs the finished game's result sheet: ``signed_at``/``signed_by`` are
    recorded and the game is locked (its appends are refused from now on). Raises :class:`SheetRefused`
    (``signed``, ``not-over``), ``GameNotFound``, or ``ValueError`` for a user who is not of the game's club;
    nothing is written then."""
    with store.write() as s:
        game = rows.stored_sheet(store, s, game_id, lock=True, whole=False).game  # waits for a running append
        rows.club_login(s, game, user_id)
        if game.signed_at is not None:
            raise SheetRefused("signed", msg("The result sheet is signed already."))
        if game.status != "over":
            raise SheetRefused("not-over", msg("The game is not over: there is no result sheet to sign yet."))
        return rows.mark_signed(store, s, game_id, user_id)


def correct(store: Store, game_id: str, user_id: int, reason: str,
            changes: Sequence[dict[str, Any]]) -> CorrectionRecord:
    """A judge's (or an admin's) correction of a signed result sheet, with its reason (B.sheet).
    ``changes``: ``{"field", "seat" (for a seat's line), "new"}`` each, checked against the sheet as it
    stands (:func:`sportmafia.tournament.results.check_changes`) and kept with their old values.
    Raises :class:`SheetRefused` (``unsigned``, ``bad-correction``, ``not-over``) and writes nothing then."""
    with store.write() as s:
        stored = rows.stored_sheet(store, s, game_id, lock=True)  # corrections of one game: one after another
        login = rows.club_login(s, stored.game, user_id)
        if stored.game.signed_at is None:
            raise SheetRefused("unsigned", msg("Only a signed result sheet is corrected; sign it first."))
        if not reason or not reason.strip():
            raise SheetRefused("bad-correction", pmsg("result sheet", "A correction needs a reason."))
        now = _made(stored)
        try:
            checked = check_changes(now.final(), changes, roles=now.roles, results=tuple(RESULT_NAMES),
                                    max_fouls=now.max_fouls)
        except TournamentError as exc:
            raise SheetRefused("bad-correction", msg("The correction is refused: %(reason)s.", reason=exc.text)) \
                from None
        record = rows.add_correction(s, game_id, user_id, login, reason.strip(), checked)
        # the index of finished games follows the sheet (statistics and ratings: docs/seasons.md)
        season_index.keep(s.connection(), game_id, store.load(game_id), utcnow())
        return record


# --- the sheet as JSON -----------------------------------------------------------------------------------

def won(p: PlayerResult, winner: str | None) -> bool:
    return winner is not None and p.team == winner


def _row_json(p: PlayerResult, winner: str | None) -> dict[str, Any]:
    return {"seat": p.seat, "nick": p.name, "role": p.role, "team": p.team, "fouls": p.fouls,
            "warnings": p.warnings, "left": None if p.left is None else {
                "how": p.left, "day": p.left_day, "phase": "night" if p.left_night else "day"},
            "removed": p.removed, "removal_reason": p.removal_reason, "won": won(p, winner)}


def correction_json(c: CorrectionRecord) -> dict[str, Any]:
    """A correction as the game's sheet page and ``GET /api/games/{id}/sheet`` give it (docs/api.md: ``by``
    {id, login}, ``at``). The tournament's desk and archive read another shape
    (:func:`sportmafia.services.tournament.as_json.tournament_correction_json`)."""
    return {"id": c.id, "by": {"id": c.user_id, "login": c.login}, "at": c.created_at.isoformat(),
            "reason": c.reason, "changes": [dict(change) for change in c.changes]}


def sheet_json(sheet: Sheet) -> dict[str, Any]:
    """The JSON of ``GET /api/games/{id}/sheet`` (a tournament's judge sees ``tournament_sheet_json``)."""
    r, g = sheet.final(), sheet.game
    return {
        "game_id": g.id, "ruleset": g.ruleset, "players": g.players, "created_at": g.created_at.isoformat(),
        "winner": r.winner, "result": r.result, "first_killed": r.first_killed,
        "best_move_black": r.best_move_black,
        "rows": [_row_json(p, r.winner) for p in r.players],
        "signed": None if g.signed_at is None else {
            "at": g.signed_at.isoformat(), "by": {"id": g.signed_by, "login": sheet.signed_by_login}},
        "corrections": [correction_json(c) for c in sheet.corrections],
        "choices": {"roles": list(sheet.roles), "results": list(RESULT_NAMES), "removed": list(REMOVAL_SCOPES),
                    "max_fouls": sheet.max_fouls, "sheet_fields": list(SHEET_FIELDS),
                    "seat_fields": list(SEAT_FIELDS)},
    }
