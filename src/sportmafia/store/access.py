"""Who hosts a game and who sits in it (docs/security.md, "Who hosts and who sits").

A game's host is the user who created it (``games.host_id``; a tournament game: its table's host). A user is
*seated* in a game when the club roster player his account is linked to (``users.player_id``) is at one of
its seats (``games.seat_players``), or when he is the account of a tournament participant seated in that
tournament game (``tournament_participants.user_id``, ``tournament_games.seats``).

All of that is fixed when the game is created (the seats, the host, the participants' accounts), so a game's
facts are read in one query and kept in memory for the games asked about last; the user's side (his roster
player) comes with his row (:meth:`Store.get_user`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from sqlalchemy import Table, bindparam, select
from sqlalchemy.exc import IntegrityError

from .models import ClubPlayer, StoredGame, TournamentGame, TournamentParticipant, TournamentStaff, User
from .records import GameNotFound, StoreError, UserRecord
from .store import PARSED_GAMES, Store

_GAMES = cast(Table, StoredGame.__table__)
_LINKS = cast(Table, TournamentGame.__table__)
_PEOPLE = cast(Table, TournamentParticipant.__table__)
_ALL_FACTS = (select(_GAMES.c.id, _GAMES.c.club_id, _GAMES.c.host_id, _GAMES.c.seat_players,
                     _LINKS.c.tournament_id, _LINKS.c.seats, _PEOPLE.c.id.label("participant_id"), _PEOPLE.c.user_id)
              .select_from(_GAMES.outerjoin(_LINKS, _LINKS.c.game_id == _GAMES.c.id)
                           .outerjoin(_PEOPLE, (_PEOPLE.c.tournament_id == _LINKS.c.tournament_id)
                                      & _PEOPLE.c.user_id.is_not(None))))
_FACTS = _ALL_FACTS.where(_GAMES.c.id == bindparam("game_id"))
"""A game's club, host and seats, its tournament and that tournament's participants who have an account: one
query (a row per such participant; the seated ones are picked from the game's seats)."""
_CLUB_FACTS = _ALL_FACTS.where(_GAMES.c.club_id == bindparam("club_id"))


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What decides who may open a game; none of it changes once the game is created."""

    game_id: str
    club_id: int
    host_id: int | None
    """None: a game created before hosts were recorded."""
    tournament_id: int | None
    players: frozenset[int]
    """The roster players at its seats."""
    seated_users: frozenset[int]
    """The accounts of the tournament participants at its seats."""

    def seats(self, user: UserRecord) -> bool:
        """Whether ``user`` plays in this game (his roster player at a seat, or his participant)."""
        return user.id in self.seated_users or (user.player_id is not None and user.player_id in self.players)


class UserNotFound(StoreError, LookupError):
    """No user with this id in this club."""


class PlayerNotFound(StoreError, LookupError):
    """No roster player with this id in this club."""


class PlayerTaken(StoreError):
    """Another account of the club is linked to this roster player already."""

    def __init__(self, player_id: int, user_id: int) -> None:
        super().__init__(f"roster player {player_id} is linked to user {user_id} already")
        self.player_id = player_id
        self.user_id = user_id


def game_facts(store: Store, game_id: str) -> GameFacts:
    """The game's :class:`GameFacts` (raises :class:`GameNotFound`); kept for the games asked about last."""
    known: GameFacts | None = store.kept_facts(game_id)
    if known is not None:
        return known
    with store.read_conn() as conn:
        rows = conn.execute(_FACTS, {"game_id": game_id}).all()
    if not rows:
        raise GameNotFound(game_id)
    facts = _facts(rows)
    store.keep_facts([(game_id, facts)])
    return facts


def club_game_facts(store: Store, club_id: int) -> dict[str, GameFacts]:
    """The :class:`GameFacts` of every game of the club, by game id, in one query (for the list of games)."""
    with store.read_conn() as conn:
        rows = conn.execute(_CLUB_FACTS, {"club_id": club_id}).all()
    by_game: dict[str, list[Any]] = {}
    for row in rows:
        by_game.setdefault(row.id, []).append(row)
    out = {game_id: _facts(game_rows) for game_id, game_rows in by_game.items()}
    store.keep_facts(list(out.items())[-PARSED_GAMES:])
    return out


def _facts(rows: Sequence[Any]) -> GameFacts:
    first = rows[0]
    seats = set(first.seats or ())
    return GameFacts(first.id, int(first.club_id), first.host_id, first.tournament_id,
                     frozenset(p for p in first.seat_players or () if p is not None),
                     frozenset(r.user_id for r in rows if r.participant_id in seats))


def seated(store: Store, game_id: str, user: UserRecord) -> bool:
    """Whether ``user`` plays in the game ``game_id`` (raises :class:`GameNotFound`)."""
    return game_facts(store, game_id).seats(user)


def is_tournament_judge(store: Store, tournament_id: int, user_id: int) -> bool:
    """Whether the user is one of the tournament's judges (its staff; read each time: the staff changes)."""
    with store.read_conn() as conn:
        found = conn.scalar(select(TournamentStaff.user_id).where(
            TournamentStaff.tournament_id == tournament_id, TournamentStaff.user_id == user_id,
            TournamentStaff.role == "judge"))
    return found is not None


def link_player(store: Store, club_id: int, user_id: int, player_id: int | None) -> UserRecord:
    """Link the club's account ``user_id`` to the club's roster player ``player_id`` (None: unlink). Raises
    :class:`UserNotFound`, :class:`PlayerNotFound` (both also for another club's), :class:`PlayerTaken`."""
    try:
        with store.write() as s:
            user = s.get(User, user_id)
            if user is None or user.club_id != club_id:
                raise UserNotFound(f"no user {user_id} in club {club_id}")
            if player_id is not None:
                player = s.get(ClubPlayer, player_id)
                if player is None or player.club_id != club_id:
                    raise PlayerNotFound(f"no roster player {player_id} in club {club_id}")
                other = s.scalar(select(User.id).where(User.club_id == club_id, User.player_id == player_id,
                                                       User.id != user_id))
                if other is not None:
                    raise PlayerTaken(player_id, other)
            user.player_id = player_id
            s.flush()
    except IntegrityError:  # another admin linked the player meanwhile
        raise PlayerTaken(player_id or 0, 0) from None
    fresh = store.get_user(user_id)
    assert fresh is not None
    updated = replace(fresh, player_id=player_id)
    store.keep_user(updated)
    return updated
