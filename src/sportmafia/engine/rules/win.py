"""Departures and the results they give: the win by count, the final words, three misses, four-player
nights, the draw (A.win, B.win, A.night.misses, A.night.four, A.remove.day, F.draw)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .. import events as E
from ..dispatch import Dispatch

Departure = tuple[int, str, int, bool]
"""(seat, how, day, at night?)"""


def winner_by_count(black: int, alive: int) -> str | None:
    """A.win B.win: red wins when no black player is left, black when black players are at least as many as
    red ones; checked after every departure."""
    if black == 0:
        return "red"
    if black >= alive - black:
        return "black"
    return None


def final_speakers(departures: Sequence[Departure], result: str) -> list[int]:
    """A.win F: the players whose departure ended the game (by count) still speak their final minute; a
    removed player does not (A.lastword)."""
    if result not in ("black-gone", "parity") or not departures:
        return []
    _, how, day, night = departures[-1]
    if how == "removal":
        return []
    return [s for s, h, d, nt in departures if (h, d, nt) == (how, day, night) and h != "removal"][-3:]


def quiet_cycles(departures: Sequence[Departure], day: int) -> int:
    """F.draw: night-and-day cycles (from night 1) up to this day's end with nobody leaving."""
    quiet = 0
    k = day - 1
    while k >= 1:
        if any((d == k and night) or (d == k + 1 and not night) for _, _, d, night in departures):
            break
        quiet += 1
        k -= 1
    return quiet


def alive_at_night_start(night: int, n: int, departures: Sequence[Departure]) -> int:
    gone = sum(1 for _, _, d, nt in departures if d < night or (d == night and not nt))
    return n - gone


def four_player_streak(night: int, n: int, night_kills: Mapping[int, int], departures: Sequence[Departure]) -> int:
    """A.night.four: nights in a row up to ``night`` without a kill, each begun with 4 players at the table."""
    streak = 0
    j = night
    while j >= 1 and night_kills.get(j, -1) == 0 and alive_at_night_start(j, n, departures) == 4:
        streak += 1
        j -= 1
    return streak


def miss_streak(night: int, night_kills: Mapping[int, int], departures: Sequence[Departure]) -> int:
    """A.night.misses: misses in a row up to ``night``, with no one voted out on the days between (A.remove.day:
    a day removal counts as eliminated by that day's vote)."""
    streak = 0
    j = night
    while j >= 1 and night_kills.get(j, -1) == 0:
        streak += 1
        if any(how in ("vote", "lift", "removal") and d == j and not nt for _, how, d, nt in departures):
            break
        j -= 1
    return streak


class WinRules(Dispatch):
    def _leave(self, seats: Iterable[int], how: str) -> None:
        night = self.phase == "night"
        for s in seats:
            self._emit(E.PlayerLeft(s, how, self.day, night))
        winner = winner_by_count(self.black_alive(), self.alive_count)
        if winner:
            self._emit(E.GameEnded(winner, "black-gone" if winner == "red" else "parity"))

    def final_words(self) -> list[int]:
        """A.win: the players whose departure ended the game still speak their final minute (no command
        follows; fouls during it change nothing, so the engine refuses them as after the game)."""
        if not self.over:
            return []
        return final_speakers(self.departures, self.result)

    def _start_night_after_day(self) -> None:
        rs, day = self.rules, self.day
        if rs.draw_cycles and quiet_cycles(self.departures, day) >= rs.draw_cycles:  # F.draw
            self._emit(E.GameEnded(None, "draw"))
            return
        self._start_night(day)

    def _night_special_win(self, night: int, killed: int) -> bool:
        rs = self.rules
        if killed:
            return False
        # A.night.four first: at four players every such run is also a run of misses (nobody can have left
        # in between), so the specific rule names the result.
        if rs.four_player_nights and four_player_streak(night, self.n, self.night_kills, self.departures) \
                >= rs.four_player_nights:
            self._emit(E.GameEnded("red", "four-nights"))
            return True
        if rs.misses_win and miss_streak(night, self.night_kills, self.departures) >= rs.misses_win:
            self._emit(E.GameEnded("red", "misses"))
            return True
        return False
