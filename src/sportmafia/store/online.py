"""Online play's storage (docs/online.md): a game's online table, the seats' personal links and the join
requests made with the table code.

Secrets (a seat's token, a join request's secret, the open stream's token) are made with :mod:`secrets`
(192 bits) and handed out once; only their SHA-256 is stored, so a copy of the database opens no seat.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar, cast

from sqlalchemy import Connection, Table, bindparam, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .limits import lock_keys
from .models import JoinRequest, OnlineTable, SeatToken, StoredGame, as_utc, utcnow
from .records import GameNotFound
from .store import Store

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Table codes: no 0/O, 1/I/L, so that a code read aloud or from a screen is typed right."""
CODE_LENGTH = 6
_CODE_CHARS = frozenset(CODE_ALPHABET)
TOKEN_BYTES = 24
"""192 bits per secret."""
MAX_STREAM_DELAY = 180
"""The longest open-stream delay, in minutes."""
R = TypeVar("R")


def new_secret() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_secret(secret: str) -> str:
    """The SHA-256 (hex) under which a secret is stored and looked up."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class TableRecord:
    game_id: str
    club_id: int
    code: str
    players: int
    created_at: datetime
    stream_on: bool
    stream_delay: int
    next_seq: int = 0  # the game's next seq when the table was read
    watch_closed: bool = False  # closed to observers by the judge or host (B.observers)


@dataclass(frozen=True, slots=True)
class SeatAuth:
    """A live seat token: which seat of which game it opens."""

    token_id: int
    game_id: str
    seat: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class JoinRecord:
    id: int
    game_id: str
    seat: int
    name: str
    status: str
    created_at: datetime


class OnlineRefused(Exception):
    """A request the online table refuses (``code``: no-table, bad-seat, taken, no-request, decided, full,
    cooldown); ``retry_after``: seconds, for full and cooldown."""

    def __init__(self, code: str, retry_after: float | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.retry_after = retry_after


def _table(row: OnlineTable, game: StoredGame) -> TableRecord:
    return TableRecord(row.game_id, game.club_id, row.code, game.players, as_utc(row.created_at),
                       row.stream_hash is not None, row.stream_delay, game.next_seq, row.watch_closed_at is not None)


def _join(row: JoinRequest) -> JoinRecord:
    return JoinRecord(row.id, row.game_id, row.seat, row.name, row.status, as_utc(row.created_at))


def _fresh_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _drawing_codes(store: Store, work: Callable[[Session], R]) -> R:
    """``work(s)`` in a write transaction, run again (up to 8 times) when a table code drawn in it is taken (or
    another request opened the same table meanwhile)."""
    for _ in range(8):
        try:
            with store.write() as s:
                return work(s)
        except IntegrityError:
            continue
    raise RuntimeError("could not draw a free table code")  # pragma: no cover


def _game_row(s: Session, game_id: str) -> StoredGame:
    game = s.get(StoredGame, game_id)
    if game is None:
        raise GameNotFound(game_id)
    return game


def _new_table(s: Session, game_id: str, code: str, user_id: int | None) -> OnlineTable:
    row = OnlineTable(game_id=game_id, code=code, created_by=user_id, created_at=utcnow(), stream_hash=None,
                      stream_delay=0)
    s.add(row)
    s.flush()
    return row


def open_table(store: Store, game_id: str, user_id: int | None) -> TableRecord:
    """Open ``game_id`` for online play (or return its table, already open). Raises :class:`GameNotFound`."""
    def work(s: Session) -> TableRecord:
        game = _game_row(s, game_id)
        row = s.get(OnlineTable, game_id) or _new_table(s, game_id, _fresh_code(), user_id)
        return _table(row, game)
    return _drawing_codes(store, work)


def take_code(store: Store, game_id: str, code: str, user_id: int | None) -> tuple[TableRecord, str | None]:
    """The table code ``code`` passes to ``game_id`` (its online table opened if it is not yet): the next game
    at a table keeps the table's code, so its join page, spectators' page and stream overlay stay where they
    were. The game that had the code (the table's previous game) gets a new code. Returns the game's table and
    the id of the game the code came from (None if it was already this game's). Raises :class:`GameNotFound`,
    and :class:`OnlineRefused`: ``no-table`` (no table of the game's club has this code), ``in-play`` (the
    game that has it is being played: dealt and not over)."""
    wanted = code.strip().upper()

    def work(s: Session) -> tuple[TableRecord, str | None]:
        game = _game_row(s, game_id)
        holder = s.scalar(select(OnlineTable).where(OnlineTable.code == wanted).with_for_update())
        before = None if holder is None else s.get(StoredGame, holder.game_id)
        if holder is None or before is None or before.club_id != game.club_id:
            raise OnlineRefused("no-table")
        if holder.game_id == game_id:
            return _table(holder, game), None
        if before.status == "playing":
            raise OnlineRefused("in-play")
        holder.code = _fresh_code()
        s.flush()
        row = s.get(OnlineTable, game_id)
        if row is None:
            row = _new_table(s, game_id, wanted, user_id)
        else:
            row.code = wanted
        row.watch_closed_at = holder.watch_closed_at  # a table closed to observers stays closed (B.observers)
        s.flush()
        return _table(row, game), before.id
    return _drawing_codes(store, work)


_TABLES = cast(Table, OnlineTable.__table__)
_GAMES = cast(Table, StoredGame.__table__)
_TABLE_ROW = select(_TABLES.c.game_id, _GAMES.c.club_id, _TABLES.c.code, _GAMES.c.players, _TABLES.c.created_at,
                    _TABLES.c.stream_hash, _TABLES.c.stream_delay, _GAMES.c.next_seq,
                    _TABLES.c.watch_closed_at).join_from(
    _TABLES, _GAMES, _GAMES.c.id == _TABLES.c.game_id)
_TABLE_OF_GAME = _TABLE_ROW.where(_TABLES.c.game_id == bindparam("game_id"))
_TABLE_OF_CODE = _TABLE_ROW.where(_TABLES.c.code == bindparam("code"))


def _table_row(store: Store, statement: Any, params: dict[str, str]) -> TableRecord | None:
    """A table read with a plain statement (every spectator's socket that opens asks for one)."""
    with store.read_one() as conn:
        row = conn.execute(statement, params).one_or_none()
    if row is None:
        return None
    return TableRecord(row.game_id, row.club_id, row.code, row.players, as_utc(row.created_at),
                       row.stream_hash is not None, row.stream_delay, row.next_seq, row.watch_closed_at is not None)


def table(store: Store, game_id: str) -> TableRecord | None:
    return _table_row(store, _TABLE_OF_GAME, {"game_id": game_id})


def table_by_code(store: Store, code: str) -> TableRecord | None:
    """The table with this code (case-insensitive), or None; None at once for a text no code can be (every code
    is made of ``CODE_ALPHABET``: a NUL, which PostgreSQL refuses, never reaches the database)."""
    wanted = code.upper()
    if not wanted or not set(wanted) <= _CODE_CHARS:
        return None
    return _table_row(store, _TABLE_OF_CODE, {"code": wanted})


def _revoke_seat(s: Session, game_id: str, seat: int) -> list[int]:
    ids = list(s.scalars(select(SeatToken.id).where(SeatToken.game_id == game_id, SeatToken.seat == seat,
                                                    SeatToken.revoked_at.is_(None))))
    if ids:
        s.execute(update(SeatToken).where(SeatToken.id.in_(ids)).values(revoked_at=utcnow()))
    return ids


def _issue(s: Session, game_id: str, seats: Sequence[int]) -> list[tuple[str, SeatAuth, list[int]]]:
    """New tokens for ``seats`` (their live ones revoked), with one read, one update and one insert."""
    live: dict[int, list[int]] = {}
    for token_id, seat in s.execute(select(SeatToken.id, SeatToken.seat).where(
            SeatToken.game_id == game_id, SeatToken.seat.in_(seats), SeatToken.revoked_at.is_(None))):
        live.setdefault(seat, []).append(token_id)
    now = utcnow()
    old = [token_id for ids in live.values() for token_id in ids]
    if old:
        s.execute(update(SeatToken).where(SeatToken.id.in_(old)).values(revoked_at=now))
    tokens = {seat: new_secret() for seat in seats}
    rows = [SeatToken(game_id=game_id, seat=seat, token_hash=hash_secret(tokens[seat]), created_at=now,
                      revoked_at=None) for seat in seats]
    s.add_all(rows)
    s.flush()
    return [(tokens[r.seat], SeatAuth(r.id, game_id, r.seat, as_utc(r.created_at)), live.get(r.seat, []))
            for r in rows]


def _table_players(s: Session, game_id: str) -> int:
    game = s.get(StoredGame, game_id, with_for_update={"key_share": True})
    if game is None or s.get(OnlineTable, game_id) is None:
        raise OnlineRefused("no-table")
    players: int = game.players
    return players


def issue_seat(store: Store, game_id: str, seat: int) -> tuple[str, SeatAuth, list[int]]:
    """A new personal link for ``seat``: returns the token (shown once, never stored), its record, and the
    ids of the seat's tokens it revoked. Raises :class:`OnlineRefused` (no-table, bad-seat)."""
    with store.write() as s:
        if not 1 <= seat <= _table_players(s, game_id):
            raise OnlineRefused("bad-seat")
        return _issue(s, game_id, [seat])[0]


def issue_seats(store: Store, game_id: str, seats: Sequence[int] | None = None) -> list[tuple[str, SeatAuth, list[int]]]:
    """New personal links for ``seats`` (default: every seat without a live link), in one transaction: per seat
    as :func:`issue_seat`, in seat order. Raises :class:`OnlineRefused` (no-table, bad-seat) with nothing
    issued."""
    with store.write() as s:
        players = _table_players(s, game_id)
        if seats is None:
            linked = set(s.scalars(select(SeatToken.seat).where(SeatToken.game_id == game_id,
                                                                SeatToken.revoked_at.is_(None))))
            wanted = [n for n in range(1, players + 1) if n not in linked]
        else:
            wanted = sorted(set(seats))
            if any(not 1 <= n <= players for n in wanted):
                raise OnlineRefused("bad-seat")
        return _issue(s, game_id, wanted) if wanted else []


def revoke_seat(store: Store, game_id: str, seat: int) -> list[int]:
    """End the seat's live link; returns the ids of the tokens revoked."""
    with store.write() as s:
        return _revoke_seat(s, game_id, seat)


_LIVE_SEAT = select(SeatToken.id, SeatToken.game_id, SeatToken.seat, SeatToken.created_at,
                    _GAMES.c.next_seq).join_from(SeatToken, _GAMES, _GAMES.c.id == SeatToken.game_id).where(
    SeatToken.token_hash == bindparam("token_hash"), SeatToken.revoked_at.is_(None))


def resolve_seat(store: Store, token: str) -> tuple[SeatAuth, int] | None:
    """The seat a live token opens and its game's next seq, read together (a player's socket opening), or
    None (unknown or revoked)."""
    if not token or len(token) > 256:
        return None
    with store.read_one() as s:
        row = s.execute(_LIVE_SEAT, {"token_hash": hash_secret(token)}).one_or_none()
    if row is None:
        return None
    return SeatAuth(row.id, row.game_id, row.seat, as_utc(row.created_at)), row.next_seq


def resolve_token(store: Store, token: str) -> SeatAuth | None:
    """The seat a live token opens, or None (unknown or revoked)."""
    seat = resolve_seat(store, token)
    return None if seat is None else seat[0]


class LinkRevoked(Exception):
    """A seat link revoked (or replaced) before its command was written."""


_TOKEN_IS_LIVE = select(SeatToken.id).where(SeatToken.id == bindparam("token_id"), SeatToken.revoked_at.is_(None))


def link_still_live(token_id: int) -> Callable[[Connection], None]:
    """For ``Store.append(check=...)``: raises :class:`LinkRevoked` unless the link ``token_id`` is live when the
    command is written (in the append's transaction, under its write lock)."""
    def check(conn: Connection) -> None:
        if conn.execute(_TOKEN_IS_LIVE, {"token_id": token_id}).first() is None:
            raise LinkRevoked(token_id)
    return check


def live_token_ids(store: Store, game_id: str) -> frozenset[int]:
    """The ids of the game's seat links that are not revoked."""
    with store.read_one() as s:
        return frozenset(s.scalars(select(SeatToken.id).where(SeatToken.game_id == game_id,
                                                              SeatToken.revoked_at.is_(None))))


def linked_seats(store: Store, game_id: str) -> dict[int, SeatAuth]:
    """The seats that have a live link, with it."""
    with store.read() as s:
        rows = s.scalars(select(SeatToken).where(SeatToken.game_id == game_id, SeatToken.revoked_at.is_(None)))
        return {r.seat: SeatAuth(r.id, r.game_id, r.seat, as_utc(r.created_at)) for r in rows}


# --- joining by the table code -----------------------------------------------------------------------------
def request_join(store: Store, game_id: str, seat: int, name: str, max_pending: int = 6,
                 cooldown: float = 0.0, requester: str | None = None) -> tuple[str, JoinRecord]:
    """A request to take ``seat`` (free: no live link and no approved request; a pending request holds no seat,
    so a stranger with the table code cannot empty the free seats); returns the requester's secret (shown once)
    and the request. ``requester``: a keyed hash of the client's address (never the address), kept on the row:
    while its last request at the table is pending it may not ask again, nor for ``cooldown`` seconds after
    the host denied it (decided here, in the write transaction, under a lock of the pair on PostgreSQL: every
    server process sees the same). The table holds at most ``max_pending`` pending requests, and no more than
    it has free seats; a name the host denied less than ``cooldown`` seconds ago may not ask again yet. Raises
    :class:`OnlineRefused` (no-table, pending, cooldown, bad-seat, taken, full)."""
    secret = new_secret()
    with store.write() as s:
        game = s.get(StoredGame, game_id, with_for_update={"key_share": True})
        if game is None or s.get(OnlineTable, game_id) is None:
            raise OnlineRefused("no-table")
        if requester is not None:
            _held_back(s, game_id, requester, cooldown)
        if not 1 <= seat <= game.players:
            raise OnlineRefused("bad-seat")
        free = free_seats_in(s, game_id, game.players)
        if seat not in free:
            raise OnlineRefused("taken")
        pending = s.scalar(select(func.count()).select_from(JoinRequest).where(
            JoinRequest.game_id == game_id, JoinRequest.status == "pending")) or 0
        if pending >= min(max_pending, len(free)):
            raise OnlineRefused("full", retry_after=30.0)
        if cooldown > 0 and name:
            now = utcnow()
            folded = name.casefold()
            denied = [as_utc(at) for n, at in s.execute(select(JoinRequest.name, JoinRequest.decided_at).where(
                JoinRequest.game_id == game_id, JoinRequest.status == "denied",
                JoinRequest.decided_at >= now - timedelta(seconds=cooldown))) if at is not None and n.casefold() == folded]
            if denied:
                raise OnlineRefused("cooldown", retry_after=cooldown - (now - max(denied)).total_seconds())
        row = JoinRequest(game_id=game_id, seat=seat, name=name, secret_hash=hash_secret(secret),
                          status="pending", created_at=utcnow(), decided_at=None, requester=requester)
        s.add(row)
        s.flush()
        return secret, _join(row)


def _held_back(s: Session, game_id: str, requester: str, cooldown: float) -> None:
    """Refuses (pending, cooldown) while the requester's last request at the table is pending, and for
    ``cooldown`` seconds after it was denied."""
    lock_keys(s.connection(), [f"join:{game_id}:{requester}"])
    last = s.execute(select(JoinRequest.status, JoinRequest.decided_at).where(
        JoinRequest.game_id == game_id, JoinRequest.requester == requester).order_by(
        JoinRequest.id.desc()).limit(1)).first()
    if last is None:
        return
    if last.status == "pending":
        raise OnlineRefused("pending")
    if last.status == "denied" and last.decided_at is not None:
        wait = cooldown - (utcnow() - as_utc(last.decided_at)).total_seconds()
        if wait > 0:
            raise OnlineRefused("cooldown", retry_after=wait)


def free_seats_in(s: Session, game_id: str, players: int) -> list[int]:
    """The seats with no live link and no approved request (pending requests hold no seat)."""
    linked = set(s.scalars(select(SeatToken.seat).where(SeatToken.game_id == game_id,
                                                        SeatToken.revoked_at.is_(None))))
    asked = set(s.scalars(select(JoinRequest.seat).where(JoinRequest.game_id == game_id,
                                                         JoinRequest.status == "approved")))
    return [seat for seat in range(1, players + 1) if seat not in linked and seat not in asked]


def free_seats(store: Store, game_id: str, players: int) -> list[int]:
    with store.read() as s:
        return free_seats_in(s, game_id, players)


def join_requests(store: Store, game_id: str, status: str | None = "pending") -> list[JoinRecord]:
    with store.read() as s:
        q = select(JoinRequest).where(JoinRequest.game_id == game_id)
        if status is not None:
            q = q.where(JoinRequest.status == status)
        return [_join(r) for r in s.scalars(q.order_by(JoinRequest.id))]


def request_marks(store: Store, game_ids: Sequence[str]) -> dict[str, tuple[int, int, int]]:
    """For each of the games that has join requests: (how many, how many decided, the last one's id), one read
    for all of them. A change means the host's console should ask for the requests again (how the live hub finds
    out, while it has no Redis link, about requests made through another process)."""
    if not game_ids:
        return {}
    decided = func.count(JoinRequest.decided_at)
    query = (select(JoinRequest.game_id, func.count(), decided, func.max(JoinRequest.id))
             .where(JoinRequest.game_id.in_(list(game_ids))).group_by(JoinRequest.game_id))
    with store.read_conn() as s:
        return {game_id: (int(n), int(d), int(last)) for game_id, n, d, last in s.execute(query)}


def decide(store: Store, game_id: str, request_id: int, approve: bool) -> JoinRecord:
    """The host approves or denies a pending request. Raises :class:`OnlineRefused` (no-request, decided)."""
    with store.write() as s:
        row = s.get(JoinRequest, request_id)
        if row is None or row.game_id != game_id:
            raise OnlineRefused("no-request")
        if row.status != "pending":
            raise OnlineRefused("decided")
        if approve:
            game = s.get(StoredGame, game_id, with_for_update={"key_share": True})
            if game is None or row.seat not in free_seats_in(s, game_id, game.players):
                raise OnlineRefused("taken")  # another request of the seat was approved, or it has a link
        row.status = "approved" if approve else "denied"
        row.decided_at = utcnow()
        s.flush()
        return _join(row)


def claim(store: Store, secret: str) -> tuple[JoinRecord, str | None, list[int]]:
    """The requester asks after his request: once approved, the first ask issues the seat's token (revoking
    any other link of the seat) and returns it; later asks get None. Raises :class:`OnlineRefused`
    (no-request) for an unknown secret."""
    if not secret or len(secret) > 256:
        raise OnlineRefused("no-request")
    with store.write() as s:
        row = s.scalar(select(JoinRequest).where(JoinRequest.secret_hash == hash_secret(secret)))
        if row is None:
            raise OnlineRefused("no-request")
        if row.status != "approved":
            return _join(row), None, []
        revoked = _revoke_seat(s, row.game_id, row.seat)
        token = new_secret()
        s.add(SeatToken(game_id=row.game_id, seat=row.seat, token_hash=hash_secret(token), created_at=utcnow(),
                        revoked_at=None))
        row.status = "claimed"
        s.flush()
        return _join(row), token, revoked


def set_watch_closed(store: Store, game_id: str, closed: bool) -> TableRecord:
    """Close the table to observers (its spectators' page and overlay) or open it again (B.observers). Raises
    :class:`OnlineRefused` (no-table)."""
    with store.write() as s:
        row = s.get(OnlineTable, game_id)
        if row is None:
            raise OnlineRefused("no-table")
        row.watch_closed_at = (row.watch_closed_at or utcnow()) if closed else None
        s.flush()
        game = _game_row(s, game_id)
        return _table(row, game)


# --- the judge's delayed open stream -------------------------------------------------------------------------
def set_stream(store: Store, game_id: str, delay_minutes: int) -> str:
    """Turn the open stream on with a new link (any older link ends) and ``delay_minutes``; returns the
    token, shown once. Raises :class:`OnlineRefused` (no-table)."""
    token = new_secret()
    with store.write() as s:
        row = s.get(OnlineTable, game_id)
        if row is None:
            raise OnlineRefused("no-table")
        row.stream_hash = hash_secret(token)
        row.stream_delay = delay_minutes
    return token


def stream_off(store: Store, game_id: str) -> None:
    with store.write() as s:
        row = s.get(OnlineTable, game_id)
        if row is not None:
            row.stream_hash = None


def resolve_stream(store: Store, token: str) -> TableRecord | None:
    if not token or len(token) > 256:
        return None
    with store.read() as s:
        row = s.scalar(select(OnlineTable).where(OnlineTable.stream_hash == hash_secret(token)))
        if row is None:
            return None
        game = s.get(StoredGame, row.game_id)
        assert game is not None
        return _table(row, game)


def seq_at(store: Store, game_id: str, moment: datetime) -> int:
    """How many events of the game were recorded at or before ``moment``: the log's length as it stood."""
    count = 0
    for seq, _, at in store.timeline(game_id):
        if at <= moment:
            count = seq + 1
        else:
            break
    return count


def delayed_cutoff(delay_minutes: int, now: datetime | None = None) -> datetime:
    return (now or utcnow()) - timedelta(minutes=delay_minutes)
