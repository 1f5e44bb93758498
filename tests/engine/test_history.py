"""The engine's history functions other layers use: the last action (what Undo takes back), a prefix of the
game, and whether a run of events changes the phase."""

from __future__ import annotations

from sportmafia.bots import play_random
from sportmafia.engine import (
    Advance,
    Foul,
    Game,
    Nominate,
    Undo,
    changes_phase,
    in_effect,
    last_action,
    prefix,
)
from sportmafia.engine import events as E
from tests.conftest import advance_until, new_game


def _in_effect(log: list[E.Event]) -> list[int]:
    """The log indexes in effect, found from the log alone (undone groups and undos left out)."""
    undone = {ev.seq for ev in log if isinstance(ev, E.Undone)}
    group = -1
    live: list[int] = []
    for i, ev in enumerate(log):
        if ev.action:
            group = i
        if isinstance(ev, E.Undone) or group in undone:
            continue
        live.append(i)
    return live


def test_last_action_is_none_before_the_deal_and_the_deal_after_it() -> None:
    game = Game.new(new_game("club").rules, 10)
    assert last_action(game) is None
    game = new_game("club")
    last = last_action(game)
    assert last is not None and last.seq == 0 and isinstance(last.events[0], E.Dealt) and last.step is None


def test_last_action_holds_the_group_and_the_step_it_was_taken_in() -> None:
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    game.execute(Nominate(1, 5))
    events = game.execute(Advance())
    last = last_action(game)
    assert last is not None
    assert last.events == tuple(events) and last.seq == len(game.log) - len(events)
    assert last.step is not None and (last.step.step, last.step.seat) == ("speech", 1)
    game.execute(Undo())
    last = last_action(game)
    assert last is not None and isinstance(last.events[0], E.Nominated)


def test_last_action_agrees_with_the_log_in_random_games() -> None:
    for seed in range(30):
        game = play_random(new_game("club").rules, 10, seed)
        log = game.log
        live = _in_effect(log)
        actions = [i for i in live if log[i].action]
        last = last_action(game)
        if not actions:
            assert last is None
            continue
        assert last is not None and last.seq == actions[-1]
        assert list(last.events) == [log[i] for i in live if i >= last.seq]
        before = next((log[i] for i in reversed(live) if i < last.seq and isinstance(log[i], E.Step)), None)
        assert last.step == before
        if game.undoable():
            undone = game.log[:]
            game.execute(Undo())
            assert game.log[-1] == E.Undone(last.seq) and game.log[:-1] == undone


def test_prefix_is_the_game_after_its_first_events() -> None:
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=3)
    count = len(game.log)
    game.execute(Advance())
    game.execute(Advance())
    past = prefix(game, count)
    assert (past.step, past.day, past.seat) == ("speech", 1, 3) and game.seat == 5
    assert past.log == game.log[:count] and past.names == game.names
    assert past.snapshot() == Game.from_events(game.rules, game.n, game.log[:count]).snapshot()


def test_players_acts_and_fouls_keep_the_phase_steps_change_it() -> None:
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    nominated = game.execute(Nominate(1, 5))
    assert not changes_phase(nominated)
    assert not changes_phase([])
    assert changes_phase(game.execute(Advance()))
    assert not changes_phase(game.execute(Foul(4)))
    assert not changes_phase([E.VoteCast(2, 5), E.ShotFired(3, 1), E.Checked(6, 3, True)])
    assert changes_phase([E.VoteCast(2, 5), E.Undone(3)])
    assert changes_phase(game.execute(Undo()))


def test_in_effect_is_the_log_the_state_is_the_fold_of() -> None:
    for seed in range(30):
        game = play_random(new_game("club").rules, 10, seed)
        live = [i for i, _ in in_effect(game.log)]
        assert live == _in_effect(game.log)
        again = Game.from_events(game.rules, game.n, [ev for _, ev in in_effect(game.log)], game.names)
        assert again.snapshot() | {"_groups": []} == game.snapshot() | {"_groups": []}
