"""The statements of the game log that every request makes, built once with bound parameters (SQLAlchemy then
finds them in its compiled cache without building and hashing a new statement each time), and the reads of an
append's answer (``store.Store.append``)."""

from __future__ import annotations

from typing import cast

from sqlalchemy import Connection, Table, bindparam, insert, select, update
from sqlalchemy.orm import Session

from ..engine import Event, Game, event_from_json
from .models import GameEvent, StoredGame
from .records import AppendResult, GameNotFound

GAMES = cast(Table, StoredGame.__table__)
EVENTS = cast(Table, GameEvent.__table__)
HEAD = (select(GAMES.c.id, GAMES.c.next_seq, GAMES.c.signed_at, GAMES.c.ruleset, GAMES.c.ruleset_options,
                GAMES.c.players, GAMES.c.names, GAMES.c.status)
         .where(GAMES.c.id == bindparam("game_id")).with_for_update(key_share=True))
"""What an append reads of the game's row, locked (the columns ``folded`` needs, and where the log stands)."""
SUMMARY = select(GAMES.c.id, GAMES.c.club_id, GAMES.c.ruleset, GAMES.c.players, GAMES.c.names, GAMES.c.status,
                  GAMES.c.winner, GAMES.c.result, GAMES.c.next_seq, GAMES.c.created_at, GAMES.c.updated_at,
                  GAMES.c.signed_at, GAMES.c.signed_by).where(GAMES.c.id == bindparam("game_id"))
"""The columns of a game's summary (``GameSummary``)."""
SEQ_OF_COMMAND = select(EVENTS.c.seq).where(EVENTS.c.game_id == bindparam("game_id"),
                                             EVENTS.c.command_id == bindparam("command_id"))
INSERT_EVENTS = insert(EVENTS)
MOVE_HEAD = (update(GAMES).where(GAMES.c.id == bindparam("game_id"))
              .values(next_seq=bindparam("new_next_seq"), status=bindparam("new_status"),
                      winner=bindparam("new_winner"), result=bindparam("new_result"),
                      updated_at=bindparam("new_updated_at")))
LOG_SINCE = (select(EVENTS.c.seq, EVENTS.c.data)
              .where(EVENTS.c.game_id == bindparam("game_id"), EVENTS.c.seq >= bindparam("seq")).order_by(EVENTS.c.seq))
CLUB_OF_GAME = select(GAMES.c.club_id).where(GAMES.c.id == bindparam("game_id"))

COMMAND_ID_MAX = 64
"""The longest command id the store keeps (a UUID is 36 characters)."""


def status_of(game: Game) -> str:
    if game.over:
        return "over"
    return "dealing" if game.step == "deal" else "playing"



def seq_of_command(s: Session | Connection, game_id: str, command_id: str) -> int | None:
    return s.scalar(SEQ_OF_COMMAND, {"game_id": game_id, "command_id": command_id})

def replayed(s: Session | Connection, game_id: str, next_seq: int, first: int) -> AppendResult:
    """The events of the command whose action event is ``first``: it and the consequences after it."""
    rows = s.scalars(select(GameEvent.data).where(GameEvent.game_id == game_id, GameEvent.seq >= first)
                     .order_by(GameEvent.seq))
    events: list[Event] = []
    for data in rows:
        ev = event_from_json(data)
        if events and ev.action:
            break
        events.append(ev)
    return AppendResult(tuple(events), first, first + len(events), next_seq, replayed=True)


def game_row(s: Session, game_id: str, lock: bool = False) -> StoredGame:
    """The game's row in the session ``s`` (``lock``: FOR NO KEY UPDATE, after a running append of the game);
    raises :class:`GameNotFound`."""
    row = s.get(StoredGame, game_id, with_for_update={"key_share": True} if lock else None)
    if row is None:
        raise GameNotFound(game_id)
    return row
