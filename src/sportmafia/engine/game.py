"""`Game`: one game of Mafia, the fold of its event log.

``execute(command)`` checks the command against the rule set and the current step, and either raises a
:class:`RuleViolation` (nothing changes) or appends the command's action event and its consequences to the
log and folds them into the state. ``legal_commands(actor)`` lists what an actor may do now. The engine is
pure: no clock, no IO; chance comes from a random generator the caller passes and is logged as events.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol, TypeVar

from ..rules import RuleSet
from . import commands as C
from . import events as E
from .decided import lift_passed, sole_leader
from .errors import RuleViolation

BLACK_ROLES = frozenset({"mafia", "don"})
RED_ROLES = frozenset({"civilian", "sheriff", "commissar"})
ROLES = BLACK_ROLES | RED_ROLES

NIGHT_STEPS = frozenset(
    {"meet_black", "meet_don", "meet_sheriff", "meet_commissar", "shooting", "kill", "check_don",
     "check_sheriff", "check_commissar"}
)
SPEECH_STEPS = frozenset({"speech", "muted", "tie_speech", "defence", "last_word"})

# B.sanctions: offence -> sanctions in order of repetition (the last repeats).
SANCTIONS: dict[str, tuple[str, ...]] = {
    "card_info": ("tournament",),
    "rudeness": ("warning", "tournament"),
    "eyes_open": ("round", "tournament"),
    "disruption": ("ban",),
    "gestures": ("warning", "game"),
    "drunk": ("tournament",),
    "arguing": ("warning", "warning", "round"),
}
REMOVAL_SCOPES = ("game", "round", "tournament", "ban")
# A.protest, A.judge: results the judge decided ("Решение судьи обжалованию не подлежит"): no protest.
JUDGED = frozenset({"override", "award", "team-defeat"})

# A.foul.reasons and A.remove.reasons: the seed's lists, as stable codes (texts in describe.py).
FOUL_REASONS = ("unethical", "night_conduct", "gestures", "hand_pulled", "out_of_turn", "forbidden_words",
                "night_gestures", "table_banging", "late_mask", "religion", "touching")
REMOVAL_REASONS = ("foul4", "insult", "bets", "oath", "judge_dispute", "night_hints", "peeping",
                   "left_seat", "night_touch")

T = TypeVar("T")


class Rng(Protocol):
    def shuffle(self, x: list[Any]) -> None: ...
    def choice(self, seq: Sequence[T]) -> T: ...


def team_of(role: str) -> str:
    return "black" if role in BLACK_ROLES else "red"


class Game:
    """A game in progress (or finished). Build with :meth:`new` or :meth:`from_events`."""

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
        self._build_command_tables()
        rs = ruleset
        self._nom_key = (players, rs.self_nomination, rs.withdrawal, rs.nominations_per_speech)
        self._reset()

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

    # ------------------------------------------------------------------------------------------------
    # state
    def _reset(self) -> None:
        n = self.n
        self._feeds: dict[int | str, Any] = {}  # the viewers' feeds over the log (views.py), rebuilt after a refold
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
        self._groups: list[int] = []
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

    def _winner_by_count(self) -> str | None:
        black = self.black_alive()
        if black == 0:
            return "red"
        if black >= self.alive_count - black:
            return "black"
        return None

    def undoable(self) -> bool:
        return bool(self._groups)

    # ------------------------------------------------------------------------------------------------
    # the fold
    def _apply(self, ev: E.Event) -> None:
        _APPLY[type(ev)](self, ev)

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
                self.candidates.insert(place, ev.target)  # back to his first place (option)
            else:
                self.candidates.append(ev.target)
        else:
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

    # ------------------------------------------------------------------------------------------------
    # executing commands
    def execute(self, command: C.Command, rng: Rng | None = None, actor: int | None = None) -> list[E.Event]:
        """Apply ``command`` if it is legal now; return the events it produced.

        ``actor``: None for the host or judge, or a seat number for a player acting from his device
        (he may act only for himself). Raises :class:`RuleViolation` and changes nothing otherwise.
        """
        if actor is not None and command.actor_seat() != actor:
            raise RuleViolation("not-yours", actor=actor)
        handler = _EXECUTE.get(type(command))
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
        _APPLY[type(ev)](self, ev)

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

        step_en, step_ru = STEP_NAMES.get(self.step, (self.step, self.step))
        what_en, what_ru = WHAT_NAMES.get(what, (what, what))
        return RuleViolation("wrong-step", clause=clause, step=step_en, step_ru=step_ru,
                             what=what_en, what_ru=what_ru)

    # --- chance ---------------------------------------------------------------------------------------
    def _x_deal(self, cmd: C.DealCards, rng: Rng | None) -> None:
        if self.over:
            raise RuleViolation("game-over")
        if self.step != "deal":
            raise RuleViolation("already-dealt")
        rs = self.rules
        if cmd.roles is not None:
            roles = tuple(cmd.roles)
            if len(roles) != self.n:
                raise RuleViolation("bad-deal", detail=f"{len(roles)} cards for {self.n} seats")
            black = sum(1 for r in roles if r in BLACK_ROLES)
            unknown = [r for r in roles if r not in ROLES]
            if unknown:
                raise RuleViolation("bad-deal", detail=f"unknown role {unknown[0]!r}")
            if black not in rs.black_options(self.n) or sorted(roles) != sorted(rs.roles_for(self.n, black)):
                raise RuleViolation("bad-deal", detail="the cards are not this rule set's deck")
            if cmd.black is not None and cmd.black != black:
                raise RuleViolation("bad-deal", detail=f"{black} black cards, {cmd.black} asked")
        else:
            if cmd.black is not None and cmd.black not in rs.black_options(self.n):
                raise RuleViolation("bad-deal", detail=f"{cmd.black} black players at {self.n}")
            if rng is None:
                raise RuleViolation("need-rng")
            deck = list(rs.roles_for(self.n, cmd.black))
            rng.shuffle(deck)
            roles = tuple(deck)
        self._emit(E.Dealt(roles))
        if rs.intro_day:
            self._emit(_step("first_speaker", 0))
        else:
            self._start_night(0)

    def _x_first_speaker(self, cmd: C.DrawFirstSpeaker, rng: Rng | None) -> None:
        self._need_live_game()
        if self.step != "first_speaker":
            raise self._wrong_step("draw_first_speaker", "B.speech.order")
        if cmd.seat is not None:
            self._need_alive(cmd.seat, "B.speech.order")
            seat = cmd.seat
        else:
            if rng is None:
                raise RuleViolation("need-rng", clause="B.speech.order")
            seat = rng.choice(self.living())
        self._emit(E.FirstSpeakerDrawn(seat))
        self._start_speech(seat, 0)

    def _x_lot(self, cmd: C.DrawLot, rng: Rng | None) -> None:
        self._need_live_game()
        if self.step != "lot":
            raise self._wrong_step("draw_lot", "B.lot")
        if cmd.seat is not None:
            self._need_alive(cmd.seat, "B.lot")
            seat = cmd.seat
        else:
            if rng is None:
                raise RuleViolation("need-rng", clause="B.lot")
            seat = rng.choice(self.living())
        self._emit(E.LotDrawn(seat))
        self._leave((seat,), "lot")
        if not self.over:
            self._next_last_word_or(self._start_night_after_day)

    # --- day: speeches and nominations ------------------------------------------------------------
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
        log.append(_ADVANCED)  # the action event of "Next" (it changes no state by itself)
        self._advance()

    def _advance(self) -> None:
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

    def _x_nominate(self, cmd: C.Nominate, rng: Rng | None) -> None:
        self._need_live_game()
        rs = self.rules
        self._need_seat(cmd.by)
        named = (cmd.target, *cmd.also)
        for t in named:
            self._need_seat(t)
        if self.step not in ("speech", "muted") or self.seat != cmd.by:
            if self.step in ("speech", "muted"):
                raise RuleViolation("not-your-speech", seat=cmd.by, speaker=self.seat)
            raise self._wrong_step("nominate", "A.nom.own")
        if self.day == 0 or self.round != rs.nomination_round:
            raise RuleViolation("no-nominations-now", clause="B.rounds" if rs.intro_day else "A.nom.own")
        if self.day in self.cancelled_days:
            clause = "F.remove.vote" if rs.removal_rule == "fiim" else "A.remove.day"
            raise RuleViolation("vote-cancelled", clause=clause)
        if len(self.speech_noms) >= rs.nominations_per_speech:
            raise RuleViolation("one-nomination", clause="B.rounds" if rs.intro_day else None, seat=cmd.by)
        # A.nom.first-free: of several numbers named, the first not yet nominated is accepted; without it
        # (B.leaders) the first number that can be nominated is, nominated already or not.
        target = 0
        for t in named:
            if self.alive[t] and (rs.self_nomination or t != cmd.by) and (
                not rs.first_free or not self.nominators.get(t)
            ):
                target = t
                break
        if not target:
            target = cmd.target
            self._need_alive(target)
            if not rs.self_nomination and target == cmd.by:
                raise RuleViolation("self-nomination")
        self._emit(E.Nominated(cmd.by, target, named) if cmd.also else self._ev_nominated[cmd.by][target])

    def _x_withdraw(self, cmd: C.Withdraw, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.by)
        self._need_seat(cmd.target)
        if not self.rules.withdrawal:
            raise RuleViolation("no-withdrawal")
        if self.step not in ("speech", "muted") or self.seat != cmd.by:
            raise self._wrong_step("withdraw", "A.nom.withdraw")
        if cmd.target not in self.speech_noms:
            raise RuleViolation("nothing-to-withdraw", seat=cmd.by, target=cmd.target)
        self._emit(E.Withdrawn(cmd.by, cmd.target))

    def _speech_seconds(self, seat: int, rnd: int, day: int) -> tuple[str, int]:
        rs = self.rules
        if day == 0:
            return "speech", rs.intro_seconds
        if rs.fouls and rnd == 0 and self.mute_day[seat] == day:
            if self.alive_count in rs.short_speech_at:
                return "muted", rs.short_speech_seconds
            return "muted", 0
        return "speech", rs.speech_rounds[rnd]

    def _start_speech(self, seat: int, rnd: int) -> None:
        kind, seconds = self._speech_seconds(seat, rnd, self.day)
        self._emit(_step(kind, self.day, seat, rnd, seconds))

    def _next_speaker(self) -> None:
        n, alive, opener = self.n, self.alive, self.opener
        # positions counted clockwise from the day's opener
        pos = (self.seat - opener) % n
        for k in range(pos + 1, n):
            s = (opener - 1 + k) % n + 1
            if alive[s]:
                self._start_speech(s, self.round)
                return
        # the round is over
        rounds = 1 if self.day == 0 else len(self.rules.speech_rounds)
        if self.round + 1 < rounds:
            first = opener
            for k in range(n):
                s = (opener - 1 + k) % n + 1
                if alive[s]:
                    first = s
                    break
            self._start_speech(first, self.round + 1)
            return
        self._end_of_speeches()

    def _start_day(self, day: int) -> None:
        """Morning of ``day``: the night's victim speaks, then the first speech (or its draw)."""
        if self.last_words:
            self._emit(_step("last_word", day, self.last_words[0], 0, self.rules.last_word_seconds))
            return
        self._first_speech_of_day(day)

    def _first_speech_of_day(self, day: int) -> None:
        rs = self.rules
        if rs.first_speaker == "random":
            self._emit(_step("first_speaker", day))
            return
        n, alive = self.n, self.alive
        if day <= 1 or not self.opener:
            start = 1
        else:
            start = self.opener % n + 1
        for k in range(n):
            s = (start - 1 + k) % n + 1
            if alive[s]:
                kind, seconds = self._speech_seconds(s, 0, day)
                self._emit(_step(kind, day, s, 0, seconds))
                return

    def _next_last_word_or(self, then: Any) -> None:
        if self.last_words:
            self._emit(_step("last_word", self.day, self.last_words[0], 0, self.rules.last_word_seconds))
        else:
            then()

    def _after_last_words(self) -> None:
        """After the vote's last words night falls; after the morning's the day's speeches begin."""
        if self.vote_decided:
            self._start_night_after_day()
        else:
            self._first_speech_of_day(self.day)

    # --- voting (club) ----------------------------------------------------------------------------
    def _end_of_speeches(self) -> None:
        rs, day = self.rules, self.day
        if day == 0:
            self._start_night(0)
            return
        if day in self.cancelled_days:
            self._emit(E.VoteResult("vote", (), (), "cancelled"))
            self._start_night_after_day()
            return
        cands = [c for c in self.candidates if self.alive[c]]
        if rs.nomination_style == "leaders":
            self._leaders(cands)
            return
        if not cands:
            self._emit(E.VoteResult("vote", (), (), "no-candidates"))
            self._start_night_after_day()
            return
        if len(cands) == 1 and day == 1 and rs.day1_single_candidate_skip:
            self._emit(E.VoteResult("vote", ((cands[0], 0),), (), "single-day1"))
            self._start_night_after_day()
            return
        self._start_vote("vote", cands)

    def _start_vote(self, kind: str, cands: list[int]) -> None:
        self._emit(E.VotingStarted(kind, tuple(cands)))
        if len(cands) == 1 and self.rules.default_vote:
            self._default_and_count()
        else:
            self._emit(_step("voting", self.day, cands[0], 0))

    def _close_candidate(self) -> None:
        i = self.round + 1
        cands = self.vote_candidates
        if i < len(cands) - 1 or (i == len(cands) - 1 and not self.rules.default_vote):
            self._emit(_step("voting", self.day, cands[i], i))
        else:
            self._default_and_count()

    def _default_and_count(self) -> None:
        cands = self.vote_candidates
        last = cands[-1]
        if self.rules.default_vote:
            votes = self.votes
            rest = tuple(s for s in self.living() if s not in votes)
            if rest:
                self._emit(E.DefaultVotes(last, rest))
        self._count_club_vote()

    def _tally(self) -> list[tuple[int, int]]:
        """Votes per candidate. A hand given by a player who has since been removed stays counted (A.remove.vote:
        a vote is accepted when the hand touches the table before "спасибо"); he gives no further vote."""
        counts = dict.fromkeys(self.vote_candidates, 0)
        for c in self.votes.values():
            if c in counts:
                counts[c] += 1
        return list(counts.items())

    def _count_club_vote(self) -> None:
        rs, kind = self.rules, self.vote_kind
        tally = self._tally()
        top = max(v for _, v in tally)
        leaders = [c for c, v in tally if v == top]
        t = tuple(tally)
        if any(not self.alive[c] for c in leaders):
            # A.remove.vote: the removed candidate got the most votes: nobody else leaves.
            self._emit(E.VoteResult(kind, t, (), "removed-leads"))
            self._start_night_after_day()
            return
        if len(leaders) == 1:
            self._emit(E.VoteResult(kind, t, (leaders[0],), "out"))
            self._leave((leaders[0],), "vote")
            if not self.over:
                self._next_last_word_or(self._start_night_after_day)
            return
        if rs.tie_all_nobody and kind != "vote" and len(leaders) == self.alive_count:
            # A.tie.all: the whole table tied again in the revote (the first vote's tie has its speeches)
            self._emit(E.VoteResult(kind, t, (), "all-tied"))
            self._start_night_after_day()
            return
        if not rs.tie_revote:
            self._emit(E.VoteResult(kind, t, (), "nobody"))
            self._start_night_after_day()
            return
        if kind == "vote" or (self.tie_sizes and self.tie_sizes[-1] != len(leaders)):
            self._emit(E.VoteResult(kind, t, tuple(leaders), "tie"))
            self._emit(E.VotingStarted("revote", tuple(leaders)))
            self._emit(_step("tie_speech", self.day, leaders[0], 0, rs.tie_speech_seconds))
            return
        # the same number tied again: the lift vote (A.tie.again, A.tie.lift)
        alive = self.alive_count
        if not rs.lift_vote:
            self._emit(E.VoteResult(kind, t, (), "nobody"))
            self._start_night_after_day()
            return
        nine = rs.lift_three_at_nine
        if (alive == 9 and len(leaders) == 3 and (nine == "never" or (nine == "not-day1" and self.day == 1))) or (
            not rs.lift_two_at_four and alive == 4 and len(leaders) == 2
        ):
            self._emit(E.VoteResult(kind, t, (), "no-lift"))
            self._start_night_after_day()
            return
        self._emit(E.VoteResult(kind, t, tuple(leaders), "tie"))
        self._emit(E.VotingStarted("lift", tuple(leaders)))
        self._emit(_step("lift", self.day))

    def _next_tie_speaker(self, step: str) -> None:
        cands = self.vote_candidates
        i = cands.index(self.seat) + 1 if self.seat in cands else len(cands)
        while i < len(cands):
            c = cands[i]
            if self.alive[c]:
                secs = self.rules.tie_speech_seconds if step == "tie_speech" else self.rules.defence_seconds
                self._emit(_step(step, self.day, c, 0, secs))
                return
            i += 1
        self._emit(_step("voting", self.day, cands[0] if step == "tie_speech" else 0, 0))
        if step == "tie_speech" and len(cands) == 1:  # pragma: no cover - a tie has two or more
            self._default_and_count()

    def _count_lift(self) -> None:
        # A.remove.vote: a tied player removed during the question is no longer lifted; the hands raised
        # before a removal stay counted; the majority is of the players at the table now.
        leaders = tuple(c for c in self.vote_candidates if self.alive[c])
        yes = len(self.lift_yes)
        tally = ((0, yes),)
        if not leaders:
            self._emit(E.VoteResult("lift", tally, (), "removed-leads"))
            self._start_night_after_day()
        elif lift_passed(yes, self.alive_count):
            self._emit(E.VoteResult("lift", tally, leaders, "lift"))
            self._leave(leaders, "lift")
            if not self.over:
                self._next_last_word_or(self._start_night_after_day)
        else:
            self._emit(E.VoteResult("lift", tally, (), "stay"))
            self._start_night_after_day()

    # --- voting (tournament leaders) -------------------------------------------------------------
    def _leaders(self, cands: list[int]) -> None:
        rs = self.rules
        if not cands:
            if rs.lot_without_nominations:
                self._emit(E.VoteResult("leaders", (), (), "no-candidates"))
                self._emit(_step("lot", self.day))
            else:
                self._emit(E.VoteResult("leaders", (), (), "no-candidates"))
                self._start_night_after_day()
            return
        counts = sorted(((len(self.nominators[c]), c) for c in cands), key=lambda p: -p[0])
        top = counts[0][0]
        firsts = [c for k, c in counts if k == top]
        if len(firsts) >= 2 or len(counts) == 1:
            chosen = set(firsts)
        else:
            second = counts[1][0]
            chosen = set(firsts) | {c for k, c in counts if k == second}
        leaders = tuple(c for c in cands if c in chosen)
        self._emit(E.VotingStarted("leaders", leaders))
        self._emit(_step("defence", self.day, leaders[0], 0, rs.defence_seconds))

    def _count_leaders_vote(self) -> None:
        rs = self.rules
        cands = [c for c in self.vote_candidates if self.alive[c]]
        counts = dict.fromkeys(cands, 0)
        for c in self.votes.values():  # a removed voter's hand stays counted (A.remove.vote)
            if c in counts:
                counts[c] += 1
        tally = tuple(counts.items())
        if not cands:
            self._emit(E.VoteResult("leaders", tally, (), "nobody"))
            self._start_night_after_day()
            return
        if len(cands) == 1:
            c = cands[0]
            # B.vote: the simple (relative) majority: the only leader has the most votes, unless nobody
            # voted and the option zero_tie_nobody keeps him; or (option) more than half of the living.
            if rs.single_leader_majority:
                leaves = counts[c] * 2 > self.alive_count
            else:
                leaves = counts[c] > 0 or not rs.zero_tie_nobody
            if leaves:
                self._leave_by_vote(tally, (c,), "out")
            else:
                self._emit(E.VoteResult("leaders", tally, (), "stay"))
                self._start_night_after_day()
            return
        top = max(counts.values())
        tops = tuple(c for c in cands if counts[c] == top)
        if top == 0 and rs.zero_tie_nobody:
            self._emit(E.VoteResult("leaders", tally, (), "nobody"))
            self._start_night_after_day()
        elif len(tops) == 1:
            self._leave_by_vote(tally, tops, "out")
        elif rs.tie_all_leave:
            self._leave_by_vote(tally, tops, "tie-out")
        else:
            self._emit(E.VoteResult("leaders", tally, (), "nobody"))
            self._start_night_after_day()

    def _leave_by_vote(self, tally: tuple[tuple[int, int], ...], seats: tuple[int, ...], outcome: str) -> None:
        self._emit(E.VoteResult("leaders", tally, seats, outcome))
        self._leave(seats, "vote")
        if not self.over:
            self._next_last_word_or(self._start_night_after_day)

    # --- votes ---------------------------------------------------------------------------------------
    def _x_vote(self, cmd: C.Vote, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.voter)
        self._need_seat(cmd.candidate)
        # B.vote: a tournament vote's refusals cite the tournament clause, not the club's.
        clause = "B.vote" if self.rules.nomination_style == "leaders" else None
        if self.step != "voting":
            raise self._wrong_step("vote", clause or "A.vote.order")
        if not self.alive[cmd.voter]:
            raise RuleViolation("cannot-vote", clause=clause, seat=cmd.voter)
        if cmd.voter in self.votes:
            raise RuleViolation("already-voted", clause=clause, seat=cmd.voter)
        if self.rules.nomination_style == "leaders":
            if cmd.candidate not in self.vote_candidates or not self.alive[cmd.candidate]:
                raise RuleViolation("not-a-leader", target=cmd.candidate)
        elif cmd.candidate != self.seat:
            raise RuleViolation("not-a-candidate", target=cmd.candidate)
        self._emit(self._ev_vote[cmd.voter][cmd.candidate])

    def _x_lift_vote(self, cmd: C.LiftVote, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.voter)
        if self.step != "lift":
            raise self._wrong_step("lift_vote", "A.tie.lift")
        if not self.alive[cmd.voter]:
            raise RuleViolation("cannot-vote", clause="A.tie.lift", seat=cmd.voter)
        if cmd.voter in self.lift_yes:
            raise RuleViolation("already-voted", clause="A.tie.lift", seat=cmd.voter)
        self._emit(E.LiftVoteCast(cmd.voter))

    # --- night -----------------------------------------------------------------------------------------
    def _night_plan(self, night: int) -> list[str]:
        rs = self.rules
        if night == 0:
            return ["meet_" + w for w in rs.first_night_meetings]
        kill = "shooting" if rs.night_kill == "shoot" else "kill"
        checks = []
        if rs.don_checks:
            checks.append("check_don")
        checks.append("check_" + rs.checker)
        return [*checks, kill] if rs.checker_first else [kill, *checks]

    def _step_possible(self, step: str) -> int:
        """0 if the night step takes place, -1 if it is skipped.

        A role's step (the Don's or the Sheriff's meeting or check) takes place even when that player has
        left, as at a real table where the host still calls the role: skipping it, or naming the seat in
        the step, would tell everyone who holds the role. The checker is found from the deal.
        """
        if step in ("meet_black", "shooting", "kill"):
            return 0 if self.black_alive() else -1
        return 0

    def checker_seat(self) -> int:
        """The seat whose check step this is (0 if not a check step, or if that player has left)."""
        if not self.step.startswith("check_"):
            return 0
        seat = self.seat_of(self.step[6:])
        return seat if seat and self.alive[seat] else 0

    def _start_night(self, night: int) -> None:
        self._run_night_from(night, 0)

    def _run_night_from(self, night: int, index: int) -> None:
        plan = self._night_plan(night)
        for step in plan[index:]:
            seat = self._step_possible(step)
            if seat >= 0:
                self._emit(_step(step, night, seat))
                return
        if night == 0:
            self._first_speech_of_day(1)
        else:
            self._end_night()

    def _next_meeting(self, who: str) -> None:
        plan = self._night_plan(0)
        self._run_night_from(0, plan.index("meet_" + who) + 1)

    def _next_night_step(self) -> None:
        plan = self._night_plan(self.day)
        self._run_night_from(self.day, plan.index(self.step) + 1)

    def _start_night_after_day(self) -> None:
        rs, day = self.rules, self.day
        if rs.draw_cycles and self._quiet_cycles(day) >= rs.draw_cycles:
            self._emit(E.GameEnded(None, "draw"))
            return
        self._start_night(day)

    def _quiet_cycles(self, day: int) -> int:
        """F.draw: night-and-day cycles (from night 1) up to this day's end with nobody leaving."""
        quiet = 0
        k = day - 1
        while k >= 1:
            if any((d == k and night) or (d == k + 1 and not night) for _, _, d, night in self.departures):
                break
            quiet += 1
            k -= 1
        return quiet

    def _x_shoot(self, cmd: C.Shoot, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.shooter)
        self._need_seat(cmd.target)
        if self.rules.night_kill != "shoot" or self.step != "shooting":
            raise self._wrong_step("shoot", "A.night.shoot")
        if not self.alive[cmd.shooter] or self.roles[cmd.shooter] not in BLACK_ROLES:
            raise RuleViolation("not-black", seat=cmd.shooter)
        if len(self.shots.get(cmd.shooter, ())) >= 2:
            raise RuleViolation("shot-twice", seat=cmd.shooter)
        self._need_alive(cmd.target, "A.night.shoot")
        self._emit(E.ShotFired(cmd.shooter, cmd.target))

    def _x_kill(self, cmd: C.Kill, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.target)
        if self.rules.night_kill != "agree" or self.step != "kill":
            raise self._wrong_step("kill", "B.night")
        if self.kill_target:
            raise RuleViolation("already-killed")
        self._need_alive(cmd.target, "B.night")
        self._emit(E.KillChosen(cmd.target))

    def _x_check(self, cmd: C.Check, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.checker)
        self._need_seat(cmd.target)
        clause = "B.night" if self.rules.checker == "commissar" else "A.night.checks"
        if not self.step.startswith("check_"):
            raise self._wrong_step("check", clause)
        if cmd.checker != self.checker_seat():
            raise RuleViolation("not-checker", clause=clause, seat=cmd.checker)
        if cmd.checker in self.checked_tonight:
            raise RuleViolation("already-checked", clause=clause, seat=cmd.checker)
        if cmd.target == cmd.checker:
            raise RuleViolation("check-self", clause=clause)
        self._need_alive(cmd.target, clause)
        if self.step == "check_don":
            found = self.roles[cmd.target] == "sheriff"
        else:
            found = self.roles[cmd.target] in BLACK_ROLES
        self._emit(E.Checked(cmd.checker, cmd.target, found))

    def _end_night(self) -> None:
        rs, night = self.rules, self.day
        killed = 0
        if rs.night_kill == "agree":
            if self.kill_target and self.alive[self.kill_target]:
                killed = self.kill_target
        else:
            roles = self.roles
            shooters = [s for s in self._seats if roles[s] in BLACK_ROLES and (
                self.alive[s] or (s in self.shots and self.left.get(s, ("", -1, False))[1:] == (night, True)))]
            targets = set()
            ok = bool(shooters)
            for s in shooters:
                shots = self.shots.get(s, [])
                if len(shots) != 1:
                    ok = False
                    break
                targets.add(shots[0])
            if ok and len(targets) == 1:
                t = targets.pop()
                if self.alive[t]:
                    killed = t
        self._emit(E.NightResult(night, killed))
        if killed:
            self._leave((killed,), "kill")
            if self.over:
                return
        if self._night_special_win(night, killed):
            return
        self._start_day(night + 1)

    def _night_special_win(self, night: int, killed: int) -> bool:
        rs = self.rules
        if killed:
            return False
        # A.night.four first: at four players every such run is also a run of misses (nobody can have left
        # in between), so the specific rule names the result.
        if rs.four_player_nights:
            streak = 0
            j = night
            while j >= 1 and self.night_kills.get(j, -1) == 0 and self._alive_at_night_start(j) == 4:
                streak += 1
                j -= 1
            if streak >= rs.four_player_nights:
                self._emit(E.GameEnded("red", "four-nights"))
                return True
        if rs.misses_win:
            streak = 0
            j = night
            while j >= 1 and self.night_kills.get(j, -1) == 0:
                streak += 1
                # A.remove.day: a day removal counts as eliminated by that day's vote.
                if any(how in ("vote", "lift", "removal") and d == j and not nt
                       for _, how, d, nt in self.departures):
                    break
                j -= 1
            if streak >= rs.misses_win:
                self._emit(E.GameEnded("red", "misses"))
                return True
        return False

    def _alive_at_night_start(self, night: int) -> int:
        gone = sum(1 for _, _, d, nt in self.departures if d < night or (d == night and not nt))
        return self.n - gone

    # --- departures --------------------------------------------------------------------------------
    def _leave(self, seats: Iterable[int], how: str) -> None:
        night = self.phase == "night"
        for s in seats:
            self._emit(E.PlayerLeft(s, how, self.day, night))
        winner = self._winner_by_count()
        if winner:
            self._emit(E.GameEnded(winner, "black-gone" if winner == "red" else "parity"))

    def final_words(self) -> list[int]:
        """A.win: the players whose departure ended the game still speak their final minute (no command
        follows; fouls during it change nothing, so the engine refuses them as after the game)."""
        if not self.over or self.result not in ("black-gone", "parity") or not self.departures:
            return []
        _, how, day, night = self.departures[-1]
        if how == "removal":
            return []
        return [s for s, h, d, nt in self.departures if (h, d, nt) == (how, day, night) and h != "removal"][-3:]

    def _x_best_move(self, cmd: C.BestMove, rng: Rng | None) -> None:
        self._need_live_game()
        if not self._best_move_open() or cmd.seat != self.seat:
            raise RuleViolation("no-best-move")
        g = cmd.guesses
        if not 1 <= len(g) <= 3 or len(set(g)) != len(g) or any(
            isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= self.n or x == cmd.seat for x in g
        ):
            raise RuleViolation("bad-best-move")
        black = sum(1 for x in g if self.roles[x] in BLACK_ROLES)
        self._emit(E.BestMoveNamed(cmd.seat, tuple(g), black))

    def _best_move_open(self) -> bool:
        if not self.rules.best_move or self.best_move is not None or self.step != "last_word":
            return False
        if self.day != 2 or self.night_kills.get(1, 0) != self.seat:
            return False
        day1_out = sum(1 for _, _, d, nt in self.departures if d == 1 and not nt)
        return day1_out < 2

    # --- fouls, sanctions, removals -----------------------------------------------------------------
    def _foulable(self, seat: int) -> bool:
        return self.alive[seat] or (self.step == "last_word" and seat == self.seat)

    def _x_foul(self, cmd: C.Foul, rng: Rng | None) -> None:
        self._need_live_game()
        rs = self.rules
        self._need_seat(cmd.seat)
        if not rs.fouls:
            raise RuleViolation("no-fouls")
        if cmd.technical and not rs.technical_fouls:
            raise RuleViolation("no-technical")
        if not self._foulable(cmd.seat):
            raise RuleViolation("not-alive", clause="A.foul.four", seat=cmd.seat)
        seat = cmd.seat
        count = (self.tech if cmd.technical else self.fouls)[seat] + 1
        self._emit(E.Fouled(seat, cmd.reason, cmd.technical, count))
        limit = rs.technical_remove if cmd.technical else rs.foul_remove
        if count >= limit:
            if seat not in self.removed:
                self._remove(seat, "technical" if cmd.technical else "foul4", "game")
            return
        if not cmd.technical and count == rs.foul_mute and self.alive[seat]:
            # A.foul.three: this day's speech if he has not spoken yet, else the next day's.
            if self.phase == "day" and self.day >= 1 and seat not in self.spoke_today:
                mute = self.day
            else:
                mute = self.day + 1
            self._emit(E.Muted(seat, mute))

    def _x_sanction(self, cmd: C.Sanction, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.seat)
        if not self.rules.sanctions:
            raise RuleViolation("no-sanctions")
        ladder = SANCTIONS.get(cmd.offence)
        if ladder is None:
            raise RuleViolation("bad-offence", offence=cmd.offence)
        if not self._foulable(cmd.seat):
            raise RuleViolation("not-alive", clause="B.sanctions", seat=cmd.seat)
        prior = sum(1 for off, _ in self.sanctions[cmd.seat] if off == cmd.offence)
        sanction = ladder[min(prior, len(ladder) - 1)]
        self._emit(E.Sanctioned(cmd.seat, cmd.offence, sanction))
        if sanction != "warning" and cmd.seat not in self.removed:
            self._remove(cmd.seat, cmd.offence, sanction)

    def _x_remove(self, cmd: C.Remove, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.seat)
        if cmd.scope not in REMOVAL_SCOPES or (cmd.scope != "game" and not self.rules.sanctions):
            raise RuleViolation("bad-scope")
        if not self._foulable(cmd.seat) or cmd.seat in self.removed:
            raise RuleViolation("not-alive", clause="A.remove.reasons", seat=cmd.seat)
        self._emit(E.Removed(cmd.seat, cmd.reason, cmd.scope))
        self._depart_removed(cmd.seat)

    def _remove(self, seat: int, reason: str, scope: str) -> None:
        self._emit(E.Expelled(seat, reason, scope))
        self._depart_removed(seat)

    def _depart_removed(self, seat: int) -> None:
        """A removal: the player leaves with no last word; the vote rule of the rule set applies."""
        if not self.alive[seat]:
            # removed during his own last word: recorded for the sheet, changes nothing else
            if self.step == "last_word" and self.seat == seat:
                self._advance()
            return
        rs, step, phase = self.rules, self.step, self.phase
        before_vote = phase == "day" and not self.vote_started and not self.vote_decided
        in_vote = phase == "day" and self.vote_started and not self.vote_decided
        decided = self._decided_leavers() if in_vote and rs.removal_rule == "fiim" else None
        self._leave((seat,), "removal")
        if self.over:
            return
        if rs.removal_rule == "club":
            if before_vote and self.day >= 1 and self.day not in self.cancelled_days:
                self._emit(E.VoteCancelled(self.day, "A.remove.day"))
        elif rs.removal_rule == "fiim":
            if before_vote and self.day >= 1:
                if self.day not in self.cancelled_days:
                    self._emit(E.VoteCancelled(self.day, "F.remove.vote"))
            elif in_vote and decided is not None:
                # FIIM 9.8: the result was decided before the removal: this vote goes on to it, and unless
                # the removed player is the one it sends out the next day's vote is cancelled.
                if seat not in decided and (self.day + 1) not in self.cancelled_days:
                    self._emit(E.VoteCancelled(self.day + 1, "F.remove.vote"))
            elif in_vote:
                self._emit(E.VoteCancelled(self.day, "F.remove.vote"))
                self._emit(E.VoteResult(self.vote_kind, tuple(self._tally()), (), "cancelled"))
                self._start_night_after_day()
                return
            elif (self.day + 1) not in self.cancelled_days:
                self._emit(E.VoteCancelled(self.day + 1, "F.remove.vote"))
        # the removed player's own step ends
        if step in SPEECH_STEPS and self.seat == seat:
            self._advance()
        elif step == "voting" and rs.nomination_style == "leaders" and not any(
            self.alive[c] for c in self.vote_candidates
        ):
            self._count_leaders_vote()

    def _decided_leavers(self) -> tuple[int, ...] | None:
        """Who the running club vote sends out whatever the hands still to come, or None if that can still
        change (F.remove.vote, FIIM 9.8; engine/decided.py)."""
        cands = self.vote_candidates
        if self.step == "lift":
            if lift_passed(len(self.lift_yes), self.alive_count):
                return tuple(c for c in cands if self.alive[c])
            return None
        if self.step == "voting":
            open_cands = cands[self.round:]
        elif self.step == "tie_speech":
            open_cands = cands
        else:
            return None
        votes = self.votes
        hands_left = sum(1 for s in self.living() if s not in votes)
        leader = sole_leader(dict(self._tally()), open_cands, hands_left)
        return None if leader is None else (leader,)

    # --- judge -----------------------------------------------------------------------------------------
    def _need_reason(self, reason: str) -> None:
        if not isinstance(reason, str) or not reason.strip():
            raise RuleViolation("reason-required")

    def _need_team(self, team: str | None, allow_none: bool = False) -> None:
        if team is None and allow_none:
            return
        if team not in ("red", "black"):
            raise RuleViolation("bad-team")

    def _x_award(self, cmd: C.Award, rng: Rng | None) -> None:
        self._need_live_game()
        if not self.rules.award:
            raise RuleViolation("no-award")
        self._need_team(cmd.winner)
        self._need_reason(cmd.reason)
        self._emit(E.Awarded(cmd.winner, cmd.reason))
        self._emit(E.GameEnded(cmd.winner, "award"))

    def _x_team_defeat(self, cmd: C.TeamDefeat, rng: Rng | None) -> None:
        self._need_live_game()
        if not self.rules.team_defeat:
            raise RuleViolation("no-team-defeat")
        self._need_team(cmd.team)
        self._need_reason(cmd.reason)
        self._emit(E.TeamDefeated(cmd.team, cmd.reason))
        self._emit(E.GameEnded("black" if cmd.team == "red" else "red", "team-defeat"))

    def _x_override(self, cmd: C.Override, rng: Rng | None) -> None:
        if self.step == "deal":
            raise RuleViolation("not-dealt")
        self._need_team(cmd.winner, allow_none=True)
        self._need_reason(cmd.reason)
        self._emit(E.Overridden(cmd.winner, cmd.reason))
        self._emit(E.GameEnded(cmd.winner, "override"))

    def _x_protest(self, cmd: C.Protest, rng: Rng | None) -> None:
        if not self.rules.protest:
            raise RuleViolation("no-protest")
        if not self.over:
            raise RuleViolation("protest-during-game")
        if self.protest is not None:
            raise RuleViolation("protest-twice")
        if self.winner is None:
            raise RuleViolation("protest-no-winner")
        if self.result in JUDGED:  # A.protest, A.judge: the judge's decision cannot be appealed
            raise RuleViolation("protest-judge", clause="A.protest" if self.result != "override" else None)
        if cmd.outcome not in ("annul", "reverse"):
            raise RuleViolation("bad-team", clause="A.protest")
        for s in cmd.voters:
            self._need_seat(s)
        voters = tuple(sorted(set(cmd.voters)))
        losers = [s for s in self._seats if self.team(s) != self.winner]
        passed = all(s in voters for s in losers) and any(self.team(s) == self.winner for s in voters)
        rule = cmd.rule.strip() if isinstance(cmd.rule, str) else ""
        self._emit(E.ProtestVoted(cmd.outcome, voters, passed, rule))
        if passed:
            if cmd.outcome == "annul":
                self._emit(E.GameEnded(None, "protest-annul"))
            else:
                self._emit(E.GameEnded("black" if self.winner == "red" else "red", "protest-reverse"))

    def _x_undo(self, cmd: C.Undo, rng: Rng | None) -> None:
        if not self._groups:
            raise RuleViolation("nothing-to-undo")
        seq = self._groups[-1]
        self.log.append(E.Undone(seq))
        self._refold()

    # ------------------------------------------------------------------------------------------------
    # legal commands
    def _build_command_tables(self) -> None:
        """Commands and events are immutable values: the ones listed often are made once per table size."""
        tables = _TABLES.get(self.n)
        if tables is None:
            tables = _TABLES[self.n] = _Tables(self.n)
        t = tables
        self._cmd_nominate = t.nominate
        self._cmd_withdraw = t.withdraw
        self._cmd_vote = t.vote
        self._cmd_lift = t.lift
        self._cmd_shoot = t.shoot
        self._cmd_check = t.check
        self._cmd_kill = t.kill
        self._cmd_foul = t.foul
        self._cmd_tech = t.tech
        self._cmd_remove = t.remove
        self._ev_nominated = t.ev_nominated
        self._ev_vote = t.ev_vote

    def legal_commands(self, actor: int | None = None, extras: bool = True) -> list[C.Command]:
        """What ``actor`` (None: the host or judge; a seat: that player) may do now.

        With ``extras`` false, only the current step's own commands (the host's "Next", nominations,
        votes, shots, checks, chance draws), without the ones available at any moment (fouls, removals,
        judge decisions, undo). Chance commands are listed with their outcome empty (execute them with a
        random generator); commands whose ``needs_reason`` is true are templates whose reason must be
        filled in. The list returned is shared: do not change it.
        """
        if extras:
            cmds = self._legal
            if cmds is None:
                cmds = self._legal = self._compute_legal()
        else:
            cmds = self._step_legal
            if cmds is None:
                cmds = self._step_legal = self._compute_step_legal()
        if actor is None:
            return cmds
        return [c for c in cmds if c.actor_seat() == actor]

    def step_commands(self) -> list[C.Command]:
        """``legal_commands(None, extras=False)``: the host's commands of the current step (shared list)."""
        cmds = self._step_legal
        if cmds is None:
            cmds = self._step_legal = self._compute_step_legal()
        return cmds

    def _always_available(self) -> list[C.Command]:
        cached = self._always
        if cached is not None:
            return cached
        rs = self.rules
        out: list[C.Command] = []
        living = self.living()
        if rs.fouls:
            out += [self._cmd_foul[s] for s in living]
            if rs.technical_fouls:
                out += [self._cmd_tech[s] for s in living]
        if rs.sanctions:
            out += [C.Sanction(s, o) for s in living for o in SANCTIONS]
        out += [self._cmd_remove[s] for s in living]
        if rs.award:
            out += [C.Award("red"), C.Award("black")]
        if rs.team_defeat:
            out += [C.TeamDefeat("red"), C.TeamDefeat("black")]
        out += _OVERRIDES
        self._always = out
        return out

    def _compute_legal(self) -> list[C.Command]:
        rs = self.rules
        out = list(self.legal_commands(None, False))
        if self.over:
            out += _OVERRIDES
        elif self.step != "deal":
            out += self._always_available()
            seat = self.seat
            if self.step == "last_word" and not self.alive[seat]:
                if rs.fouls:
                    out.append(self._cmd_foul[seat])
                    if rs.technical_fouls:
                        out.append(self._cmd_tech[seat])
                if rs.sanctions:
                    out += [C.Sanction(seat, o) for o in SANCTIONS]
                if seat not in self.removed:
                    out.append(self._cmd_remove[seat])
        if self._groups:
            out.append(_UNDO)
        return out

    def _compute_step_legal(self) -> list[C.Command]:
        if self.over:
            rs = self.rules
            if rs.protest and self.protest is None and self.winner is not None and self.result not in JUDGED:
                return [C.Protest("annul", ()), C.Protest("reverse", ())]
            return []
        step = self.step
        if step == "speech" or step == "muted":
            # The list depends only on the table, the rule set's nomination options, the speaker, who is
            # at the table, whether he may nominate now and what he has nominated in this speech: it is
            # shared by all games (commands are immutable values).
            noms = self.speech_noms
            day = self.day
            open_now = day >= 1 and self.round == self.rules.nomination_round and day not in self.cancelled_days
            key = (self._nom_key, self.seat, self.alive_mask, open_now, *noms)
            cached = _SPEECH_LEGAL.get(key)
            if cached is None:
                if len(_SPEECH_LEGAL) > _CACHE_LIMIT:
                    _SPEECH_LEGAL.clear()
                cached = _SPEECH_LEGAL[key] = self._legal_speech(open_now)
            return cached
        cmds: list[C.Command] = _STEP_LEGAL[step](self)
        return cmds

    def _legal_speech(self, open_now: bool) -> list[C.Command]:
        rs, seat, noms_now = self.rules, self.seat, self.speech_noms
        out: list[C.Command] = [_ADVANCE]
        row: list[Any]
        if open_now and len(noms_now) < rs.nominations_per_speech:
            alive, row = self.alive, self._cmd_nominate[seat]
            out += [row[t] for t in self._seats if alive[t] and (rs.self_nomination or t != seat)]
        if rs.withdrawal:
            row = self._cmd_withdraw[seat]
            out += [row[t] for t in noms_now]
        return out

    def _legal_advance_only(self) -> list[C.Command]:
        return [_ADVANCE]

    def _legal_voting(self) -> list[C.Command]:
        alive, votes = self.alive, self.votes
        out: list[C.Command] = [_ADVANCE]
        table = self._cmd_vote
        if self.rules.nomination_style == "leaders":
            cands = [c for c in self.vote_candidates if alive[c]]
            for v in self._seats:
                if alive[v] and v not in votes:
                    row = table[v]
                    out += [row[c] for c in cands]
        else:
            seat = self.seat
            key = (self.n, seat, self.alive_mask & ~self.voted_mask)
            cached = _VOTE_LEGAL.get(key)
            if cached is not None:
                return cached
            out += [table[v][seat] for v in self._seats if alive[v] and v not in votes]
            if len(_VOTE_LEGAL) > _CACHE_LIMIT:
                _VOTE_LEGAL.clear()
            _VOTE_LEGAL[key] = out
        return out

    def _legal_lift(self) -> list[C.Command]:
        alive, yes, row = self.alive, self.lift_yes, self._cmd_lift
        return [_ADVANCE, *[row[v] for v in self._seats if alive[v] and v not in yes]]

    def _legal_shooting(self) -> list[C.Command]:
        alive, roles, shots = self.alive, self.roles, self.shots
        out: list[C.Command] = [_ADVANCE]
        targets = [t for t in self._seats if alive[t]]
        for s in self._seats:
            if alive[s] and roles[s] in BLACK_ROLES and len(shots.get(s, ())) < 2:
                row = self._cmd_shoot[s]
                out += [row[t] for t in targets]
        return out

    def _legal_kill(self) -> list[C.Command]:
        if self.kill_target:
            return [_ADVANCE]
        alive, row = self.alive, self._cmd_kill
        return [row[t] for t in self._seats if alive[t]]

    def _legal_check(self) -> list[C.Command]:
        out: list[C.Command] = [_ADVANCE]
        checker = self.checker_seat()
        if checker and checker not in self.checked_tonight:
            alive, row = self.alive, self._cmd_check[checker]
            out += [row[t] for t in self._seats if alive[t] and t != checker]
        return out

    def _legal_last_word(self) -> list[C.Command]:
        if self._best_move_open():
            return [_ADVANCE, *_best_moves(self.n, self.seat)]
        return [_ADVANCE]


class _Tables:
    """The commands and events of a table of ``n`` seats, indexed by seat (0 unused)."""

    def __init__(self, n: int) -> None:
        seats = range(n + 1)
        self.nominate = [[C.Nominate(b, t) for t in seats] for b in seats]
        self.withdraw = [[C.Withdraw(b, t) for t in seats] for b in seats]
        self.vote = [[C.Vote(v, c) for c in seats] for v in seats]
        self.lift = [C.LiftVote(v) for v in seats]
        self.shoot = [[C.Shoot(s, t) for t in seats] for s in seats]
        self.check = [[C.Check(s, t) for t in seats] for s in seats]
        self.kill = [C.Kill(t) for t in seats]
        self.foul = [C.Foul(s) for s in seats]
        self.tech = [C.Foul(s, technical=True) for s in seats]
        self.remove = [C.Remove(s) for s in seats]
        self.ev_nominated = [[E.Nominated(b, t) for t in seats] for b in seats]
        self.ev_vote = [[E.VoteCast(v, c) for c in seats] for v in seats]


_TABLES: dict[int, _Tables] = {}
# Legal-command lists shared by all games, keyed by what they depend on (bounded: cleared when full).
_CACHE_LIMIT = 200_000
_SPEECH_LEGAL: dict[tuple[Any, ...], list[C.Command]] = {}
_VOTE_LEGAL: dict[tuple[int, int, int], list[C.Command]] = {}

_STEP_LEGAL: dict[str, Any] = {
    "deal": lambda game: [C.DealCards()],
    "first_speaker": lambda game: [C.DrawFirstSpeaker()],
    "lot": lambda game: [C.DrawLot()],
    "voting": Game._legal_voting,
    "lift": Game._legal_lift,
    "shooting": Game._legal_shooting,
    "kill": Game._legal_kill,
    "check_don": Game._legal_check,
    "check_sheriff": Game._legal_check,
    "check_commissar": Game._legal_check,
    "last_word": Game._legal_last_word,
    "tie_speech": Game._legal_advance_only,
    "defence": Game._legal_advance_only,
    "meet_black": Game._legal_advance_only,
    "meet_don": Game._legal_advance_only,
    "meet_sheriff": Game._legal_advance_only,
    "meet_commissar": Game._legal_advance_only,
}
_STEPS: dict[tuple[str, int, int, int, int], E.Step] = {}


def _step(step: str, day: int, seat: int = 0, rnd: int = 0, seconds: int = 0) -> E.Step:
    """A Step event (shared: events are immutable, and the same steps recur in every game)."""
    key = (step, day, seat, rnd, seconds)
    ev = _STEPS.get(key)
    if ev is None:
        ev = _STEPS[key] = E.Step(step, day, seat, rnd, seconds)
    return ev


_ADVANCE = C.Advance()
_ADVANCED = E.Advanced()
_UNDO = C.Undo()
_OVERRIDES: list[C.Command] = [C.Override("red"), C.Override("black"), C.Override(None)]
_BEST_MOVES: dict[tuple[int, int], list[C.Command]] = {}


def _best_moves(n: int, seat: int) -> list[C.Command]:
    key = (n, seat)
    if key not in _BEST_MOVES:
        from itertools import combinations

        others = [s for s in range(1, n + 1) if s != seat]
        _BEST_MOVES[key] = [C.BestMove(seat, combo) for k in (1, 2, 3) for combo in combinations(others, k)]
    return _BEST_MOVES[key]


_EXECUTE: dict[type[C.Command], Any] = {
    C.DealCards: Game._x_deal,
    C.DrawFirstSpeaker: Game._x_first_speaker,
    C.DrawLot: Game._x_lot,
    C.Advance: Game._x_advance,
    C.Nominate: Game._x_nominate,
    C.Withdraw: Game._x_withdraw,
    C.Vote: Game._x_vote,
    C.LiftVote: Game._x_lift_vote,
    C.Shoot: Game._x_shoot,
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

_APPLY: dict[type[E.Event], Any] = {
    E.Dealt: Game._a_dealt,
    E.FirstSpeakerDrawn: Game._a_noop,
    E.LotDrawn: Game._a_lot,
    E.Advanced: Game._a_noop,
    E.Nominated: Game._a_nominated,
    E.Withdrawn: Game._a_withdrawn,
    E.VoteCast: Game._a_vote,
    E.LiftVoteCast: Game._a_lift_vote,
    E.ShotFired: Game._a_shot,
    E.KillChosen: Game._a_kill,
    E.Checked: Game._a_checked,
    E.BestMoveNamed: Game._a_best_move,
    E.Fouled: Game._a_fouled,
    E.Sanctioned: Game._a_sanctioned,
    E.Removed: Game._a_removed,
    E.Expelled: Game._a_removed,
    E.Awarded: Game._a_noop,
    E.TeamDefeated: Game._a_noop,
    E.Overridden: Game._a_noop,
    E.ProtestVoted: Game._a_protest,
    E.Undone: Game._a_noop,
    E.Step: Game._a_step,
    E.VotingStarted: Game._a_voting_started,
    E.DefaultVotes: Game._a_default_votes,
    E.VoteResult: Game._a_vote_result,
    E.VoteCancelled: Game._a_cancelled,
    E.Muted: Game._a_muted,
    E.PlayerLeft: Game._a_left,
    E.NightResult: Game._a_night_result,
    E.GameEnded: Game._a_ended,
}
