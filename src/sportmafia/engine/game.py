"""`Game`: one game of Mafia, the fold of its event log, with the rules of every family.

``execute(command)`` checks the command against the rule set and the current step, and either raises a
:class:`RuleViolation` (nothing changes) or appends the command's action event and its consequences to the
log and folds them into the state. ``legal_commands(actor)`` lists what an actor may do now. The engine is
pure: no clock, no IO; chance comes from a random generator the caller passes and is logged as events.

Where things are: the state and its fold in ``state.py``; dispatch, the shared checks and undo in
``dispatch.py``; each rule family in ``rules/`` (its decisions as small functions citing their clauses);
the process-wide caches in ``cache.py``. What other layers need of a game's history (the last action, a
prefix of the game, whether a step changes the phase) is in ``history.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..rules import RuleSet
from . import commands as C
from . import events as E
from .rules.club_vote import ClubVoteRules
from .rules.deal import DealRules
from .rules.discipline import DisciplineRules
from .rules.judge import JudgeRules
from .rules.leaders_vote import LeadersVoteRules
from .rules.legal import LegalCommands
from .rules.night import NightRules
from .rules.nominations import NominationRules
from .rules.speeches import SpeechRules
from .rules.win import WinRules


class Game(DealRules, SpeechRules, NominationRules, ClubVoteRules, LeadersVoteRules, NightRules, WinRules,
           DisciplineRules, JudgeRules, LegalCommands):
    """A game in progress (or finished). Build with :meth:`new` or :meth:`from_events`."""

    @classmethod
    def new(cls, ruleset: RuleSet, players: int, names: Sequence[str] | None = None) -> Game:
        return cls(ruleset, players, names)

    @classmethod
    def from_events(cls, ruleset: RuleSet, players: int, events: Iterable[E.Event],
                    names: Sequence[str] | None = None) -> Game:
        """Fold a log into a game (no rule checks: use :func:`replay` to re-run a record)."""
        game = cls(ruleset, players, names)
        game.log = list(events)
        game._refold()
        return game


Game._handlers = {
    C.DealCards: Game._x_deal,
    C.DrawFirstSpeaker: Game._x_first_speaker,
    C.DrawLot: Game._x_lot,
    C.Advance: Game._x_advance,
    C.Nominate: Game._x_nominate,
    C.Withdraw: Game._x_withdraw,
    C.Vote: Game._x_vote,
    C.LiftVote: Game._x_lift_vote,
    C.Shoot: Game._x_shoot,
    C.Volley: Game._x_volley,
    C.Kill: Game._x_kill,
    C.Check: Game._x_check,
    C.BestMove: Game._x_best_move,
    C.Foul: Game._x_foul,
    C.Sanction: Game._x_sanction,
    C.Remove: Game._x_remove,
    C.Award: Game._x_award,
    C.TeamDefeat: Game._x_team_defeat,
    C.Override: Game._x_override,
    C.Protest: Game._x_protest,
    C.Undo: Game._x_undo,
}
