"""Pairs of games that differ only in what some viewers may not see: the material of the non-interference tests
(tests/engine/test_noninterference.py through the engine, tests/web/test_noninterference.py through the
server's sockets).

A pair is one game played twice: the same commands up to a night, then two different hidden segments, then the
same commands again. The hidden segments differ in

* ``shots``: who shot whom and how many black players shot, when the night ends in a miss either way (or the
  same kill, the shots fired in another order), now and then with a shot taken back by the host's undo;
* ``check``: whom the Sheriff, the Commissar or the Don checked (with or without a check undone first);
* ``kill``: the host recording the black team's kill (the agreed kill of the tournament preset) after a wrong
  one undone, or straight away;
* ``foul``: which player got a foul at night (the player is named in the morning).

``holders`` are the seats that may see the difference (the shooters, the checker, the fouled players); every
other seat and the spectators must get byte-identical messages, up to the first message of the next day for a
night foul (``public_at_day``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from sportmafia.bots.plausible import PlausibleTable
from sportmafia.engine import (
    BLACK_ROLES,
    FOUL_REASONS,
    Advance,
    Check,
    Command,
    Foul,
    Game,
    Kill,
    RuleViolation,
    Shoot,
    Undo,
)
from sportmafia.rules import get_ruleset

TABLES = (("club", 10), ("fiim", 10), ("tournament", 13))
KINDS = ("shots", "check", "kill", "foul")
EVERY_KIND = frozenset({("club", "shots"), ("fiim", "shots"), ("club", "check"), ("fiim", "check"),
                        ("tournament", "check"), ("tournament", "kill"), ("club", "foul"), ("fiim", "foul")})
"""Each kind of hidden action on each preset that has it (the tournament preset's black team agrees on a kill
instead of shooting; its night fouls come rarely in a pair's course)."""
SUFFIX = 30
"""Commands played after the hidden segments (fewer when the game ends or a command does not fit both)."""


@dataclass
class Pair:
    preset: str
    players: int
    kind: str
    prefix: list[Command]  # played in both, the k-th with chance(k)
    a: list[Command]
    b: list[Command]
    suffix: list[Command] = field(default_factory=list)
    holders: frozenset[int] = frozenset()
    public_at_day: bool = False

    def steps(self, which: str) -> list[tuple[Command, random.Random]]:
        """The commands of game ``which`` ("a" or "b"), each with the generator its chance is drawn from: the
        same for both games (the segments draw none)."""
        return [*((c, chance(k)) for k, c in enumerate(self.prefix)),
                *((c, chance(-1)) for c in (self.a if which == "a" else self.b)),
                *((c, chance(100_000 + k)) for k, c in enumerate(self.suffix))]

    def game(self) -> Game:
        return Game(get_ruleset(self.preset), self.players, [f"P{i}" for i in range(1, self.players + 1)])


def chance(k: int) -> random.Random:
    """The generator a pair's k-th command draws its chance from (the deal, the first speaker, the lot)."""
    return random.Random(k)


def play(game: Game, steps: list[tuple[Command, random.Random]]) -> None:
    for cmd, rng in steps:
        game.execute(cmd, rng)


def _opportunity(game: Game, kind: str) -> bool:
    step = game.step
    if kind == "shots":
        return step == "shooting" and not game.shots and game.black_alive() > 0
    if kind == "kill":
        return step == "kill" and not game.kill_target
    if kind == "check":
        return step.startswith("check_") and game.checker_seat() > 0 and not game.checked_tonight
    return game.phase == "night" and game.rules.fouls and step not in ("shooting", "kill")


def _is_miss(game: Game, shots: dict[int, list[int]]) -> bool:
    shooters = [s for s in game.living() if game.roles[s] in BLACK_ROLES]
    targets = {t for s in shooters for t in shots.get(s, [])}
    return not (all(len(shots.get(s, [])) == 1 for s in shooters) and len(targets) == 1)


def _shots(game: Game, rng: random.Random) -> tuple[list[Command], list[Command]]:
    """Two nights' shots with one public outcome: the same kill (the shots in other orders), or two misses."""
    shooters = [s for s in game.living() if game.roles[s] in BLACK_ROLES]
    living = game.living()
    if len(shooters) > 1 and rng.random() < 0.3:
        target = rng.choice(living)
        a, b = list(shooters), list(shooters)
        while a == b:
            rng.shuffle(b)
        return [Shoot(s, target) for s in a], [Shoot(s, target) for s in b]
    return _miss(game, shooters, rng), _miss(game, shooters, rng)


def _miss(game: Game, shooters: list[int], rng: random.Random) -> list[Command]:
    living = game.living()
    while True:
        shots: dict[int, list[int]] = {s: [rng.choice(living) for _ in range(rng.choice((0, 1, 1, 2)))]
                                       for s in shooters}
        if _is_miss(game, shots):
            out: list[Command] = [Shoot(s, t) for s in shooters for t in shots[s]]
            rng.shuffle(out)
            return out


def _segments(game: Game, kind: str, rng: random.Random) -> tuple[list[Command], list[Command], set[int]] | None:
    living = game.living()
    if kind == "shots":
        a, b = _shots(game, rng)
        if rng.random() < 0.3:  # a shot the host took back
            wrong = Shoot(rng.choice([s for s in living if game.roles[s] in BLACK_ROLES]), rng.choice(living))
            b = [wrong, Undo(), *b]
        if a == b:
            return None
        holders = {c.shooter for c in (*a, *b) if isinstance(c, Shoot)}
        return [*a, Advance()], [*b, Advance()], holders
    if kind == "kill":
        target = rng.choice(living)
        wrong = rng.choice([s for s in living if s != target])
        return [Kill(target), Advance()], [Kill(wrong), Undo(), Kill(target), Advance()], set()
    if kind == "check":
        checker = game.checker_seat()
        targets = [s for s in living if s != checker]
        if len(targets) < 2:
            return None
        x, y = rng.sample(targets, 2)
        a: list[Command] = [Check(checker, x), Advance()]
        b: list[Command] = [Check(checker, y), Advance()]
        if rng.random() < 0.3:
            b = [Check(checker, x), Undo(), *b]
        return a, b, {checker}
    # a night foul: on a player whom it neither removes nor ends the game for
    quiet = []
    for s in living:
        trial = Game.from_events(game.rules, game.n, game.log, game.names)
        try:
            events = trial.execute(Foul(s, FOUL_REASONS[0]))
        except RuleViolation:
            continue
        if not any(ev.type in ("player_left", "removed", "game_ended") for ev in events):
            quiet.append(s)
    if len(quiet) < 2:
        return None
    x, y = rng.sample(quiet, 2)
    reason = rng.choice(FOUL_REASONS)
    return [Foul(x, reason)], [Foul(y, reason)], {x, y}


def make_pair(table: tuple[str, int], seed: int, kind: str) -> Pair | None:
    """A pair of ``kind`` on ``table`` from ``seed``, or None when the game offers none (it ended first, or the
    rule set has no such night action)."""
    preset, n = table
    rng = random.Random(seed)
    game = Game(get_ruleset(preset), n, [f"P{i}" for i in range(1, n + 1)])
    bot = PlausibleTable(game, rng)
    prefix: list[Command] = []
    take = 0.15 if kind == "foul" else 0.6  # diverge at the first chance, or at a later one
    for _ in range(3000):
        if game.over:
            return None
        if _opportunity(game, kind) and rng.random() < take:
            break
        cmd = bot.next_command()
        game.execute(cmd, chance(len(prefix)))
        prefix.append(cmd)
    else:
        return None
    segments = _segments(game, kind, rng)
    if segments is None:
        return None
    a, b, holders = segments
    pair = Pair(preset, n, kind, prefix, a, b, holders=frozenset(holders), public_at_day=kind == "foul")
    game_a, game_b = pair.game(), pair.game()
    play(game_a, pair.steps("a"))
    play(game_b, pair.steps("b"))
    # the same play goes on in both games, as long as it fits both (the bot decides on game a)
    bot = PlausibleTable(game_a, rng)
    for _ in range(SUFFIX):
        if game_a.over:
            break
        cmd = bot.next_command()
        k = 100_000 + len(pair.suffix)
        try:
            game_b.execute(cmd, chance(k))
        except RuleViolation:
            break
        game_a.execute(cmd, chance(k))
        pair.suffix.append(cmd)
    return pair
