"""Games: create, list, read (the host's view and the legal commands), append commands, read the log and
the record. A user sees and changes only his own club's games; any other game is "not found"."""

from __future__ import annotations

import random
from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from ..engine import Game, command_from_json, view, visible_events
from ..rules import RuleSet, RuleSetError, get_ruleset
from ..store import GameNotFound, GameSummary, StaleSequence, Store, UserRecord
from .auth import StoreDep, UserDep
from .errors import ApiError, game_not_found
from .schemas import CommandIn, NewGameIn

router = APIRouter(prefix="/api/games", tags=["games"])

GameId = Annotated[str, Path(max_length=64, description="The game's id (a UUID).")]
_system_random = random.SystemRandom()


def _own(store: Store, user: UserRecord, game_id: str) -> GameSummary:
    try:
        summary = store.game(game_id)
    except GameNotFound:
        raise game_not_found() from None
    if summary.club_id != user.club_id:
        raise game_not_found()
    return summary


def _summary_json(s: GameSummary) -> dict[str, Any]:
    return {"id": s.id, "ruleset": s.ruleset, "players": s.players, "names": list(s.names), "status": s.status,
            "winner": s.winner, "result": s.result, "next_seq": s.next_seq,
            "created_at": s.created_at.isoformat(), "updated_at": s.updated_at.isoformat()}


def _state(game_id: str, game: Game) -> dict[str, Any]:
    return {"id": game_id, "next_seq": len(game.log), "view": view(game, "host"),
            "legal": [cmd.to_json() for cmd in game.legal_commands()]}


def _bad_game(en: str, ru: str) -> ApiError:
    return ApiError(422, "bad-game", en, ru)


def _ruleset(body: NewGameIn) -> RuleSet:
    try:
        rules = get_ruleset(body.preset)
        if body.options:
            options = {**rules.options(), "name": f"{rules.name}-variant", **body.options}
            rules = RuleSet.from_options(options)
        rules.check_table(body.players)
    except RuleSetError as exc:
        raise _bad_game(exc.message("en"), exc.message("ru")) from None
    except (TypeError, ValueError) as exc:
        raise _bad_game(f"These rule set options are not valid: {exc}.",
                        f"Эти параметры правил неверны: {exc}.") from None
    return rules


@router.post("", status_code=201, summary="Create a game at the deal (a preset or rule set options, the seats)")
def create_game(body: NewGameIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    rules = _ruleset(body)
    names: list[str] | None = list(body.names) if body.names is not None else None
    if body.roster is not None:
        roster = {p.id: p.name for p in store.club_players(user.club_id)}
        missing = [pid for pid in body.roster if pid not in roster]
        if missing:
            raise _bad_game(f"Not on your club's roster: {missing}.", f"Нет в составе клуба: {missing}.")
        if len(set(body.roster)) != len(body.roster):
            raise _bad_game("A roster player sits at one seat only.", "Игрок состава занимает одно место.")
        names = [roster[pid] for pid in body.roster]
    if names is not None and len(names) != body.players:
        raise _bad_game(f"{len(names)} names for {body.players} seats.", f"{len(names)} имён на {body.players} мест.")
    try:
        game_id = store.create_game(user.club_id, rules, body.players, names)
    except ValueError as exc:
        raise _bad_game(f"The game cannot be created: {exc}.", f"Игру нельзя создать: {exc}.") from None
    return {"id": game_id, "next_seq": 0}


@router.get("", summary="Your club's games, newest first (filters: a player's name, the day created)")
def list_games(user: UserDep, store: StoreDep,
               player: Annotated[str | None, Query(max_length=64, description="Part of a seat's name.")] = None,
               day: Annotated[date | None, Query(alias="date", description="The day created (UTC), YYYY-MM-DD.")] = None,
               ) -> dict[str, Any]:
    games = store.list_games(user.club_id)
    if player:
        needle = player.casefold()
        games = [g for g in games if any(needle in name.casefold() for name in g.names)]
    if day is not None:
        games = [g for g in games if g.created_at.date() == day]
    return {"games": [_summary_json(g) for g in games]}


@router.get("/{game_id}", summary="A game now: the host's view, the next seq and the legal commands")
def get_game(game_id: GameId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    _own(store, user, game_id)
    return _state(game_id, store.load(game_id))


@router.post("/{game_id}/commands", summary="Append one command (expected seq, client command id; see docs/api.md)")
def post_command(game_id: GameId, body: CommandIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    _own(store, user, game_id)
    try:
        command = command_from_json(body.command.model_dump())
    except ValueError as exc:
        raise ApiError(422, "bad-command", f"Not a valid command: {exc}.", f"Неверная команда: {exc}.") from None
    try:
        result = store.append(game_id, command, expected_seq=body.expected_seq, command_id=body.command_id,
                              rng=_system_random)
    except StaleSequence:
        game = store.load(game_id)
        raise ApiError(409, "stale", "The game has moved on: here is its state now; decide again.",
                       "Игра ушла вперёд: вот её текущее состояние, решите заново.",
                       extra={"next_seq": len(game.log), "view": view(game, "host")}) from None
    return {"events": [{"seq": seq, **event.to_json()} for seq, event in result.numbered()],
            "next_seq": result.next_seq, "head_seq": result.head_seq, "replayed": result.replayed}


@router.get("/{game_id}/events", summary="The log from seq `since` on, as the host sees it")
def get_events(game_id: GameId, user: UserDep, store: StoreDep,
               since: Annotated[int, Query(ge=0, description="The first seq wanted.")] = 0) -> dict[str, Any]:
    _own(store, user, game_id)
    game = store.load(game_id)
    return {"events": visible_events(game, "host", since), "next_seq": len(game.log)}


@router.get("/{game_id}/record", summary="The game record (docs/game-record.md)")
def get_record(game_id: GameId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    _own(store, user, game_id)
    return store.record(game_id)
