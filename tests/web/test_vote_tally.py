"""Every vote's count on every screen: a club day with a 5:5 tie, the revote tying again and the lift question
(4 of 10: they stay), played through the host's API while a player's socket (/ws/play) and a spectator's
(/ws/watch/{code}) follow it. At each point the console's state (GET /api/games/{id}), the player's and the
spectator's views carry the same count: running while the hands are raised, and the result kept through the
tie's speeches and the revote (the room can still read the first count), the lift's at night; the revote's
banner, "Next" and "Undo" name it as the revote."""

from __future__ import annotations

from typing import Any

from sportmafia.engine import feed_length

from .conftest import Api
from .test_online import ORIGIN, dealt_game, hello, issue, open_table, recv

VOTE_TIE = {"en": "Vote: #3 — 5, #6 — 5: tie", "ru": "Голосование: №3 — 5, №6 — 5: перестрелка"}
REVOTE_TIE = {"en": "Revote: #3 — 5, #6 — 5: tie", "ru": "Повторное голосование: №3 — 5, №6 — 5: перестрелка"}


class Table:
    """The host's API and the two sockets that follow the game."""

    def __init__(self, api: Api, game_id: str, player: Any, watch: Any) -> None:
        self.api, self.game_id, self.player, self.watch = api, game_id, player, watch
        self.seq = len(api.store.load(game_id).log)

    def do(self, command: dict[str, Any]) -> None:
        r = self.api.command(self.game_id, command, self.seq, f"c-{self.seq}")
        assert r.status_code == 200, r.text
        self.seq = r.json()["next_seq"]

    def console(self) -> dict[str, Any]:
        state: dict[str, Any] = self.api.get(f"/api/games/{self.game_id}").json()
        return state

    def views(self) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        """The console's view, the seat 1 player's and the spectator's, each at the game's last move."""
        game = self.api.store.load(self.game_id)
        return self.console()["view"], latest(self.player, feed_length(game, 1)), \
            latest(self.watch, feed_length(game, "spectator"))


def latest(ws: Any, until: int) -> dict[str, Any]:
    """The view of the message that brings the socket to entry ``until`` of its feed."""
    while True:
        m = recv(ws)
        if m["type"] in ("state", "events") and m["next_seq"] >= until:
            view: dict[str, Any] = m["view"]
            return view


def public_vote(view: dict[str, Any]) -> dict[str, Any]:
    return {k: view["vote"][k] for k in ("now", "results", "lines")}


def same_everywhere(t: Table) -> dict[str, Any]:
    """The count is the same in the console's state, on the player's phone and on the spectators' page (votes
    are cast openly); returns it (the console's view)."""
    host, player, spectator = t.views()
    assert public_vote(player) == public_vote(host) == public_vote(spectator)
    assert player["banner"] == host["banner"] == spectator["banner"]
    return host


def test_a_tie_the_revote_and_the_lift_on_every_screen(api: Api) -> None:
    game_id, game = dealt_game(api)
    open_table(api, game_id)
    token = issue(api, game_id, 1)
    code = api.get(f"/api/games/{game_id}/online").json()["code"]
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as player, \
            api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        hello(player, token)
        t = Table(api, game_id, player, watch)
        assert game.step == "speech" and game.seat == 1
        t.do({"type": "nominate", "by": 1, "target": 3})
        t.do({"type": "advance"})
        t.do({"type": "nominate", "by": 2, "target": 6})
        while api.store.load(game_id).step != "voting":
            t.do({"type": "advance"})
        v = same_everywhere(t)
        assert v["vote"]["lines"] == [{"en": "Vote: #3 — 0, #6 — 0", "ru": "Голосование: №3 — 0, №6 — 0"}]

        # the first vote: the count runs as the hands are tapped
        for voter in (1, 2, 4):
            t.do({"type": "vote", "voter": voter, "candidate": 3})
        v = same_everywhere(t)
        assert v["vote"]["now"] == {"kind": "vote", "tally": [{"seat": 3, "votes": 3}, {"seat": 6, "votes": 0}],
                                    "yes": None, "of": 10}
        assert v["vote"]["lines"] == [{"en": "Vote: #3 — 3, #6 — 0", "ru": "Голосование: №3 — 3, №6 — 0"}]
        assert v["banner"] == {"en": "Day 1 · the vote · candidate 3", "ru": "День 1 · голосование · кандидат 3"}
        for voter in (5, 7):
            t.do({"type": "vote", "voter": voter, "candidate": 3})
        t.do({"type": "advance"})  # "Thank you": the rest go by default to #6: 5:5

        # the tie's speeches: the count that tied stays to be read
        v = same_everywhere(t)
        assert v["step"] == "tie_speech" and v["vote"]["now"] is None
        assert v["vote"]["lines"] == [VOTE_TIE]
        assert v["vote"]["results"] == [{"kind": "vote", "tally": [{"seat": 3, "votes": 5}, {"seat": 6, "votes": 5}],
                                         "yes": None, "of": 10, "leaving": [3, 6], "outcome": "tie"}]
        t.do({"type": "advance"})
        assert t.console()["next"]["label"] == {"en": "The revote · candidate 3",
                                                "ru": "Повторное голосование · кандидат 3"}
        t.do({"type": "advance"})

        # the revote: named as such, its count running under the first vote's
        v = same_everywhere(t)
        assert v["banner"] == {"en": "Day 1 · the revote · candidate 3",
                               "ru": "День 1 · повторное голосование · кандидат 3"}
        for voter in (1, 2):
            t.do({"type": "vote", "voter": voter, "candidate": 3})
        v = same_everywhere(t)
        assert v["vote"]["lines"] == [VOTE_TIE, {"en": "Revote: #3 — 2, #6 — 0",
                                                 "ru": "Повторное голосование: №3 — 2, №6 — 0"}]
        for voter in (4, 5, 7):
            t.do({"type": "vote", "voter": voter, "candidate": 3})
        t.do({"type": "advance"})  # 5:5 again: the lift question

        # the lift question: both counts above its own
        v = same_everywhere(t)
        assert v["step"] == "lift"
        assert t.console()["back"]["text"] == {"en": "Day 1 · the revote · candidate 3",
                                               "ru": "День 1 · повторное голосование · кандидат 3"}
        for voter in (1, 2, 3):
            t.do({"type": "lift_vote", "voter": voter})
        v = same_everywhere(t)
        assert v["vote"]["now"] == {"kind": "lift", "tally": [], "yes": 3, "of": 10}
        assert v["vote"]["lines"] == [VOTE_TIE, REVOTE_TIE, {"en": "Lift: 3 of 10", "ru": "Подъём: 3 из 10"}]
        t.do({"type": "lift_vote", "voter": 4})
        t.do({"type": "advance"})  # 4 of 10: they stay, night falls

        # the night: the day's last result
        v = same_everywhere(t)
        assert v["phase"] == "night" and v["vote"]["now"] is None
        assert v["vote"]["lines"] == [{"en": "Lift: 4 of 10 — they stay", "ru": "Подъём: 4 из 10 — остаются"}]
        assert [r["outcome"] for r in v["vote"]["results"]] == ["tie", "tie", "stay"]
        assert v["vote"]["results"][-1] == {"kind": "lift", "tally": [], "yes": 4, "of": 10, "leaving": [],
                                            "outcome": "stay"}
