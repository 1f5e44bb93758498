"""What other layers need of a game's history, so that none re-implements a rule: the action the next Undo
takes back, the game as it stood after its first events, whether a run of events changes the phase, and the
log's events still in effect (undone actions and their consequences left out)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from . import events as E
from .game import Game


@dataclass(frozen=True, slots=True)
class LastAction:
    """The action the next Undo takes back: its log index, its events (the action first, then its
    consequences) and the step the game was in when it was taken (None before the first step)."""

    seq: int
    events: tuple[E.Event, ...]
    step: E.Step | None


def last_action(game: Game) -> LastAction | None:
    """The last action still in effect, which the next Undo takes back (None if nothing can be undone).

    >>> from sportmafia.rules import get_ruleset
    >>> from sportmafia.engine import DealCards
    >>> import random
    >>> g = Game(get_ruleset("club"), 10)
    >>> _ = g.execute(DealCards(), random.Random(1))
    >>> last = last_action(g)
    >>> (last.seq, last.events[0].type, last.step)
    (0, 'dealt', None)
    """
    groups = game._groups  # the log index of each action in effect, in order
    if not groups:
        return None
    log = game.log
    seq = groups[-1]
    events = tuple(log[seq:_group_end(log, seq)])
    step: E.Step | None = None
    for start in reversed(groups[:-1]):
        for i in range(_group_end(log, start) - 1, start - 1, -1):
            ev = log[i]
            if isinstance(ev, E.Step):
                step = ev
                break
        if step is not None:
            break
    return LastAction(seq, events, step)


def _group_end(log: list[E.Event], start: int) -> int:
    """The index after the last consequence of the action at ``start``."""
    end = start + 1
    while end < len(log) and not log[end].action:
        end += 1
    return end


def in_effect(log: Sequence[E.Event]) -> Iterator[tuple[int, E.Event]]:
    """The events of ``log`` still in effect, with their log indexes, in order: the log the game's state is the
    fold of (every ``undone`` left out, and with it the action it takes back and that action's consequences).

    >>> from sportmafia.engine import events as E
    >>> log = [E.Advanced(), E.Step("speech", 1, 1), E.Advanced(), E.Step("speech", 1, 2), E.Undone(2)]
    >>> [i for i, _ in in_effect(log)]
    [0, 1]
    """
    undone = {ev.seq for ev in log if isinstance(ev, E.Undone)}
    group = -1
    for i, ev in enumerate(log):
        if ev.action:
            group = i
        if group in undone or isinstance(ev, E.Undone):
            continue
        yield i, ev


def prefix(game: Game, count: int) -> Game:
    """The game as it stood after the first ``count`` events of its log (a new game; ``game`` is unchanged)."""
    return Game.from_events(game.rules, game.n, game.log[:count], game.names)


SAME_PHASE: frozenset[type[E.Event]] = frozenset({
    E.VoteCast, E.LiftVoteCast, E.ShotFired, E.VolleyFired, E.Checked, E.Nominated, E.Withdrawn, E.Fouled, E.Sanctioned,
    E.Muted, E.BestMoveNamed, E.KillChosen,
})
"""Events that leave the phase as it was: players' acts (hands, shots, checks, nominations) and fouls."""


def changes_phase(events: Iterable[E.Event]) -> bool:
    """Whether a run of events moves the game on from the phase it was in: a new step, speaker, candidate,
    vote, departure or an undo (anything but players' acts and fouls)."""
    return any(type(ev) not in SAME_PHASE for ev in events)
