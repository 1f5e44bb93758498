"""A club's persons, merges, rating exclusions and the reads of the finished games' index, in the store
(docs/seasons.md). Functions over the store's public transactions, each one transaction."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, true, update
from sqlalchemy.orm import Session

from ..engine import Game
from ..seasons.elo import RatedGame
from ..seasons.facts import GameFacts, SeatFacts
from ..seasons.stats import played_names
from . import kept_counts, season_index
from . import statements as st
from .models import ClubPlayer, GameEvent, StoredGame, User, as_utc, utcnow
from .season_tables import ClubCounts, GameIndex, PlayerMerge, RatingExclusion, SeatIndex
from .store import Store


@dataclass(frozen=True, slots=True)
class Person:
    id: int
    club_id: int
    name: str
    merged_into: int | None
    merged: tuple[int, ...]
    """The duplicates merged into this person (their games count as his)."""
    names: tuple[str, ...]
    """The names (nicknames) he played under, most used first."""
    games: int
    first_game: datetime | None
    last_game: datetime | None


@dataclass(frozen=True, slots=True)
class MergeRecord:
    id: int
    from_id: int
    from_name: str
    into_id: int
    reason: str
    login: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class IndexedGame:
    """A finished game from the index: its facts, the person at each seat and what statistics group it by."""

    game_id: str
    ended_at: datetime
    facts: GameFacts
    people: tuple[int | None, ...]
    host_id: int | None
    tournament_id: int | None
    table_no: int | None
    kind: str
    source: str


@dataclass(frozen=True, slots=True)
class IndexedSeat:
    """One seat of a person's game: the seat's facts with the game's context."""

    game_id: str
    ended_at: datetime
    seat: SeatFacts
    ruleset: str
    players: int
    winner: str | None
    result: str
    detail: bool
    host_id: int | None
    tournament_id: int | None
    table_no: int | None
    kind: str = "club"


class SeasonRefused(ValueError):
    """A merge or an exclusion the store cannot make (``code``: ``not-found``, ``same-person``,
    ``already-merged``, ``same-game``, ``not-indexed``, ``already-excluded``, ``not-excluded``)."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code


def _merged_into(s: Session, person_id: int) -> list[int]:
    """Every person merged, directly or through another, into ``person_id``."""
    found: list[int] = []
    frontier = [person_id]
    while frontier:
        rows = list(s.scalars(select(ClubPlayer.id).where(ClubPlayer.merged_into.in_(frontier))))
        found += rows
        frontier = rows
    return found


def person(store: Store, person_id: int) -> Person | None:
    """A person with the names he played under and his first and last indexed game (None: no such person)."""
    with store.read() as s:
        row = s.get(ClubPlayer, person_id)
        if row is None:
            return None
        counts = kept_counts.person_counts(s.connection(), person_id)
        mine = select(SeatIndex.ended_at).where(SeatIndex.player_id == person_id,
                                                kept_counts.once(s.connection(), person_id)).limit(1)
        first = s.scalar(mine.order_by(SeatIndex.ended_at))  # each from one end of his seats' index
        last = s.scalar(mine.order_by(SeatIndex.ended_at.desc()))
        return Person(row.id, row.club_id, row.name, row.merged_into, tuple(_merged_into(s, row.id)),
                      played_names(counts), int(counts.get("games/all", 0)), as_utc(first), as_utc(last))


def miscounted(store: Store) -> list[str]:
    """The persons and clubs whose kept counts are not those of the index ("player 7", "club 2")."""
    with store.read_conn() as conn:
        kept, fresh = kept_counts.kept(conn), kept_counts.recounted(conn)
    return [f"{what} {key}" for what, mine, theirs in zip(("player", "club"), kept, fresh, strict=True)
            for key in sorted(mine.keys() | theirs.keys()) if mine.get(key) != theirs.get(key)]


def refill_counts(store: Store) -> int:
    """Every kept count written anew from the index; how many persons have some."""
    with store.write_conn() as conn:
        return kept_counts.refill(conn)


def club_counts(store: Store, club_id: int) -> dict[str, int]:
    """A club's statistics' counts as kept (``store.kept_counts``)."""
    with store.read_conn() as conn:
        return kept_counts.club_counts(conn, club_id)


def counts(store: Store, person_id: int) -> dict[str, int]:
    """A person's statistics' counts as kept (``store.kept_counts``)."""
    with store.read_conn() as conn:
        return kept_counts.person_counts(conn, person_id)


def club_people(store: Store, club_id: int) -> list[tuple[int, str, int, datetime | None]]:
    """The club's persons (duplicates merged away left out): id, name, games played, last game; most games
    first. The games from the kept counts, the last one from the end of each one's seats' index (a game where
    he sat at two seats, not counted, may be that one)."""
    last = (select(func.max(SeatIndex.ended_at)).where(SeatIndex.player_id == ClubPlayer.id)
            .correlate(ClubPlayer).scalar_subquery())
    with store.read_conn() as s:
        played = kept_counts.games_played(s, club_id)
        rows = s.execute(select(ClubPlayer.id, ClubPlayer.name, last.label("last"))
                         .where(ClubPlayer.club_id == club_id, ClubPlayer.merged_into.is_(None))).all()
    people = [(r.id, r.name, played.get(r.id, 0), as_utc(r.last)) for r in rows]
    return sorted(people, key=lambda p: (-p[2], p[1]))


def merge(store: Store, club_id: int, from_id: int, into_id: int, reason: str, user_id: int) -> MergeRecord:
    """Merge the duplicate ``from_id`` into ``into_id`` (both persons of the club, neither merged away): his
    games, and those of whoever was merged into him, count for ``into_id`` from now on; the roster no longer
    lists him; the merge is kept with its reason."""
    with store.write() as s:
        source, target = s.get(ClubPlayer, from_id), s.get(ClubPlayer, into_id)
        if source is None or target is None or source.club_id != club_id or target.club_id != club_id:
            raise SeasonRefused("not-found")
        if from_id == into_id:
            raise SeasonRefused("same-person")
        if source.merged_into is not None or target.merged_into is not None:
            raise SeasonRefused("already-merged")
        moved = [from_id, *_merged_into(s, from_id)]
        together = s.scalar(select(SeatIndex.game_id).where(
            SeatIndex.player_id.in_(moved),
            SeatIndex.game_id.in_(select(SeatIndex.game_id).where(SeatIndex.player_id.in_([into_id, *_merged_into(s, into_id)])))))
        if together is not None:  # two seats of one game are two persons
            raise SeasonRefused("same-game", together)
        source.merged_into = into_id
        s.execute(update(SeatIndex).where(SeatIndex.player_id.in_(moved)).values(player_id=into_id))
        season_index.bump(s.connection(), club_id)
        kept_counts.join(s.connection(), club_id, moved, into_id)
        row = PlayerMerge(club_id=club_id, from_id=from_id, into_id=into_id, from_name=source.name,
                          reason=reason, user_id=user_id, created_at=utcnow())
        s.add(row)
        s.flush()
        login = s.scalar(select(User.login).where(User.id == user_id)) or ""
        return MergeRecord(row.id, from_id, source.name, into_id, reason, login, row.created_at)


def merges(store: Store, club_id: int, person_id: int | None = None) -> list[MergeRecord]:
    """The club's merges, newest first (``person_id``: those into him)."""
    with store.read() as s:
        q = (select(PlayerMerge, User.login).join(User, User.id == PlayerMerge.user_id)
             .where(PlayerMerge.club_id == club_id).order_by(PlayerMerge.id.desc()))
        if person_id is not None:
            q = q.where(PlayerMerge.into_id == person_id)
        return [MergeRecord(m.id, m.from_id, m.from_name, m.into_id, m.reason, login, as_utc(m.created_at))
                for m, login in s.execute(q).all()]


def exclude(store: Store, club_id: int, game_id: str, reason: str, user_id: int) -> None:
    """Leave an indexed game of the club out of the ratings, with the reason."""
    with store.write() as s:
        if s.scalar(select(GameIndex.club_id).where(GameIndex.game_id == game_id)) != club_id:
            raise SeasonRefused("not-indexed", game_id)
        if _active_exclusion(s, game_id) is not None:
            raise SeasonRefused("already-excluded", game_id)
        s.add(RatingExclusion(game_id=game_id, club_id=club_id, reason=reason, user_id=user_id, created_at=utcnow()))
        season_index.bump(s.connection(), club_id)


def lift_exclusion(store: Store, club_id: int, game_id: str, reason: str, user_id: int) -> None:
    """Count an excluded game in the ratings again (the exclusion stays on record, lifted, with the reason)."""
    with store.write() as s:
        row = _active_exclusion(s, game_id)
        if row is None or row.club_id != club_id:
            raise SeasonRefused("not-excluded", game_id)
        row.lifted_at, row.lifted_by, row.lift_reason = utcnow(), user_id, reason
        season_index.bump(s.connection(), club_id)


def _active_exclusion(s: Session, game_id: str) -> RatingExclusion | None:
    return s.scalars(select(RatingExclusion).where(RatingExclusion.game_id == game_id,
                                                   RatingExclusion.lifted_at.is_(None))).first()


def exclusions(store: Store, club_id: int) -> dict[str, str]:
    """The club's games left out of the ratings now: game id -> reason."""
    with store.read() as s:
        return dict(s.execute(select(RatingExclusion.game_id, RatingExclusion.reason)
                              .where(RatingExclusion.club_id == club_id, RatingExclusion.lifted_at.is_(None))).all())


def index_games(store: Store, club_id: int, since: tuple[datetime, str] | None = None,
                person: int | None = None) -> list[IndexedGame]:
    """The club's indexed games in the order they ended (then by id); ``since``: only those after that one;
    ``person``: only his."""
    with store.read() as s:
        q = select(GameIndex).where(GameIndex.club_id == club_id)
        if person is not None:
            q = q.where(GameIndex.game_id.in_(select(SeatIndex.game_id).where(SeatIndex.player_id == person)))
        if since is not None:
            q = q.where((GameIndex.ended_at > since[0])
                        | ((GameIndex.ended_at == since[0]) & (GameIndex.game_id > since[1])))
        rows = s.scalars(q.order_by(GameIndex.ended_at, GameIndex.game_id)).all()
        seats: dict[str, list[Any]] = {}
        ids = [r.game_id for r in rows]
        for chunk in range(0, len(ids), 500):
            for seat in s.scalars(select(SeatIndex).where(SeatIndex.game_id.in_(ids[chunk:chunk + 500]))
                                  .order_by(SeatIndex.game_id, SeatIndex.seat)):
                seats.setdefault(seat.game_id, []).append(seat)
        return [IndexedGame(r.game_id, as_utc(r.ended_at), season_index.facts_of(r, seats[r.game_id]),
                            tuple(x.player_id for x in seats[r.game_id]), r.host_id, r.tournament_id, r.table_no,
                            r.kind, r.source) for r in rows]


def persons_once(people: Sequence[int | None]) -> tuple[str | None, ...]:
    """The persons at a game's seats by their id as text; a person at two seats (two persons merged after the
    game began, whose seats the index joined) is a guest at both: no rating or statistic takes one person twice."""
    present = [p for p in people if p is not None]
    if len(set(present)) == len(present):  # the usual case: each person once
        return tuple(None if p is None else str(p) for p in people)
    return tuple(None if p is None or present.count(p) > 1 else str(p) for p in people)


def rating_games(store: Store, club_id: int, since: tuple[datetime, str] | None = None) -> list[RatedGame]:
    """The club's indexed games as the ratings read them, in the order they ended (then by id; ``since``: only
    those after that one): who sat where (persons by their id as text), the teams, the winner and the kind. Plain
    columns: no facts read."""
    with store.read_conn() as s:  # plain rows, no ORM: 200,000 seats for a big club
        rows = s.execute(select(GameIndex.game_id, GameIndex.ended_at, GameIndex.winner, GameIndex.kind)
                         .where(GameIndex.club_id == club_id, _after(since))
                         .order_by(GameIndex.ended_at, GameIndex.game_id)).all()
        seats: dict[str, list[tuple[int | None, str]]] = {}
        columns = select(SeatIndex.game_id, SeatIndex.player_id, SeatIndex.team)
        ids = [r.game_id for r in rows]
        # from scratch: the club's seats at once; after a game: those of the few games found (by their key)
        queries = [columns.where(SeatIndex.club_id == club_id)] if since is None else \
            [columns.where(SeatIndex.game_id.in_(ids[i:i + 500])) for i in range(0, len(ids), 500)]
        for query in queries:
            for game_id, person, team in s.execute(query.order_by(SeatIndex.game_id, SeatIndex.seat)).all():
                seats.setdefault(game_id, []).append((person, team))
        return [RatedGame(r.game_id, as_utc(r.ended_at), persons_once([p for p, _ in seats[r.game_id]]),
                          tuple(t for _, t in seats[r.game_id]), r.winner, r.kind) for r in rows]


def _after(since: tuple[datetime, str] | None) -> Any:
    """The condition that an indexed game ended after ``since`` (its end and id): the range first, which the
    index on (club, end, id) answers."""
    if since is None:
        return true()
    return (GameIndex.ended_at >= since[0]) & ((GameIndex.ended_at > since[0]) | (GameIndex.game_id > since[1]))


def index_mark(store: Store, club_id: int, upto: tuple[datetime, str] | None) -> tuple[int, int, int]:
    """What tells a kept computation over the club's index that it is still a prefix of it: how many indexed
    games ended up to ``upto`` (inclusive), and how many merges and exclusions (lifted ones too) the club has.
    The games up to ``upto``: the club's kept count of its games less those after ``upto`` (a few, read from the
    index's end), in one statement (one snapshot, so a game indexed meanwhile is in both or in neither)."""
    with store.read() as s:
        n = 0
        if upto is not None:
            later = (select(func.count()).select_from(GameIndex)
                     .where(GameIndex.club_id == club_id, _after(upto)).scalar_subquery())
            row = s.execute(select(ClubCounts.counts, later).where(ClubCounts.club_id == club_id)).one_or_none()
            n = 0 if row is None else int(row[0].get("games", 0)) - int(row[1])
        m = int(s.scalar(select(func.count()).select_from(PlayerMerge).where(PlayerMerge.club_id == club_id)) or 0)
        e = int(s.scalar(select(func.count(RatingExclusion.id) + func.count(RatingExclusion.lifted_at))
                         .where(RatingExclusion.club_id == club_id)) or 0)
        return n, m, e


def person_seats(store: Store, person_id: int, newest: int | None = None) -> list[IndexedSeat]:
    """A person's seats in indexed games, in the order the games ended (``newest``: only his last so many): his
    seat rows and the game columns beside them (not the games' other seats nor their own facts). A game where
    he sat at two seats is not his (``persons_once``)."""
    with store.read_conn() as s:
        query = (select(SeatIndex.facts, GameIndex.game_id, GameIndex.ended_at, GameIndex.ruleset, GameIndex.players,
                        GameIndex.winner, GameIndex.result, GameIndex.detail, GameIndex.host_id,
                        GameIndex.tournament_id, GameIndex.table_no, GameIndex.kind)
                 .join(GameIndex, GameIndex.game_id == SeatIndex.game_id)
                 .where(SeatIndex.player_id == person_id, kept_counts.once(s, person_id)))
        if newest is not None:
            query = query.order_by(SeatIndex.ended_at.desc(), SeatIndex.game_id.desc()).limit(newest)
        else:
            query = query.order_by(SeatIndex.ended_at, SeatIndex.game_id)
        rows = s.execute(query).all()
    seats = [IndexedSeat(r.game_id, as_utc(r.ended_at), SeatFacts.from_json(r.facts), r.ruleset, r.players,
                         r.winner, r.result, r.detail, r.host_id, r.tournament_id, r.table_no, r.kind) for r in rows]
    return seats[::-1] if newest is not None else seats


def unindexed_games(store: Store) -> list[str]:
    """Finished stored games missing from the index (games that ended before it existed)."""
    with store.read() as s:
        return list(s.scalars(select(StoredGame.id).outerjoin(GameIndex, GameIndex.game_id == StoredGame.id)
                              .where(StoredGame.status == "over", GameIndex.game_id.is_(None))
                              .order_by(StoredGame.created_at)))


def reindex_game(store: Store, game_id: str) -> None:
    """A stored game's index rows written anew from its log (dated by its last event)."""
    with store.write_conn() as s:  # the game's row locked: no append of it meanwhile
        head = s.execute(st.HEAD, {"game_id": game_id}).one()
        game = store.folded(s, head)
        ended = s.scalar(select(func.max(GameEvent.created_at)).where(GameEvent.game_id == game_id))
        season_index.keep(s, game_id, game if game.over else None, as_utc(ended) or utcnow())


def _people_named(s: Session, club_id: int, names: Sequence[str]) -> list[int]:
    """The club's person for each name (the same name, any case, not merged away), made when there is none:
    within the caller's transaction (a person made for a game is kept only with it)."""
    known: dict[str, int] = {}
    for pid, name in s.execute(select(ClubPlayer.id, ClubPlayer.name).where(  # plain rows: 200 a game
            ClubPlayer.club_id == club_id, ClubPlayer.merged_into.is_(None)).order_by(ClubPlayer.id)):
        known.setdefault(name.casefold(), pid)
    out = []
    for name in names:
        if name.casefold() not in known:
            row = ClubPlayer(club_id=club_id, name=name)
            s.add(row)
            s.flush()
            known[name.casefold()] = row.id
        out.append(known[name.casefold()])
    return out


def club_name(store: Store, club_id: int) -> str:
    from .models import Club

    with store.read() as s:
        return s.scalar(select(Club.name).where(Club.id == club_id)) or ""


def host_logins(store: Store, club_id: int) -> dict[int, str]:
    """The logins of the club's users (the hosts of its games)."""
    with store.read() as s:
        return dict(s.execute(select(User.id, User.login).where(User.club_id == club_id)).all())


class AlreadyImported(ValueError):
    """A game of that source and id is in the club already (``game_id``: the one kept)."""

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self.game_id = game_id


def import_game(store: Store, club_id: int, *, facts: GameFacts, ended_at: datetime, source: str, source_id: str,
                names: Sequence[str] | None = None, people: Sequence[int | None] | None = None,
                game: Game | None = None, user_id: int | None = None) -> str:
    """Keep one imported game in one transaction, its players' persons included: the club's persons ``people``
    at its seats, or those matched by ``names`` (made when new: a game not kept adds none). With ``game``
    (replayed from the source), a stored game with its whole log, signed at once (nothing may be appended to
    it), and its index rows; without, the index rows of a result-only game. Returns the new game's id;
    :class:`AlreadyImported` when that source's game is in the club already (nothing written)."""
    if (names is None) == (people is None):
        raise TypeError("import_game takes the seats' names or their persons, one of the two")
    game_id = str(uuid.uuid4())
    with store.write() as s:
        kept = s.scalar(select(GameIndex.game_id).where(GameIndex.club_id == club_id, GameIndex.source == source,
                                                        GameIndex.source_id == source_id))
        if kept is not None:
            raise AlreadyImported(kept)
        if people is None:
            assert names is not None
            people = _people_named(s, club_id, names)
        conn = s.connection()
        if game is not None:
            now = utcnow()
            s.add(StoredGame(id=game_id, club_id=club_id, ruleset=game.rules.name, ruleset_options=game.rules.options(),
                             players=game.n, names=list(game.names), status="over", winner=game.winner,
                             result=game.result, next_seq=len(game.log), created_at=ended_at, updated_at=now,
                             signed_at=now, signed_by=user_id, seat_players=list(people)))
            s.flush()
            conn.execute(st.INSERT_EVENTS, [
                {"game_id": game_id, "seq": i, "type": ev.type, "data": ev.to_json(), "command_id": None,
                 "created_at": ended_at} for i, ev in enumerate(game.log)])
        season_index.write(conn, facts, club_id=club_id, game_id=game_id, ended_at=ended_at, people=people,
                           source=source, source_id=source_id)
    return game_id


def expected_facts(store: Store, game_id: str, game: Game) -> GameFacts:
    """What the index should hold for a finished stored game: its log's facts with its sheet's corrections."""
    with store.read_conn() as conn:
        return season_index.facts_now(conn, game_id, game)


def indexed_facts(store: Store, game_id: str) -> GameFacts | None:
    """The facts the index holds for a game, None if it is not indexed."""
    with store.read() as s:
        row = s.get(GameIndex, game_id)
        if row is None:
            return None
        seats = s.scalars(select(SeatIndex).where(SeatIndex.game_id == game_id).order_by(SeatIndex.seat)).all()
        return season_index.facts_of(row, seats)


def is_stored(store: Store, game_id: str) -> bool:
    """Whether ``game_id`` is a stored game (with a log), not an imported result."""
    with store.read() as s:
        return s.get(StoredGame, game_id) is not None


def game_lines(store: Store, club_id: int) -> list[IndexedGame]:
    """The club's indexed games as a group's statistics read them, in the order they ended: the game's own
    columns and facts, without its seats (``facts.seats`` empty, ``people`` empty): a club's page counts red's
    wins by rule set, weekday, table and host without reading its games' ten seats each."""
    with store.read() as s:
        rows = s.execute(select(GameIndex.game_id, GameIndex.ended_at, GameIndex.players, GameIndex.ruleset,
                                GameIndex.winner, GameIndex.result, GameIndex.detail, GameIndex.facts,
                                GameIndex.host_id, GameIndex.tournament_id, GameIndex.table_no, GameIndex.kind,
                                GameIndex.source)
                         .where(GameIndex.club_id == club_id).order_by(GameIndex.ended_at, GameIndex.game_id)).all()
    return [IndexedGame(r.game_id, as_utc(r.ended_at),
                        GameFacts(players=r.players, ruleset=r.ruleset, winner=r.winner, result=r.result,
                                  days=int(r.facts.get("days", 0)), nights=int(r.facts.get("nights", 0)),
                                  detail=r.detail, seats=()),
                        (), r.host_id, r.tournament_id, r.table_no, r.kind, r.source) for r in rows]


def index_version(store: Store, club_id: int) -> int | None:
    """How many times the club's index of finished games changed (None: no such club)."""
    from .models import Club

    with store.read() as s:
        return s.scalar(select(Club.index_version).where(Club.id == club_id))
