"""Command dispatch: ``execute``, the checks every handler shares, ``fold_in``, "Next" and undo.

`Dispatch` is the base of every rule family (``engine/rules/``): a family's ``_x_*`` handler checks one
command against the rules and the current step, and only then emits its events (``_emit`` appends an event
to the log and folds it in). ``Game`` (``engine/game.py``) composes the families and names each command's
handler (``_handlers``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from ..i18n import verbatim
from . import commands as C
from . import events as E
from .cache import ADVANCED
from .errors import RuleViolation
from .state import APPLY, GameState, Rng


class Dispatch(GameState):
    """Execute commands; the checks shared by the rule families; the host's "Next"; undo."""

    _handlers: ClassVar[dict[type[C.Command], Callable[[Any, Any, Rng | None], None]]] = {}
    """Each command type's handler (a rule family's ``_x_*`` method), set by ``Game``."""

    def execute(self, command: C.Command, rng: Rng | None = None, actor: int | None = None) -> list[E.Event]:
        """Apply ``command`` if it is legal now; return the events it produced.

        ``actor``: None for the host or judge, or a seat number for a player acting from his device
        (he may act only for himself). Raises :class:`RuleViolation` and changes nothing otherwise.
        """
        if actor is not None and command.actor_seat() != actor:
            raise RuleViolation("not-yours", actor=actor)
        handler = self._handlers.get(type(command))
        if handler is None:
            raise RuleViolation("unknown-command", name=type(command).__name__)
        log = self.log
        mark = len(log)
        try:
            handler(self, command, rng)
        except RuleViolation:
            if len(log) != mark:  # pragma: no cover - handlers check before they emit
                del log[mark:]
                self._refold()
            raise
        except Exception:
            del log[mark:]
            self._refold()
            raise
        self._legal = self._step_legal = None
        return log[mark:]

    def _emit(self, ev: E.Event) -> None:
        """Append an event to the log and fold it in (handlers emit only after every check passed)."""
        log = self.log
        if ev.action:
            self._groups.append(len(log))
        log.append(ev)
        APPLY[type(ev)](self, ev)

    def fold_in(self, events: Iterable[E.Event]) -> None:
        """Fold events that continue this game's log (as read back from a store), without re-reading the log:
        the game ends as ``from_events(rules, n, log + events)`` would (an ``undone`` refolds the whole log,
        since it takes back an earlier group)."""
        log = self.log
        refold = False
        for ev in events:
            if isinstance(ev, E.Undone):
                log.append(ev)
                refold = True
            elif refold:
                log.append(ev)
            else:
                self._emit(ev)
        if refold:
            self._refold()
        self._legal = self._step_legal = None

    # --- checks shared by handlers -------------------------------------------------------------------
    def _need_live_game(self) -> None:
        if self.over:
            raise RuleViolation("game-over")
        if self.step == "deal":
            raise RuleViolation("not-dealt")

    def _need_seat(self, seat: int) -> None:
        if type(seat) is not int or not 1 <= seat <= self.n:
            raise RuleViolation("bad-seat", seat=seat, n=self.n)

    def _need_alive(self, seat: int, clause: str = "A.nom.dead") -> None:
        self._need_seat(seat)
        if not self.alive[seat]:
            raise RuleViolation("not-alive", clause=clause, seat=seat)

    def _wrong_step(self, what: str, clause: str) -> RuleViolation:
        from .describe import STEP_NAMES, WHAT_NAMES

        return RuleViolation("wrong-step", clause=clause, step=STEP_NAMES.get(self.step, verbatim(self.step)),
                             what=WHAT_NAMES.get(what, verbatim(what)))

    def _drawn_seat(self, seat: int | None, rng: Rng | None, clause: str) -> int:
        """The seat a chance command names (drawn at the table), else one drawn at random among the living
        (B.speech.order, B.lot)."""
        if seat is not None:
            self._need_alive(seat, clause)
            return seat
        if rng is None:
            raise RuleViolation("need-rng", clause=clause)
        drawn: int = rng.choice(self.living())
        return drawn

    # --- the host's "Next" ---------------------------------------------------------------------------
    def _x_advance(self, cmd: C.Advance, rng: Rng | None) -> None:
        step = self.step
        if self.over or step == "deal":
            self._need_live_game()
        if step in ("first_speaker", "lot"):
            raise RuleViolation("need-rng", clause="B.speech.order" if step == "first_speaker" else "B.lot")
        if step == "kill" and not self.kill_target:
            raise RuleViolation("kill-required")
        log = self.log
        self._groups.append(len(log))
        log.append(ADVANCED)  # the action event of "Next" (it changes no state by itself)
        self._advance()

    def _advance(self) -> None:
        """The current step ends: each step's family says what follows."""
        step = self.step
        if step == "speech" or step == "muted":
            self._next_speaker()
        elif step.startswith("meet_"):
            self._next_meeting(step[5:])
        elif step == "last_word":
            self._next_last_word_or(self._after_last_words)
        elif step == "tie_speech":
            self._next_tie_speaker("tie_speech")
        elif step == "defence":
            self._next_tie_speaker("defence")
        elif step == "voting":
            if self.rules.nomination_style == "leaders":
                self._count_leaders_vote()
            else:
                self._close_candidate()
        elif step == "lift":
            self._count_lift()
        else:  # night steps
            self._next_night_step()

    # --- undo ----------------------------------------------------------------------------------------
    def _x_undo(self, cmd: C.Undo, rng: Rng | None) -> None:
        if not self._groups:
            raise RuleViolation("nothing-to-undo")
        seq = self._groups[-1]
        self.log.append(E.Undone(seq))
        self._refold()

    if TYPE_CHECKING:  # what the rule families (engine/rules/) give each other, composed in Game
        def _start_night(self, night: int) -> None: ...
        def _start_day(self, day: int) -> None: ...
        def _first_speech_of_day(self, day: int) -> None: ...
        def _start_speech(self, seat: int, rnd: int) -> None: ...
        def _next_speaker(self) -> None: ...
        def _next_last_word_or(self, then: Callable[[], None]) -> None: ...
        def _after_last_words(self) -> None: ...
        def _next_tie_speaker(self, step: str) -> None: ...
        def _end_of_speeches(self) -> None: ...
        def _default_and_count(self) -> None: ...
        def _close_candidate(self) -> None: ...
        def _count_lift(self) -> None: ...
        def _tally(self) -> list[tuple[int, int]]: ...
        def _decided_leavers(self) -> tuple[int, ...] | None: ...
        def _leaders(self, cands: list[int]) -> None: ...
        def _count_leaders_vote(self) -> None: ...
        def _next_meeting(self, who: str) -> None: ...
        def _next_night_step(self) -> None: ...
        def _volley_shooters(self) -> list[int]: ...
        def _end_night(self) -> None: ...
        def _start_night_after_day(self) -> None: ...
        def _night_special_win(self, night: int, killed: int) -> bool: ...
        def _leave(self, seats: Iterable[int], how: str) -> None: ...
        def _best_move_open(self) -> bool: ...
