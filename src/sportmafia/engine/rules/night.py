"""The night: its steps in order, the shots or the agreed kill, the checks, the night's result (A.night0,
A.night.shoot, A.night.checks, A.remove.night, B.flow, B.night)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...rules import RuleSet
from .. import commands as C
from .. import events as E
from ..cache import step as _step
from ..dispatch import Dispatch
from ..errors import RuleViolation
from ..state import BLACK_ROLES, Rng


def night_plan(night: int, rules: RuleSet) -> list[str]:
    """The steps of a night, in order."""
    if night == 0:
        return ["meet_" + w for w in rules.first_night_meetings]  # A.night0 B.flow: meetings, no kill or check
    kill = "shooting" if rules.night_kill == "shoot" else "kill"  # A.night.shoot, B.night
    checks = []
    if rules.don_checks:
        checks.append("check_don")
    checks.append("check_" + rules.checker)
    # A.night.checks: shot, Don check, Sheriff check; B.night: the Commissar checks first
    return [*checks, kill] if rules.checker_first else [kill, *checks]


def step_seconds(rules: RuleSet) -> dict[str, int]:
    """The seconds of the timed steps whose ``step`` event carries none (the views give them as the step's
    ``seconds``, for every screen's timer): the black team's meeting on night 0 lasts a minute (A.night0,
    A.timing; FIIM 5.1). The time stays out of the event so that every record made before replays as it
    was."""
    return {"meet_black": rules.meeting_seconds}


def step_takes_place(step: str, black_alive: int) -> bool:
    """Whether a night step takes place. A role's step (the Don's or the Sheriff's meeting or check) takes
    place even when that player has left, as at a real table where the host still calls the role: skipping
    it, or naming the seat in the step, would tell everyone who holds the role (A.night.checks: a dead checker
    does not check). Only the black team's steps end with the black team."""
    return black_alive > 0 or step not in ("meet_black", "shooting", "kill")


def shot_victim(shooters: Sequence[int], shots: Mapping[int, Sequence[int]], alive: Sequence[bool]) -> int:
    """A.night.shoot: the player every shooter shot once, if he is alive; 0 for a miss (one shot twice, two
    shot different players, or one did not shoot)."""
    targets = set()
    if not shooters:
        return 0
    for s in shooters:
        fired = shots.get(s, [])
        if len(fired) != 1:
            return 0
        targets.add(fired[0])
    if len(targets) == 1:
        t = targets.pop()
        if alive[t]:
            return t
    return 0


def check_finds(step: str, role: str) -> bool:
    """A.night.checks: the Don finds the Sheriff; the Sheriff (B.night: the Commissar) finds a black player."""
    if step == "check_don":
        return role == "sheriff"
    return role in BLACK_ROLES


class NightRules(Dispatch):
    def _start_night(self, night: int) -> None:
        self._run_night_from(night, 0)

    def _run_night_from(self, night: int, index: int) -> None:
        plan = night_plan(night, self.rules)
        black = self.black_alive()
        for step in plan[index:]:
            if step_takes_place(step, black):
                self._emit(_step(step, night, 0))
                return
        if night == 0:
            self._first_speech_of_day(1)
        else:
            self._end_night()

    def _next_meeting(self, who: str) -> None:
        plan = night_plan(0, self.rules)
        self._run_night_from(0, plan.index("meet_" + who) + 1)

    def _next_night_step(self) -> None:
        plan = night_plan(self.day, self.rules)
        self._run_night_from(self.day, plan.index(self.step) + 1)

    def _x_shoot(self, cmd: C.Shoot, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.shooter)
        self._need_seat(cmd.target)
        if self.rules.night_kill != "shoot" or self.step != "shooting":
            raise self._wrong_step("shoot", "A.night.shoot")
        if not self.alive[cmd.shooter] or self.roles[cmd.shooter] not in BLACK_ROLES:
            raise RuleViolation("not-black", seat=cmd.shooter)
        if len(self.shots.get(cmd.shooter, ())) >= 2:  # A.night.shoot: a second shot makes a miss, no third
            raise RuleViolation("shot-twice", seat=cmd.shooter)
        self._need_alive(cmd.target, "A.night.shoot")
        self._emit(self._ev_shot[cmd.shooter][cmd.target])

    def _volley_shooters(self) -> list[int]:
        """The black players an "all shoot" fires for: every living one, if none of them has shot tonight
        (else it is not all of them shooting once: the host records the shots one by one); none otherwise."""
        black = [s for s in self._seats if self.alive[s] and self.roles[s] in BLACK_ROLES]
        return [] if any(self.shots.get(s) for s in black) else black

    def _x_volley(self, cmd: C.Volley, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.target)
        if self.rules.night_kill != "shoot" or self.step != "shooting":
            raise self._wrong_step("shoot", "A.night.shoot")
        shooters = self._volley_shooters()
        if not shooters:
            raise RuleViolation("volley-after-shot")
        self._need_alive(cmd.target, "A.night.shoot")
        self._emit(E.VolleyFired(tuple(shooters), cmd.target))  # A.night.shoot: one shot each, one action

    def _x_kill(self, cmd: C.Kill, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.target)
        if self.rules.night_kill != "agree" or self.step != "kill":
            raise self._wrong_step("kill", "B.night")
        if self.kill_target:  # B.night: one agreed victim
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
        self._emit(E.Checked(cmd.checker, cmd.target, check_finds(self.step, self.roles[cmd.target])))

    def _shooters(self, night: int) -> list[int]:
        """The black players whose shots count tonight: those at the table, and one who left tonight after he
        shot (A.remove.night: a black player removed before he shot is not waited for, the shot is judged
        among the remaining black players)."""
        roles, alive, shots, left = self.roles, self.alive, self.shots, self.left
        return [s for s in self._seats if roles[s] in BLACK_ROLES and (
            alive[s] or (s in shots and left.get(s, ("", -1, False))[1:] == (night, True)))]

    def _end_night(self) -> None:
        night = self.day
        if self.rules.night_kill == "agree":  # B.night
            killed = self.kill_target if self.kill_target and self.alive[self.kill_target] else 0
        else:
            killed = shot_victim(self._shooters(night), self.shots, self.alive)
        self._emit(E.NightResult(night, killed))
        if killed:
            self._leave((killed,), "kill")
            if self.over:
                return
        if self._night_special_win(night, killed):
            return
        self._start_day(night + 1)
