"""A tournament's seating (the pure :mod:`sportmafia.tournament.seating` on its participants, hosts and
constraints) and its rounds: every table's game created as the plan seats it.

Rounds are counted from 1 here and in the stored links; the seating module counts them from 0.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ...i18n import Text, msg, nmsg
from ...rules import RuleSetError
from ...store import UserRecord, club_seasons
from ...store import tournaments as db
from ...store.tournaments import ParticipantRecord, RoundOpen, TournamentGameRecord, TournamentRecord
from ...tournament import seating as seating_mod
from ...tournament.groups import plan_tables
from ...tournament.seating.constraints import Constraints, opponent_spread
from ...tournament.seating.model import PLAYER_PARAMS
from ...tournament.seating.repair import repair
from ..errors import conflict, invalid
from ..games import exception_text
from ..seasons import club_ratings
from .base import TournamentBase
from .seating_constraints import changes, check_doc, cost_words, pure_constraints, sitting_out
from .settings import rules_of, table_sizes


class Seating(TournamentBase):
    """Generating and regenerating the seating; opening a round."""

    def generate_seating(self, user: UserRecord, t: TournamentRecord, *, rounds: int, seed: int = 1,
                         hosts: Sequence[int] = (), round_hosts: Mapping[int, Sequence[int]] | None = None,
                         absent: Mapping[int, Sequence[int]] | None = None,
                         pinned: Mapping[int, int] | None = None, apart_by: Sequence[str] = ("team",),
                         apart: Sequence[Sequence[int]] = (), games_per_player: int | None = None,
                         steps: int | None = None) -> TournamentRecord:
        """Seat the active participants for ``rounds`` rounds at the rule set's table sizes.

        ``hosts``: the host (user id) of each table in every round (a fixed host per table);
        ``round_hosts``: round (from 1) -> hosts, for rounds with other hosts. A participant who hosts a
        round sits it out. ``absent``: participant -> rounds (from 1) he misses. ``pinned``: participant ->
        the table (from 1) he always sits at. ``apart_by``: participants of one ``team`` and/or ``club`` do
        not meet; ``apart``: more groups of participant ids who must not meet."""
        self.require_judge(user, t)
        if db.games(self.store, t.id):
            raise conflict("started", msg("Round 1 has begun: regenerate the seating for the remaining rounds."))
        if not 1 <= rounds <= 100:
            raise invalid("bad-seating", msg("The number of rounds is 1 to 100."))
        people = [p for p in db.participants(self.store, t.id) if p.status == "active"]
        index = {p.id: i for i, p in enumerate(people)}
        request = {"rounds": rounds, "seed": seed, "hosts": list(hosts),
                   "round_hosts": {str(k): list(v) for k, v in (round_hosts or {}).items()},
                   "absent": {str(k): list(v) for k, v in (absent or {}).items()},
                   "pinned": {str(k): v for k, v in (pinned or {}).items()}, "apart_by": list(apart_by),
                   "apart": [list(g) for g in apart], "games_per_player": games_per_player}
        plan_hosts = self._hosts_by_round(t, rounds, hosts, round_hosts or {})
        options = self._constraints(t, people, index, rounds, 0, plan_hosts,
                                    sitting_out(t.seating_constraints, absent or {}, index), pinned or {}, apart_by, apart)
        options["constraints"] = pure_constraints(t.seating_constraints, people, index, plan_hosts, rounds)
        low, high = table_sizes(t)
        seating = self._generate(people, options, lambda: seating_mod.generate(
            len(people), rounds, (low, high), games_per_player=games_per_player, seed=seed, steps=steps,
            **options))
        self._check_hosts(seating, plan_hosts)
        quality = seating_quality(seating, options["constraints"])
        if not options["constraints"].empty:
            # what the constraints cost: the same request without them, for its pairs' figure
            free = self._generate(people, options, lambda: seating_mod.generate(
                len(people), rounds, (low, high), games_per_player=games_per_player, seed=seed, steps=steps,
                **{**options, "constraints": None}))
            quality["pair_rmse_free"] = seating_quality(free)["pair_rmse"]
        doc = {**seating.to_json(), "participants": [p.id for p in people], "rounds": rounds,
               "table": [low, high], "hosts": {str(r): hs for r, hs in plan_hosts.items()}, "request": request,
               "quality": quality}
        return db.update_tournament(self.store, t.id, seating=doc)

    def regenerate_seating(self, user: UserRecord, t: TournamentRecord, *, seed: int = 1,
                           steps: int | None = None,
                           mode: str = "balance") -> tuple[TournamentRecord, list[dict[str, Any]]]:
        """Regenerate the rounds not opened yet (:meth:`plan_regeneration`) and save it: the tournament and the
        changes."""
        doc, moves = self.plan_regeneration(user, t, seed=seed, steps=steps, mode=mode)
        return db.update_tournament(self.store, t.id, seating=doc), moves

    def plan_regeneration(self, user: UserRecord, t: TournamentRecord, *, seed: int = 1,
                          steps: int | None = None,
                          mode: str = "balance") -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A new seating for the rounds not opened yet, keeping the opened ones, not saved (a preview): the
        plan and who moves where (:func:`.seating_constraints.changes`). Participants removed from the
        tournament or disqualified sit out every remaining round, those removed from a round sit it out,
        participants added since play the remaining rounds, and the request's and the tournament's constraints
        hold as before. ``mode``: ``balance`` seats the rounds anew for the best balance
        (:func:`~sportmafia.tournament.seating.regenerate`), ``fewest`` mends the published ones with the fewest
        moves (:func:`~sportmafia.tournament.seating.repair.repair`; refused with the reason where it cannot)."""
        self.require_judge(user, t)
        if mode not in ("balance", "fewest"):
            raise invalid("bad-seating", msg("Seat the remaining rounds for the best balance or with the fewest "
                                             "changes, not %(mode)s.", mode=repr(mode)))
        doc = self._seating(t)
        opened = {g.round for g in db.games(self.store, t.id, "main")}
        played = max(opened, default=0)
        rounds = int(doc["rounds"])
        if played >= rounds:
            raise conflict("seated", msg("Every round is open already."))
        ids: list[int] = list(doc["participants"])
        by_id = {p.id: p for p in db.participants(self.store, t.id)}
        ids += [pid for pid, p in by_id.items() if p.status == "active" and pid not in set(ids)]
        index = {pid: i for i, pid in enumerate(ids)}
        people = [by_id[pid] for pid in ids]
        dropped = [i for i, p in enumerate(people) if p.status in ("removed-from-tournament", "disqualified")]
        req = doc["request"]
        plan_hosts = {int(r): list(h) for r, h in doc["hosts"].items()}
        options = self._constraints(t, people, index, rounds, played, plan_hosts,
                                    sitting_out(t.seating_constraints, {int(k): v for k, v in req["absent"].items()},
                                                index),
                                    {int(k): v for k, v in req["pinned"].items()}, req["apart_by"], req["apart"])
        options["constraints"] = pure_constraints(t.seating_constraints, people, index, plan_hosts, rounds)
        old = seating_mod.Seating.from_json(doc)
        low, high = table_sizes(t)
        if mode == "fewest":
            seating = self._generate(people, options, lambda: repair(
                old, played, (low, high), players=len(ids), dropped=dropped, seed=seed, **options))
        else:
            seating = self._generate(people, options, lambda: seating_mod.regenerate(
                old, played, rounds, (low, high), dropped=dropped, players=len(ids), seed=seed, steps=steps,
                **options))
        self._check_hosts(seating, plan_hosts, first=played + 1)
        new = {**doc, **seating.to_json(), "participants": ids,
               "quality": seating_quality(seating, options["constraints"]), "regenerated_from": played + 1,
               "regenerated_by": mode}
        return new, changes(doc, new, played + 1, {p.id: p.nickname for p in by_id.values()})

    def set_seating_constraints(self, user: UserRecord, t: TournamentRecord,
                                doc: Mapping[str, Any]) -> TournamentRecord:
        """Store the judge's seating constraints (:func:`.seating_constraints.check_doc`); they hold from the
        next generation or regeneration."""
        self.require_judge(user, t)
        hosts = {s.user_id for s in db.staff(self.store, t.id) if s.role == "host"}
        checked = check_doc(doc, db.participants(self.store, t.id), hosts)
        return db.update_tournament(self.store, t.id, seating_constraints=checked)

    def seating_ratings(self, user: UserRecord, t: TournamentRecord, source: str = "elo") -> dict[str, Any]:
        """The club's ratings of the active participants (docs/seasons.md, "Ratings"), for the seating
        constraints' ``ratings``: ``source`` ``"elo"`` (the team Elo's overall rating) or ``"skill"`` (the
        OpenSkill ordinal), rounded to one decimal, by participant id as text; ``games``: each one's rated games;
        ``unrated``: those with no person of the club (:func:`~sportmafia.store.club_seasons.participants_persons`)
        or no rated game, who have the system's initial rating. Reads only: nobody is linked or created."""
        self.require_judge(user, t)
        if source not in ("elo", "skill"):
            raise invalid("bad-source", msg("The ratings come from elo or skill, not %(source)s.", source=repr(source)))
        persons = club_seasons.participants_persons(self.store, t.club_id, t.id)
        now = club_ratings(self.store, t.club_id)
        history: Mapping[str, Sequence[Any]] = now.elo.history if source == "elo" else now.skill.history
        initial = now.elo.system.initial if source == "elo" else now.skill.initial.ordinal

        def rating(key: str) -> float:
            return now.elo.overall(key) if source == "elo" else now.skill.skill(key).ordinal

        ratings: dict[str, float] = {}
        games: dict[str, int] = {}
        unrated: list[int] = []
        for p in db.participants(self.store, t.id):
            if p.status != "active":
                continue
            person = persons.get(p.id)
            played = 0 if person is None else len(history.get(str(person), ()))
            if not played:
                unrated.append(p.id)
            ratings[str(p.id)] = round(rating(str(person)) if played else initial, 1)
            games[str(p.id)] = played
        return {"source": source, "ratings": ratings, "games": games, "unrated": unrated}

    def _hosts_by_round(self, t: TournamentRecord, rounds: int, hosts: Sequence[int],
                        round_hosts: Mapping[int, Sequence[int]]) -> dict[int, list[int]]:
        staff = {s.user_id for s in db.staff(self.store, t.id) if s.role == "host"}
        out: dict[int, list[int]] = {}
        for r in range(1, rounds + 1):
            hs = list(round_hosts.get(r, hosts))
            if hs:
                out[r] = hs
        for r in round_hosts:
            if not 1 <= r <= rounds:
                raise invalid("bad-seating", msg("Hosts are given for round %(round)d, but there are %(rounds)d rounds.",
                                                 round=r, rounds=rounds))
        for r, hs in out.items():
            if len(set(hs)) != len(hs):
                raise invalid("bad-seating", msg("Round %(round)d: a host is given for two tables.", round=r))
            strangers = [u for u in hs if u not in staff]
            if strangers:
                raise invalid("bad-seating", msg("Round %(round)d: user %(user)s is not a host of this tournament.",
                                                 round=r, user=strangers[0]))
        return out

    def _constraints(self, t: TournamentRecord, people: Sequence[ParticipantRecord], index: Mapping[int, int],
                     rounds: int, played: int, plan_hosts: Mapping[int, Sequence[int]],
                     absent: Mapping[int, Sequence[int]], pinned: Mapping[int, int], apart_by: Sequence[str],
                     apart: Sequence[Sequence[int]]) -> dict[str, Any]:
        def idx(pid: int) -> int:
            if pid not in index:
                raise invalid("bad-seating", msg("Participant %(participant)s is not an active participant of this "
                                                 "tournament.", participant=pid))
            return index[pid]

        away: dict[int, set[int]] = {}
        for pid, rs in absent.items():
            for r in rs:
                if not 1 <= r <= rounds:
                    raise invalid("bad-seating", msg("Absent in round %(round)s: there are %(rounds)d rounds.", round=r,
                                                     rounds=rounds))
                away.setdefault(r - 1, set()).add(idx(pid))
        users = {p.user_id: index[p.id] for p in people if p.user_id is not None and p.id in index}
        for r, hs in plan_hosts.items():
            for u in hs:
                if u in users:
                    away.setdefault(r - 1, set()).add(users[u])  # a participant who hosts sits the round out
        for s in db.sanctions(self.store, t.id):
            if s.kind == "round" and s.round is not None and s.participant_id in index and s.round > played:
                away.setdefault(s.round - 1, set()).add(index[s.participant_id])
        groups: list[list[int]] = [[idx(pid) for pid in g] for g in apart]
        for attr in apart_by:
            if attr not in ("team", "club"):
                raise invalid("bad-seating", msg("Keep apart by team or club, not %(attr)s.", attr=repr(attr)))
            by: dict[str, list[int]] = {}
            for p in people:
                value = getattr(p, attr)
                if value and p.id in index:
                    by.setdefault(value.casefold(), []).append(index[p.id])
            groups += [g for g in by.values() if len(g) > 1]
        pins = {idx(pid): table - 1 for pid, table in pinned.items()}
        if any(t < 0 for t in pins.values()):
            raise invalid("bad-seating", msg("Tables are numbered from 1."))
        return {"apart": groups, "absent": {r: sorted(v) for r, v in away.items()}, "pinned": pins}

    def _generate(self, people: Sequence[ParticipantRecord], options: Mapping[str, Any], run: Any) -> Any:
        names = [p.nickname for p in people]
        try:
            return run()
        except seating_mod.SeatingError as exc:
            raise invalid("bad-seating", _named(exc.text, names)) from None

    def _check_hosts(self, seating: seating_mod.Seating, plan_hosts: Mapping[int, Sequence[int]],
                     first: int = 1) -> None:
        tables = Counter(g.round + 1 for g in seating.games)
        for r, n in sorted(tables.items()):
            if r >= first and r in plan_hosts and len(plan_hosts[r]) < n:
                raise invalid("bad-seating", msg("Round %(round)d has %(tables)d tables but %(hosts)d hosts: each table "
                                                 "needs a host.", round=r, tables=n, hosts=len(plan_hosts[r])))

    def _seating(self, t: TournamentRecord, stage: str = "main") -> dict[str, Any]:
        doc = t.seating if stage == "main" else t.final_seating
        if doc is None:
            raise conflict("no-seating", msg("There is no seating yet: generate it first."))
        return doc

    def table_plan(self, t: TournamentRecord) -> dict[str, Any]:
        """How the active participants make tables every round at the rule set's sizes (everyone seated when the
        sizes allow it, else the fewest sit out), the tournament's hosts, and the judge's sentence for it:
        "26 players, tables of 10: 6 sit out each round" (``text``, both languages)."""
        players = sum(1 for p in db.participants(self.store, t.id) if p.status == "active")
        low, high = table_sizes(t)
        hosts = sum(1 for s in db.staff(self.store, t.id) if s.role == "host")
        tables, out = plan_tables(players, (low, high)) if players >= low else ([], players)
        return {"players": players, "sizes": [low, high], "tables": tables, "sitting_out": out, "hosts": hosts,
                "text": tables_text(players, low, high, tables, out).to_json()}

    # --- rounds -------------------------------------------------------------------------------------
    def open_round(self, user: UserRecord, t: TournamentRecord, number: int, stage: str = "main",
                   hosts: Sequence[int] | None = None) -> list[TournamentGameRecord]:
        """Create every table's game of round ``number`` (from 1), seated as the plan says, under the
        tournament's rule set, each assigned to its host (``hosts`` per table, else the plan's)."""
        self.require_judge(user, t)
        doc = self._seating(t, stage)
        rounds = int(doc["rounds"])
        if not 1 <= number <= rounds:
            raise invalid("bad-round", msg("There is no round %(round)d: the plan has %(rounds)d.", round=number,
                                           rounds=rounds))
        if stage == "main" and t.status not in ("setup", "running"):
            raise conflict("stage", msg("The main stage is over: the final is on."))
        if any(g.round == number for g in db.games(self.store, t.id, stage)):
            raise conflict("round-open", _round_open(number))
        ids: list[int] = list(doc["participants"])
        by_id = {p.id: p for p in db.participants(self.store, t.id)}
        tables = sorted((g for g in seating_mod.Seating.from_json(doc).games if g.round == number - 1),
                        key=lambda g: g.table)
        host_list = list(hosts) if hosts is not None else list(doc.get("hosts", {}).get(str(number), []))
        staff = {s.user_id for s in db.staff(self.store, t.id) if s.role == "host"}
        if len(host_list) < len(tables):
            raise invalid("bad-round", msg("Round %(round)d has %(tables)d tables and %(hosts)d hosts: each table needs "
                                           "a host.", round=number, tables=len(tables), hosts=len(host_list)))
        if len(set(host_list)) != len(host_list) or any(u not in staff for u in host_list):
            raise invalid("bad-round", msg("Each table's host is a different host of this tournament."))
        round_sanctioned = {s.participant_id for s in db.sanctions(self.store, t.id)
                            if s.kind == "round" and s.round == number}
        seated_users = {}
        for g in tables:
            for i in g.seats:
                p = by_id[ids[i]]
                if p.status != "active" or p.id in round_sanctioned:
                    raise conflict("removed-seated", msg("%(name)s is seated in round %(round)d but was removed; "
                                                         "regenerate the seating for the remaining rounds first.",
                                                         name=p.nickname, round=number))
                if p.user_id is not None:
                    seated_users[p.user_id] = p.nickname
        for u in host_list:
            if u in seated_users:
                raise invalid("bad-round", msg("%(name)s plays in round %(round)d and cannot host it.",
                                               name=seated_users[u], round=number))
        rules = rules_of(t)
        created: list[tuple[str, int, int, int | None, list[int]]] = []
        for g, host in zip(tables, host_list, strict=False):
            seats = [ids[i] for i in g.seats]
            names = [by_id[pid].nickname for pid in seats]
            try:
                game_id = self.store.create_game(t.club_id, rules, len(seats), names, host_id=host)
            except (RuleSetError, ValueError) as exc:
                raise invalid("bad-round", msg("Table %(table)d: the game cannot be created: %(reason)s.",
                                               table=g.table + 1, reason=exception_text(exc))) from None
            created.append((game_id, number, g.table + 1, host, seats))
        try:
            db.link_games(self.store, t.id, stage, created)
        except RoundOpen:
            raise conflict("round-open", _round_open(number)) from None
        if stage == "main" and t.status == "setup":
            db.update_tournament(self.store, t.id, status="running")
        return [g for g in db.games(self.store, t.id, stage) if g.round == number]


def seated_per_round(n: int, low: int, high: int) -> int:
    tables, _out = plan_tables(n, (low, high))
    return sum(tables)


def tables_text(players: int, low: int, high: int, tables: Sequence[int], sitting_out: int) -> Text:
    """"26 players, tables of 10: 6 sit out each round" (or "2 tables of 13 each round, everyone plays")."""
    who = nmsg("%(n)d player", "%(n)d players", players)
    sizes = (msg("tables of %(size)d", size=low) if low == high
             else msg("tables of %(low)d to %(high)d", low=low, high=high))
    if not tables:
        return msg("%(players)s, %(sizes)s: too few for one table", players=who, sizes=sizes)
    count = nmsg("%(n)d table", "%(n)d tables", len(tables))
    if sitting_out:
        rest = nmsg("%(tables)s each round, %(n)d sits out", "%(tables)s each round, %(n)d sit out", sitting_out,
                    tables=count)
    else:
        rest = msg("%(tables)s each round, everyone plays", tables=count)
    return msg("%(players)s, %(sizes)s: %(rest)s", players=who, sizes=sizes, rest=rest)


def decimal(x: float, places: int = 1) -> Text:
    """``x`` rounded to ``places`` decimals, written the language's way (1.8 / 1,8)."""
    whole, frac = f"{x:.{places}f}".split(".")
    return msg("%(whole)s.%(fraction)s", whole=whole, fraction=frac)


def seating_words(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A seating's quality in a judge's words (both languages): how often pairs of players meet ("pairs of
    players meet 0 to 3 times, 1.4 on average") and how evenly the seats fall ("each player sits in the same
    seat at most 1 time"), each saying whether any seating of these tables could do better (the bounds of
    :func:`~sportmafia.tournament.seating.quality`), and what the judge's constraints cost (``constraints``,
    :func:`.seating_constraints.cost_words`; None without them)."""
    q = doc.get("quality") or {}
    games = [list(g["seats"]) for g in doc.get("games", [])]
    n = len(doc.get("participants", []))
    if not games or n < 2 or "pair_min" not in q:
        return {}
    mean = sum(len(g) * (len(g) - 1) / 2 for g in games) / (n * (n - 1) / 2)
    low, high = int(q["pair_min"]), int(q["pair_max"])
    meet = (nmsg("every two players meet %(n)d time", "every two players meet %(n)d times", high) if low == high
            else nmsg("pairs of players meet %(low)d to %(n)d time, %(mean)s on average",
                      "pairs of players meet %(low)d to %(n)d times, %(mean)s on average", high, low=low,
                      mean=decimal(mean)))
    least = float(q.get("pair_rmse_least", q.get("pair_rmse_bound", 0.0)))
    pairs_best = float(q["pair_rmse"]) <= least + 1e-6
    seats: dict[tuple[int, int], int] = Counter((p, i) for g in games for i, p in enumerate(g))
    seat_best = float(q.get("seat_rmse", 0.0)) <= float(q.get("seat_rmse_least", q.get("seat_rmse_floor", 0.0))) + 1e-6
    most = max(seats.values())
    return {
        "pairs": msg("%(what)s; %(verdict)s", what=meet, verdict=msg("no seating of these tables does better")
                     if pairs_best else msg("a more even one may exist: try another seating")).to_json(),
        "pairs_best": pairs_best,
        "seats": msg("%(what)s; %(verdict)s", what=nmsg("each player sits in the same seat at most %(n)d time",
                                                        "each player sits in the same seat at most %(n)d times",
                                                        most),
                     verdict=msg("the seats cannot fall more evenly") if seat_best
                     else msg("the seats could fall more evenly")).to_json(),
        "seats_best": seat_best,
        "constraints": cost_words(q),
        "strength": None if "opponent_spread" not in q else msg(
            "players' opponents' average rating differs by at most %(spread)s between players",
            spread=round(float(q["opponent_spread"]))).to_json(),
    }


def _round_open(number: int) -> Text:
    return msg("Round %(round)d is open already.", round=number)


def _named(text: Text, names: Sequence[str]) -> Text:
    """A seating refusal with its players' indices (:data:`~sportmafia.tournament.seating.model.PLAYER_PARAMS`)
    replaced by their nicknames."""
    params = dict(text.params)
    for key in PLAYER_PARAMS:
        i = params.get(key)
        if isinstance(i, int) and 0 <= i < len(names):
            params[key] = names[i]
    return dataclasses.replace(text, params=params)


def seating_quality(seating: seating_mod.Seating, constraints: Constraints | None = None) -> dict[str, Any]:
    try:
        q = seating_mod.quality(seating)
    except (ValueError, ZeroDivisionError):
        return {}
    out = {k: v for k, v in q.items() if isinstance(v, int | float | str)}
    if constraints is not None and not constraints.empty:
        out["constrained"] = True
        if len(set(constraints.ratings)) > 1:  # a list of equal ratings says nothing of strength
            out["opponent_spread"] = opponent_spread([g.seats for g in seating.games], constraints.ratings)
    return out
