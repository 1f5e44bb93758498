"""Random legal games for every preset and table size, checking the engine's invariants.

* the log replays to an identical state (the fold, and the checked replay of the JSON record);
* the number of players alive matches the departures;
* the game ends exactly when a win condition holds;
* a seat's view never holds another player's role or another checker's results, and a spectator's view
  holds no role and no night action;
* every command the engine lists as legal is accepted, and every other command is refused (with the game
  unchanged).
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sportmafia.bots import random_command
from sportmafia.engine import (
    BLACK_ROLES,
    NIGHT_STEPS,
    SANCTIONS,
    Advance,
    Award,
    BestMove,
    Check,
    Command,
    DealCards,
    DrawFirstSpeaker,
    DrawLot,
    Foul,
    Game,
    Kill,
    LiftVote,
    Nominate,
    Override,
    Protest,
    Remove,
    RuleViolation,
    Sanction,
    Shoot,
    TeamDefeat,
    Undo,
    Views,
    Vote,
    Withdraw,
    feed_length,
    replay,
    to_record,
    view,
    visible_events,
)
from sportmafia.rules import get_ruleset
from tests.depth import examples

TABLES = [("club", 10), ("fiim", 10)] + [("tournament", n) for n in range(12, 17)]
RARE = {"foul": 0.03, "sanction": 0.01, "remove": 0.004, "undo": 0.02, "award": 0.0005,
        "team_defeat": 0.0005, "override": 0.0005}


def play(preset: str, n: int, seed: int, check: Any = None) -> Game:
    rs = get_ruleset(preset)
    rng = random.Random(seed)
    game = Game(rs, n)
    for _ in range(5000):
        if game.over:
            break
        game.execute(random_command(game, rng, RARE), rng)
        if check:
            check(game, rng)
    assert game.over
    return game


def invariants(game: Game, rng: random.Random) -> None:
    assert sum(game.alive[1:]) == game.alive_count == game.n - len(game.departures)
    if game.step == "deal":
        return
    black = game.black_alive()
    win = black == 0 or black >= game.alive_count - black
    if win:
        assert game.over, "a win condition holds but the game goes on"
    if game.over and game.result in ("black-gone", "parity"):
        assert game.winner == ("red" if black == 0 else "black")
        assert win


@pytest.mark.clause("A.win")
@pytest.mark.clause("B.win")
@examples(check=60, suite=600, deep=6000)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1))
def test_random_games_replay_exactly_and_end_on_a_win(table: tuple[str, int], seed: int) -> None:
    """Random games (600 in the suite, tests/depth.py): invariants at every step; fold and record replay are
    exact."""
    preset, n = table
    game = play(preset, n, seed, invariants)
    folded = Game.from_events(game.rules, n, game.log)
    assert folded.snapshot() == game.snapshot()
    # read back in pieces (as a live server does): the same game at every cut
    cuts = sorted(random.Random(seed).sample(range(len(game.log) + 1), min(3, len(game.log) + 1)))
    piecewise = Game.from_events(game.rules, n, game.log[:cuts[0]])
    for a, b in zip(cuts, [*cuts[1:], len(game.log)], strict=True):
        piecewise.fold_in(game.log[a:b])
        assert piecewise.snapshot() == Game.from_events(game.rules, n, game.log[:b]).snapshot()
    record = json.loads(json.dumps(to_record(game)))
    assert replay(record).snapshot() == game.snapshot()


# --- secrecy ---------------------------------------------------------------------------------------
SECRET_KEYS = {"role", "roles", "teammates", "checks", "found", "shots", "kill", "night"}


def _keys(data: Any, path: str = "") -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            found.append((f"{path}.{k}", v))
            found += _keys(v, f"{path}.{k}")
    elif isinstance(data, list):
        for i, v in enumerate(data):
            found += _keys(v, f"{path}[{i}]")
    return found


def _secret_key(key: Any) -> bool:
    """Whether a path ending in this key is flagged (as ``p.rsplit(".", 1)[-1] in SECRET_KEYS`` of _keys's path)."""
    name = key if isinstance(key, str) else str(key)
    return (name.rsplit(".", 1)[-1] if "." in name else name) in SECRET_KEYS


def _any_secret(data: Any) -> bool:
    """Whether any path of ``_keys(data)`` ends in a secret key: the same walk, without building the paths (a
    failure lists them with ``_keys``)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for k in item:
                if k in SECRET_KEYS or ((not isinstance(k, str) or "." in k) and _secret_key(k)):
                    return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


PUBLIC_EXCEPT = ("viewer", "seats", "unnamed_night_fouls")
"""The keys of a view besides its public part (a seat's view has ``you`` too)."""


def _secret_paths(data: Any, skip_you: bool = False) -> list[str]:
    return [p for p, _ in _keys(data) if p.rsplit(".", 1)[-1] in SECRET_KEYS and not (skip_you and p.startswith(".you"))]


def check_views(game: Game, rng: random.Random) -> None:
    """Every seat's view and the spectator's at this moment hold only what they may see.

    The seats' views are taken from one ``Views`` of the moment, as a table's sockets get them (each seat served
    after the others, on the parts they share); at every night step and a quarter of the others, every viewer's
    view from that ``Views`` is also compared with his own ``view()``. A seat's view is checked as: its public
    part (every key but ``you``, ``viewer``, ``seats`` and ``unnamed_night_fouls``) the same JSON as the
    spectator's, the other seats' rows equal to the spectator's, so that (the spectator's view holding no secret
    key) a secret key could stand only in his own row, ``viewer`` or ``unnamed_night_fouls``: those are searched.
    The same as searching his whole view but ``you``, without walking the spectator's parts once per seat."""
    if game.step == "deal":
        return
    roles = game.roles
    spectator = view(game, "spectator")
    if game.over:  # the end makes every role public, and nothing else
        assert [seat["role"] for seat in spectator["seats"]] == [roles[s] or None for s in range(1, game.n + 1)]
        spectator = {**spectator, "seats": [{k: v for k, v in seat.items() if k != "role"}
                                            for seat in spectator["seats"]]}
    else:
        assert all("role" not in seat for seat in spectator["seats"])
    if _any_secret(spectator):
        raise AssertionError(_secret_paths(spectator))
    spectator_public = json.dumps({k: val for k, val in spectator.items() if k not in PUBLIC_EXCEPT},
                                  sort_keys=True)
    shared = Views(game)
    seat_views = [shared(s) for s in range(1, game.n + 1)]  # every one built before any is read
    reference = shared("spectator")  # the public parts the seats' views share
    public_keys = [k for k in reference if k not in PUBLIC_EXCEPT]
    # the public part every seat's view shares with the reference (the same objects), as JSON; a seat whose
    # public part is not made of those very objects is compared as JSON on his own
    assert spectator_public == json.dumps({k: reference[k] for k in public_keys}, sort_keys=True)
    for s, v in enumerate(seat_views, 1):
        if game.over:
            v = {**v, "seats": [{k: val for k, val in seat.items() if k != "role"} for seat in v["seats"]]}
        you = v["you"]
        assert you["role"] == roles[s]
        # the public part of a seat's view is the spectator's, except his own night fouls
        public = [k for k in v if k not in PUBLIC_EXCEPT and k != "you"]
        shares = public == public_keys and all(v[k] is reference[k] for k in public)
        if not shares and spectator_public != json.dumps({k: v[k] for k in public}, sort_keys=True):
            raise AssertionError(("seat", s, _secret_paths(v, skip_you=True)))
        assert [row for t, row in enumerate(v["seats"], 1) if t != s] == \
            [row for t, row in enumerate(spectator["seats"], 1) if t != s]
        own = [v["seats"][s - 1], v["viewer"], v.get("unnamed_night_fouls")]
        if _any_secret(own):
            raise AssertionError(_secret_paths(v, skip_you=True))
        if roles[s] in BLACK_ROLES:
            assert {m["seat"] for m in you["teammates"]} == {
                t for t in range(1, game.n + 1) if t != s and roles[t] in BLACK_ROLES}
        else:
            assert you["teammates"] == []
        assert all(c["checker"] == s for c in you["checks"])
        assert v["seats"][s - 1]["fouls"] == game.fouls[s]  # his own, tonight's included
    # one Views of the moment for every viewer (as a table's sockets get them) gives each what view() gives
    # him: nothing of one viewer's view reaches another's through the parts they share (every night step, a
    # quarter of the others: thousands of moments over the test's games)
    if game.step in NIGHT_STEPS or rng.random() < 0.25:
        viewers: list[Any] = ["spectator", *rng.sample(range(1, game.n + 1), game.n), "host"]
        fresh = Views(game)
        assert [fresh(w) for w in viewers] == [view(game, w) for w in viewers]
    for ev in visible_events(game, "spectator", max(0, feed_length(game, "spectator") - 3)):
        assert ev["type"] not in ("shot_fired", "volley_fired", "kill_chosen", "checked"), ev
        assert "roles" not in ev and "role" not in ev
    seat = rng.randint(1, game.n)
    for ev in visible_events(game, seat, max(0, feed_length(game, seat) - 3)):
        if ev["type"] == "checked":
            assert ev["checker"] == seat
        if ev["type"] == "shot_fired":  # his own shot only
            assert ev["shooter"] == seat
        if ev["type"] == "volley_fired":  # a volley he shot in
            assert seat in ev["shooters"]
        assert ev["type"] != "kill_chosen"
        if ev["type"] == "dealt":
            assert ev["role"] == roles[seat]


@pytest.mark.clause("A.night.checks")
@examples(check=10, suite=60, deep=600)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1))
def test_views_never_leak_roles_checks_or_night_actions(table: tuple[str, int], seed: int) -> None:
    """Every step of random games: each seat's view and the spectator's hold only what they may see."""
    preset, n = table
    play(preset, n, seed, check_views)


def test_the_leak_check_catches_a_role_in_the_spectator_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The secrecy check can fail: a role field added to the spectator's payload is caught."""
    import sportmafia.engine.views as views

    real = views.view

    def leaky(game: Game, viewer: Any) -> dict[str, Any]:
        out = real(game, viewer)
        if viewer == "spectator":
            out["seats"][0]["role"] = game.roles[1]
        return out

    monkeypatch.setattr(__import__(__name__, fromlist=["view"]), "view", leaky)
    with pytest.raises(AssertionError):
        play("club", 10, 5, check_views)


# --- legal commands ---------------------------------------------------------------------------------
def universe(game: Game) -> list[Command]:
    """Many commands, legal or not, including seats out of range."""
    seats = range(0, game.n + 2)
    out: list[Command] = [Advance(), Undo(), DealCards(), DrawFirstSpeaker(), DrawLot(),
                          Award("red", "x"), Award("black", "x"), Override("red", "x"), Override(None, "x"),
                          TeamDefeat("red", "x"), Protest("annul", ()), Protest("reverse", ())]
    for a in seats:
        out += [Foul(a), Foul(a, technical=True), Remove(a), LiftVote(a), Kill(a), BestMove(a, (1, 2))]
        out += [Sanction(a, o) for o in list(SANCTIONS)[:2]]
        for b in seats:
            out += [Nominate(a, b), Withdraw(a, b), Vote(a, b), Shoot(a, b), Check(a, b)]
    return out


def filled(cmd: Command) -> Command:
    return dataclasses.replace(cmd, reason="x") if cmd.needs_reason else cmd  # type: ignore[call-arg]


def check_legal(game: Game, rng: random.Random) -> None:
    if rng.random() > 0.05:
        return
    legal = {filled(c) for c in game.legal_commands()}
    assert legal >= {filled(c) for c in game.legal_commands(None, extras=False)}
    for cmd in legal:
        copy = Game.from_events(game.rules, game.n, game.log)
        copy.execute(cmd, random.Random(1))
    before = game.snapshot()
    every = universe(game)
    for cmd in rng.sample(every, min(len(every), 300)):
        if filled(cmd) in legal:
            continue
        try:
            game.execute(cmd, random.Random(1))
        except RuleViolation:
            continue
        raise AssertionError(f"{cmd} was not listed at {game.step} but was accepted")
    assert game.snapshot() == before


@pytest.mark.clause("A.judge")
@examples(check=8, suite=30, deep=300)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1))
def test_listed_commands_are_accepted_and_all_others_refused(table: tuple[str, int], seed: int) -> None:
    """At random steps: every listed command executes; every other command of a large set is refused."""
    preset, n = table
    play(preset, n, seed, check_legal)


def test_a_seat_may_list_and_act_only_for_itself() -> None:
    rng = random.Random(3)
    game = Game(get_ruleset("club"), 10)
    game.execute(DealCards(), rng)
    while game.step != "speech":
        game.execute(Advance(), rng)
    speaker = game.seat
    mine = game.legal_commands(speaker)
    assert mine and all(c.actor_seat() == speaker for c in mine)
    other = speaker % 10 + 1
    assert game.legal_commands(other) == []
    before = game.snapshot()
    with pytest.raises(RuleViolation) as info:
        game.execute(Nominate(speaker, other), actor=other)
    assert info.value.code == "not-yours"
    assert game.snapshot() == before
    game.execute(Nominate(speaker, other), actor=speaker)
    assert game.candidates == [other]
