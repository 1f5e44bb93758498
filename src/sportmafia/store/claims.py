"""Bots at online tables (docs/bots.md, "Bots at an online table"; migration 0015): the claims the seats made in
their speeches, kept beside the game's log, and which seats of a table bots play.

A claim is written under the game's row lock (the lock every append of the game takes), checked on the game as
it stands then (``check``: only the seat whose speech it is speaks), and numbered ``n`` from 0 with ``at``, the
log's length: claims and events of one game are written one at a time, so a claim's place in the log is the
one it was checked at. The engine never reads a claim.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..bots.claims import Claim, Said
from ..engine import Game
from . import statements as st
from .limits import lock_keys
from .models import Club, InstallationFact, SaidClaim, TableBots, as_utc, utcnow
from .records import GameLocked, GameNotFound
from .store import Store

PRACTICE_CLUB = "practice_club"
"""The installation fact naming the club the practice tables' games belong to (kept apart from every real club's
games, ratings and statistics)."""


def add_claim(store: Store, game_id: str, claim: Claim, check: Callable[[Game], None]) -> tuple[int, Said]:
    """Keep ``claim`` if ``check`` (called with the game as it stands, under the game's lock) lets it: its number
    ``n`` among the game's claims and the claim with its place in the log (the same claim made again at the same
    place, a retry, is kept once: its first number). Raises what ``check`` raises,
    :class:`GameNotFound`, or :class:`GameLocked` for a signed game; nothing is written then."""
    for _ in range(3):
        try:
            with store.write_conn() as s:
                head = s.execute(st.HEAD, {"game_id": game_id}).one_or_none()
                if head is None:
                    raise GameNotFound(game_id)
                if head.signed_at is not None:
                    raise GameLocked(game_id, as_utc(head.signed_at))
                game = store._take_folded(s, head)
                try:
                    check(game)
                finally:
                    store._keep_folded(game_id, game)
                said = Said(len(game.log), claim)
                same = s.scalar(select(SaidClaim.n).where(
                    SaidClaim.game_id == game_id, SaidClaim.at == said.at, SaidClaim.seat == claim.seat,
                    SaidClaim.kind == claim.kind, _is(SaidClaim.target, claim.target), _is(SaidClaim.role, claim.role),
                    _is(SaidClaim.color, claim.color)))
                if same is not None:  # said again at the same moment (a retry): kept once
                    return same, said
                n = s.scalar(select(func.count()).select_from(SaidClaim).where(SaidClaim.game_id == game_id)) or 0
                s.execute(insert(SaidClaim).values(game_id=game_id, n=n, at=said.at, seat=claim.seat, kind=claim.kind,
                                                   target=claim.target, role=claim.role, color=claim.color,
                                                   created_at=utcnow()))
            return n, said
        except IntegrityError:  # another process numbered a claim of the game at once (no row lock on SQLite)
            continue
    raise RuntimeError(f"game {game_id}: the claim could not be numbered")


def _is(column: Any, value: Any) -> Any:
    return column.is_(None) if value is None else column == value


def claims(store: Store, game_id: str, since: int = 0) -> list[Said]:
    """The game's claims from number ``since``, in order."""
    with store.read_one() as s:
        rows = s.execute(select(SaidClaim.at, SaidClaim.seat, SaidClaim.kind, SaidClaim.target, SaidClaim.role,
                                SaidClaim.color).where(SaidClaim.game_id == game_id, SaidClaim.n >= since)
                         .order_by(SaidClaim.n)).all()
    return [Said(r.at, Claim(r.seat, r.kind, r.target, r.role, r.color)) for r in rows]


def claim_counts(store: Store, game_ids: Sequence[str]) -> dict[str, int]:
    """How many claims each of the games has (those with none are left out), in one read."""
    if not game_ids:
        return {}
    with store.read_conn() as s:
        rows = s.execute(select(SaidClaim.game_id, func.count()).where(SaidClaim.game_id.in_(list(game_ids)))
                         .group_by(SaidClaim.game_id)).all()
    return {game_id: count for game_id, count in rows}


# --- which seats bots play ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BotsRecord:
    """Which seats of a game's online table bots play (seat → agent name), and how the table runs."""

    game_id: str
    agents: dict[int, str]
    runs_table: bool
    pace: str
    seed: int
    practice: bool

    def to_json(self) -> dict[str, Any]:
        return {"agents": {str(k): v for k, v in sorted(self.agents.items())}, "runs_table": self.runs_table,
                "pace": self.pace, "practice": self.practice}


def _record(row: Any) -> BotsRecord:
    return BotsRecord(row.game_id, {int(k): str(v) for k, v in row.agents.items()}, bool(row.runs_table), row.pace,
                      row.seed, bool(row.practice))


def set_bots(store: Store, game_id: str, agents: Mapping[int, str], *, runs_table: bool, pace: str, seed: int,
             practice: bool = False) -> BotsRecord:
    """Bots at ``agents``' seats of the game's table (replacing what was set), the server playing the host's part
    if ``runs_table``."""
    values = {"agents": {str(k): v for k, v in sorted(agents.items())}, "runs_table": runs_table, "pace": pace,
              "seed": seed, "practice": practice}
    with store.write_conn() as s:
        if s.execute(st.HEAD, {"game_id": game_id}).one_or_none() is None:
            raise GameNotFound(game_id)
        if not s.execute(update(TableBots).where(TableBots.game_id == game_id).values(**values)).rowcount:
            s.execute(insert(TableBots).values(game_id=game_id, created_at=utcnow(), lease_until=0.0, **values))
    return BotsRecord(game_id, dict(agents), runs_table, pace, seed, practice)


def bots_of(store: Store, game_id: str) -> BotsRecord | None:
    with store.read_conn() as s:
        row = s.execute(select(TableBots).where(TableBots.game_id == game_id)).one_or_none()
    return None if row is None else _record(row)


def clear_bots(store: Store, game_id: str) -> bool:
    """No bots at the game's table any more (the seats they held are free); whether there were."""
    with store.write_conn() as s:
        return bool(s.execute(delete(TableBots).where(TableBots.game_id == game_id)).rowcount)


def tables_with_bots(store: Store) -> list[BotsRecord]:
    """The tables with bots whose games are not over (a restarted server takes them up again)."""
    with store.read_conn() as s:
        rows = s.execute(select(TableBots).join(st.GAMES, st.GAMES.c.id == TableBots.game_id)
                         .where(st.GAMES.c.status != "over")).all()
    return [_record(row) for row in rows]


def take_lease(store: Store, game_id: str, runner: str, now: float, seconds: float) -> bool:
    """Hold the table's bots for ``runner`` until ``now + seconds`` if nobody else holds them now (or renew its
    own hold); whether it holds them. One process runs a table's bots at a time."""
    with store.write_conn() as s:
        done = s.execute(update(TableBots).where(TableBots.game_id == game_id,
                                                 (TableBots.runner == runner) | (TableBots.lease_until < now))
                         .values(runner=runner, lease_until=now + seconds))
    return bool(done.rowcount)


def drop_lease(store: Store, game_id: str, runner: str) -> None:
    """``runner`` lets the table go (another process may take it at once)."""
    with store.write_conn() as s:
        s.execute(update(TableBots).where(TableBots.game_id == game_id, TableBots.runner == runner)
                  .values(lease_until=0.0))


def practice_club(store: Store) -> int:
    """The club the practice tables' games belong to, made on first use (one per installation)."""
    query = select(InstallationFact.value).where(InstallationFact.name == PRACTICE_CLUB)
    with store.read_conn() as s:
        found = s.execute(query).scalar_one_or_none()
    if found is not None:
        return int(found)
    with store.write_conn() as s:
        lock_keys(s, [PRACTICE_CLUB])  # PostgreSQL: one process makes it (SQLite: one writer at a time)
        found = s.execute(query).scalar_one_or_none()
        if found is None:
            club_id: int = s.execute(insert(Club).values(name="Practice tables", created_at=utcnow())
                                     .returning(Club.id)).scalar_one()
            s.execute(insert(InstallationFact).values(name=PRACTICE_CLUB, value=str(club_id)))
            return club_id
    return int(found)
