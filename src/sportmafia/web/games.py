"""Games: create, list, read (the host's view and the legal commands), append commands, read the log and
the record. Who may open a game and act in it is ``access.game_access`` (the game's host, or a judge or admin
who does not play in it); anyone else is told "not found", as for another club's game."""

from __future__ import annotations

import random
from datetime import date
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse

from ..engine import (
    Advance,
    Game,
    command_from_json,
    describe_event_line,
    feed_item,
    last_action,
    prefix,
    rule_values,
    view,
    visible_events,
)
from ..engine import events as E
from ..engine.describe import STEP_NAMES, seat_number, step_banner, t
from ..i18n import join, msg
from ..live import Hub, run_reader, run_writer
from ..services import games as game_service
from ..store import GameSummary, StaleSequence, Store, UserRecord
from ..store.access import club_game_facts
from .access import GameAccess, decide_on, game_access, game_summary
from .auth import StoreDep, UserDep
from .edge import query_number
from .errors import ApiError, game_not_found
from .live import HubDep
from .schemas import CommandIn, NewGameIn

router = APIRouter(prefix="/api/games", tags=["games"])

GameId = Annotated[str, Path(max_length=64, description="The game's id (a UUID).")]
_system_random = random.SystemRandom()


def own_game(store: Store, user: UserRecord, game_id: str) -> GameSummary:
    """The game's summary, for one who may open it (``access.game_summary``), else "not found"."""
    summary = game_summary(store, user, game_id)
    if summary is None:
        raise game_not_found()
    return summary


def _summary_json(s: GameSummary) -> dict[str, Any]:
    return {"id": s.id, "ruleset": s.ruleset, "players": s.players, "names": list(s.names), "status": s.status,
            "winner": s.winner, "result": s.result, "next_seq": s.next_seq,
            "created_at": s.created_at.isoformat(), "updated_at": s.updated_at.isoformat(),
            "signed_at": s.signed_at.isoformat() if s.signed_at else None, "signed_by": s.signed_by}


def _state(game_id: str, game: Game, access: GameAccess) -> dict[str, Any]:
    """The console's state: the host's view, the legal commands (those his right allows: a host without the
    judge's right is not offered the judge's), what "Next" leads to and what "Undo" undoes (and the decks,
    while the cards are not dealt)."""
    legal = [cmd for cmd in game.legal_commands() if access.allowed(cmd)]
    out: dict[str, Any] = {"id": game_id, "next_seq": len(game.log), "view": view(game, "host"),
                           "legal": [cmd.to_json() for cmd in legal], "next": None, "back": _back(game),
                           "deal": None, "judge": access.may_judge,
                           "rules": rule_values(game.rules)}
    if any(isinstance(cmd, Advance) for cmd in legal):
        out["next"] = game_service.next_step(game)
    if game.step == "deal" and not game.over:
        rules = game.rules
        out["deal"] = {"black_options": list(rules.black_options(game.n)),
                       "decks": {str(b): list(rules.roles_for(game.n, b)) for b in rules.black_options(game.n)}}
    return out


def _back(game: Game) -> dict[str, Any] | None:
    """What "Undo" would undo: the last action still in effect, described for the host's button. The deal's
    cards and a best move's count of black players are not written out (a player may glance at the tablet)."""
    last = last_action(game)
    if last is None:
        return None
    seq, ev, before = last.seq, last.events[0], last.step
    text: dict[str, str] = {}
    if isinstance(ev, E.Advanced):
        # a revote's candidate closed: the vote's kind as it was then (a refold, only in that case)
        kind = prefix(game, seq).vote_kind if isinstance(before, E.Step) and before.step == "voting" else ""
        for lang in ("en", "ru"):
            text[lang] = (step_banner(before.step, before.day, before.seat, lang, kind) if isinstance(before, E.Step)
                          else t(STEP_NAMES, "deal", lang))
    elif isinstance(ev, E.Dealt):
        text = {lang: t(STEP_NAMES, "deal", lang).capitalize() for lang in ("en", "ru")}
    elif isinstance(ev, E.BestMoveNamed):
        seats = join([seat_number(s) for s in ev.guesses])
        text = msg("Best move of #%(seat)s: %(seats)s", seat=ev.seat, seats=seats).to_json()
    else:
        text = {lang: describe_event_line(ev, lang) or ev.type for lang in ("en", "ru")}
    return {"seq": seq, "type": ev.type, "text": text}


@router.post("", status_code=201, summary="Create a game at the deal (a preset or rule set options, the seats)")
async def create_game(body: NewGameIn, request: Request, user: UserDep, store: StoreDep) -> dict[str, Any]:
    result: dict[str, Any] = await run_writer(request.app, _create_game, body, user, store)
    return result


def _create_game(body: NewGameIn, user: UserRecord, store: Store) -> dict[str, Any]:
    game_id = game_service.create_game(store, user, preset=body.preset, variant=body.variant, options=body.options,
                                       players=body.players, names=body.names, roster=body.roster)
    return {"id": game_id, "next_seq": 0}


def _shown_status(g: GameSummary) -> str:
    """dealing, playing, over, or signed (the result sheet is signed)."""
    return "signed" if getattr(g, "signed_at", None) is not None else g.status


@router.get("", summary="Your club's games, newest first (filters: a player's name, the days created, the status)")
def list_games(user: UserDep, store: StoreDep,
               player: Annotated[str | None, Query(max_length=64, description="Part of a seat's name.")] = None,
               day: Annotated[date | None, Query(alias="date", description="The day created (UTC), YYYY-MM-DD.")] = None,
               since: Annotated[date | None, Query(alias="from", description="Created on or after (UTC).")] = None,
               until: Annotated[date | None, Query(alias="to", description="Created on or before (UTC).")] = None,
               status: Annotated[Literal["dealing", "playing", "over", "signed"] | None,
                                 Query(description="dealing, playing, over (not signed) or signed.")] = None,
               ) -> dict[str, Any]:
    facts = club_game_facts(store, user.club_id)  # only the games he may open (web.access)
    games = [g for g in store.list_games(user.club_id) if g.id in facts and decide_on(store, user, facts[g.id])]
    if player:
        needle = player.casefold()
        games = [g for g in games if any(needle in name.casefold() for name in g.names)]
    if day is not None:
        games = [g for g in games if g.created_at.date() == day]
    if since is not None:
        games = [g for g in games if g.created_at.date() >= since]
    if until is not None:
        games = [g for g in games if g.created_at.date() <= until]
    if status is not None:
        games = [g for g in games if _shown_status(g) == status]
    return {"games": [{**_summary_json(g), "shown_status": _shown_status(g)} for g in games]}


@router.get("/{game_id}", summary="A game now: the host's view, the next seq and the legal commands")
def get_game(game_id: GameId, user: UserDep, store: StoreDep) -> JSONResponse:
    access = game_access(store, user, game_id)
    # rendered here, in the worker thread: FastAPI's encoder would walk this large dict on the event loop
    return JSONResponse(_loaded_state(store, game_id, access))


@router.post("/{game_id}/commands", summary="Append one command (expected seq, client command id; see docs/api.md)")
async def post_command(game_id: GameId, body: CommandIn, request: Request, user: UserDep, store: StoreDep,
                       hub: HubDep, state: Annotated[bool, Query(description=(
                           "Also the game's state after the command, as GET /api/games/{id} gives it (the "
                           "console asks for it: one request per action, not two)."))] = False,
                       ) -> JSONResponse:
    answer: dict[str, Any]
    access: GameAccess
    answer, access = await run_writer(request.app, _post_command, game_id, body, user, store, hub, state,
                                        game_id=game_id)
    if state and "state" not in answer:  # a replayed command: the game read as it is now
        answer["state"] = await run_reader(_loaded_state, store, game_id, access)
    return JSONResponse(answer)


def _loaded_state(store: Store, game_id: str, access: GameAccess) -> dict[str, Any]:
    return _state(game_id, store.load(game_id), access)


def _post_command(game_id: str, body: CommandIn, user: UserRecord, store: Store, hub: Hub,
                  state: bool = False) -> tuple[dict[str, Any], GameAccess]:
    access = game_access(store, user, game_id)  # the game's facts are kept in memory: no database read
    try:
        command = command_from_json(body.command.model_dump())
    except ValueError as exc:
        raise ApiError(422, "bad-command", msg("Not a valid command: %(error)s.", error=str(exc))) from None
    access.check_command(command)
    try:
        # the state asked for is made of the append's own fold of the game (no second read and fold)
        result = store.append(game_id, command, expected_seq=body.expected_seq, command_id=body.command_id,
                              rng=_system_random, after=(lambda game: _state(game_id, game, access)) if state else None)
    except StaleSequence:
        game = store.load(game_id)
        raise ApiError(409, "stale", msg("The game has moved on: here is its state now; decide again."),
                       extra={"next_seq": len(game.log), "view": view(game, "host")}) from None
    if not result.replayed:
        hub.publish(game_id, result.next_seq, result.events)  # wakes the game's live connections; returns at once
    answer = {"events": [feed_item(seq, event.to_json()) for seq, event in result.numbered()],
              "next_seq": result.next_seq, "head_seq": result.head_seq, "replayed": result.replayed}
    if result.after is not None:
        answer["state"] = result.after
    return answer, access


@router.get("/{game_id}/events", summary="The log from seq `since` on, as the host sees it")
def get_events(game_id: GameId, user: UserDep, store: StoreDep,
               since: Annotated[int, query_number("The first seq wanted.")] = 0) -> JSONResponse:
    own_game(store, user, game_id)
    game = store.load(game_id)
    return JSONResponse({"events": visible_events(game, "host", since), "next_seq": len(game.log)})


@router.get("/{game_id}/record", summary="The game record (docs/game-record.md)")
def get_record(game_id: GameId, user: UserDep, store: StoreDep) -> dict[str, Any]:
    own_game(store, user, game_id)
    return store.record(game_id)
