"""The belief agent's picture (``sportmafia.bots.belief``): the deals its seat cannot tell apart, weighed by what
it was told."""

from __future__ import annotations

import random

from sportmafia.bots import AGENTS
from sportmafia.bots.baseline import PAIR
from sportmafia.bots.belief import BeliefAgent
from sportmafia.bots.claims import Claim, Said
from sportmafia.bots.table import play_table
from sportmafia.engine import BLACK_ROLES
from sportmafia.rules import get_ruleset


def agent(seat: int, role: str, teammates: tuple[int, ...] = ()) -> BeliefAgent:
    a = BeliefAgent()
    a.start(seat, get_ruleset("club"), 10, random.Random(1))
    dealt = {"seq": 0, "type": "dealt", "role": role, **({"teammates": list(teammates)} if teammates else {})}
    a.observe([dealt], [])
    return a


def test_a_red_players_picture_follows_the_night_and_the_sheriff() -> None:
    a = agent(1, "civilian")
    even = a.p_black()
    assert abs(even[5] - 3 / 9) < 1e-9 and even[1] == 0.0 and abs(sum(even.values()) - 3) < 1e-9
    a.observe([{"seq": 1, "type": "player_left", "seat": 5, "how": "kill", "day": 1, "night": True}], [])
    assert a.p_black()[5] < 0.02  # the mafia kills reds
    a.observe([], [Said(9, Claim(7, "role", role="sheriff")), Said(9, Claim(7, "check", target=3, color="black"))])
    p = a.p_black()
    assert p[3] > 0.5 and p[3] == max(p.values())  # an uncontested Sheriff's black check: more likely black than not
    assert a.suspicion(3) > 20 > a.suspicion(7)


def test_the_sheriffs_own_checks_are_certain() -> None:
    a = agent(6, "sheriff")
    a.observe([{"seq": 2, "type": "checked", "checker": 6, "target": 4, "found": True},
               {"seq": 3, "type": "checked", "checker": 6, "target": 2, "found": False}], [])
    p = a.p_black()
    assert p[4] == 1.0 and p[2] == 0.0 and abs(sum(p.values()) - 3) < 1e-9


def test_a_black_team_shoots_where_the_checker_most_likely_sits() -> None:
    # the Don at 3 with mafia at 4 and 7: a red player's claim of the Sheriff, then nothing else
    don = agent(3, "don", (4, 7))
    mafia = agent(4, "mafia", (3, 7))
    for a in (don, mafia):
        a.alive = set(range(1, 11))
    assert don._team_target() == mafia._team_target()  # the same picture, the same target
    don.observe([{"seq": 5, "type": "checked", "checker": 3, "target": 9, "found": True}], [])
    assert don.p_checker()[9] == 1.0  # the Don knows; the shot stays the team's (what all of them know)
    assert don._team_target() == mafia._team_target()


def test_a_shield_with_no_check_behind_it_weighs_the_pair_a_founded_trust_does_not() -> None:
    a = agent(1, "civilian")
    even = a.p_black()
    a.observe([], [Said(3, Claim(4, "trust", target=7))])
    p = a.p_black()
    assert p[7] > even[7] + 0.2  # a black player shields a teammate; a red one trusts anyone now and then
    assert p[4] > even[4]
    # the town's reading (the pair: half of PAIR on the one trusted) plus the deals' chance above the even one
    assert abs(a.suspicion(7) - (PAIR / 2 + 100.0 * (p[7] - 3 / 9))) < 1e-9
    # after a Sheriff's red check of 8, trusting 8 says nothing of the one who trusts him
    a.observe([], [Said(5, Claim(9, "role", role="sheriff")), Said(5, Claim(9, "check", target=8, color="red"))])
    before = a.p_black()
    a.observe([], [Said(6, Claim(2, "trust", target=8))])
    assert a.p_black() == before


def test_the_first_to_claim_the_sheriff_is_believed_a_counter_claim_is_doubted() -> None:
    # at the baseline's tables a black player claims the Sheriff to counter the one who claimed it first, and
    # rarely first: a sole claimant is most likely the Sheriff, and of two the later one more likely black
    a = agent(1, "civilian")
    a.observe([], [Said(4, Claim(7, "role", role="sheriff"))])
    first = a.p_black()
    assert first[7] < 0.2
    a.observe([], [Said(8, Claim(3, "role", role="sheriff"))])
    p = a.p_black()
    assert p[3] > p[7] + 0.2
    # a Sheriff who came out himself: the one who claims it after him counters him
    sheriff = agent(2, "sheriff")
    sheriff.observe([], [Said(4, Claim(2, "role", role="sheriff")), Said(8, Claim(6, "role", role="sheriff"))])
    assert sheriff.p_black()[6] > 0.8  # as a counter (x0.3): 0.88; as a first claim (x0.05) it would be 0.56


def play_town(town: str, games: int) -> float:
    """Red's share of ``games`` ``club`` games of a town of ``town`` agents against the baseline's mafia (the same
    deals and seeds whatever the town)."""
    rules = get_ruleset("club")
    deck = rules.roles_for(10)
    rng = random.Random(42)
    won = 0
    for k in range(games):
        roles = list(deck)
        rng.shuffle(roles)
        agents = [AGENTS["baseline" if r in BLACK_ROLES else town]() for r in roles]
        won += play_table(rules, agents, 1000 + k, roles=roles).game.winner == "red"
    return won / games


def test_a_town_of_belief_agents_beats_the_baselines_mafia_more_often_than_the_baselines_town() -> None:
    belief, baseline = play_town("belief", 300), play_town("baseline", 300)
    assert belief >= baseline + 0.04, (belief, baseline)
