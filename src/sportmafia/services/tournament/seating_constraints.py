"""The judge's seating constraints on a tournament (``tournaments.seating_constraints``): their checks, the
pure :class:`~sportmafia.tournament.seating.constraints.Constraints` they make for a seating, the changes a
regeneration makes (who moves where), and the desk's sentence on what the constraints cost.

The stored form (docs/tournament.md, "Seating constraints")::

    {"never": [[pid, pid], ...], "at_most": [{"players": [pid, pid], "times": k}, ...],
     "keep_apart": [[pid, ...], ...], "keep_apart_by": ["club"],
     "host_conflicts": [{"host": user_id, "club": "name" | null, "players": [pid, ...]}, ...],
     "ratings": {"pid": rating, ...}, "tolerance": number | null,
     "seat_wishes": {"pid": [seat from 1, ...], ...}, "seat_wishes_allowed": bool,
     "sit_out": {"pid": [round from 1, ...], ...}}

A seat wish is taken only where the tournament's regulation allows them, as the judge says
(``seat_wishes_allowed``); ``sit_out`` are the rounds a participant is known to miss (added to the seating
request's ``absent``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ...i18n import msg
from ...store.tournaments import ParticipantRecord
from ...tournament.seating.constraints import Constraints
from ..errors import invalid


def _bad(text: Any) -> Exception:
    return invalid("bad-constraints", text)


def check_doc(doc: Mapping[str, Any], participants: Sequence[ParticipantRecord], hosts: set[int]) -> dict[str, Any]:
    """The constraints in their stored form, checked against the tournament's participants and hosts; a bad
    one is refused with the reason (nothing is stored)."""
    known = {p.id for p in participants}

    def pid(x: Any) -> int:
        if not isinstance(x, int) or x not in known:
            raise _bad(msg("Participant %(participant)s is not a participant of this tournament.", participant=x))
        return x

    out: dict[str, Any] = {"never": [], "at_most": [], "keep_apart": [], "keep_apart_by": [], "host_conflicts": [],
                           "ratings": {}, "tolerance": None, "seat_wishes": {},
                           "seat_wishes_allowed": bool(doc.get("seat_wishes_allowed", False)), "sit_out": {}}
    for pair in doc.get("never", []):
        a, b = (pid(x) for x in pair)
        if a == b:
            raise _bad(msg("A pair that must not meet needs two different participants."))
        out["never"].append([a, b])
    for cap in doc.get("at_most", []):
        a, b = (pid(x) for x in cap["players"])
        times = cap["times"]
        if a == b or not isinstance(times, int) or times < 0:
            raise _bad(msg("A pair that meets at most k times needs two different participants and k from 0."))
        out["at_most"].append({"players": [a, b], "times": times})
    out["keep_apart"] = [[pid(x) for x in group] for group in doc.get("keep_apart", [])]
    out["keep_apart_by"] = list(doc.get("keep_apart_by", []))
    for conflict in doc.get("host_conflicts", []):
        host = conflict["host"]
        if host not in hosts:
            raise _bad(msg("User %(user)s is not a host of this tournament.", user=host))
        club = conflict.get("club")
        out["host_conflicts"].append({"host": host, "club": club if club else None,
                                      "players": [pid(x) for x in conflict.get("players", [])]})
    for key, value in dict(doc.get("ratings", {})).items():
        if not isinstance(value, int | float) or not math.isfinite(value):
            raise _bad(msg("A rating is a number."))
        out["ratings"][str(pid(int(key)))] = float(value)
    if doc.get("seat_wishes") and not out["seat_wishes_allowed"]:
        raise _bad(msg("The tournament's regulation allows no seat wishes: say first that it allows them."))
    for key, seats in dict(doc.get("seat_wishes", {})).items():
        if not seats or any(not isinstance(x, int) or not 1 <= x <= 30 for x in seats):
            raise _bad(msg("A seat wish is a list of seats from 1 to 30."))
        out["seat_wishes"][str(pid(int(key)))] = sorted(set(seats))
    for key, rounds in dict(doc.get("sit_out", {})).items():
        if not rounds or any(not isinstance(x, int) or not 1 <= x <= 100 for x in rounds):
            raise _bad(msg("The rounds a participant sits out are numbers from 1 to 100."))
        out["sit_out"][str(pid(int(key)))] = sorted(set(rounds))
    tol = doc.get("tolerance")
    if tol is not None:
        if not isinstance(tol, int | float) or not math.isfinite(tol) or tol < 0:
            raise _bad(msg("The tolerance of the tables' rating sums is a number from 0."))
        missing = [p.nickname for p in participants if p.status == "active" and str(p.id) not in out["ratings"]]
        if missing:
            raise _bad(msg("Balancing tables by strength needs every player's rating; %(name)s has none.",
                           name=missing[0]))
        out["tolerance"] = float(tol)
    return out


def pure_constraints(doc: Mapping[str, Any] | None, people: Sequence[ParticipantRecord], index: Mapping[int, int],
                     plan_hosts: Mapping[int, Sequence[int]], rounds: int) -> Constraints:
    """The pure constraints of the stored ones for a seating of ``people`` (participant id -> index ``index``)
    whose round r (from 1) has the tables' hosts ``plan_hosts[r]``: a host's conflicts keep those players from
    his table in his rounds. A participant not seated is left out."""
    if not doc:
        return Constraints()
    caps = [(index[a], index[b], 0) for a, b in doc.get("never", []) if a in index and b in index]
    caps += [(index[c["players"][0]], index[c["players"][1]], int(c["times"])) for c in doc.get("at_most", [])
             if c["players"][0] in index and c["players"][1] in index]
    groups = [tuple(index[p] for p in g if p in index) for g in doc.get("keep_apart", [])]
    for attr in doc.get("keep_apart_by", []):
        by: dict[str, list[int]] = {}
        for p in people:
            value = getattr(p, attr, None)
            if value and p.id in index:
                by.setdefault(str(value).casefold(), []).append(index[p.id])
        groups += [tuple(g) for g in by.values()]
    conflicts: dict[int, set[int]] = {}
    for c in doc.get("host_conflicts", []):
        club = (c.get("club") or "").casefold()
        mine = {index[p.id] for p in people if club and p.club and p.club.casefold() == club and p.id in index}
        mine |= {index[p] for p in c.get("players", []) if p in index}
        conflicts.setdefault(int(c["host"]), set()).update(mine)
    banned = [(p, t, r - 1) for r, hosts in plan_hosts.items() if 1 <= r <= rounds
              for t, host in enumerate(hosts) for p in sorted(conflicts.get(host, ()))]
    ratings: tuple[float, ...] = ()
    if doc.get("ratings"):
        mean = sum(doc["ratings"].values()) / len(doc["ratings"])
        ratings = tuple(float(doc["ratings"].get(str(p.id), mean)) for p in people)
    tol = doc.get("tolerance")
    seats = tuple((index[int(p)], tuple(x - 1 for x in wish)) for p, wish in doc.get("seat_wishes", {}).items()
                  if int(p) in index)
    return Constraints(tuple(caps), tuple(g for g in groups if len(g) > 1), tuple(banned), ratings,
                       None if tol is None else float(tol), seats=seats)


def sitting_out(doc: Mapping[str, Any] | None, absent: Mapping[int, Sequence[int]],
                seated: Mapping[int, int]) -> dict[int, list[int]]:
    """The seating request's ``absent`` (participant id -> rounds from 1) with the constraints' ``sit_out`` of
    the participants ``seated`` (one no longer playing is left out)."""
    out = {pid: sorted(set(rounds)) for pid, rounds in absent.items()}
    for key, rounds in (doc or {}).get("sit_out", {}).items():
        if int(key) in seated:
            out[int(key)] = sorted(set(out.get(int(key), [])) | set(rounds))
    return out


def changes(old: Mapping[str, Any], new: Mapping[str, Any], first: int,
            names: Mapping[int, str]) -> list[dict[str, Any]]:
    """Who moves where in rounds ``first`` (from 1) on between two seating documents: per round and participant
    whose table or seat differs, ``from`` and ``to`` (``{"table", "seat"}`` from 1, or None: sits out)."""
    def places(doc: Mapping[str, Any]) -> dict[tuple[int, int], dict[str, int]]:
        ids = doc["participants"]
        return {(g["round"] + 1, ids[i]): {"table": g["table"] + 1, "seat": s + 1}
                for g in doc["games"] if g["round"] + 1 >= first for s, i in enumerate(g["seats"])}

    before, after = places(old), places(new)
    out = []
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        if a != b:
            out.append({"round": key[0], "participant": key[1], "name": names.get(key[1], str(key[1])),
                        "from": a, "to": b})
    return out


def cost_words(quality: Mapping[str, Any]) -> dict[str, Any] | None:
    """The desk's sentence on what the constraints cost: the pair spread against that of the same seating
    made without them (``pair_rmse_free``, a new seating), else against the least any seating of these tables
    can reach without them (``pair_rmse_least``, a regeneration), as a share; None without constraints."""
    if not quality.get("constrained"):
        return None
    rmse = float(quality.get("pair_rmse", 0.0))
    if "pair_rmse_free" in quality:
        free = float(quality["pair_rmse_free"])
        pct = max(0.0, (rmse / free - 1) * 100) if free > 0 else 0.0
        return msg("the constraints cost %(pct)s%% in how evenly pairs meet: spread %(rmse)s against %(free)s for "
                   "the same seating without them", pct=round(pct, 1), rmse=round(rmse, 3),
                   free=round(free, 3)).to_json()
    least = float(quality.get("pair_rmse_least", 0.0))
    if least <= 0:
        return None
    pct = max(0.0, (rmse / least - 1) * 100)
    return msg("the constraints cost %(pct)s%% in how evenly pairs meet: spread %(rmse)s against %(least)s, the "
               "least any seating of these tables reaches without them", pct=round(pct, 1),
               rmse=round(rmse, 3), least=round(least, 3)).to_json()
