"""What the season pages show, in the page's language: a player's profile and a club's players, built from the
services' data (``services.seasons``) into rows of text the templates print and the JSON API answers with, and
the series their charts draw."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from babel.dates import format_date, get_day_names
from babel.numbers import format_decimal

from ..engine.describe import RESULT_NAMES, t
from ..i18n import msg, pmsg
from ..seasons.elo import RatingChange
from ..seasons.stats import MOSCOW, Filter, Rate, role_group
from ..services import seasons
from ..services.seasons import Profile
from ..store import Store
from ..store import seasons as db
from .charts import format_interval, format_rate

ZONE = MOSCOW
GROUP_NAMES = {"all": pmsg("role group", "all games"), "red": pmsg("role group", "civilian"),
               "sheriff": pmsg("role group", "Sheriff"), "black": pmsg("role group", "mafia"),
               "don": pmsg("role group", "Don")}
RULESET_NAMES = {"club": pmsg("rule set", "Club"), "tournament": pmsg("rule set", "Tournament"),
                 "fiim": pmsg("rule set", "FIIM"), "polemica": pmsg("rule set", "Polemica")}
RESULTS = {**RESULT_NAMES, "source": pmsg("result", "as its source records it")}
"""How games ended; ``source``: an imported game known by its result only (docs/exchange.md)."""
DEPARTURES = {"vote": msg("voted out"), "lift": msg("lifted"), "kill": msg("killed at night"),
              "lot": msg("by lot"), "removal": msg("removed"), "stayed": msg("stayed to the end")}
GAMES_SHOWN = seasons.NEWEST


def percent(value: float | None, lang: str) -> str:
    return format_rate(value, lang)  # as the charts write it: "47,5 %" / "47.5%"


def number(value: float, lang: str, digits: int = 1) -> str:
    return format_decimal(value, "#,##0." + "0" * digits, locale=lang)


def day(moment: datetime | date | None, lang: str) -> str:
    if moment is None:
        return ""
    when = moment.astimezone(_zone()).date() if isinstance(moment, datetime) else moment
    return format_date(when, "medium", locale=lang)


def _zone() -> ZoneInfo:
    return ZoneInfo(ZONE)


@dataclass(frozen=True)
class RateRow:
    """One line of a table of rates, and one bar of its chart."""

    key: str
    label: str
    successes: int
    n: int
    rate: float | None
    low: float
    high: float
    shown: str
    interval: str


def rate_row(key: Any, label: str, rate: Rate, lang: str) -> RateRow:
    low, high = rate.interval
    shown = percent(rate.rate, lang)
    return RateRow(str(key), label, rate.successes, rate.n, rate.rate, low, high, shown,
                   "—" if rate.n == 0 else format_interval((low, high), lang))


@dataclass(frozen=True)
class ProfileView:
    id: int
    club_id: int
    name: str
    club: str
    names: tuple[str, ...]
    games: int
    first_game: str
    last_game: str
    merged: int
    elo: dict[str, str]
    skill: dict[str, str]
    rating_series: dict[str, list[tuple[str, float]]]
    roles: list[RateRow]
    at_table: list[tuple[str, str]]
    checks: list[RateRow]
    votes_by_day: list[RateRow]
    results: list[tuple[str, int]]
    rows: list[dict[str, Any]] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def rating_series(page: Profile) -> dict[str, list[tuple[str, float]]]:
    """The player's Elo after each of his games, as red and as black: (the day, the rating)."""
    series: dict[str, list[tuple[str, float]]] = {"red": [], "black": []}
    zone = _zone()
    for c in page.ratings.elo.history.get(str(page.person.id), ()):
        series[c.colour].append((c.ended.astimezone(zone).date().isoformat(), round(c.after, 2)))
    return series


def _changes(page: Profile, history: Sequence[RatingChange]) -> dict[str, float]:
    """His Elo changes in the games the page lists (his newest): read from the end of his history, which is in
    the same order, not the thousands of games before."""
    shown = {g.game_id for g in page.games[:GAMES_SHOWN]}
    oldest = min((g.ended for g in page.games[:GAMES_SHOWN]), default=None)
    out: dict[str, float] = {}
    for c in reversed(history):
        if oldest is None or c.ended < oldest or len(out) == len(shown):
            break
        if c.game_id in shown:
            out[c.game_id] = c.change
    return out


def profile_view(page: Profile, lang: str, where: Filter | None = None, *, series: bool = True) -> ProfileView:
    """The profile in ``lang``; ``series``: with the rating's series (the JSON and the chart read it, the page
    draws the chart from its own address)."""
    me = str(page.person.id)
    s = page.stats
    elo, skill = page.ratings.elo, page.ratings.skill.skill(me)
    history = elo.history.get(me, ())
    changes = _changes(page, history)
    fouls = s.fouls_per_game
    found = sum(v for k, v in s.best_move_black.items() if k > 0)
    at_table = [
        (msg("Fouls per game").render(lang), "—" if fouls is None else number(fouls, lang, 2)),
        (msg("Removed").render(lang), str(s.removals)),
        (msg("First killed at night").render(lang), str(s.first_killed)),
        (msg("Best moves named").render(lang), str(s.best_moves)),
        (msg("Best moves that found black (1, 2, 3 of 3)").render(lang),
         f"{found}: {s.best_move_black.get(1, 0)} · {s.best_move_black.get(2, 0)} · {s.best_move_black.get(3, 0)}"),
        (msg("Games with a full record").render(lang), str(s.detailed)),
    ] + [(msg("Left the table: %(how)s", how=DEPARTURES.get(k, msg(k))).render(lang), str(v))
         for k, v in s.departures.items()]
    don_nights = ", ".join(msg("night %(n)s: %(games)s", n=n, games=v).render(lang)
                           for n, v in s.don_found_on.items() if n > 0) or "—"
    at_table.append((msg("Don: games by the night he found the Sheriff").render(lang), don_nights))
    checks = [rate_row("sheriff", msg("Sheriff's checks that found black").render(lang), s.sheriff_checks, lang),
              rate_row("don", msg("Don's checks that found the Sheriff").render(lang), s.don_checks, lang),
              rate_row("votes-red", msg("Votes as red for a black player").render(lang), s.votes_red, lang),
              rate_row("votes-black", msg("Votes as black for a black player").render(lang), s.votes_black, lang),
              rate_row("noms-red", msg("Nominations as red of a black player").render(lang), s.nominations_red, lang),
              rate_row("noms-black", msg("Nominations as black of a black player").render(lang),
                       s.nominations_black, lang)]
    rows = []
    for game in page.games[:GAMES_SHOWN]:
        seat = game.seat
        rows.append({"game_id": game.game_id, "date": day(game.ended, lang), "seat": seat.seat,
                     "role": GROUP_NAMES[role_group(seat.role)].render(lang),
                     "result": t(RESULTS, game.result, lang),
                     "won": {True: msg("won"), False: msg("lost"), None: msg("no winner")}[seat.won].render(lang),
                     "change": None if game.game_id not in changes else number(changes[game.game_id], lang, 2),
                     "excluded": game.game_id in page.excluded})
    person = page.person
    return ProfileView(
        id=person.id, club_id=person.club_id, name=person.name, club=page.club_name,
        names=tuple(n for n in person.names if n != person.name), games=person.games,
        first_game=day(person.first_game, lang), last_game=day(person.last_game, lang), merged=len(person.merged),
        elo={"overall": number(elo.overall(me), lang), "red": number(elo.colour(me, "red"), lang),
             "black": number(elo.colour(me, "black"), lang), "games": str(len(history))},
        skill={"ordinal": number(skill.ordinal, lang, 2), "mu": number(skill.mu, lang, 2),
               "sigma": number(skill.sigma, lang, 2)},
        rating_series=rating_series(page) if series else {"red": [], "black": []},
        roles=[rate_row(g, GROUP_NAMES[g].render(lang), s.wins[g], lang) for g in ("red", "sheriff", "black", "don",
                                                                                  "all")],
        at_table=at_table, checks=checks,
        votes_by_day=[rate_row(d, msg("day %(n)s", n=d).render(lang), r, lang) for d, r in s.votes_red_by_day.items()],
        results=[(t(RESULTS, k, lang), v) for k, v in s.results.items()], rows=rows, stats=s.to_json())


@dataclass(frozen=True)
class ClubView:
    id: int
    name: str
    games: int
    players: list[dict[str, Any]]
    red_wins: RateRow
    by_ruleset: list[RateRow]
    by_weekday: list[RateRow]
    by_table: list[RateRow]
    by_host: list[RateRow]
    results: list[tuple[str, int]]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


_CLUB_VIEWS: OrderedDict[tuple[int, int, int, str, Filter | None], ClubView] = OrderedDict()
_CLUB_VIEWS_LOCK = threading.Lock()
CLUB_VIEWS_KEPT = 64


def club_view(store: Store, club_id: int, lang: str, where: Filter | None = None) -> ClubView | None:
    """The club's page as of now: kept in the process under the club's index version (``clubs.index_version``,
    moved by every game indexed or dropped, merge and exclusion), so it is computed once per change of the
    index, not per view."""
    version = db.index_version(store, club_id)
    if version is None:
        return None
    key = (id(store), club_id, version, lang, where)
    with _CLUB_VIEWS_LOCK:
        kept = _CLUB_VIEWS.get(key)
    if kept is not None:
        return kept
    made = _club_view(store, club_id, lang, where)
    if made is not None:
        with _CLUB_VIEWS_LOCK:
            _CLUB_VIEWS[key] = made
            while len(_CLUB_VIEWS) > CLUB_VIEWS_KEPT:
                _CLUB_VIEWS.popitem(last=False)
    return made


def _club_view(store: Store, club_id: int, lang: str, where: Filter | None) -> ClubView | None:
    name = db.club_name(store, club_id)
    if not name:
        return None
    ratings = seasons.club_ratings(store, club_id)
    stats = seasons.club_stats(store, club_id, where)
    hosts = db.host_logins(store, club_id)
    days = get_day_names("wide", locale=lang)
    players: list[dict[str, Any]] = []
    for pid, pname, games, last in db.club_people(store, club_id):
        key = str(pid)
        players.append({"id": pid, "name": pname, "games": games, "last_game": day(last, lang),
                        "elo": number(ratings.elo.overall(key), lang), "red": number(ratings.elo.colour(key, "red"), lang),
                        "black": number(ratings.elo.colour(key, "black"), lang),
                        "skill": number(ratings.skill.skill(key).ordinal, lang, 2),
                        "elo_value": ratings.elo.overall(key)})
    players.sort(key=lambda p: (p["games"] == 0, -float(p["elo_value"]), str(p["name"])))
    return ClubView(
        id=club_id, name=name, games=stats.games, players=players,
        red_wins=rate_row("all", msg("Red's wins").render(lang), stats.red_wins, lang),
        by_ruleset=[rate_row(k, RULESET_NAMES[k].render(lang) if k in RULESET_NAMES else k, r, lang)
                    for k, r in stats.by_ruleset.items()],
        by_weekday=[rate_row(k, days[int(k)], r, lang) for k, r in stats.by_weekday.items()],
        by_table=[rate_row(k, msg("table %(n)s", n=k).render(lang), r, lang) for k, r in stats.by_table.items()],
        by_host=[rate_row(k, hosts.get(int(k), k), r, lang) for k, r in stats.by_host.items()],
        results=[(t(RESULTS, k, lang), v) for k, v in stats.results.items()])
