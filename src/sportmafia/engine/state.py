"""The game's state and its fold: `GameState` holds every attribute of a game, and folds events into it.

The state is plain attributes (the rule families of ``engine/rules/`` read them, ``view`` shows them); only
the fold below changes them, one event at a time (``_apply``), and ``_refold`` rebuilds them from the log
(after an undo). The rules themselves decide nothing here: they are in ``engine/rules/``, and ``Game``
(``engine/game.py``) composes them with this state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from ..rules import RuleSet
from . import commands as C
from . import events as E
from .cache import tables_for

BLACK_ROLES = frozenset({"mafia", "don"})
RED_ROLES = frozenset({"civilian", "sheriff", "commissar"})
ROLES = BLACK_ROLES | RED_ROLES

NIGHT_STEPS = frozenset(
    {"meet_black", "meet_don", "meet_sheriff", "meet_commissar", "shooting", "kill", "check_don",
     "check_sheriff", "check_commissar"}
)
SPEECH_STEPS = frozenset({"speech", "muted", "tie_speech", "defence", "last_word"})

T = TypeVar("T")


class Rng(Protocol):
    """The random generator a caller passes for chance (the deal, a first speaker, a lot): any object with
    ``shuffle`` and ``choice``, such as a seeded ``random.Random``."""

    def shuffle(self, x: list[Any]) -> None: ...
    def choice(self, seq: Sequence[T]) -> T: ...


def team_of(role: str) -> str:
    return "black" if role in BLACK_ROLES else "red"


class GameState:
    """A game's state: the table, the step, the day's nominations and votes, the night, fouls, the result."""

    def __init__(self, ruleset: RuleSet, players: int, names: Sequence[str] | None = None) -> None:
        ruleset.check_table(players)
        if names is None:
            names = [f"Player {i}" for i in range(1, players + 1)]
        if len(names) != players:
            raise ValueError(f"{players} seats but {len(names)} names")
        self.rules = ruleset
        self.n = players
        self.names: tuple[str, ...] = tuple(names)
        self.log: list[E.Event] = []
        self._seats = range(1, players + 1)
        # Commands and events are immutable values: the ones listed often are made once per table size.
        t = tables_for(players)
        self._cmd_nominate = t.nominate
        self._cmd_withdraw = t.withdraw
        self._cmd_vote = t.vote
        self._cmd_lift = t.lift
        self._cmd_shoot = t.shoot
        self._cmd_check = t.check
        self._cmd_kill = t.kill
        self._cmd_volley = t.volley
        self._cmd_foul = t.foul
        self._cmd_tech = t.tech
        self._cmd_remove = t.remove
        self._ev_nominated = t.ev_nominated
        self._ev_vote = t.ev_vote
        self._ev_shot = t.ev_shot
        rs = ruleset
        self._nom_key = (players, rs.self_nomination, rs.withdrawal, rs.nominations_per_speech)
        self._reset()

    # ------------------------------------------------------------------------------------------------
    # state
    def _reset(self) -> None:
        n = self.n
        self._feeds: dict[int | str, Any] = {}  # the viewers' feeds over the log (views.py), rebuilt after a refold
        self._feed_log: Any = None  # what every viewer's feed needs of each event (views.py), rebuilt likewise
        self.roles: list[str] = [""] * (n + 1)
        self.alive: list[bool] = [False] + [True] * n
        self.alive_count = n
        self.alive_mask = (1 << (n + 1)) - 2  # bit s set: seat s is at the table
        self.voted_mask = 0  # bit v set: v has voted in the current vote
        self.black_count = 0
        self.left: dict[int, tuple[str, int, bool]] = {}
        self.departures: list[tuple[int, str, int, bool]] = []
        self.removed: dict[int, str] = {}
        self.fouls: list[int] = [0] * (n + 1)
        self.tech: list[int] = [0] * (n + 1)
        self.night_fouls: list[int] = [0] * (n + 1)
        self.sanctions: list[list[tuple[str, str]]] = [[] for _ in range(n + 1)]
        self.mute_day: list[int] = [0] * (n + 1)
        self.step = "deal"
        self.day = 0
        self.seat = 0
        self.round = 0
        self.seconds = 0
        self.opener = 0
        self.spoke_today: set[int] = set()
        self.candidates: list[int] = []
        self.nominators: dict[int, list[int]] = {}
        self.withdrawn_at: dict[int, int] = {}
        self.speech_noms: list[int] = []
        self.vote_kind = ""
        self.vote_candidates: list[int] = []
        self.votes: dict[int, int] = {}
        self.lift_yes: set[int] = set()
        self.tie_sizes: list[int] = []
        # the day's closed votes, in order: (kind, tally, leaving, outcome, players at the table when counted)
        self.vote_results: list[tuple[str, tuple[tuple[int, int], ...], tuple[int, ...], str, int]] = []
        self.vote_started = False
        self.vote_decided = False
        self.cancelled_days: set[int] = set()
        self.last_words: list[int] = []
        self.shots: dict[int, list[int]] = {}
        self.kill_target = 0
        self.checked_tonight: set[int] = set()
        self.checks: list[tuple[int, int, int, bool]] = []
        self.night_kills: dict[int, int] = {}
        self.best_move: tuple[int, tuple[int, ...], int] | None = None
        self.winner: str | None = None
        self.result = ""
        self.over = False
        self.protest: tuple[str, tuple[int, ...], bool] | None = None
        self.protest_rule = ""  # A.protest: the rule the protest says was broken
        self.results: list[tuple[str | None, str]] = []
        self._groups: list[int] = []  # the log index of each action in effect, in order (undo takes the last)
        self._legal: list[C.Command] | None = None
        self._step_legal: list[C.Command] | None = None
        self._always: list[C.Command] | None = None

    def _refold(self) -> None:
        log = self.log
        undone: set[int] = set()
        group = -1
        skip_group: dict[int, int] = {}
        for i, ev in enumerate(log):
            if ev.action:
                group = i
            skip_group[i] = group
            if isinstance(ev, E.Undone):
                undone.add(ev.seq)
        self._reset()
        apply = self._apply
        for i, ev in enumerate(log):
            if isinstance(ev, E.Undone) or skip_group[i] in undone:
                continue
            if ev.action:
                self._groups.append(i)
            apply(ev)

    def snapshot(self) -> dict[str, Any]:
        """Every piece of state, as plain data (two games in the same state compare equal)."""
        out: dict[str, Any] = {}
        for key, value in self.__dict__.items():
            if key in ("rules", "log") or (key.startswith("_") and key != "_groups"):
                continue
            if isinstance(value, set):
                value = sorted(value)
            out[key] = value
        return out

    # ------------------------------------------------------------------------------------------------
    # queries
    @property
    def phase(self) -> str:
        """setup, day, night or over."""
        if self.over:
            return "over"
        if self.step == "deal":
            return "setup"
        return "night" if self.step in NIGHT_STEPS else "day"

    def team(self, seat: int) -> str:
        return team_of(self.roles[seat])

    def living(self) -> list[int]:
        alive = self.alive
        return [s for s in self._seats if alive[s]]

    def seat_of(self, role: str) -> int:
        """The seat holding a single role (don, sheriff, commissar), 0 if none."""
        try:
            return self.roles.index(role)
        except ValueError:
            return 0

    def black_alive(self) -> int:
        """Black players at the table (0 before the deal)."""
        return self.black_count

    def checker_seat(self) -> int:
        """The seat whose check step this is (0 if not a check step, or if that player has left)."""
        if not self.step.startswith("check_"):
            return 0
        seat = self.seat_of(self.step[6:])
        return seat if seat and self.alive[seat] else 0

    def undoable(self) -> bool:
        return bool(self._groups)

    # ------------------------------------------------------------------------------------------------
    # the fold
    def _apply(self, ev: E.Event) -> None:
        APPLY[type(ev)](self, ev)

    def _a_dealt(self, ev: E.Dealt) -> None:
        self.roles = ["", *ev.roles]
        self.black_count = sum(1 for s in self._seats if self.alive[s] and self.roles[s] in BLACK_ROLES)

    def _a_step(self, ev: E.Step) -> None:
        step = ev.step
        if ev.day != self.day:
            self.day = ev.day
            self.spoke_today = set()
            self.votes = {}
            self.voted_mask = 0
            self.lift_yes = set()
            self.candidates = []
            self.nominators = {}
            self.withdrawn_at = {}
            self.vote_started = False
            self.vote_decided = False
            self.tie_sizes = []
            self.vote_results = []
            self.vote_kind = ""
            self.vote_candidates = []
        if step in NIGHT_STEPS and self.step not in NIGHT_STEPS:
            self.night_fouls = [0] * (self.n + 1)
            self.shots = {}
            self.kill_target = 0
            self.checked_tonight = set()
        if step in ("speech", "muted"):
            if ev.round == 0 and not self.spoke_today:
                self.opener = ev.seat
            self.spoke_today.add(ev.seat)
            self.speech_noms = []
        elif step == "last_word" and ev.seat in self.last_words:
            self.last_words.remove(ev.seat)
        self.step = step
        self.seat = ev.seat
        self.round = ev.round
        self.seconds = ev.seconds

    def _a_noop(self, ev: E.Event) -> None:
        pass

    def _a_nominated(self, ev: E.Nominated) -> None:
        noms = self.nominators.get(ev.target)
        if noms is None:
            self.nominators[ev.target] = [ev.by]
            place = self.withdrawn_at.pop(ev.target, None)
            if place is not None and not self.rules.withdrawn_renominated_last:
                self.candidates.insert(place, ev.target)  # back to his first place (option, A.nom.withdraw)
            else:
                self.candidates.append(ev.target)
        else:
            # A.nom.repeat: nominated again (B.leaders: his count grows); the order stays as first nominated
            if not noms:
                self.candidates.append(ev.target)
            noms.append(ev.by)
        self.speech_noms.append(ev.target)

    def _a_withdrawn(self, ev: E.Withdrawn) -> None:
        noms = self.nominators[ev.target]
        noms.remove(ev.by)
        if not noms:
            self.withdrawn_at[ev.target] = self.candidates.index(ev.target)
            self.candidates.remove(ev.target)
            del self.nominators[ev.target]
        self.speech_noms.remove(ev.target)

    def _a_vote(self, ev: E.VoteCast) -> None:
        self.votes[ev.voter] = ev.candidate
        self.voted_mask |= 1 << ev.voter

    def _a_lift_vote(self, ev: E.LiftVoteCast) -> None:
        self.lift_yes.add(ev.voter)

    def _a_shot(self, ev: E.ShotFired) -> None:
        self.shots.setdefault(ev.shooter, []).append(ev.target)

    def _a_volley(self, ev: E.VolleyFired) -> None:
        for shooter in ev.shooters:
            self.shots.setdefault(shooter, []).append(ev.target)

    def _a_kill(self, ev: E.KillChosen) -> None:
        self.kill_target = ev.target

    def _a_checked(self, ev: E.Checked) -> None:
        self.checked_tonight.add(ev.checker)
        self.checks.append((self.day, ev.checker, ev.target, ev.found))

    def _a_best_move(self, ev: E.BestMoveNamed) -> None:
        self.best_move = (ev.seat, ev.guesses, ev.black)

    def _a_fouled(self, ev: E.Fouled) -> None:
        if ev.technical:
            self.tech[ev.seat] = ev.count
        else:
            self.fouls[ev.seat] = ev.count
            if self.step in NIGHT_STEPS:
                self.night_fouls[ev.seat] += 1

    def _a_sanctioned(self, ev: E.Sanctioned) -> None:
        self.sanctions[ev.seat].append((ev.offence, ev.sanction))

    def _a_removed(self, ev: E.Removed | E.Expelled) -> None:
        self.removed[ev.seat] = ev.scope

    def _a_protest(self, ev: E.ProtestVoted) -> None:
        self.protest = (ev.outcome, ev.voters, ev.passed)
        self.protest_rule = ev.rule

    def _a_voting_started(self, ev: E.VotingStarted) -> None:
        self.vote_kind = ev.kind
        self.vote_candidates = list(ev.candidates)
        self.votes = {}
        self.voted_mask = 0
        self.lift_yes = set()
        self.vote_started = True

    def _a_default_votes(self, ev: E.DefaultVotes) -> None:
        for v in ev.voters:
            self.votes[v] = ev.candidate

    def _a_vote_result(self, ev: E.VoteResult) -> None:
        self.vote_results.append((ev.kind, ev.tally, ev.leaving, ev.outcome, self.alive_count))
        if ev.outcome == "tie":
            self.tie_sizes.append(len(ev.leaving))
        else:
            self.vote_decided = True
            self.last_words = list(ev.leaving)

    def _a_cancelled(self, ev: E.VoteCancelled) -> None:
        self.cancelled_days.add(ev.day)

    def _a_muted(self, ev: E.Muted) -> None:
        self.mute_day[ev.seat] = ev.day

    def _a_left(self, ev: E.PlayerLeft) -> None:
        self.alive[ev.seat] = False
        self.alive_count -= 1
        self.alive_mask &= ~(1 << ev.seat)
        if self.roles[ev.seat] in BLACK_ROLES:
            self.black_count -= 1
        self.left[ev.seat] = (ev.how, ev.day, ev.night)
        self.departures.append((ev.seat, ev.how, ev.day, ev.night))
        self._always = None

    def _a_night_result(self, ev: E.NightResult) -> None:
        self.night_kills[ev.night] = ev.killed
        if ev.killed:
            self.last_words = [ev.killed]

    def _a_lot(self, ev: E.LotDrawn) -> None:
        self.vote_decided = True
        self.last_words = [ev.seat]

    def _a_ended(self, ev: E.GameEnded) -> None:
        self.over = True
        self.winner = ev.winner
        self.result = ev.result
        self.results.append((ev.winner, ev.result))
        self.step = "over"


APPLY: dict[type[E.Event], Any] = {
    E.Dealt: GameState._a_dealt,
    E.FirstSpeakerDrawn: GameState._a_noop,
    E.LotDrawn: GameState._a_lot,
    E.Advanced: GameState._a_noop,
    E.Nominated: GameState._a_nominated,
    E.Withdrawn: GameState._a_withdrawn,
    E.VoteCast: GameState._a_vote,
    E.LiftVoteCast: GameState._a_lift_vote,
    E.ShotFired: GameState._a_shot,
    E.VolleyFired: GameState._a_volley,
    E.KillChosen: GameState._a_kill,
    E.Checked: GameState._a_checked,
    E.BestMoveNamed: GameState._a_best_move,
    E.Fouled: GameState._a_fouled,
    E.Sanctioned: GameState._a_sanctioned,
    E.Removed: GameState._a_removed,
    E.Expelled: GameState._a_removed,
    E.Awarded: GameState._a_noop,
    E.TeamDefeated: GameState._a_noop,
    E.Overridden: GameState._a_noop,
    E.ProtestVoted: GameState._a_protest,
    E.Undone: GameState._a_noop,
    E.Step: GameState._a_step,
    E.VotingStarted: GameState._a_voting_started,
    E.DefaultVotes: GameState._a_default_votes,
    E.VoteResult: GameState._a_vote_result,
    E.VoteCancelled: GameState._a_cancelled,
    E.Muted: GameState._a_muted,
    E.PlayerLeft: GameState._a_left,
    E.NightResult: GameState._a_night_result,
    E.GameEnded: GameState._a_ended,
}
"""The fold: each event type's handler."""
