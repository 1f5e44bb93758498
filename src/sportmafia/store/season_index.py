"""The index of finished games that statistics and ratings read (``game_index``, ``seat_index``; docs/seasons.md).

It is derived from each game's log, never a second source of truth: :func:`keep` writes a game's rows in the
transaction of the append that ends it (and rewrites them when an undo reopens the game and it ends again, or
drops them while it is reopened), and the whole index can be rebuilt from the logs (``services.seasons``).
Persons: a seat is linked to the club's person from ``games.seat_players`` (the roster player the host seated)
or, in a tournament game, from its participant's ``player_id``; merged persons resolve to the one they were
merged into."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, delete, insert, select, update

from ..engine import Game
from ..seasons.facts import GameFacts, corrected, game_facts
from . import kept_counts
from .models import (
    Club,
    ClubPlayer,
    SheetCorrection,
    StoredGame,
    Tournament,
    TournamentGame,
    TournamentParticipant,
    User,
)
from .season_tables import GameIndex, SeatIndex

GAMES = cast(Table, StoredGame.__table__)
GAME_INDEX = cast(Table, GameIndex.__table__)
SEAT_INDEX = cast(Table, SeatIndex.__table__)
PLAYERS = cast(Table, ClubPlayer.__table__)
T_GAMES = cast(Table, TournamentGame.__table__)
PARTICIPANTS = cast(Table, TournamentParticipant.__table__)
TOURNAMENTS = cast(Table, Tournament.__table__)
USERS = cast(Table, User.__table__)
CORRECTIONS = cast(Table, SheetCorrection.__table__)
CLUBS = cast(Table, Club.__table__)


def resolve(s: Connection, player_ids: Sequence[int | None]) -> list[int | None]:
    """Each person as the one it was merged into (a merged duplicate's games count for the person it joined)."""
    wanted = {p for p in player_ids if p is not None}
    into: dict[int, int | None] = {}
    while wanted:
        rows = s.execute(select(PLAYERS.c.id, PLAYERS.c.merged_into).where(PLAYERS.c.id.in_(wanted))).all()
        into.update({r.id: r.merged_into for r in rows})
        wanted = {r.merged_into for r in rows if r.merged_into is not None and r.merged_into not in into}

    def final(p: int | None) -> int | None:
        seen = set()
        while p is not None and into.get(p) is not None and p not in seen:
            seen.add(p)
            p = into[p]
        return p

    return [final(p) for p in player_ids]


def _seat_people(s: Connection, game_id: str, row: Any) -> tuple[list[int | None], int | None, int | None, str]:
    """The person at each seat, the tournament and table (or None) and the game's rating kind."""
    tg = s.execute(select(T_GAMES.c.tournament_id, T_GAMES.c.table_no, T_GAMES.c.seats)
                   .where(T_GAMES.c.game_id == game_id)).one_or_none()
    if tg is None:
        people = list(row.seat_players or [None] * row.players)
        return resolve(s, people), None, None, "club"
    kind = s.scalar(select(TOURNAMENTS.c.rating_kind).where(TOURNAMENTS.c.id == tg.tournament_id)) or "tournament"
    seats = [int(p) for p in tg.seats]
    linked = link_participants(s, row.club_id, seats)
    return resolve(s, [linked[p] for p in seats]), tg.tournament_id, tg.table_no, kind


def link_participants(s: Connection, club_id: int, participant_ids: Sequence[int]) -> dict[int, int]:
    """Each tournament participant's person, linked now where it is not yet (``player_id``): the person his
    account is (``users.player_id``), else the club's person of the same name (any case, not merged away), else
    a new person of the club. A visitor who is a duplicate of someone is merged by a judge (``store.seasons``)."""
    rows = s.execute(select(PARTICIPANTS.c.id, PARTICIPANTS.c.nickname, PARTICIPANTS.c.player_id,
                            USERS.c.player_id.label("account"))
                     .outerjoin(USERS, USERS.c.id == PARTICIPANTS.c.user_id)
                     .where(PARTICIPANTS.c.id.in_(participant_ids))).all()
    out = {r.id: r.player_id for r in rows if r.player_id is not None}
    todo = [r for r in rows if r.player_id is None]
    if todo:
        named: dict[str, int] = {}
        for pid, name in s.execute(select(PLAYERS.c.id, PLAYERS.c.name).where(
                PLAYERS.c.club_id == club_id, PLAYERS.c.merged_into.is_(None)).order_by(PLAYERS.c.id)).all():
            named.setdefault(name.casefold(), pid)
        for r in todo:
            person = r.account or named.get(r.nickname.casefold())
            if person is None:
                made = s.execute(insert(PLAYERS).values(club_id=club_id, name=r.nickname)).inserted_primary_key
                assert made is not None
                person = int(made[0])
                named[r.nickname.casefold()] = person
            s.execute(update(PARTICIPANTS).where(PARTICIPANTS.c.id == r.id).values(player_id=person))
            out[r.id] = person
    return out


def bump(s: Connection, club_id: int) -> None:
    """One more change of the club's index (``clubs.index_version``), in the transaction that makes it."""
    s.execute(update(CLUBS).where(CLUBS.c.id == club_id).values(index_version=CLUBS.c.index_version + 1))


def drop(s: Connection, game_id: str) -> None:
    club = s.scalar(select(GAME_INDEX.c.club_id).where(GAME_INDEX.c.game_id == game_id))
    if club is not None:
        bump(s, club)  # first: the club's row locked before its counts are read
        kept_counts.drop_game(s, game_id)
    s.execute(delete(SEAT_INDEX).where(SEAT_INDEX.c.game_id == game_id))
    s.execute(delete(GAME_INDEX).where(GAME_INDEX.c.game_id == game_id))


def keep(s: Connection, game_id: str, game: Game | None, ended_at: datetime) -> None:
    """The index rows of the stored game ``game_id``: written anew from ``game`` (finished) with its result
    sheet's corrections, dated when it first ended (a command or a correction after the end keeps its place in
    the ratings' order), or dropped when ``game`` is None (an undo reopened it)."""
    kept = s.scalar(select(GAME_INDEX.c.ended_at).where(GAME_INDEX.c.game_id == game_id))
    drop(s, game_id)
    if game is None:
        return
    row = s.execute(select(GAMES.c.club_id, GAMES.c.host_id, GAMES.c.seat_players, GAMES.c.players)
                    .where(GAMES.c.id == game_id)).one()
    people, tournament, table, kind = _seat_people(s, game_id, row)
    write(s, facts_now(s, game_id, game), club_id=row.club_id, game_id=game_id,
          ended_at=ended_at if kept is None else kept, people=people, host_id=row.host_id,
          tournament_id=tournament, table_no=table, kind=kind, source="log", source_id=game_id)


def facts_now(s: Connection, game_id: str, game: Game) -> GameFacts:
    """The facts of a finished stored game: its log's, with its result sheet's corrections (B.sheet)."""
    changes = [change for (changes,) in s.execute(select(CORRECTIONS.c.changes).where(
        CORRECTIONS.c.game_id == game_id).order_by(CORRECTIONS.c.id)).all() for change in changes]
    facts = game_facts(game)
    return corrected(facts, changes) if changes else facts


def write(s: Connection, facts: GameFacts, *, club_id: int, game_id: str, ended_at: datetime,
          people: Sequence[int | None], host_id: int | None = None, tournament_id: int | None = None,
          table_no: int | None = None, kind: str = "club", source: str = "log", source_id: str = "") -> None:
    """One game's index rows (a finished stored game, or an imported result)."""
    bump(s, club_id)
    data = facts.to_json()
    seats = data.pop("seats")
    s.execute(insert(GAME_INDEX), {
        "game_id": game_id, "club_id": club_id, "ended_at": ended_at, "ruleset": facts.ruleset,
        "players": facts.players, "winner": facts.winner, "result": facts.result, "host_id": host_id,
        "tournament_id": tournament_id, "table_no": table_no, "kind": kind, "detail": facts.detail,
        "source": source, "source_id": source_id or game_id, "facts": data})
    s.execute(insert(SEAT_INDEX), [
        {"game_id": game_id, "seat": seat.seat, "player_id": person, "club_id": club_id, "ended_at": ended_at,
         "name": seat.name, "role": seat.role, "team": seat.team, "won": seat.won, "facts": seat_json}
        for seat, seat_json, person in zip(facts.seats, seats, people, strict=True)])
    kept_counts.add_game(s, facts, club_id=club_id, game_id=game_id, ended_at=ended_at, people=people,
                         host_id=host_id, table_no=table_no)


def facts_of(game_row: Any, seat_rows: Sequence[Any]) -> GameFacts:
    """A game's facts again from its index rows (the game's and its seats', in seat order)."""
    return GameFacts.from_json({**game_row.facts, "seats": [r.facts for r in seat_rows]})
