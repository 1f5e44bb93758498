"""Statistics over many games: a person's (by role group, fouls, the first killed's best move, checks, votes,
nominations, how his games ended) and a group's (a club's, a host's, a rule set's, a season's: red's win rate
overall, by rule set, weekday, table and host). Win rates carry their Wilson score interval.

A result-only game (``facts.detail`` false) counts only in what it tells: games and wins by role, fouls,
removals, departures, the first killed and results; never in votes, checks, nominations nor best moves.
See docs/seasons.md, "Statistics".
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from .facts import GameFacts, SeatFacts

MOSCOW = "Europe/Moscow"
ROLE_GROUPS: Mapping[str, str] = {"civilian": "red", "sheriff": "sheriff", "commissar": "sheriff",
                                  "mafia": "black", "don": "don"}
"""The role groups of the statistics: "red" (civilians), "sheriff" (Sheriff, Commissar), "black" (mafia), "don"."""
GROUPS = ("all", "red", "sheriff", "black", "don")


def role_group(role: str) -> str:
    return ROLE_GROUPS[role]


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share ``successes / n``; (0.0, 1.0) when ``n`` is 0.

    >>> [round(x, 4) for x in wilson(7, 10)]
    [0.3968, 0.8922]
    """
    if n == 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes of {n}")
    share = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (share + z2 / (2 * n)) / denominator
    half = z * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Rate:
    """A share (``successes`` of ``n``) with its Wilson interval."""

    successes: int = 0
    n: int = 0

    @property
    def rate(self) -> float | None:
        return self.successes / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.successes, self.n)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {"successes": self.successes, "n": self.n, "rate": self.rate, "low": low, "high": high}


class _Tally:
    """Counts of successes and trials by key, turned into :class:`Rate` s."""

    def __init__(self) -> None:
        self.hits: Counter[Any] = Counter()
        self.trials: Counter[Any] = Counter()

    def add(self, key: Any, hit: bool) -> None:
        self.trials[key] += 1
        self.hits[key] += hit

    def rate(self, key: Any) -> Rate:
        return Rate(self.hits[key], self.trials[key])

    def rates(self) -> dict[Any, Rate]:
        return {k: self.rate(k) for k in sorted(self.trials)}


def _rates_json(rates: Mapping[Any, Rate]) -> dict[str, Any]:
    return {str(k): v.to_json() for k, v in rates.items()}


@dataclass(frozen=True)
class PlayedGame:
    """A finished game of a season: its facts, the person at each seat (None for a guest) and where it was
    played. ``ended``: an aware datetime."""

    game_id: str
    ended: datetime
    facts: GameFacts
    people: tuple[str | None, ...]
    club: str | None = None
    host: str | None = None
    tournament: str | None = None
    table: str | None = None
    kind: str = "club"

    def seat_of(self, person: str) -> SeatFacts | None:
        """The person's seat in this game, None if he did not play it."""
        for i, p in enumerate(self.people):
            if p == person:
                return self.facts.seats[i]
        return None


@dataclass(frozen=True, slots=True)
class PlayedSeat:
    """One person's seat in a finished game, with what of the game his statistics and the filter read: a
    person's page reads these alone, not his games' other nine seats."""

    game_id: str
    ended: datetime
    seat: SeatFacts
    ruleset: str
    result: str
    detail: bool
    club: str | None = None
    host: str | None = None
    tournament: str | None = None
    table: str | None = None
    kind: str = "club"


def played_seat(game: PlayedGame, person: str) -> PlayedSeat:
    """``person``'s seat of ``game`` (``ValueError`` if he did not play it)."""
    seat = game.seat_of(person)
    if seat is None:
        raise ValueError(f"{person!r} did not play game {game.game_id!r}")
    return PlayedSeat(game.game_id, game.ended, seat, game.facts.ruleset, game.facts.result, game.facts.detail,
                      game.club, game.host, game.tournament, game.table, game.kind)


@dataclass(frozen=True)
class Filter:
    """Which games a statistic is over; every field left None lets every game through. ``since``, ``until``:
    dates of ``ended`` in ``timezone``, both included; ``role_group`` selects a person's games in that group
    (it needs the person: :func:`select`)."""

    since: date | None = None
    until: date | None = None
    tournament: str | None = None
    role_group: str | None = None
    ruleset: str | None = None
    club: str | None = None
    host: str | None = None
    timezone: str = MOSCOW

    @property
    def everything(self) -> bool:
        """Whether it lets every game through."""
        return all(v is None for v in (self.since, self.until, self.tournament, self.role_group, self.ruleset,
                                       self.club, self.host))

    def keeps(self, game: PlayedGame, person: str | None = None) -> bool:
        if not self._keeps(game, game.facts.ruleset):
            return False
        if self.role_group is not None:
            if person is None:
                raise ValueError("a role group selects a person's games: name the person")
            seat = game.seat_of(person)
            return seat is not None and role_group(seat.role) == self.role_group
        return True

    def keeps_seat(self, seat: PlayedSeat) -> bool:
        """Whether the game of a person's seat is kept (the role group: the seat's)."""
        return self._keeps(seat, seat.ruleset) and (self.role_group is None
                                                    or role_group(seat.seat.role) == self.role_group)

    def _keeps(self, game: PlayedGame | PlayedSeat, ruleset: str) -> bool:
        if self.since or self.until:
            day = game.ended.astimezone(ZoneInfo(self.timezone)).date()
            if (self.since and day < self.since) or (self.until and day > self.until):
                return False
        if self.tournament is not None and game.tournament != self.tournament:
            return False
        if self.ruleset is not None and ruleset != self.ruleset:
            return False
        return not ((self.club is not None and game.club != self.club)
                    or (self.host is not None and game.host != self.host))


def select(games: Iterable[PlayedGame], where: Filter | None = None, person: str | None = None) -> list[PlayedGame]:
    """The games ``where`` keeps (and, with ``person``, that he played), in the order given."""
    out = [g for g in games if person is None or person in g.people]
    return out if where is None else [g for g in out if where.keeps(g, person)]


@dataclass(frozen=True)
class PersonStats:
    """One person's statistics over his games (see the module doc for what result-only games count in)."""

    person: str
    games: Mapping[str, int]
    """Games played by role group (all, red, sheriff, black, don)."""
    wins: Mapping[str, Rate]
    """Wins of the games with a winner, by role group."""
    fouls: int
    removals: int
    departures: Mapping[str, int]
    """How he left the table (vote, lift, kill, lot, removal), and "stayed"."""
    first_killed: int
    detailed: int
    """Games with a full log: the denominator of what follows."""
    best_moves: int
    best_move_black: Mapping[int, int]
    """How many of his best moves found 0, 1, 2, 3 black players."""
    sheriff_checks: Rate
    """His checks as the Sheriff (or Commissar) that found a black player."""
    sheriff_by_night: Mapping[int, Rate]
    don_checks: Rate
    """His checks as the Don that found the Sheriff."""
    don_found_on: Mapping[int, int]
    """Games as the Don by the night he first found the Sheriff (0: never)."""
    votes_red: Rate
    """His day votes as a red player cast for a black candidate."""
    votes_red_by_day: Mapping[int, Rate]
    votes_black: Rate
    """His day votes as a black player cast for a black candidate."""
    nominations_red: Rate
    nominations_black: Rate
    results: Mapping[str, int]
    """How his games ended (result codes)."""

    @property
    def fouls_per_game(self) -> float | None:
        return self.fouls / self.games["all"] if self.games["all"] else None

    def to_json(self) -> dict[str, Any]:
        return {
            "person": self.person, "games": dict(self.games), "wins": _rates_json(self.wins),
            "fouls": self.fouls, "fouls_per_game": self.fouls_per_game, "removals": self.removals,
            "departures": dict(self.departures), "first_killed": self.first_killed, "detailed": self.detailed,
            "best_moves": self.best_moves, "best_move_black": {str(k): v for k, v in self.best_move_black.items()},
            "sheriff_checks": self.sheriff_checks.to_json(), "sheriff_by_night": _rates_json(self.sheriff_by_night),
            "don_checks": self.don_checks.to_json(),
            "don_found_on": {str(k): v for k, v in self.don_found_on.items()},
            "votes_red": self.votes_red.to_json(), "votes_red_by_day": _rates_json(self.votes_red_by_day),
            "votes_black": self.votes_black.to_json(), "nominations_red": self.nominations_red.to_json(),
            "nominations_black": self.nominations_black.to_json(), "results": dict(self.results),
        }


def person_stats(person: str, games: Iterable[PlayedGame], where: Filter | None = None) -> PersonStats:
    """``person``'s statistics over the games of ``games`` he played that ``where`` keeps."""
    return seat_stats(person, [played_seat(g, person) for g in select(games, where, person)])


def seat_stats(person: str, seats: Iterable[PlayedSeat], where: Filter | None = None) -> PersonStats:
    """``person``'s statistics over his seats (one per game) whose games ``where`` keeps: the same as
    :func:`person_stats` over those games."""
    counts: Counter[str] = Counter()
    for mine in seats:
        if where is None or where.keeps_seat(mine):
            counts.update(seat_counts(mine))
    return counted_stats(person, counts)


def seat_counts(mine: PlayedSeat) -> Counter[str]:
    """What one seat adds to its person's statistics, as counts by key: a person's statistics are the sum of his
    seats' counts (:func:`counted_stats`), so a store keeps that sum up to date as games end (adding a game's
    seats, taking away those of a game reopened or corrected) instead of reading every seat per page view.

    Keys: ``games/<group>``, ``decided/<group>`` and ``wins/<group>`` (group ``all`` and the seat's), ``fouls``,
    ``removals``, ``left/<how>``, ``first_killed``, ``result/<code>``, ``name/<name>`` (the names he played
    under); of a game with a full record: ``detailed``, ``guess/<black found>``, ``sheriff/checks`` and
    ``sheriff/found`` (and ``sheriff/<night>/...``), ``don/checks``, ``don/found``, ``don_found_on/<night>``,
    ``votes/<team>/n`` and ``votes/<team>/black``, ``votes_red/<day>/...``, ``noms/<team>/...``."""
    counts: Counter[str] = Counter()
    seat = mine.seat
    group = role_group(seat.role)
    for key in ("all", group):
        counts[f"games/{key}"] += 1
        if seat.won is not None:
            counts[f"decided/{key}"] += 1
            counts[f"wins/{key}"] += seat.won
    counts["fouls"] += seat.fouls
    counts["removals"] += seat.removed
    counts[f"left/{seat.left or 'stayed'}"] += 1
    counts["first_killed"] += seat.first_killed
    counts[f"result/{mine.result}"] += 1
    counts[f"name/{seat.name}"] += 1
    if mine.detail:
        counts["detailed"] += 1
        if seat.guess_black is not None:
            counts[f"guess/{seat.guess_black}"] += 1
        if group == "sheriff":
            for night, _, found in seat.checks:
                for key in ("sheriff", f"sheriff/{night}"):
                    counts[f"{key}/checks"] += 1
                    counts[f"{key}/found"] += found
        elif group == "don":
            for _, _, found in seat.checks:
                counts["don/checks"] += 1
                counts["don/found"] += found
            counts[f"don_found_on/{min((c[0] for c in seat.checks if c[2]), default=0)}"] += 1
        for day, _, black in seat.votes:
            counts[f"votes/{seat.team}/n"] += 1
            counts[f"votes/{seat.team}/black"] += black
            if seat.team == "red":
                counts[f"votes_red/{day}/n"] += 1
                counts[f"votes_red/{day}/black"] += black
        for _, _, black in seat.nominations:
            counts[f"noms/{seat.team}/n"] += 1
            counts[f"noms/{seat.team}/black"] += black
    return +counts  # the keys of what happened only


def _counted(counts: Mapping[str, int], prefix: str) -> dict[str, int]:
    """The counts under ``prefix/`` by the rest of their key (one level only)."""
    start = len(prefix) + 1
    return {k[start:]: v for k, v in counts.items() if k.startswith(prefix + "/") and "/" not in k[start:]}


def _by_number(counts: Mapping[str, int], prefix: str, hit: str, n: str) -> dict[int, Rate]:
    """Rates by a number (a night, a day) from ``prefix/<number>/<hit>`` and ``prefix/<number>/<n>``."""
    out: dict[int, Rate] = {}
    start = len(prefix) + 1
    for key, trials in counts.items():
        if key.startswith(prefix + "/") and key.endswith("/" + n) and trials:
            number = key[start:-len(n) - 1]
            if not number.isdigit():  # prefix/<n> itself: the total
                continue
            out[int(number)] = Rate(counts.get(f"{prefix}/{number}/{hit}", 0), trials)
    return dict(sorted(out.items()))


def played_names(counts: Mapping[str, int]) -> tuple[str, ...]:
    """The names a person played under, most used first (then by name), from his counts."""
    return tuple(name for name, _ in sorted(_counted_names(counts).items(), key=lambda kv: (-kv[1], kv[0])))


def _counted_names(counts: Mapping[str, int]) -> dict[str, int]:
    return {k[5:]: v for k, v in counts.items() if k.startswith("name/") and v}


def counted_stats(person: str, counts: Mapping[str, int]) -> PersonStats:
    """``person``'s statistics from the sum of his seats' counts (:func:`seat_counts`)."""
    def rate(hit: str, n: str) -> Rate:
        return Rate(counts.get(hit, 0), counts.get(n, 0))

    guesses = {int(k): v for k, v in _counted(counts, "guess").items()}
    return PersonStats(
        person=person, games={g: counts.get(f"games/{g}", 0) for g in GROUPS},
        wins={g: rate(f"wins/{g}", f"decided/{g}") for g in GROUPS},
        fouls=counts.get("fouls", 0), removals=counts.get("removals", 0),
        departures={k: v for k, v in sorted(_counted(counts, "left").items()) if v},
        first_killed=counts.get("first_killed", 0), detailed=counts.get("detailed", 0),
        best_moves=sum(guesses.values()), best_move_black={k: guesses.get(k, 0) for k in range(4)},
        sheriff_checks=rate("sheriff/found", "sheriff/checks"),
        sheriff_by_night=_by_number(counts, "sheriff", "found", "checks"),
        don_checks=rate("don/found", "don/checks"),
        don_found_on={int(k): v for k, v in sorted(_counted(counts, "don_found_on").items(), key=lambda kv: int(kv[0]))
                      if v},
        votes_red=rate("votes/red/black", "votes/red/n"),
        votes_red_by_day=_by_number(counts, "votes_red", "black", "n"),
        votes_black=rate("votes/black/black", "votes/black/n"),
        nominations_red=rate("noms/red/black", "noms/red/n"),
        nominations_black=rate("noms/black/black", "noms/black/n"),
        results={k: v for k, v in sorted(_counted(counts, "result").items()) if v})


@dataclass(frozen=True)
class GroupStats:
    """A group of games (a club's, a host's, a rule set's, a season's): red's wins of the games with a winner,
    overall and by rule set, weekday (0 Monday .. 6 Sunday, of ``ended`` in the timezone given), table and
    host; the count of games and how they ended."""

    games: int
    red_wins: Rate
    by_ruleset: Mapping[str, Rate]
    by_weekday: Mapping[int, Rate]
    by_table: Mapping[str, Rate]
    by_host: Mapping[str, Rate]
    results: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "red_wins": self.red_wins.to_json(), "by_ruleset": _rates_json(self.by_ruleset),
                "by_weekday": _rates_json(self.by_weekday), "by_table": _rates_json(self.by_table),
                "by_host": _rates_json(self.by_host), "results": dict(self.results)}


def group_stats(games: Sequence[PlayedGame] | Iterable[PlayedGame], where: Filter | None = None,
                timezone: str = MOSCOW) -> GroupStats:
    """The statistics of the games ``where`` keeps (a game without a table or host is not in those lines): the
    sum of each game's counts (:func:`game_counts`)."""
    zone = ZoneInfo(timezone)
    counts: Counter[str] = Counter()
    for game in select(games, where):
        counts.update(game_counts(game.ended, game.facts.ruleset, game.facts.winner, game.facts.result, game.table,
                                  game.host, zone))
    return counted_group(counts)


def game_counts(ended: datetime, ruleset: str, winner: str | None, result: str, table: str | None,
                host: str | None, zone: ZoneInfo | None = None) -> Counter[str]:
    """What one game adds to a group's statistics, as counts by key (as :func:`seat_counts` for a person): a club
    keeps their sum as its games end. Keys: ``games``, ``result/<code>``; of a game with a winner, ``<line>/n``
    and ``<line>/red`` (red won) for the lines ``all``, ``ruleset/<name>``, ``weekday/<0..6>`` (of ``ended`` in
    ``zone``, Moscow's by default), ``table/<n>`` and ``host/<id>``."""
    counts: Counter[str] = Counter({"games": 1, f"result/{result}": 1})
    if winner is None:
        return counts
    red = winner == "red"
    lines = ["all", f"ruleset/{ruleset}", f"weekday/{ended.astimezone(zone or ZoneInfo(MOSCOW)).weekday()}"]
    if table is not None:
        lines.append(f"table/{table}")
    if host is not None:
        lines.append(f"host/{host}")
    for line in lines:
        counts[f"{line}/n"] += 1
        counts[f"{line}/red"] += red
    return +counts


def _group_rates(counts: Mapping[str, int], prefix: str) -> dict[str, Rate]:
    """The rates of the lines ``prefix/<key>/n`` and ``prefix/<key>/red`` by key (a key may hold a slash)."""
    start = len(prefix) + 1
    return {key[start:-2]: Rate(counts.get(key[:-2] + "/red", 0), n) for key, n in counts.items()
            if key.startswith(prefix + "/") and key.endswith("/n") and n}


def counted_group(counts: Mapping[str, int]) -> GroupStats:
    """A group's statistics from the sum of its games' counts (:func:`game_counts`)."""
    weekday = {int(k): v for k, v in _group_rates(counts, "weekday").items()}
    return GroupStats(games=counts.get("games", 0), red_wins=Rate(counts.get("all/red", 0), counts.get("all/n", 0)),
                      by_ruleset=dict(sorted(_group_rates(counts, "ruleset").items())),
                      by_weekday=dict(sorted(weekday.items())),
                      by_table=dict(sorted(_group_rates(counts, "table").items())),
                      by_host=dict(sorted(_group_rates(counts, "host").items())),
                      results=dict(sorted((k[7:], v) for k, v in counts.items() if k.startswith("result/") and v)))
