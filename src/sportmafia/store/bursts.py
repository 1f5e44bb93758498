"""One transaction's appends of one game (:meth:`Store.append_many`): each executed in turn on the game the
ones before it left."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

from ..engine import Event, Game, RuleViolation, feed_events
from . import statements as st
from .models import as_utc
from .records import Append, AppendResult, GameLocked, StaleSequence


class Judged(Exception):
    """An append's ``judge`` refused it (its refusal is the answer)."""

    def __init__(self, refusal: Exception) -> None:
        super().__init__(refusal)
        self.refusal = refusal


class Burst:
    """The appends of one transaction (:meth:`Store.append_many`): each executed in turn on the game the ones
    before it left, its events numbered after theirs; the rows to insert and each one's answer kept."""

    def __init__(self, take_folded: Callable[[Connection, Any], Game], s: Connection, head: Any) -> None:
        self._take_folded, self._s, self._head = take_folded, s, head
        self.game: Game | None = None
        self.next_seq: int = head.next_seq
        self.rows: list[dict[str, Any]] = []
        self._outs: list[tuple[tuple[Event, ...], int, bool] | Exception] = []
        self._ids: dict[str, tuple[tuple[Event, ...], int]] = {}

    def run(self, a: Append) -> None:
        try:
            if a.check is not None:
                a.check(self._s)
        except SQLAlchemyError:
            raise
        except Exception as exc:  # whatever the check raises refuses this command alone
            self._outs.append(exc)
            return
        try:
            self._outs.append(self._one(a))
        except (StaleSequence, GameLocked, RuleViolation) as exc:  # nothing of it done; the others stand
            self._outs.append(exc)
        except Judged as judged:
            self._outs.append(judged.refusal)

    def _one(self, a: Append) -> tuple[tuple[Event, ...], int, bool]:
        head, game_id = self._head, self._head.id
        if a.command_id in self._ids:  # twice in one burst: the first one's answer
            events, first = self._ids[a.command_id]
            return events, first, True
        prior = st.seq_of_command(self._s, game_id, a.command_id)
        if prior is not None:
            done = st.replayed(self._s, game_id, self.next_seq, prior)
            return done.events, done.first_seq, True
        if head.signed_at is not None:
            raise GameLocked(game_id, as_utc(head.signed_at))
        game = self.game = self.game if self.game is not None else self._take_folded(self._s, head)
        expected = a.expected_seq
        if a.feed_of is not None:
            # what the player saw is his feed: the command stands if every entry of it since he decided is one
            # that leaves the phase as it was; what is hidden from him (a teammate's shot, the host's undoing of
            # it) changes nothing he saw and never makes his command stale
            try:
                since_seen = feed_events(game, a.feed_of, expected)
            except ValueError:
                since_seen = None
            if since_seen is None or (since_seen and (a.rebase is None or not a.rebase(since_seen))):
                raise StaleSequence(game_id, expected, self.next_seq)
            expected = self.next_seq
        if expected != self.next_seq and (a.rebase is None or not 0 <= expected < self.next_seq
                                          or not a.rebase(game.log[expected:])):
            raise StaleSequence(game_id, expected, self.next_seq)
        refusal = a.judge(game) if a.judge is not None else None
        if refusal is not None:
            raise Judged(refusal)
        events = tuple(game.execute(a.command, rng=a.rng, actor=a.actor))  # refused: the engine changed nothing
        first = self.next_seq
        self.rows.extend({"game_id": game_id, "seq": first + i, "type": ev.type, "data": ev.to_json(),
                          "command_id": a.command_id if i == 0 else None} for i, ev in enumerate(events))
        self.next_seq += len(events)
        self._ids[a.command_id] = (events, first)
        return events, first, False

    def answers(self, head_seq: int) -> list[AppendResult | Exception]:
        return [out if isinstance(out, Exception) else
                AppendResult(out[0], out[1], out[1] + len(out[0]), head_seq, replayed=out[2]) for out in self._outs]
