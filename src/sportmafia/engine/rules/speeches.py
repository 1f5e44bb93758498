"""Speeches: the speaking order, the day's first speaker, muted and short speeches, tie and defence speeches,
last words (A.speech.order, A.lastword, A.foul.three, A.foul.short, A.tie, B.flow, B.speech.order, B.rounds,
B.defence)."""

from __future__ import annotations

from collections.abc import Callable

from ...rules import RuleSet
from .. import commands as C
from .. import events as E
from ..cache import step as _step
from ..dispatch import Dispatch
from ..state import Rng


def speech_of(day: int, rnd: int, muted: bool, alive: int, rules: RuleSet) -> tuple[str, int]:
    """The kind of a regular speech (speech or muted) and its seconds."""
    if day == 0:
        return "speech", rules.intro_seconds  # B.flow: day 0's introductions
    if rules.fouls and rnd == 0 and muted:  # A.foul.three: the third foul costs the day's (first) speech
        if alive in rules.short_speech_at:
            return "muted", rules.short_speech_seconds  # A.foul.short: at 3 or 4 players he speaks 30 s
        return "muted", 0
    return "speech", rules.speech_rounds[rnd]  # A.timing B.rounds


def opening_seat(day: int, previous_opener: int, n: int) -> int:
    """The seat a rotating day opens from (the first living seat from it speaks first): seat 1 on day 1,
    then the seat after the previous day's opener (A.speech.order)."""
    if day <= 1 or not previous_opener:
        return 1
    return previous_opener % n + 1


class SpeechRules(Dispatch):
    def _x_first_speaker(self, cmd: C.DrawFirstSpeaker, rng: Rng | None) -> None:
        self._need_live_game()
        if self.step != "first_speaker":
            raise self._wrong_step("draw_first_speaker", "B.speech.order")
        seat = self._drawn_seat(cmd.seat, rng, "B.speech.order")
        self._emit(E.FirstSpeakerDrawn(seat))
        self._start_speech(seat, 0)

    def _start_speech(self, seat: int, rnd: int) -> None:
        day = self.day
        kind, seconds = speech_of(day, rnd, self.mute_day[seat] == day, self.alive_count, self.rules)
        self._emit(_step(kind, day, seat, rnd, seconds))

    def _next_speaker(self) -> None:
        n, alive, opener = self.n, self.alive, self.opener
        # A.speech.order B.speech.order: positions counted clockwise from the day's opener
        pos = (self.seat - opener) % n
        for k in range(pos + 1, n):
            s = (opener - 1 + k) % n + 1
            if alive[s]:
                self._start_speech(s, self.round)
                return
        # the round is over
        rounds = 1 if self.day == 0 else len(self.rules.speech_rounds)  # B.rounds
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
        """Morning of ``day``: the night's victim speaks (A.lastword), then the first speech (or its draw)."""
        if self.last_words:
            self._emit(_step("last_word", day, self.last_words[0], 0, self.rules.last_word_seconds))
            return
        self._first_speech_of_day(day)

    def _first_speech_of_day(self, day: int) -> None:
        rs = self.rules
        if rs.first_speaker == "random":  # B.speech.order
            self._emit(_step("first_speaker", day))
            return
        n, alive = self.n, self.alive
        start = opening_seat(day, self.opener, n)
        for k in range(n):
            s = (start - 1 + k) % n + 1
            if alive[s]:
                kind, seconds = speech_of(day, 0, self.mute_day[s] == day, self.alive_count, rs)
                self._emit(_step(kind, day, s, 0, seconds))
                return

    def _next_last_word_or(self, then: Callable[[], None]) -> None:
        """A.lastword B.lastword: who left by a vote, a lift or a lot speaks his last word at once."""
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

    def _next_tie_speaker(self, step: str) -> None:
        """A.tie: the tied speak in nomination order; B.defence: the leaders speak in defence; then the vote."""
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
