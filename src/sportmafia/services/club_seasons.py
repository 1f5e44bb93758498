"""A club's seasons (docs/seasons.md, "Seasons"): a named range of days with its club nights and tournaments,
created and edited by the club's staff while open, closed once by a judge or an admin; its standings by rating
(the team Elo over the season's games alone) or by points (series points for the places in its finished
tournaments). A closed season's page shows what was frozen at its closing (``seasons.final``), whatever happens
to the games, the persons or the tournaments afterwards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from ..i18n import msg
from ..seasons.elo import MAFIARATINGS
from ..seasons.series import Placing, check_series_points, in_season, points_standings, rating_standings, season_day
from ..seasons.stats import Rate, group_stats
from ..store import Store, UserRecord
from ..store import club_seasons as db
from ..store import seasons as index
from ..store import tournaments as tdb
from ..store.club_seasons import SeasonRecord
from ..store.tournaments import TournamentRecord
from .errors import Refusal, conflict, invalid
from .seasons import STAFF, played
from .tournament import TournamentService

STANDINGS = ("rating", "points")
"""A season's standings: by the team Elo over its games, or by series points for its tournaments' places."""
NAME_MAX = 200
FINAL_VERSION = 1


@dataclass(frozen=True)
class SeasonSettings:
    """What the staff set of a season: its name, its first and last day (both included, in Moscow time), its
    standings (:data:`STANDINGS`) and the series points for the 1st, 2nd, ... place of its tournaments."""

    name: str
    starts_on: date
    ends_on: date
    standings: str = "rating"
    series_points: tuple[float, ...] = ()


def _not_found() -> Refusal:
    return Refusal("not-found", "not-found", msg("No such season in this club."))


def _closed() -> Refusal:
    return conflict("closed", msg("The season is closed: its standings are final and it changes no more."))


def _staff(user: UserRecord) -> None:
    if user.role not in STAFF:
        raise Refusal("forbidden", "forbidden", msg("Only an admin or a judge creates, edits and closes seasons."))


def check(settings: SeasonSettings) -> SeasonSettings:
    """The settings, the name trimmed and the points as stored; :class:`Refusal` (invalid) when the name is empty
    or too long, the season ends before it starts, the standings are unknown or the points are not 0 or more."""
    name = " ".join(settings.name.split())
    if not name or len(name) > NAME_MAX:
        raise invalid("bad-name", msg("A season's name is 1 to %(n)s characters.", n=NAME_MAX))
    if settings.ends_on < settings.starts_on:
        raise invalid("bad-dates", msg("The season ends before it starts."))
    if settings.standings not in STANDINGS:
        raise invalid("bad-standings", msg("A season's standings are by rating or by points."))
    try:
        points = tuple(check_series_points(settings.series_points))
    except ValueError:
        raise invalid("bad-points", msg("Series points are up to 64 numbers from 0 to 10000, one per place.")) from None
    return SeasonSettings(name, settings.starts_on, settings.ends_on, settings.standings, points)


def season(store: Store, club_id: int, season_id: int) -> SeasonRecord:
    """The club's season; "not found" also when it is another club's."""
    record = db.season(store, season_id)
    if record is None or record.club_id != club_id:
        raise _not_found()
    return record


def create(store: Store, user: UserRecord, settings: SeasonSettings) -> SeasonRecord:
    """A new open season of the user's club (admins and judges)."""
    _staff(user)
    s = check(settings)
    return db.create_season(store, user.club_id, s.name, s.starts_on, s.ends_on, s.standings, s.series_points)


def edit(store: Store, user: UserRecord, season_id: int, **changes: Any) -> SeasonRecord:
    """Change an open season of the user's club (any of its settings; admins and judges); a closed one is
    refused (conflict ``closed``)."""
    _staff(user)
    now = season(store, user.club_id, season_id)
    if now.closed:
        raise _closed()
    merged = check(SeasonSettings(**{**dict(zip(db.SETTINGS, now.settings(), strict=True)), **changes}))
    try:
        return db.update_season(store, season_id, **{k: getattr(merged, k) for k in db.SETTINGS})
    except db.SeasonClosed:
        raise _closed() from None


def close(store: Store, user: UserRecord, season_id: int) -> SeasonRecord:
    """Close an open season of the user's club (admins and judges): its standings, games and tournaments as
    they are now are kept and are what its page shows from now on."""
    _staff(user)
    now = season(store, user.club_id, season_id)
    if now.closed:
        raise _closed()
    final = standings(store, now)
    try:
        return db.close_season(store, season_id, user.id, final, now)
    except db.SeasonClosed:
        raise _closed() from None
    except db.SeasonChanged:
        raise conflict("changed", msg("The season was changed while it was being closed: look at it again and "
                                      "close it then.")) from None


# --- what a season's page shows -------------------------------------------------------------------------------

def tournament_day(t: TournamentRecord) -> date:
    """The day a tournament counts for: its last day, else its first, else the day it was created."""
    return t.ends_on or t.starts_on or season_day(t.created_at)


def tournaments(store: Store, record: SeasonRecord) -> list[TournamentRecord]:
    """The season's tournaments: the club's published tournaments whose day (:func:`tournament_day`) is one of
    the season's, in the order of their days."""
    found = [t for t in tdb.club_tournaments(store, record.club_id)
             if t.published and record.starts_on <= tournament_day(t) <= record.ends_on]
    return sorted(found, key=lambda t: (tournament_day(t), t.id))


def _places(store: Store, t: TournamentRecord) -> list[tuple[int, int, int]] | None:
    """A finished tournament's final places (the final's standings once it has finalists, as its page and
    exports show them): (participant, place, last place of a shared range); None when they cannot be read."""
    svc = TournamentService(store)
    try:
        rows = svc.final_standings(t) if t.finalists is not None else svc.standings(t)
    except Refusal:
        return None
    return [(int(r.participant), r.place, r.last_place or r.place) for r in rows if r.place is not None]


def standings(store: Store, record: SeasonRecord) -> dict[str, Any]:
    """The season as it stands now, as its page shows it (and as its closing keeps it, ``seasons.final``):
    ``games`` (how many), ``red_wins`` (of those with a winner), ``tournaments`` (each with whether its places
    counted) and ``rows`` (by rating or by points, with the persons' names of now)."""
    # plain columns, no game's facts parsed: the persons and teams for the ratings, the game's own for red's wins
    games = [g for g in index.game_lines(store, record.club_id)
             if in_season(g.ended_at, record.starts_on, record.ends_on)]
    excluded = index.exclusions(store, record.club_id)
    rating = rating_standings([g for g in index.rating_games(store, record.club_id)
                               if in_season(g.ended, record.starts_on, record.ends_on) and g.kind != "none"],
                              excluded)
    red = group_stats([played(g) for g in games]).red_wins
    lines: list[dict[str, Any]] = []
    placings: list[Placing] = []
    for t in tournaments(store, record):
        counted = False
        if record.standings == "points" and t.status == "finished":
            places = _places(store, t)
            if places is not None:
                counted = True
                people = db.participants_as_people(store, record.club_id, t.id)
                for pid, place, last in places:
                    nickname, person = people.get(pid, (str(pid), None))
                    key = str(person) if person is not None else "nick:" + nickname.casefold()
                    placings.append(Placing(str(t.id), key, nickname, place, last))
        lines.append({"id": t.id, "name": t.name, "starts_on": _iso(t.starts_on), "ends_on": _iso(t.ends_on),
                      "status": t.status, "counted": counted})
    if record.standings == "rating":
        names = db.person_names(store, (int(r.person) for r in rating))
        rows = [{"place": r.place, "place_to": r.place_to, "person": int(r.person), "name": names.get(int(r.person),
                 r.person), "games": r.games, "wins": r.wins, "elo": r.elo, "red": r.red, "black": r.black,
                 "skill": r.skill} for r in rating]
    else:
        names = db.person_names(store, (int(p.key) for p in placings if not p.key.startswith("nick:")))
        elo = {r.person: r.elo for r in rating}
        rows = [{"place": r.place, "place_to": r.place_to,
                 "person": None if r.key.startswith("nick:") else int(r.key),
                 "name": r.name if r.key.startswith("nick:") else names.get(int(r.key), r.name),
                 "points": r.points, "tournaments": r.tournaments, "won": r.won, "elo": r.elo,
                 "results": [{"tournament": int(t), "place": p, "place_to": last, "points": pts}
                             for t, p, last, pts in r.results]}
                for r in points_standings(placings, record.series_points, elo, MAFIARATINGS.initial)]
    return {"version": FINAL_VERSION, "standings": record.standings, "games": len(games),
            "red_wins": {"successes": red.successes, "n": red.n}, "tournaments": lines, "rows": rows}


def _iso(day: date | None) -> str | None:
    return None if day is None else day.isoformat()


@dataclass(frozen=True)
class SeasonPage:
    """A season with what its page shows: ``shown`` is its standings now while it is open, those kept at its
    closing once it is closed."""

    season: SeasonRecord
    shown: dict[str, Any]

    @property
    def red_wins(self) -> Rate:
        return Rate(int(self.shown["red_wins"]["successes"]), int(self.shown["red_wins"]["n"]))


def page(store: Store, club_id: int, season_id: int) -> SeasonPage:
    """A season of the club with its standings (frozen once closed); "not found" for another club's."""
    record = season(store, club_id, season_id)
    return SeasonPage(record, record.final if record.final is not None else standings(store, record))


def club_seasons(store: Store, club_id: int) -> Sequence[SeasonRecord]:
    """The club's seasons, the latest first."""
    return db.club_seasons(store, club_id)
