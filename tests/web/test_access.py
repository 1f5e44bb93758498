"""Who may open a game and act in it (web.access; docs/security.md, "Who hosts and who sits"): a user who
plays in a game, whatever his role, is refused on every game route and socket (the routes are enumerated from
the app, so a route added later is covered); another host of the club is refused; a judge who does not play
reads and sends the judge's commands; a plain host is refused the judge's commands; the game's own host works.

One server for the module (SQLite), each user logged in once."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocketDisconnect

from sportmafia.live.socket import CLOSE_NOT_FOUND
from sportmafia.rules import get_ruleset
from sportmafia.store import Store, open_store, tournaments
from sportmafia.store.models import (
    ClubPlayer,
    GameEvent,
    JoinRequest,
    OnlineTable,
    SaidClaim,
    SeatToken,
    SheetCorrection,
    StoredGame,
    TableBots,
    TournamentParticipant,
)
from sportmafia.store.tournaments import NewParticipant
from sportmafia.web import create_app
from sportmafia.web.security import hash_password

from .conftest import Api, own_client
from .seeded_draws import seeded_server
from .test_online import ORIGIN, recv, until

pytestmark = pytest.mark.usefixtures(seeded_server.__name__)
"""The server's draws (a deal without roles, a first speaker drawn) are seeded: the same course every run."""

PASSWORD = "access test password"
NOT_FOUND = {"error": {"code": "not-found", "en": "No such game.", "ru": "Такой игры нет."}}


@dataclass
class World:
    app: Any
    store: Store
    club: int
    tid: int
    game: str
    """A club game hosted by ``host``, dealt, open online with a pending join request; ``seated`` plays in it."""
    tgame: str
    """A tournament game hosted by ``thost``; ``participant`` (an account of a participant) plays in it."""
    request_id: int
    users: dict[str, Api]
    ids: dict[str, int]
    roster: list[int]


def _client(app: Any, store: Store, club: int, base: TestClient, login: str) -> Api:
    api = Api(own_client(base), store, club)
    api.login(login, PASSWORD)
    return api


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    path: Path = tmp_path_factory.mktemp("access") / "access.db"
    store = open_store(f"sqlite:///{path}", migrate=True)
    club = store.create_club("Access club")
    roster = store.add_club_players(club, [f"Player {i}" for i in range(1, 17)])
    roles = {"admin": "admin", "host": "host", "other_host": "host", "seated": "judge", "seated_admin": "admin",
             "judge": "judge", "thost": "host", "participant": "host", "staff_judge": "host"}
    hashed = hash_password(PASSWORD)  # one hash for all (argon2 costs tens of ms)
    ids = {login: store.create_user(club, login, hashed, role).id for login, role in roles.items()}
    app = create_app(store, secret_key="access-test")
    with TestClient(app) as base:
        users = {login: _client(app, store, club, base, login) for login in roles}
        admin = users["admin"]
        # the admin links two accounts to roster players (a judge and an admin: neither role helps a player)
        for login, player in (("seated", roster[2]), ("seated_admin", roster[6])):
            r = admin.client.put(f"/api/users/{ids[login]}/player", json={"player_id": player},
                                 headers=admin._headers())
            assert r.status_code == 200 and r.json()["player_id"] == player, r.text
        host = users["host"]
        r = host.post("/api/games", {"preset": "club", "players": 10, "roster": roster[:10]})
        assert r.status_code == 201, r.text
        game = r.json()["id"]
        # dealt by the host's cards (the module's server is set up before any test's seeded draws)
        deal = {"type": "deal", "roles": ["civilian", "civilian", "sheriff", "civilian", "mafia", "civilian", "don",
                                          "civilian", "mafia", "civilian"]}
        assert host.command(game, deal, 0, "deal").status_code == 200
        assert host.post(f"/api/games/{game}/online").status_code == 200
        code = host.get(f"/api/games/{game}/online").json()["code"]
        joined = own_client(base).post(f"/api/join/{code}", json={"seat": 5, "name": "Walk-in"})
        assert joined.status_code == 200, joined.text
        # a tournament game: its table's host, its participants (one of them an account of the club)
        tour = tournaments.create_tournament(store, club, "Cup", ruleset="tournament",
                                             ruleset_options=get_ruleset("tournament").options(),
                                             scoring={"name": "regulation"}, tie_breaks=[], final_settings={})
        people = tournaments.add_participants(store, tour.id, [NewParticipant(f"Nick {i}", user_id=ids["participant"]
                                                                              if i == 4 else None) for i in range(12)])
        tournaments.set_staff(store, tour.id, [(ids["thost"], "host"), (ids["staff_judge"], "judge")])
        tgame = store.create_game(club, get_ruleset("tournament"), 12, [p.nickname for p in people],
                                  host_id=ids["thost"])
        tournaments.link_games(store, tour.id, "main", [(tgame, 1, 1, ids["thost"], [p.id for p in people])])
        yield World(app, store, club, tour.id, game, tgame, joined.json()["id"], users, ids, roster)
    store.close()


def _snapshot(store: Store, game_id: str) -> tuple[Any, ...]:
    """What a refused request must leave as it was: the log, the row, the online table (its stream, whether it is
    closed to observers), links, requests, corrections."""
    with store._read() as s:
        row = s.get(StoredGame, game_id)
        assert row is not None
        counts = tuple(s.scalar(select(func.count()).select_from(model).where(model.game_id == game_id))
                       for model in (GameEvent, SeatToken, OnlineTable, SheetCorrection, SaidClaim, TableBots))
        tokens = tuple(s.execute(select(SeatToken.id, SeatToken.revoked_at).where(SeatToken.game_id == game_id)))
        requests = tuple(s.execute(select(JoinRequest.id, JoinRequest.status).where(JoinRequest.game_id == game_id)))
        table = tuple(s.execute(select(OnlineTable.stream_hash, OnlineTable.watch_closed_at)
                                .where(OnlineTable.game_id == game_id)))
        return (row.next_seq, row.signed_at, row.status, counts, tokens, requests, table)


def _game_routes(app: Any) -> list[tuple[str, str]]:
    """Every (method, path) of the app with ``{game_id}`` in its path, and every such socket ("WS")."""
    out: set[tuple[str, str]] = set()

    def walk(routes: list[Any], prefix: str) -> None:
        for route in routes:
            router = getattr(route, "original_router", None)  # an included router (FastAPI builds it lazily)
            if router is not None:
                walk(router.routes, prefix + route.include_context.prefix)
            elif isinstance(route, APIRoute):
                out.update((method, prefix + route.path) for method in route.methods - {"HEAD"})
            elif isinstance(route, WebSocketRoute):
                out.add(("WS", prefix + route.path))

    walk(app.routes, "")
    return sorted(item for item in out if "{game_id}" in item[1])


# A body each route accepts (a route validates its body before it runs; a new route with a body adds one here)
BODIES: dict[tuple[str, str], Any] = {
    ("POST", "/api/games/{game_id}/commands"): {"command": {"type": "award", "winner": "red", "reason": "hints"},
                                               "expected_seq": 0, "command_id": "refused-1"},
    ("POST", "/api/games/{game_id}/online/requests/{request_id}"): {"approve": True},
    ("POST", "/api/games/{game_id}/online/stream"): {"delay_minutes": 5},
    ("PUT", "/api/games/{game_id}/online/watch"): {"open": False},
    ("POST", "/api/games/{game_id}/online/links"): {"seats": [1, 2]},
    ("PUT", "/api/games/{game_id}/online/bots"): {"agents": {"2": "baseline"}, "runs_table": True},
    ("POST", "/api/games/{game_id}/sheet/corrections"): {"reason": "r", "changes": [{"field": "winner",
                                                                                     "new": "red"}]},
    ("POST", "/api/tournaments/{tournament_id}/games/{game_id}/corrections"): {
        "reason": "r", "changes": [{"field": "winner", "new": "red"}]},
    ("POST", "/api/games/{game_id}/rating-exclusion"): {"reason": "r"},
    ("POST", "/api/games/{game_id}/rating-exclusion/lift"): {"reason": "r"},
    ("PUT", "/api/tournaments/{tournament_id}/seating/constraints"): {"keep_apart_by": ["club"]},
}


def _fill(w: World, path: str, game_id: str) -> str:
    values = {"game_id": game_id, "seat": "1", "request_id": str(w.request_id), "tournament_id": str(w.tid)}
    return re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], path)


def _assert_refused(w: World, who: Api, game_id: str) -> list[str]:
    """Every game route and socket refuses ``who`` for ``game_id`` as if the game were not there, and nothing
    changes; returns the routes tried."""
    routes = _game_routes(w.app)
    assert len(routes) >= 20, routes  # the enumeration does find the game routes
    before = _snapshot(w.store, game_id)
    seq = before[0]
    tried = []
    for method, path in routes:
        url = _fill(w, path, game_id)
        if method == "WS":
            for view in ("host", "table"):
                with who.client.websocket_connect(f"{url}?view={view}", headers=ORIGIN) as ws:
                    first = recv(ws)
                    assert first["type"] == "error" and first["error"]["code"] == "not-found", (url, first)
                    with pytest.raises(WebSocketDisconnect) as closed:
                        recv(ws)
                    assert closed.value.code == CLOSE_NOT_FOUND
            tried.append(f"WS {path}")
            continue
        body = BODIES.get((method, path))
        if isinstance(body, dict) and "expected_seq" in body:
            body = {**body, "expected_seq": seq}
        r = who.client.request(method, url, json=body, headers=who._headers())
        if path.startswith("/api/"):
            assert (r.status_code, r.json()) == (404, NOT_FOUND), (method, url, r.status_code, r.text)
        else:  # a page: the "no such game" page, as for a game that is not there
            missing = who.client.request(method, _fill(w, path, "no-such-game"))
            assert (r.status_code, r.text.replace(game_id, "no-such-game")) == (404, missing.text), (method, url)
        tried.append(f"{method} {path}")
    assert _snapshot(w.store, game_id) == before, "a refused request changed the game"
    return tried


def test_a_seated_account_is_refused_on_every_game_route_and_socket(world: World) -> None:
    """The judge whose roster player is seat 3, and the admin at seat 7: the host's view shows every role."""
    for login in ("seated", "seated_admin"):
        tried = _assert_refused(world, world.users[login], world.game)
        assert {"GET /api/games/{game_id}", "POST /api/games/{game_id}/commands", "WS /ws/games/{game_id}",
                "GET /games/{game_id}", "POST /api/games/{game_id}/online/stream"} <= set(tried)
        listed = {g["id"] for g in world.users[login].get("/api/games").json()["games"]}
        assert world.game not in listed and world.tgame in listed  # not his to host; a judge judges the other


def test_a_tournament_participant_with_an_account_is_refused(world: World) -> None:
    _assert_refused(world, world.users["participant"], world.tgame)
    assert world.tgame not in {g["id"] for g in world.users["participant"].get("/api/games").json()["games"]}


def test_another_host_of_the_club_is_refused(world: World) -> None:
    _assert_refused(world, world.users["other_host"], world.game)
    _assert_refused(world, world.users["host"], world.tgame)  # the club game's host, at another's table


def test_the_games_own_host_works_and_is_refused_the_judges_commands(world: World) -> None:
    host = world.users["host"]
    state = host.get(f"/api/games/{world.game}").json()
    assert state["view"]["seats"][2]["role"]  # the host's view: every role
    assert not {c["type"] for c in state["legal"]} & {"award", "override", "team_defeat"}  # not offered
    assert state["judge"] is False
    head = state["next_seq"]
    for command, clause in (({"type": "award", "winner": "red", "reason": "hints"}, "A.award"),
                            ({"type": "override", "winner": "black", "reason": "dispute"}, "A.judge")):
        r = host.command(world.game, command, head, f"plain-{clause}")
        assert r.status_code == 403, r.text
        err = r.json()["error"]
        assert (err["code"], err["clause"]) == ("judge-only", clause) and clause in err["en"] and clause in err["ru"]
    assert world.store.game(world.game).next_seq == head  # nothing written
    with host.client.websocket_connect(f"/ws/games/{world.game}?view=host", headers=ORIGIN) as ws:
        assert until(ws, "state")["view"]["seats"][2]["role"]
    for path in ("/games/{id}", "/games/{id}/table", "/games/{id}/timeline", "/games/{id}/online"):
        assert host.get(path.replace("{id}", world.game)).status_code == 200, path
    r = host.command(world.game, {"type": "advance"}, head, "host-advance")
    assert r.status_code == 200, r.text
    assert world.game in {g["id"] for g in host.get("/api/games").json()["games"]}


def test_a_judge_not_seated_reads_and_sends_the_judges_commands(world: World) -> None:
    host, judge = world.users["host"], world.users["judge"]
    r = host.post("/api/games", {"preset": "club", "players": 10, "roster": world.roster[:10]})
    game = r.json()["id"]
    assert host.command(game, {"type": "deal"}, 0, "deal").status_code == 200
    state = judge.get(f"/api/games/{game}").json()
    assert {"award", "override"} <= {c["type"] for c in state["legal"]}
    r = judge.command(game, {"type": "award", "winner": "red", "reason": "hints from the audience"},
                      state["next_seq"], "judge-award")
    assert r.status_code == 200, r.text
    assert world.store.load(game).over
    with judge.client.websocket_connect(f"/ws/games/{game}?view=host", headers=ORIGIN) as ws:
        assert until(ws, "state")["view"]["over"]
    # the seated judge is no judge of this game (seat 3), nor of the first
    assert world.users["seated"].get(f"/api/games/{game}").status_code == 404
    # nor does he create a game he plays in (he could not open it)
    r = world.users["seated"].post("/api/games", {"preset": "club", "players": 10, "roster": world.roster[:10]})
    assert r.status_code == 422 and "seated" in r.json()["error"]["en"] and r.json()["error"]["ru"]


def test_the_tournaments_judge_judges_its_games_and_its_table_host_hosts_only(world: World) -> None:
    thost, staff = world.users["thost"], world.users["staff_judge"]
    assert thost.command(world.tgame, {"type": "deal"}, 0, "t-deal").status_code == 200
    state = thost.get(f"/api/games/{world.tgame}").json()
    assert "override" not in {c["type"] for c in state["legal"]} and state["judge"] is False
    head = state["next_seq"]
    assert thost.command(world.tgame, {"type": "override", "winner": "red", "reason": "x"}, head,
                         "t-override").status_code == 403
    r = thost.command(world.tgame, {"type": "remove", "seat": 2, "reason": "insult", "scope": "round"}, head,
                      "t-remove")
    assert r.status_code == 403 and r.json()["error"]["clause"] == "T.judge", r.text
    assert world.store.game(world.tgame).next_seq == head
    # a host of the club who is one of the tournament's judges: the judge of its games
    state = staff.get(f"/api/games/{world.tgame}").json()
    assert state["judge"] is True and "override" in {c["type"] for c in state["legal"]}
    r = staff.command(world.tgame, {"type": "remove", "seat": 2, "reason": "insult", "scope": "round"}, head,
                      "t-remove")
    assert r.status_code == 200, r.text
    assert staff.get(f"/api/games/{world.game}").status_code == 404  # not a judge of the club's other games


def test_the_seating_ratings_are_for_the_tournaments_judges_alone(world: World) -> None:
    """The club's ratings of a tournament's participants (GET .../seating/ratings): the club's admin and judges
    and the tournament's own judge read them; a host of the club, the tournament's table host and a participant's
    account are refused; reading links nobody."""
    url = f"/api/tournaments/{world.tid}/seating/ratings"

    def links() -> tuple[Any, ...]:
        with world.store.read() as s:
            return (s.scalar(select(func.count()).select_from(ClubPlayer).where(ClubPlayer.club_id == world.club)),
                    *s.scalars(select(TournamentParticipant.player_id).where(
                        TournamentParticipant.tournament_id == world.tid).order_by(TournamentParticipant.id)))

    before = links()
    for login in ("admin", "judge", "staff_judge"):
        r = world.users[login].get(url, params={"source": "skill"})
        assert r.status_code == 200 and r.json()["source"] == "skill", (login, r.text)
        assert len(r.json()["ratings"]) == 12, login
    for login in ("host", "thost", "participant"):
        r = world.users[login].get(url)
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden", (login, r.text)
    assert links() == before


def test_a_game_without_a_recorded_host_is_open_to_the_clubs_hosts_not_seated(world: World) -> None:
    old = world.store.create_game(world.club, get_ruleset("club"), 10, [f"Player {i}" for i in range(1, 11)],
                                  seat_players=world.roster[:10])
    assert world.users["other_host"].get(f"/api/games/{old}").status_code == 200
    assert world.users["seated"].get(f"/api/games/{old}").status_code == 404


def test_linking_an_account_to_a_roster_player(world: World) -> None:
    admin, host = world.users["admin"], world.users["host"]

    def put(who: Api, user: str, player: Any) -> Any:
        return who.client.put(f"/api/users/{world.ids[user]}/player", json={"player_id": player},
                              headers=who._headers())

    r = put(host, "judge", world.roster[12])
    assert r.status_code == 403 and r.json()["error"]["ru"]
    assert put(admin, "judge", world.roster[2]).json()["error"]["code"] == "player-taken"  # the seated judge's
    other = world.store.create_club("Other club")
    foreign = world.store.add_club_players(other, ["Stranger"])[0]
    assert put(admin, "judge", foreign).json()["error"]["code"] == "bad-player"
    stranger = world.store.create_user(other, "stranger", hash_password(PASSWORD), "host")
    assert admin.client.put(f"/api/users/{stranger.id}/player", json={"player_id": None},
                            headers=admin._headers()).status_code == 404
    assert put(admin, "judge", "x").status_code == 422
    # linked to seat 10's player: the judge may no longer open that game; unlinked, he may again
    r = put(admin, "judge", world.roster[9])
    assert r.status_code == 200 and r.json() == {"id": world.ids["judge"], "login": "judge", "role": "judge",
                                                 "club_id": world.club, "player_id": world.roster[9],
                                                 "disabled": False}
    judge = world.users["judge"]
    assert judge.get("/api/me").json()["user"]["player_id"] == world.roster[9]
    assert judge.get(f"/api/games/{world.game}").status_code == 404
    assert put(admin, "judge", None).json()["player_id"] is None
    assert judge.get(f"/api/games/{world.game}").status_code == 200
