"""mafiaratings' game JSON (version 1.3) to and from a sportmafia game record (docs/exchange.md, "mafiaratings").

``players[10]``, seat i+1 at index i, each with ``role`` (civ, sheriff, maf, don), ``death`` (a round, a type
or both), ``warnings`` (game times), ``nominating`` and ``voting`` per round, ``shooting`` per night from night
1, ``don``/``sheriff`` (the round the player was checked), ``legacy`` (the best move). Round r is night r then
day r: the engine's day r+1 and night r (night 0 the meetings)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine import BestMove, Check, Foul, Game, LiftVote, Nominate, Remove, Shoot, TeamDefeat, Vote
from ..engine import events as E
from ..i18n import msg
from ..rules import get_ruleset
from .common import SOURCE_RESULT, as_int, as_list, as_map, day_of, full, meta_date, result_only
from .drive import END, Fact, Pos, Script, play
from .model import ExportRefused, Imported, ImportRefused, malformed
from .walk import checked_game, walk

RULESET = get_ruleset("fiim")
ROLE_OF = {"civ": "civilian", "sheriff": "sheriff", "maf": "mafia", "don": "don"}
CODE_OF = {role: code for code, role in ROLE_OF.items()}
DEFAULT_FEATURES = "agsdutclhvnwr"
"""The features of a game that does not list them (mafiaratings' GAME_FEATURE_MASK_MAFIARATINGS)."""
NIGHT_TIMES = {"night start": 4, "shooting": 4, "don": 5, "sheriff": 6}
LEFT_OUT_FIELDS = ("moderator", "clubId", "eventId", "tournamentId", "rules", "language", "timezone")


def time_pos(t: Mapping[str, Any], game: str, where: str) -> Pos:
    """Where a mafiaratings game time (``{"time", "round", "speaker", "votingRound", "nominee"}``) stands."""
    kind = t.get("time")
    r = as_int(t.get("round", 0), game, where + ".round", 0, 1000)
    speaker, vr = t.get("speaker") or 0, t.get("votingRound") or 0
    if kind in ("start", "arrangement", "relaxed sitting"):
        return Pos(0, 4)
    if kind in ("day start", "night kill speaking"):
        return Pos(r + 1, 0, speaker)
    if kind == "speaking":
        return Pos(r + 1, 1, speaker)
    if kind == "voting start":
        return Pos(r + 1, 2, tie=True)
    if kind == "voting":
        if t.get("nominee"):
            return Pos(r + 1, 2, t["nominee"], vr)
        return Pos(r + 1, 2, speaker, vr + 1 if speaker else 0, tie=True)
    if kind == "voting kill all":
        return Pos(r + 1, 2, lift=True)
    if kind == "day kill speaking":
        return Pos(r + 1, 3, speaker)
    if kind in NIGHT_TIMES:
        return Pos(r, NIGHT_TIMES[kind])
    if kind == "end":
        return Pos(END, 0)
    raise malformed(game, where + ".time", f"unknown game time {kind!r}")


def time_of(at: Pos) -> dict[str, Any]:
    """The game time of a position (the reverse of :func:`time_pos`)."""
    d = at.day
    if d >= END:
        return {"time": "end"}
    if d == 0:
        return {"time": "arrangement", "round": 0}
    if at.part >= 4:
        return {"time": {4: "shooting", 5: "don"}.get(at.part, "sheriff"), "round": d}
    r = d - 1
    if at.part == 2:
        if at.lift:
            return {"time": "voting kill all", "round": r}
        if at.tie:
            return {"time": "voting", "round": r, "speaker": at.seat, "votingRound": at.round - 1}
        return {"time": "voting", "round": r, "nominee": at.seat, "votingRound": at.round}
    kind = {0: "night kill speaking", 1: "speaking", 3: "day kill speaking"}[at.part]
    return {"time": kind, "round": r, "speaker": at.seat}


# --------------------------------------------------------------------------------------------------------------
# import
def _death(p: Mapping[str, Any]) -> tuple[str | None, int | None, Any]:
    death = p.get("death")
    if isinstance(death, bool) or death is None:
        return None, None, None
    if isinstance(death, int):
        return None, death, None
    if isinstance(death, str):
        return death, None, None
    if isinstance(death, Mapping):
        return death.get("type"), death.get("round"), death.get("time")
    return None, None, None


def _script(data: Mapping[str, Any], gid: str, players: list[Mapping[str, Any]]) -> tuple[Script, list[str]]:
    roles = []
    for i, p in enumerate(players):
        code = p.get("role", "civ")
        if code not in ROLE_OF:
            raise malformed(gid, f"players[{i}].role", f"role {code!r} is not civ, sheriff, maf or don")
        roles.append(ROLE_OF[code])
    winner = data.get("winner")
    if winner not in ("civ", "maf", "tie"):
        raise malformed(gid, "winner", "the winner is civ, maf or tie")
    s = Script(gid, RULESET, tuple(str(p.get("name") or f"Player {i}") for i, p in enumerate(players, 1)),
               tuple(roles), winner={"civ": "red", "maf": "black"}.get(winner))
    lacking: list[str] = []
    don, sheriff = roles.index("don") + 1 if "don" in roles else 0, roles.index("sheriff") + 1 if "sheriff" in roles else 0
    for i, p in enumerate(players):
        seat, w = i + 1, f"players[{i}]"
        for r, target in enumerate(as_list(p.get("nominating"), gid, w + ".nominating")):
            if target is not None:
                s.nominations.append(Fact(Nominate(seat, as_int(target, gid, f"{w}.nominating[{r}]", 1, 10)),
                                          f"{w}.nominating[{r}]", Pos(r + 1, 1, seat)))
        for r, hands in enumerate(as_list(p.get("voting"), gid, w + ".voting")):
            _hands(s, gid, seat, r, hands, f"{w}.voting[{r}]")
        for k, target in enumerate(as_list(p.get("shooting"), gid, w + ".shooting")):
            if target is not None:
                s.shots.append(Fact(Shoot(seat, as_int(target, gid, f"{w}.shooting[{k}]", 1, 10)),
                                    f"{w}.shooting[{k}]", Pos(k + 1, 4)))
        for key, checker, part in (("don", don, 5), ("sheriff", sheriff, 6)):
            if p.get(key) is not None:
                night = as_int(p.get(key), gid, f"{w}.{key}", 1, 1000)
                s.checks.append(Fact(Check(checker, seat), f"{w}.{key}", Pos(night, part)))
        if p.get("legacy"):
            guesses = tuple(as_int(x, gid, w + ".legacy", 1, 10) for x in as_list(p.get("legacy"), gid, w + ".legacy"))
            s.best_moves.append(Fact(BestMove(seat, guesses), w + ".legacy", Pos(2, 0, seat), optional=True))
        lacking += _discipline(s, gid, seat, p, w)
    return s, lacking


def _hands(s: Script, gid: str, seat: int, r: int, hands: Any, w: str) -> None:
    if hands is None:
        return
    for k, h in enumerate(hands if isinstance(hands, list) else [hands]):
        if isinstance(h, bool):
            if h:
                s.lifts.append(Fact(LiftVote(seat), w, Pos(r + 1, 2, lift=True)))
        elif h is not None:
            c = as_int(h, gid, w, 1, 10)
            s.votes.append(Fact(Vote(seat, c), f"{w}[{k}]" if isinstance(hands, list) else w, Pos(r + 1, 2, c, k)))


def _discipline(s: Script, gid: str, seat: int, p: Mapping[str, Any], w: str) -> list[str]:
    """Warnings (fouls) and removals; returns what is too vague to replay (then the game is kept by result)."""
    lacking = []
    warnings = p.get("warnings")
    if isinstance(warnings, int) and not isinstance(warnings, bool) and warnings:
        s.left_out.append(f"{w}.warnings: {warnings}, with no time")
    for j, t in enumerate(warnings if isinstance(warnings, list) else []):
        s.discipline.append(Fact(Foul(seat), f"{w}.warnings[{j}]", time_pos(as_map(t, gid, w), gid, w)))
    kind, _, when = _death(p)
    if kind in ("kickOut", "giveUp", "teamKickOut"):
        if not isinstance(when, Mapping):
            lacking.append(f"{w}.death: no time")
        elif kind == "teamKickOut":
            team = "black" if s.roles[seat - 1] in ("mafia", "don") else "red"
            s.discipline.append(Fact(TeamDefeat(team, "teamKickOut"), w + ".death", time_pos(when, gid, w)))
        else:
            s.discipline.append(Fact(Remove(seat, kind), w + ".death", time_pos(when, gid, w)))
    elif kind == "warnings" and not isinstance(warnings, list):
        lacking.append(f"{w}.death: warnings with no time")
    return lacking


def _left(players: list[Mapping[str, Any]]) -> list[tuple[str, int, bool] | None]:
    out: list[tuple[str, int, bool] | None] = []
    for p in players:
        kind, r, _ = _death(p)
        if r is None or (kind is None and p.get("death") is None):
            out.append(None)
        elif kind == "night":
            out.append(("kill", r, True))
        elif kind == "day" or kind is None:
            out.append(("vote", r + 1, False))
        else:
            out.append(("removal", r + 1, False))
    return out


def _check_deaths(s: Script, game: Game, players: list[Mapping[str, Any]]) -> None:
    """Each death the source records is the departure the rules gave."""
    got = {seat: (how, day, night) for seat, how, day, night in game.departures}
    for i, p in enumerate(players):
        kind, r, _ = _death(p)
        if kind not in ("day", "night") or r is None:
            continue
        want = ("kill", r, True) if kind == "night" else (None, r + 1, False)
        have = got.get(i + 1)
        if have is None or have[1:] != want[1:] or (kind == "night") != (have[0] == "kill"):
            said = f"{kind} round {r}"
            raise ImportRefused(s.game_id, f"players[{i}].death", "A.night.shoot" if kind == "night" else "A.vote.result",
                                msg("By the rules this player leaves otherwise: %(rules)s; the source says %(source)s.",
                                    rules=str(have), source=said))


def from_mafiaratings(data: Mapping[str, Any]) -> Imported:
    """One mafiaratings game, replayed through the engine under ``fiim`` (or kept by its result when the source
    has no nominations, votes or shots); :class:`ImportRefused` when it breaks the rules."""
    gid = str(data.get("id") if data.get("id") is not None else "?")
    players = [as_map(p, gid, f"players[{i}]") for i, p in enumerate(as_list(data.get("players"), gid, "players"))]
    if len(players) != 10:
        raise malformed(gid, "players", "ten players are expected")
    script, lacking = _script(data, gid, players)
    features = str(data.get("features") or DEFAULT_FEATURES)
    lacking += [f"features: no {name}" for letter, name in (("h", "shooting"), ("v", "voting"), ("n", "nominating"))
                if letter not in features]
    script.left_out.extend(f for f in LEFT_OUT_FIELDS if data.get(f) not in (None, "", {}))
    script.left_out.extend(f"players[{i}].{k}" for i, p in enumerate(players) for k in ("bonus", "comment", "arranged")
                           if p.get(k) not in (None, "", []))
    ids = [None if p.get("id") is None else str(p.get("id")) for p in players]
    played_on = day_of(data.get("startTime"))
    if lacking:
        script.left_out.extend(lacking)
        fouls = [len(w) if isinstance(w := p.get("warnings"), list) else int(w or 0) for p in players]
        legacy = next((tuple(p["legacy"]) for p in players if p.get("legacy")), ())
        return result_only("mafiaratings", script, played_on, ids, SOURCE_RESULT, fouls, _left(players), legacy,
                           ("roles", "winner", "departures", "fouls", "best move"))
    game = play(script)
    _check_deaths(script, game, players)
    kept = ["roles", "nominations", "votes", "shots", "checks", "fouls", "best move", "departures"]
    return full("mafiaratings", script, game, played_on, ids, kept)


# --------------------------------------------------------------------------------------------------------------
# export
def to_mafiaratings(record: Mapping[str, Any], *, game_id: int | str = 0) -> dict[str, Any]:
    """A finished sportmafia record as a mafiaratings game (version 1.3); :class:`ExportRefused` when the format
    cannot hold it (not ten seats with a Sheriff and a Don, or not finished)."""
    game = checked_game(record, "mafiaratings")
    if not game.over:
        raise ExportRefused("mafiaratings", msg("This format holds finished games only."))
    players: list[dict[str, Any]] = [{"name": n, "role": CODE_OF[game.roles[i]]} for i, n in enumerate(game.names, 1)]
    days = game.day + 1
    noms: list[list[int | None]] = [[None] * days for _ in players]
    hands: list[list[list[int | bool]]] = [[[] for _ in range(days)] for _ in players]
    shots: list[list[int | None]] = [[None] * days for _ in players]
    expelled: set[int] = set()
    for step, again in walk(game):
        ev, day = step.action, step.day
        match ev:
            case E.Nominated(by=by, target=target):
                noms[by - 1][day - 1] = target
            case E.VoteCast(voter=voter, candidate=cand):
                hands[voter - 1][day - 1].append(cand)
            case E.ShotFired(shooter=shooter, target=target) if shots[shooter - 1][day - 1] is None:
                shots[shooter - 1][day - 1] = target
            case E.VolleyFired(shooters=shooters, target=target):
                for x in shooters:
                    shots[x - 1][day - 1] = target
            case E.Checked(checker=checker, target=target):
                players[target - 1][again.roles[checker]] = day
            case E.BestMoveNamed(seat=seat, guesses=guesses):
                players[seat - 1]["legacy"] = list(guesses)
            case E.Fouled(seat=seat):
                players[seat - 1].setdefault("warnings", []).append(time_of(step.at))
        for out in step.produced:
            if isinstance(out, E.DefaultVotes):
                for v in out.voters:
                    hands[v - 1][day - 1].append(out.candidate)
            elif isinstance(out, E.VotingStarted) and out.kind == "lift":
                for v in again.living():
                    hands[v - 1][day - 1].append(False)
            elif isinstance(out, E.Expelled):
                expelled.add(out.seat)
            elif isinstance(out, E.PlayerLeft):
                players[out.seat - 1]["death"] = _death_of(out, step.at, out.seat in expelled)
        if isinstance(ev, E.LiftVoteCast):
            hands[ev.voter - 1][day - 1][-1] = True
    for i, p in enumerate(players):
        if any(x is not None for x in noms[i]):
            p["nominating"] = noms[i]
        if any(hands[i]):
            p["voting"] = [None if not h else h[0] if len(h) == 1 else h for h in hands[i]]
        if any(x is not None for x in shots[i]):
            p["shooting"] = shots[i]
    data: dict[str, Any] = {"id": game_id, "version": "1.3", "features": "gsdutclhvnkwr",
                            "winner": {"red": "civ", "black": "maf"}.get(game.winner or "", "tie"), "players": players}
    started = meta_date(record)
    if started:
        data["startTime"] = f"{started}T00:00:00"
    return data


def _death_of(ev: E.PlayerLeft, at: Pos, by_fouls: bool) -> dict[str, Any]:
    if ev.how == "kill":
        return {"round": ev.day, "type": "night"}
    if ev.how != "removal":
        return {"round": ev.day - 1, "type": "day"}
    kind = "warnings" if by_fouls else "kickOut"
    return {"round": max(at.day - 1, 0) if at.part < 4 else at.day, "type": kind, "time": time_of(at)}
