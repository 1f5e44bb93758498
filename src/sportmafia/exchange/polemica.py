"""Polemica's game JSON (version 4) to and from a sportmafia game record (docs/exchange.md, "Polemica").

Seats are ``players[].position`` 1..10; roles ``0`` Don, ``1`` mafia, ``2`` civilian, ``3`` Sheriff. ``votes``
holds every hand of a day: ``num`` 0 a nomination (``voter`` nominates ``candidate``), 1 the vote, 2 and on the
revotes, no ``num`` a hand for lifting the tied players. ``shots`` and ``checks`` are by night (night N follows
day N, as in the engine); ``stage`` is where the game stands (its ``gameOver`` when it ended), ``result`` 0 red
won, 1 black won."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine import BestMove, Check, Foul, LiftVote, Nominate, Remove, Shoot, Vote
from ..engine import events as E
from ..rules import get_ruleset
from .common import SOURCE_RESULT, as_int, as_list, as_map, day_of, full, meta_date, result_only
from .drive import END, Fact, Pos, Script, play, pos_of
from .model import Imported, malformed
from .walk import checked_game, walk

RULESET = get_ruleset("fiim").variant("polemica", lift_three_at_nine="allowed")
"""FIIM as Polemica plays it: three players tied twice at nine are put to the lift question (game 333915)."""

ROLE_OF = {0: "don", 1: "mafia", 2: "civilian", 3: "sheriff"}
CODE_OF = {role: code for code, role in ROLE_OF.items()}
STAGE_PART = {"speech": 1, "voted": 3, "shooted": 0, "guess": 0, "comKill": 0, "shooting": 4, "donCheck": 5,
              "comCheck": 6}
LEFT_OUT_FIELDS = ("referee", "master", "bonuses", "comKiller", "timing", "tags", "scoringType", "factor")


def stage_pos(stage: Mapping[str, Any], game: str, where: str) -> Pos:
    """Where a Polemica ``stage`` stands in the game."""
    kind = stage.get("type")
    day = as_int(stage.get("day", 0), game, where + ".day", 0, 1000)
    seat = stage.get("player") or 0
    voting = stage.get("voting") or 0
    if kind in ("dealing", "briefing", "comIntro"):
        return Pos(0, 4)
    if kind == "gameOver":
        return Pos(END, 0)
    if kind == "reSpeech":
        return Pos(day, 2, seat, voting, tie=True)
    if kind == "voting":
        return Pos(day, 2, seat, max(voting - 1, 0))
    if kind == "lift":
        return Pos(day, 2, lift=True)
    if kind in STAGE_PART:
        return Pos(day, STAGE_PART[kind], seat)
    raise malformed(game, where, f"unknown stage type {kind!r}")


def stage_of(at: Pos) -> dict[str, Any]:
    """The Polemica ``stage`` of a position (the reverse of :func:`stage_pos`)."""
    d = at.day
    if d >= END:
        return {"type": "gameOver"}
    if d == 0 and at.part == 4:
        return {"type": "briefing", "day": 0}
    if at.part == 2:
        if at.lift:
            return {"type": "lift", "day": d}
        if at.tie:
            return {"type": "reSpeech", "day": d, "player": at.seat, "voting": at.round}
        return {"type": "voting", "day": d, "player": at.seat, "voting": at.round + 1}
    kind = {0: "shooted", 1: "speech", 3: "voted", 4: "shooting", 5: "donCheck", 6: "comCheck"}[at.part]
    return {"type": kind, "day": d, "player": at.seat} if at.part <= 3 else {"type": kind, "day": d}


# --------------------------------------------------------------------------------------------------------------
# import
def _player_id(p: Mapping[str, Any]) -> str | None:
    ref = p.get("player")
    if isinstance(ref, Mapping):
        ref = ref.get("id")
    return None if ref is None or isinstance(ref, bool) else str(ref)


def _seats(data: Mapping[str, Any], gid: str) -> list[Mapping[str, Any]]:
    players = as_list(data.get("players"), gid, "players")
    by_seat: dict[int, Mapping[str, Any]] = {}
    for i, p in enumerate(players):
        p = as_map(p, gid, f"players[{i}]")
        seat = as_int(p.get("position"), gid, f"players[{i}].position", 1, 10)
        if seat in by_seat:
            raise malformed(gid, f"players[{i}].position", f"seat {seat} twice")
        by_seat[seat] = p
    if sorted(by_seat) != list(range(1, 11)):
        raise malformed(gid, "players", "ten players at seats 1..10 are expected")
    return [by_seat[s] for s in range(1, 11)]


def _script(data: Mapping[str, Any], gid: str, seats: list[Mapping[str, Any]]) -> Script:
    roles = []
    for i, p in enumerate(seats):
        code = p.get("role")
        if code not in ROLE_OF or isinstance(code, bool):
            raise malformed(gid, f"players[{i}].role", f"role {code!r} is not 0, 1, 2 or 3")
        roles.append(ROLE_OF[code])
    result = data.get("result")
    stage = data.get("stage")
    stop_at = stage_pos(as_map(stage, gid, "stage"), gid, "stage") if stage is not None else Pos(END, 0)
    finished = result is not None or stop_at.day >= END
    s = Script(gid, RULESET, tuple(str(p.get("username") or f"Player {i}") for i, p in enumerate(seats, 1)),
               tuple(roles), winner={0: "red", 1: "black"}.get(result) if result is not None else None,
               finished=finished, stop=None if finished else stop_at)
    don, sheriff = roles.index("don") + 1 if "don" in roles else 0, roles.index("sheriff") + 1 if "sheriff" in roles else 0
    for i, v in enumerate(as_list(data.get("votes"), gid, "votes")):
        w = f"votes[{i}]"
        v = as_map(v, gid, w)
        day = as_int(v.get("day"), gid, w + ".day", 1, 1000)
        voter = as_int(v.get("voter"), gid, w + ".voter", 1, 10)
        num = v.get("num")
        if num is None:
            s.lifts.append(Fact(LiftVote(voter), w, Pos(day, 2, lift=True)))
            continue
        num = as_int(num, gid, w + ".num", 0, 100)
        target = as_int(v.get("candidate"), gid, w + ".candidate", 1, 10)
        if num == 0:
            s.nominations.append(Fact(Nominate(voter, target), w, Pos(day, 1, voter)))
        else:
            s.votes.append(Fact(Vote(voter, target), w, Pos(day, 2, target, num - 1)))
    for i, sh in enumerate(as_list(data.get("shots"), gid, "shots")):
        w = f"shots[{i}]"
        sh = as_map(sh, gid, w)
        night = as_int(sh.get("night"), gid, w + ".night", 1, 1000)
        s.shots.append(Fact(Shoot(as_int(sh.get("shooter"), gid, w + ".shooter", 1, 10),
                                  as_int(sh.get("victim"), gid, w + ".victim", 1, 10)), w, Pos(night, 4)))
    for i, c in enumerate(as_list(data.get("checks"), gid, "checks")):
        w = f"checks[{i}]"
        c = as_map(c, gid, w)
        night = as_int(c.get("night"), gid, w + ".night", 1, 1000)
        target = as_int(c.get("player"), gid, w + ".player", 1, 10)
        if c.get("role") == 0:
            s.checks.append(Fact(Check(don, target), w, Pos(night, 5)))
        elif c.get("role") == 3:
            s.checks.append(Fact(Check(sheriff, target), w, Pos(night, 6)))
        else:
            raise malformed(gid, w + ".role", "a check is the Don's (0) or the Sheriff's (3)")
    _players_facts(s, seats, gid)
    return s


def _players_facts(s: Script, seats: list[Mapping[str, Any]], gid: str) -> None:
    timed: list[tuple[str, Fact]] = []
    for i, p in enumerate(seats):
        seat = i + 1
        for j, foul in enumerate(as_list(p.get("fouls"), gid, f"players[{i}].fouls")):
            w = f"players[{i}].fouls[{j}]"
            foul = as_map(foul, gid, w)
            pos = stage_pos(as_map(foul.get("stage"), gid, w + ".stage"), gid, w + ".stage")
            timed.append((str(foul.get("time") or ""), Fact(Foul(seat), w, pos)))
        techs = as_list(p.get("techs"), gid, f"players[{i}].techs")
        if techs:
            s.left_out.append(f"players[{i}].techs: {len(techs)} technical fouls (off under fiim)")
        if p.get("disqual") is not None:
            w = f"players[{i}].disqual"
            pos = stage_pos(as_map(p.get("disqual"), gid, w), gid, w)
            timed.append(("~", Fact(Remove(seat), w, pos)))
        guess = p.get("guess")
        if isinstance(guess, Mapping):
            mafs = tuple(as_int(x, gid, f"players[{i}].guess.mafs", 1, 10)
                         for x in as_list(guess.get("mafs"), gid, f"players[{i}].guess.mafs"))
            if mafs:
                s.best_moves.append(Fact(BestMove(seat, mafs), f"players[{i}].guess.mafs", Pos(2, 0, seat),
                                         optional=True))
            for key in ("civs", "vice"):
                if guess.get(key):
                    s.left_out.append(f"players[{i}].guess.{key}")
    s.discipline.extend(f for _, f in sorted(timed, key=lambda tf: tf[0]))


def _day_one_rule(data: Mapping[str, Any]) -> str | None:
    """The first day's rule (``zeroVoting``) when it is one the engine has no option for and the first day's
    vote was held under it (then the game is kept by its result)."""
    rule = data.get("zeroVoting")
    if rule is None:
        return None
    held = any(isinstance(v, Mapping) and v.get("day") == 1 and v.get("num") not in (None, 0)
               for v in data.get("votes") or [])
    return str(rule) if held else None


def from_polemica(data: Mapping[str, Any]) -> Imported:
    """One Polemica game, replayed through the engine (or kept by its result when its first day was played
    under a ``zeroVoting`` rule the engine does not have); :class:`ImportRefused` when it breaks the rules."""
    gid = str(data.get("id") if data.get("id") is not None else "?")
    seats = _seats(data, gid)
    script = _script(data, gid, seats)
    played_on = day_of(data.get("started"))
    ids = [_player_id(p) for p in seats]
    script.left_out.extend(f for f in LEFT_OUT_FIELDS if data.get(f) not in (None, [], {}, ""))
    rule = _day_one_rule(data)
    if rule is not None:
        script.left_out.append(f"zeroVoting={rule}: the first day's vote under a rule the engine does not play")
        left, guess = _departures(data, script, seats)
        fouls = [len(p.get("fouls") or []) for p in seats]
        return result_only("polemica", script, played_on, ids, SOURCE_RESULT, fouls, left, guess,
                           ("roles", "winner", "departures", "fouls", "best move"))
    game = play(script)
    kept = ["roles", "nominations", "votes", "shots", "checks", "fouls", "best move"]
    if not script.finished:
        kept.append("unfinished: stopped at the stage")
    return full("polemica", script, game, played_on, ids, kept)


def _departures(data: Mapping[str, Any], s: Script, seats: list[Mapping[str, Any]],
                ) -> tuple[list[tuple[str, int, bool] | None], tuple[int, ...]]:
    """Who left when, read from the source's own facts (for a result-only game)."""
    alive = set(range(1, 11))
    left: list[tuple[str, int, bool] | None] = [None] * 10
    votes = [v for v in data.get("votes") or [] if isinstance(v, Mapping)]
    shots = [v for v in data.get("shots") or [] if isinstance(v, Mapping)]
    days = max([v.get("day", 0) for v in votes] + [v.get("night", 0) for v in shots] + [0])
    guess: tuple[int, ...] = ()
    for d in range(1, days + 1):
        rounds = [v for v in votes if v.get("day") == d and v.get("num")]
        if rounds:
            last = max(v["num"] for v in rounds)
            tally: dict[int, int] = {}
            for v in rounds:
                if v["num"] == last:
                    tally[v["candidate"]] = tally.get(v["candidate"], 0) + 1
            top = max(tally.values())
            leaders = [c for c, n in tally.items() if n == top]
            lifted = 2 * sum(1 for v in votes if v.get("day") == d and v.get("num") is None) > len(alive)
            if lifted or (len(leaders) == 1 and d > 1):
                for c in leaders:
                    left[c - 1] = ("vote" if len(leaders) == 1 else "lift", d, False)
                    alive.discard(c)
        night = [v for v in shots if v.get("night") == d]
        black = [x for x in alive if s.roles[x - 1] in ("mafia", "don")]
        targets = {v.get("victim") for v in night}
        if night and len(targets) == 1 and len(night) == len(black) == len({v.get("shooter") for v in night}):
            killed = targets.pop()
            if killed in alive:
                left[killed - 1] = ("kill", d, True)
                alive.discard(killed)
                if d == 1:
                    guess = tuple((seats[killed - 1].get("guess") or {}).get("mafs") or ())
    return left, guess


# --------------------------------------------------------------------------------------------------------------
# export
def to_polemica(record: Mapping[str, Any], *, game_id: int | str = 0) -> dict[str, Any]:
    """A sportmafia record as a Polemica game (version 4); :class:`ExportRefused` when the format cannot hold
    it (not ten seats with a Sheriff and a Don)."""
    game = checked_game(record, "polemica")
    started = meta_date(record)
    time = f"{started}T00:00:00" if started else None
    players: list[dict[str, Any]] = [
        {"position": i, "username": name, "role": CODE_OF[game.roles[i]], "techs": [], "fouls": []}
        for i, name in enumerate(game.names, 1)]
    votes: list[dict[str, Any]] = []
    shots: list[dict[str, Any]] = []
    checks: list[dict[str, Any]] = []
    num = 0
    for step, again in walk(game):
        ev, day = step.action, step.day
        match ev:
            case E.Nominated(by=by, target=target):
                votes.append({"day": day, "num": 0, "voter": by, "candidate": target})
            case E.VoteCast(voter=voter, candidate=cand):
                votes.append({"day": day, "num": num, "voter": voter, "candidate": cand})
            case E.LiftVoteCast(voter=voter):
                votes.append({"day": day, "voter": voter, "candidate": 1})
            case E.ShotFired(shooter=shooter, target=target):
                shots.append({"night": day, "shooter": shooter, "victim": target})
            case E.VolleyFired(shooters=shooters, target=target):
                shots.extend({"night": day, "shooter": x, "victim": target} for x in shooters)
            case E.Checked(checker=checker, target=target):
                checks.append({"night": day, "role": CODE_OF[again.roles[checker]], "player": target})
            case E.BestMoveNamed(seat=seat, guesses=guesses):
                players[seat - 1]["guess"] = {"mafs": list(guesses)}
            case E.Fouled(seat=seat, technical=technical):
                players[seat - 1]["techs" if technical else "fouls"].append(
                    {"time": time, "stage": stage_of(step.at)})
        for out in step.produced:
            if isinstance(out, E.VotingStarted) and out.kind in ("vote", "revote"):
                num = 1 if out.kind == "vote" else num + 1
            elif isinstance(out, E.DefaultVotes):
                votes.extend({"day": day, "num": num, "voter": v, "candidate": out.candidate} for v in out.voters)
            elif isinstance(out, E.PlayerLeft) and out.how == "removal":
                players[out.seat - 1]["disqual"] = stage_of(step.at)
    data: dict[str, Any] = {
        "id": game_id, "version": 4, "players": players, "checks": checks, "shots": shots, "votes": votes,
        "stage": {"type": "gameOver", "day": game.day} if game.over else stage_of(pos_of(game)),
        "result": {"red": 0, "black": 1}.get(game.winner or "") if game.over else None,
    }
    if time:
        data["started"] = time
    return data
