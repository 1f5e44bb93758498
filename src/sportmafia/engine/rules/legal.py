"""The commands legal now: ``legal_commands(actor)`` and ``step_commands()``.

The lists are built from the shared command tables (``engine/cache.py``) and, for the steps that recur most
(speeches, club votes, the night's shots and checks, the lift question, the steps of "Next" alone), shared by
all games through caches keyed by what they depend on.
"""

from __future__ import annotations

from typing import Any

from .. import commands as C
from ..cache import (
    ADVANCE,
    ADVANCE_ONLY,
    CACHE_LIMIT,
    KEYED_LEGAL,
    OVERRIDES,
    SPEECH_LEGAL,
    UNDO,
    VOTE_LEGAL,
    best_moves,
)
from ..dispatch import Dispatch
from ..state import BLACK_ROLES
from .discipline import SANCTIONS
from .judge import protest_open
from .nominations import may_be_nominated, nominations_open


class LegalCommands(Dispatch):
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
        out += OVERRIDES
        self._always = out
        return out

    def _compute_legal(self) -> list[C.Command]:
        rs = self.rules
        out = list(self.legal_commands(None, False))
        if self.over:
            out += OVERRIDES
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
            out.append(UNDO)
        return out

    def _compute_step_legal(self) -> list[C.Command]:
        if self.over:
            if protest_open(self.rules, self.protest, self.winner, self.result):
                return [C.Protest("annul", ()), C.Protest("reverse", ())]
            return []
        step = self.step
        if step == "speech" or step == "muted":
            # The list depends only on the table, the rule set's nomination options, the speaker, who is
            # at the table, whether he may nominate now and what he has nominated in this speech: it is
            # shared by all games (commands are immutable values).
            noms = self.speech_noms
            day = self.day
            open_now = nominations_open(day, self.round, self.rules) and day not in self.cancelled_days
            key = (self._nom_key, self.seat, self.alive_mask, open_now, *noms)
            cached = SPEECH_LEGAL.get(key)
            if cached is None:
                if len(SPEECH_LEGAL) > CACHE_LIMIT:
                    SPEECH_LEGAL.clear()
                cached = SPEECH_LEGAL[key] = self._legal_speech(open_now)
            return cached
        cmds: list[C.Command] = _STEP_LEGAL[step](self)
        return cmds

    def _legal_speech(self, open_now: bool) -> list[C.Command]:
        rs, seat, noms_now = self.rules, self.seat, self.speech_noms
        out: list[C.Command] = [ADVANCE]
        row: list[Any]
        if open_now and len(noms_now) < rs.nominations_per_speech:
            alive, row = self.alive, self._cmd_nominate[seat]
            out += [row[t] for t in self._seats if may_be_nominated(t, seat, alive, rs)]
        if rs.withdrawal:
            row = self._cmd_withdraw[seat]
            out += [row[t] for t in noms_now]
        return out

    def _legal_advance_only(self) -> list[C.Command]:
        return ADVANCE_ONLY

    def _keyed_legal(self, key: tuple[Any, ...], make: Any) -> list[C.Command]:
        """The list of ``key`` (what it depends on) in the shared cache, made by ``make()`` the first time."""
        cached = KEYED_LEGAL.get(key)
        if cached is None:
            if len(KEYED_LEGAL) > CACHE_LIMIT:
                KEYED_LEGAL.clear()
            cached = KEYED_LEGAL[key] = make()
        return cached

    def _legal_voting(self) -> list[C.Command]:
        alive, votes = self.alive, self.votes
        out: list[C.Command] = [ADVANCE]
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
            cached = VOTE_LEGAL.get(key)
            if cached is not None:
                return cached
            out += [table[v][seat] for v in self._seats if alive[v] and v not in votes]
            if len(VOTE_LEGAL) > CACHE_LIMIT:
                VOTE_LEGAL.clear()
            VOTE_LEGAL[key] = out
        return out

    def _legal_lift(self) -> list[C.Command]:
        alive, yes, row = self.alive, self.lift_yes, self._cmd_lift
        hands = self.alive_mask & ~sum(1 << v for v in yes)
        return self._keyed_legal(("lift", self.n, hands),
                                 lambda: [ADVANCE, *[row[v] for v in self._seats if alive[v] and v not in yes]])

    def _legal_shooting(self) -> list[C.Command]:
        alive, roles, shots = self.alive, self.roles, self.shots
        shooters = [s for s in self._seats if alive[s] and roles[s] in BLACK_ROLES and len(shots.get(s, ())) < 2]
        volley = bool(self._volley_shooters())  # "all shoot": one action for every living black player

        def make() -> list[C.Command]:
            out: list[C.Command] = [ADVANCE]
            targets = [t for t in self._seats if alive[t]]
            for s in shooters:
                row = self._cmd_shoot[s]
                out += [row[t] for t in targets]
            if volley:
                out += [self._cmd_volley[t] for t in targets]
            return out
        return self._keyed_legal(("shooting", self.n, self.alive_mask, *shooters, volley), make)

    def _legal_kill(self) -> list[C.Command]:
        if self.kill_target:
            return ADVANCE_ONLY
        alive, row = self.alive, self._cmd_kill
        return self._keyed_legal(("kill", self.n, self.alive_mask),
                                 lambda: [row[t] for t in self._seats if alive[t]])

    def _legal_check(self) -> list[C.Command]:
        checker = self.checker_seat()
        if not checker or checker in self.checked_tonight:
            return ADVANCE_ONLY
        alive, row = self.alive, self._cmd_check[checker]
        return self._keyed_legal(("check", self.n, checker, self.alive_mask),
                                 lambda: [ADVANCE, *[row[t] for t in self._seats if alive[t] and t != checker]])

    def _legal_last_word(self) -> list[C.Command]:
        if self._best_move_open():
            n, seat = self.n, self.seat
            return self._keyed_legal(("best_move", n, seat), lambda: [ADVANCE, *best_moves(n, seat)])
        return ADVANCE_ONLY


_DEAL: list[C.Command] = [C.DealCards()]
_DRAW_FIRST_SPEAKER: list[C.Command] = [C.DrawFirstSpeaker()]
_DRAW_LOT: list[C.Command] = [C.DrawLot()]
"""The chance steps' lists (shared, as the others: do not change them)."""

_STEP_LEGAL: dict[str, Any] = {
    "deal": lambda game: _DEAL,
    "first_speaker": lambda game: _DRAW_FIRST_SPEAKER,
    "lot": lambda game: _DRAW_LOT,
    "voting": LegalCommands._legal_voting,
    "lift": LegalCommands._legal_lift,
    "shooting": LegalCommands._legal_shooting,
    "kill": LegalCommands._legal_kill,
    "check_don": LegalCommands._legal_check,
    "check_sheriff": LegalCommands._legal_check,
    "check_commissar": LegalCommands._legal_check,
    "last_word": LegalCommands._legal_last_word,
    "tie_speech": LegalCommands._legal_advance_only,
    "defence": LegalCommands._legal_advance_only,
    "meet_black": LegalCommands._legal_advance_only,
    "meet_don": LegalCommands._legal_advance_only,
    "meet_sheriff": LegalCommands._legal_advance_only,
    "meet_commissar": LegalCommands._legal_advance_only,
}
