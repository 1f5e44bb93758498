"""A whole club game played online in Chromium: the host (one browser context) opens the online table on its
panel and issues the ten seats' links; ten players (ten contexts, phones of 390x844) open their links and act
on their own pages — nominations during their speeches, votes, the lift vote, night shots, the Don's and the
Sheriff's checks (the answer shown to the checker alone), the best move — while the host enters only the
host's part (Next, draws) through the API, as his console does. One player's page is closed mid-game and
opened again from the same link, and carries on. Screenshots of a player's phone in test-artifacts/."""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import httpx2 as httpx
import pytest

from sportmafia.engine import feed_length, replay
from tests.waiting import wait_until

from .conftest import ARTIFACTS, admin_state, drawn, feed_seq, open_page

PHONE = {"width": 390, "height": 844}
BLACK = ("don", "mafia")
DEAL = ("civilian", "civilian", "don", "mafia", "civilian", "sheriff", "mafia", "civilian", "civilian", "civilian")
"""The whole game's cards: the Don at 3, the mafia at 4 and 7, the Sheriff at 6."""
SOCKET_ANSWER_MS = 5000
"""How long a player's page waits for the socket's answer to a command before sending it by HTTP (play.js)."""


class Host:
    """The host: his pages in the browser; his API calls (as his console makes them) with his session's cookies
    and CSRF token, straight to the server rather than each through the browser's driver."""

    def __init__(self, page: Any, server: str) -> None:
        self.page = page
        self.server = server
        self.csrf = ""
        self.http = httpx.Client(base_url=server, timeout=20)

    def login(self) -> None:
        """His session: the admin's, logged in once through the login form for the worker's server
        (``admin_state``) and given to his context; his page on the home page, as after a login; its CSRF token
        and cookies for his API calls."""
        p = self.page
        p.goto(self.server + "/")
        self.csrf = p.request.get(self.server + "/api/me").json()["csrf_token"]
        for cookie in p.context.cookies(self.server):
            self.http.cookies.set(cookie["name"], cookie["value"])
        self.http.headers["X-CSRF-Token"] = self.csrf

    def post(self, path: str, body: Any) -> Any:
        r = self.http.post(path, json=body)
        assert r.status_code == 200 or r.status_code == 201, (path, r.status_code, r.text)
        return r.json()

    def state(self, game_id: str) -> dict[str, Any]:
        r = self.http.get(f"/api/games/{game_id}")
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def command(self, game_id: str, command: dict[str, Any]) -> int:
        seq = self.state(game_id)["next_seq"]
        body = self.post(f"/api/games/{game_id}/commands",
                         {"command": command, "expected_seq": seq, "command_id": str(uuid.uuid4())})
        n: int = body["next_seq"]
        return n

    def close(self) -> None:
        self.http.close()


def host_in(browser: Any, server: str, errors: list[str], locale: str) -> tuple[Any, Host]:
    """The host logged in, in a context of his own (a tablet of 1024x768); his page's errors go to ``errors``."""
    ctx = browser.new_context(viewport={"width": 1024, "height": 768}, locale=locale,
                              storage_state=admin_state(browser, server))
    host = Host(ctx.new_page(), server)
    host.page.set_default_timeout(10_000)
    host.page.on("pageerror", lambda exc: errors.append(f"host: {exc}"))
    host.login()
    return ctx, host


def synced(page: Any, seq: int, timeout: int = 5000) -> None:
    """The player's page shows the game at ``seq`` (or later)."""
    page.wait_for_function("(seq) => Number(document.getElementById('play').dataset.seq) >= seq", arg=seq,
                           timeout=timeout)


DROP_NEXT_COMMAND = """() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (String(data).startsWith('{"type":"command"')) {
      WebSocket.prototype.send = send;
      window.droppedCommand = true;
      return;
    }
    return send.call(this, data);
  };
}"""
"""Lose the page's next command on its socket (once), as a connection that drops a message would; then
``window.droppedCommand`` is true."""


class Wire:
    """What the players' pages send: commands over their sockets, and requests to POST /api/play/commands."""

    def __init__(self) -> None:
        self.socket_commands = 0
        self.http_commands = 0

    def watch(self, page: Any) -> None:
        def frames(ws: Any) -> None:
            ws.on("framesent", lambda payload: self._frame(payload))
        page.on("websocket", frames)
        page.on("request", lambda r: self._request(r))

    def _frame(self, payload: Any) -> None:
        if isinstance(payload, str) and payload.startswith('{"type":"command"'):
            self.socket_commands += 1

    def _request(self, request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/api/play/commands"):
            self.http_commands += 1


def tap(page: Any, kind: str, targets: tuple[int, ...] = ()) -> None:
    """Pick the targets (if any) and press the action's button; wait until the server took it."""
    sent = int(page.get_attribute("#play", "data-sent") or 0)
    for t in targets:
        page.click(f"#o-act-seats .o-pick[data-target='{t}']")
    page.click(f"#o-act-go[data-kind='{kind}'], .o-act-extra[data-kind='{kind}']")
    page.wait_for_function("(n) => Number(document.getElementById('play').dataset.sent || 0) > n", arg=sent)


CUT_SOCKETS = """(() => {
  const Real = window.WebSocket;
  window.sockets = [];
  window.cut = false;
  function Cuttable(url, protocols) {
    if (window.cut) throw new Error("no network");
    const ws = new Real(url, protocols);
    window.sockets.push(ws);
    return ws;
  }
  Cuttable.prototype = Real.prototype;
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Cuttable[k] = Real[k];
  window.WebSocket = Cuttable;
})()"""
"""The page's sockets, kept in ``window.sockets``; while ``window.cut`` is true no socket opens (no network)."""


def feed_seqs(host: Host, game_id: str) -> dict[int, int]:
    """Each seat's feed length now (``feed_seq`` of every seat, from one read of the game's record)."""
    r = host.http.get(f"/api/games/{game_id}/record")
    assert r.status_code == 200, r.text
    game = replay(r.json())
    return {seat: feed_length(game, seat) for seat in range(1, game.n + 1)}


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    drawn(page)
    page.screenshot(path=str(ARTIFACTS / f"online-{name}-390x844.png"))


def test_a_whole_club_game_online(browser: Any, server: str) -> None:
    rng = random.Random(7)
    errors: list[str] = []
    host_ctx, host = host_in(browser, server, errors, "ru-RU")
    roster = [p["id"] for p in host.page.request.get(server + "/api/players").json()["players"]][:10]
    game_id = host.post("/api/games", {"preset": "club", "players": 10, "roster": roster})["id"]

    # the host's panel: open the table online, issue the ten links (each shown once, with its QR code)
    panel = host.page
    panel.goto(f"{server}/games/{game_id}/online")
    panel.click("#p-open")
    panel.wait_for_selector("#p-code:not(:empty)")
    links: dict[int, str] = {}
    for seat in range(1, 6):  # seat by seat, then the rest with one button
        panel.click(f"#p-seats li[data-seat='{seat}'] button")
        panel.wait_for_selector(f"#p-seats li[data-seat='{seat}'] a.p-url")
    panel.click("#p-all")
    for seat in range(1, 11):
        panel.wait_for_selector(f"#p-seats li[data-seat='{seat}'] a.p-url")
        links[seat] = panel.get_attribute(f"#p-seats li[data-seat='{seat}'] a.p-url", "href") or ""
        assert "/play/" in links[seat]
        qr = f"#p-seats li[data-seat='{seat}'] img.p-qr"  # its QR code, drawn (asked for with ?qr=true)
        assert (panel.get_attribute(qr, "src") or "").startswith("data:image/svg+xml")
        panel.wait_for_function("(sel) => document.querySelector(sel).naturalWidth > 100", arg=qr)
    panel.screenshot(path=str(ARTIFACTS / "online-host-panel-1024x768.png"), full_page=True)

    # ten phones
    wire = Wire()
    taps = 0
    fell_back = False
    players: dict[int, Any] = {}
    contexts: dict[int, Any] = {}
    for seat in range(1, 11):
        ctx = browser.new_context(viewport=PHONE, locale="ru-RU" if seat != 2 else "en-US", is_mobile=True,
                                  has_touch=True)
        ctx.clock.install()  # its time runs on; the test moves it on past the wait for a lost answer
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc, s=seat: errors.append(f"seat {s}: {exc}"))
        wire.watch(page)
        page.goto(links[seat])
        page.wait_for_selector("#o-link[data-state=live]")
        contexts[seat], players[seat] = ctx, page
    panel.wait_for_function("() => document.querySelectorAll('#p-seats li').length === 10")

    # the deal (the test's cards, DEAL); the host knows the roles, the test plays by them
    host.command(game_id, {"type": "deal", "roles": list(DEAL)})
    st = host.state(game_id)
    roles = {s["seat"]: s["role"] for s in st["view"]["seats"]}
    assert tuple(roles[s] for s in range(1, 11)) == DEAL
    seqs = feed_seqs(host, game_id)
    for s, page in players.items():  # each page is numbered in its own seat's feed
        synced(page, seqs[s])
    me = 1 if roles[1] not in BLACK else 3
    black_seat = next(s for s in range(1, 11) if roles[s] in BLACK)
    shot(players[me], "card-hidden")
    # every seat's name shows whole on a phone's tiles (on two lines at most), none cut short
    cut = players[me].evaluate("() => Array.from(document.querySelectorAll('#o-seats .o-name')).filter((e) => "
                               "e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)"
                               ".map((e) => e.textContent)")
    assert cut == [], cut
    players[me].click("#o-card")
    assert players[me].is_visible("#o-card-face")
    shot(players[me], "card-shown")
    players[me].click("#o-card")
    assert not players[me].is_visible("#o-card-face")
    # a black player sees his teammates; a red player sees no one's role
    players[black_seat].click("#o-card")
    mates = players[black_seat].inner_text("#o-mates")
    assert all(f"№{s}" in mates or f"#{s}" in mates for s in range(1, 11) if roles[s] in BLACK and s != black_seat), mates
    shot(players[black_seat], "card-black")
    players[black_seat].click("#o-card")
    red_text = players[me].inner_text("#play")
    assert "мафия" not in red_text.lower().replace(players[me].inner_text("#o-role").lower(), "")

    reopened = False
    screenshots = {"vote": False, "shoot": False, "check": False, "nominate": False}
    plan_votes: dict[tuple[int, int, int], int] = {}
    for _ in range(400):
        st = host.state(game_id)
        v = st["view"]
        if v["over"]:
            break
        step = v["step"]
        alive = [s["seat"] for s in v["seats"] if s["alive"]]
        kinds = {c["type"] for c in st["legal"]}
        if not reopened and v["day"] == 2 and v["phase"] == "day":
            # a player's phone drops: the page is closed and the same link opened again
            victim = next(s for s in alive if s != me)
            players[victim].close()
            page = contexts[victim].new_page()
            page.set_default_timeout(10_000)
            page.on("pageerror", lambda exc, s=victim: errors.append(f"seat {s}: {exc}"))
            wire.watch(page)
            page.goto(links[victim])
            synced(page, feed_seq(host.page, victim, game_id))
            players[victim] = page
            reopened = True
        seqs = feed_seqs(host, game_id)
        for s in alive:
            synced(players[s], seqs[s])
        if step == "speech" and "nominate" in kinds and v["seat"] in alive:
            speaker = v["seat"]
            targets = [c["target"] for c in st["legal"] if c["type"] == "nominate" and c["target"] != speaker]
            if targets and rng.random() < 0.5 and len(v["candidates"]) < 3:
                page = players[speaker]
                target = rng.choice(targets)
                page.click(f"#o-act-seats .o-pick[data-target='{target}']")
                if not screenshots["nominate"] and speaker == me:
                    shot(page, "nominate")
                    screenshots["nominate"] = True
                sent = int(page.get_attribute("#play", "data-sent") or 0)
                page.click("#o-act-go[data-kind='nominate']")
                page.wait_for_function("(n) => Number(document.getElementById('play').dataset.sent || 0) > n", arg=sent)
                taps += 1
                continue
        if step == "voting":
            cand = v["seat"]
            cands = v["vote"]["candidates"]
            voters = [c["voter"] for c in st["legal"] if c["type"] == "vote"]
            for voter in voters:
                early = cands[:-1] if len(cands) > 1 and rng.random() < 0.8 else cands
                choice = plan_votes.setdefault((v["day"], len(cands), voter), rng.choice(early))
                if choice == cand and cand != cands[-1]:
                    if not screenshots["vote"] and voter == me:
                        shot(players[voter], "vote")
                        screenshots["vote"] = True
                    if not fell_back:
                        # the socket loses his hand: no answer comes on it, so after 5 s (his page's clock moved
                        # on) the page sends it again by POST /api/play/commands (the same command id), which
                        # takes it
                        page = players[voter]
                        page.evaluate(DROP_NEXT_COMMAND)
                        before = (wire.socket_commands, wire.http_commands)
                        sent = int(page.get_attribute("#play", "data-sent") or 0)
                        page.click("#o-act-go[data-kind='vote'], .o-act-extra[data-kind='vote']")
                        page.wait_for_function("() => window.droppedCommand === true")
                        contexts[voter].clock.fast_forward(SOCKET_ANSWER_MS)
                        page.wait_for_function("(n) => Number(document.getElementById('play').dataset.sent || 0)"
                                               " > n", arg=sent)
                        assert (wire.socket_commands, wire.http_commands) == (before[0], before[1] + 1)
                        fell_back = True
                    else:
                        tap(players[voter], "vote")
                    taps += 1
            host.command(game_id, {"type": "advance"})
            continue
        if step == "lift":
            for voter in [c["voter"] for c in st["legal"] if c["type"] == "lift_vote"]:
                if rng.random() < 0.6:
                    tap(players[voter], "lift")
                    taps += 1
            host.command(game_id, {"type": "advance"})
            continue
        if step == "shooting":
            shooters = sorted({c["shooter"] for c in st["legal"] if c["type"] == "shoot"})
            reds = [s for s in alive if roles[s] not in BLACK]
            target = rng.choice(reds)
            for s in shooters:
                if not screenshots["shoot"]:
                    players[s].click(f"#o-act-seats .o-pick[data-target='{target}']")
                    shot(players[s], "night-shot")
                    players[s].click(f"#o-act-seats .o-pick[data-target='{target}']")  # unpick: tap() picks it
                    screenshots["shoot"] = True
                tap(players[s], "shoot", (target,))
                taps += 1
            host.command(game_id, {"type": "advance"})
            continue
        if step in ("check_don", "check_sheriff") and "check" in kinds:
            checker = next(c["checker"] for c in st["legal"] if c["type"] == "check")
            target = rng.choice([s for s in alive if s != checker])
            tap(players[checker], "check", (target,))
            taps += 1
            page = players[checker]
            synced(page, feed_seq(host.page, checker, game_id))
            assert page.is_hidden("#o-checks")  # part of the card: shown while the card is open
            page.click("#o-card")
            page.wait_for_selector("#o-checks:not([hidden]) li")
            lines = page.inner_text("#o-check-list")
            assert f"№{target}" in lines or f"#{target}" in lines
            if not screenshots["check"]:
                shot(page, "check-answer")
                screenshots["check"] = True
            page.click("#o-card")
            # nobody else learns it
            for other in alive:
                if other != checker and roles[other] not in ("don", "sheriff"):
                    assert players[other].inner_html("#o-check-list") == ""
            other = next(s for s in alive if roles[s] not in ("don", "sheriff"))
            players[other].click("#o-card")
            assert players[other].is_visible("#o-role") and players[other].is_hidden("#o-checks")
            assert players[other].inner_html("#o-check-list") == ""
            players[other].click("#o-card")
            host.command(game_id, {"type": "advance"})
            continue
        if step == "last_word" and "best_move" in kinds:
            seat = v["seat"]
            picks = tuple(rng.sample([s for s in range(1, 11) if s != seat], 3))
            tap(players[seat], "best", picks)
            taps += 1
            shot(players[seat], "best-move")
            host.command(game_id, {"type": "advance"})
            continue
        for draw in ("draw_first_speaker", "draw_lot"):
            if draw in kinds:  # the seat drawn is the test's (seeded), not the server's
                host.command(game_id, {"type": draw, "seat": rng.choice(alive)})
                break
        else:
            host.command(game_id, {"type": "advance"})
    final = host.state(game_id)
    assert final["view"]["over"], final["view"]["step"]
    assert reopened
    seqs = feed_seqs(host, game_id)
    for s, page in players.items():
        synced(page, seqs[s])
    shot(players[me], "game-over")
    # the events of the game: the players' own actions were theirs
    events = host.page.request.get(f"{server}/api/games/{game_id}/events").json()["events"]
    types = {e["type"] for e in events}
    assert {"nominated", "vote_cast", "shot_fired", "checked"} <= types, types
    assert all(screenshots.values()), screenshots
    # the players' commands went over their own sockets; by HTTP only the one the socket lost (and any whose
    # answer was late on a slow machine)
    assert fell_back and wire.socket_commands >= taps - 1 and wire.http_commands >= 1, (taps, vars(wire))
    assert not errors, errors
    for ctx in contexts.values():
        ctx.close()
    host_ctx.close()
    host.close()


def test_joining_with_the_table_code(browser: Any, server: str) -> None:
    """A phone opens /join (the address printed under the panel's QR code), types a wrong code and is told so,
    then the table's code as read aloud (small letters, a space): it reaches /join/{code}, picks a free seat; the
    host confirms it on his panel; the phone is taken to its seat's page."""
    errors: list[str] = []
    host_ctx, host = host_in(browser, server, errors, "en-US")
    roster = [p["id"] for p in host.page.request.get(server + "/api/players").json()["players"]][:10]
    game_id = host.post("/api/games", {"preset": "club", "players": 10, "roster": roster})["id"]
    code = host.post(f"/api/games/{game_id}/online", {})["code"]
    host.page.goto(f"{server}/games/{game_id}/online")
    host.page.wait_for_selector("#p-code:not(:empty)")

    phone_ctx = browser.new_context(viewport=PHONE, locale="ru-RU", is_mobile=True, has_touch=True)
    phone = phone_ctx.new_page()
    phone.set_default_timeout(10_000)
    phone.on("pageerror", lambda exc: errors.append(f"phone: {exc}"))
    phone.context.add_cookies([{"name": "lang", "value": "ru", "url": server}])
    phone.goto(f"{server}/join")
    assert phone.evaluate("() => document.activeElement.id") == "j-code"  # the field, ready to type in
    shot(phone, "join-form-ru")
    phone.fill("#j-code", "zz9zz9")
    phone.click(".j-code-form button[type=submit]")
    phone.wait_for_selector("#j-wrong")
    assert "Онлайн-стола с таким кодом нет" in phone.inner_text("#j-wrong")
    assert phone.input_value("#j-code") == "zz9zz9"  # kept, to correct
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the join page is {width} px wide on a phone"
    shot(phone, "join-wrong-code-ru")
    phone.fill("#j-code", f"{code[:3].lower()} {code[3:].lower()}")
    phone.press("#j-code", "Enter")
    phone.wait_for_url(f"**/join/{code}")
    phone.wait_for_selector("#j-seats .o-pick")
    assert phone.locator("#j-seats .o-pick").count() == 10
    phone.fill("#j-name", "Гость")
    phone.locator("#j-seats .o-pick").nth(2).click()  # seat 3
    phone.wait_for_function("() => document.getElementById('j-status').textContent.includes('3')")
    shot(phone, "join-waiting")
    # the host's panel lists the request (it polls every 3 s) and confirms it
    host.page.wait_for_selector("#p-requests li button.primary", timeout=8000)
    assert "Гость" in host.page.inner_text("#p-requests")
    host.page.click("#p-requests li button.primary")
    phone.wait_for_url("**/play/**", timeout=8000)
    phone.wait_for_selector("#o-link[data-state=live]")
    assert phone.get_attribute("#play", "data-seat") == "3"
    host.page.wait_for_function("() => document.querySelector(\"#p-seats li[data-seat='3']\").textContent"
                                ".includes('1 connected')", timeout=8000)
    assert not errors, errors
    phone_ctx.close()
    host_ctx.close()
    host.close()


def test_the_tables_next_game_keeps_its_code_and_its_watchers(browser: Any, server: str) -> None:
    """The host opens the table's next game on his panel with the table's code (the panel offers the code this
    device opened last); the spectators' page and the stream overlay, left open, go on with the new game
    without being reloaded, and a spectator's page that was offline meanwhile comes back to the new game."""
    errors: list[str] = []
    host_ctx, host = host_in(browser, server, errors, "ru-RU")
    first = host.post("/api/games", {"preset": "club", "players": 10,
                                     "names": [f"Первый {n}" for n in range(1, 11)]})["id"]
    panel = host.page
    panel.goto(f"{server}/games/{first}/online")
    panel.click("#p-open")
    panel.wait_for_selector("#p-code:not(:empty)")
    code = panel.inner_text("#p-code")
    host.command(first, {"type": "deal", "roles": list(DEAL)})  # the spectators' pages hold a seq past the next game's

    views = browser.new_context(viewport=PHONE, locale="ru-RU", is_mobile=True, has_touch=True)
    watch, overlay, offline = views.new_page(), views.new_page(), browser.new_context(viewport=PHONE).new_page()
    offline.add_init_script(CUT_SOCKETS)
    for page, path in ((watch, "watch"), (overlay, "overlay"), (offline, "watch")):
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc, path=path: errors.append(f"{path}: {exc}"))
        page.goto(f"{server}/{path}/{code}")
        page.evaluate("() => { window.notReloaded = true; }")
    for page, seat in ((watch, "#o-seats .o-seat"), (overlay, "#ov-seats .ov-seat"), (offline, "#o-seats .o-seat")):
        page.wait_for_function("(sel) => document.querySelector(sel)?.textContent.includes('Первый 1')", arg=seat)
    offline.evaluate("() => { window.cut = true; window.sockets.forEach((ws) => ws.close()); }")
    offline.wait_for_selector("#o-link[data-state=offline]")

    host.command(first, {"type": "override", "winner": "red", "reason": "тест"})
    second = host.post("/api/games", {"preset": "club", "players": 10,
                                      "names": [f"Второй {n}" for n in range(1, 11)]})["id"]
    panel.goto(f"{server}/games/{second}/online")
    panel.wait_for_selector("#p-closed:not([hidden])")
    panel.wait_for_function("(code) => document.getElementById('p-take').value === code", arg=code)
    panel.screenshot(path=str(ARTIFACTS / "online-host-panel-next-game-1024x768.png"), full_page=True)
    panel.click("#p-open-code")
    panel.wait_for_function("(code) => document.getElementById('p-code').textContent === code", arg=code)
    assert host.http.get(f"/api/games/{first}/online").json()["code"] != code

    for page, seat in ((watch, "#o-seats .o-seat"), (overlay, "#ov-seats .ov-seat")):
        page.wait_for_function("(sel) => document.querySelector(sel).textContent.includes('Второй 1')", arg=seat)
        assert page.evaluate("() => window.notReloaded === true")
    assert "Первый" not in watch.inner_text("#o-seats")
    shot(watch, "watch-next-game")
    offline.evaluate("() => { window.cut = false; }")
    offline.wait_for_function("() => document.querySelector('#o-seats .o-seat').textContent.includes('Второй 1')",
                              timeout=20_000)
    assert offline.evaluate("() => window.notReloaded === true")
    # it came back naming the previous game and its seq: the server gave it the new game from its start
    assert offline.evaluate("() => window.sockets.length") >= 2
    assert "&game=" in offline.evaluate("() => window.sockets[window.sockets.length - 1].url")
    assert offline.get_attribute("#o-link", "data-state") == "live"
    assert not errors, errors
    offline.context.close()
    views.close()
    host_ctx.close()
    host.close()


def test_the_panel_prints_the_join_address_and_asks_before_a_new_link(browser: Any, server: str) -> None:
    """The host's panel prints the join address and the code under the QR code (text to read aloud or type), in
    both languages, tablet and phone; once a seat has a link, its "new link" and "revoke" stand in a row of their
    own below (a double tap on "Issue a link" ends nothing) and ask first: "No" keeps the link, "Yes" replaces
    it. An English /join page too."""
    errors: list[str] = []
    host_ctx, host = host_in(browser, server, errors, "en-US")
    game_id = host.post("/api/games", {"preset": "club", "players": 10})["id"]
    table = host.post(f"/api/games/{game_id}/online", {})
    code = table["code"]
    state = host_ctx.storage_state()
    words = {"ru": ("Адрес для входа", "Да, новая ссылка", "Нет, оставить", "Новая ссылка (старая перестанет работать)"),
             "en": ("Join address", "Yes, a new link", "No, keep it", "New link (ends the old)")}
    for lang, (address, yes, no, reissue) in words.items():
        for width, height in ((1024, 768), (390, 844)):
            ctx = browser.new_context(viewport={"width": width, "height": height}, storage_state=state,
                                      is_mobile=width < 700, has_touch=width < 700)
            ctx.add_cookies([{"name": "lang", "value": lang, "url": server}])
            page = ctx.new_page()
            page.set_default_timeout(10_000)
            page.on("pageerror", lambda exc: errors.append(f"panel: {exc}"))
            page.goto(f"{server}/games/{game_id}/online")
            page.wait_for_selector("#p-join-code:not(:empty)")
            # under the QR code: the address and the code, as selectable text
            assert page.inner_text("#p-join-code") == code
            assert page.inner_text("#p-join-url") == table["join_url"] and address in page.inner_text(".p-join")
            assert table["join_form_url"] in page.inner_text("#p-join-or")
            qr_bottom = page.evaluate("() => document.getElementById('p-join-qr').getBoundingClientRect().bottom")
            code_box = page.evaluate("() => { const r = document.getElementById('p-join-code').getBoundingClientRect();"
                                     " return {top: r.top, size: parseFloat(getComputedStyle(document.getElementById("
                                     "'p-join-code')).fontSize)}; }")
            assert code_box["top"] >= qr_bottom and code_box["size"] >= 24, code_box
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            page.locator("#p-join-code").scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / f"online-panel-join-address-{lang}-{width}x{height}.png"))
            if width == 390:
                seat = 2 if lang == "ru" else 3
                row = f"#p-seats li[data-seat='{seat}']"
                issue = page.locator(f"{row} button.p-issue")
                issue.scroll_into_view_if_needed()
                box = issue.bounding_box()
                assert box is not None
                at = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                page.mouse.click(*at)  # a double tap on "Issue a link": the first tap issues the link ...
                page.wait_for_selector(f"{row} a.p-url")
                first = page.get_attribute(f"{row} a.p-url", "href")
                page.mouse.click(*at)  # ... the second lands where it was, on nothing that ends the link
                drawn(page)
                assert page.locator(f"{row} .p-ask").count() == 0
                assert page.get_attribute(f"{row} a.p-url", "href") == first
                again = page.locator(f"{row} button.p-reissue")
                assert again.inner_text() == reissue
                moved = again.bounding_box()
                assert moved is not None and moved["y"] > box["y"] + box["height"], (box, moved)  # below the link
                again.click()
                page.wait_for_selector(f"{row} .p-ask")
                assert page.inner_text(f"{row} button.p-yes") == yes and page.inner_text(f"{row} button.p-no") == no
                page.locator(f"{row} .p-ask").scroll_into_view_if_needed()
                page.screenshot(path=str(ARTIFACTS / f"online-panel-new-link-confirm-{lang}-390x844.png"))
                page.click(f"{row} button.p-no")  # "No": the link stays
                page.wait_for_selector(f"{row} button.p-reissue")
                assert page.get_attribute(f"{row} a.p-url", "href") == first
                assert any(s["seat"] == seat and s["linked"] for s in host.http.get(
                    f"/api/games/{game_id}/online").json()["seats"])
                page.click(f"{row} button.p-reissue")
                page.click(f"{row} button.p-yes")  # "Yes": a new link, the old one ends
                page.wait_for_function("([sel, old]) => { const a = document.querySelector(sel);"
                                       " return a && a.href !== old; }", arg=[f"{row} a.p-url", first])
                old_token = (first or "").rsplit("/", 1)[1]
                assert host.http.get("/api/play/me", headers={"X-Play-Token": old_token}).status_code == 401
            ctx.close()
    # the English /join page, on a phone
    ctx, page, page_errors = open_page(browser, 390, 844, lang="en", server=server)
    page.goto(f"{server}/join")
    assert "Table code" in page.inner_text("#join") and page.is_visible("#j-code")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    shot(page, "join-form-en")
    ctx.close()
    assert not errors and not page_errors, errors + page_errors
    host_ctx.close()
    host.close()



@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_phones_status_line_and_timer_go_with_the_step(browser: Any, server: str, lang: str) -> None:
    """The host works on his console (his timer is the console's); a player's phone follows it: the speech's
    timer running, then paused, in the console's words. The phone's "Done." answers his nomination and goes
    with the step it was made in: it is gone in the vote and at night, where neither the console nor the phone
    shows a timer (none: a vote has no time), and no timer of the speech comes back."""
    errors: list[str] = []
    host_ctx, host = host_in(browser, server, errors, "ru-RU" if lang == "ru" else "en-US")
    host_ctx.add_cookies([{"name": "lang", "value": lang, "url": server}])
    game_id = host.post("/api/games", {"preset": "club", "players": 10,
                                       "names": [f"Seat {n}" for n in range(1, 11)]})["id"]
    host.post(f"/api/games/{game_id}/online", {})
    links = {link["seat"]: link["url"] for link in host.post(f"/api/games/{game_id}/online/links", {})["links"]}
    host.command(game_id, {"type": "deal", "roles": list(DEAL)})
    roles = {s["seat"]: s["role"] for s in host.state(game_id)["view"]["seats"]}
    while True:  # to day 1's first speech
        st = host.state(game_id)
        kinds = {c["type"] for c in st["legal"]}
        if st["view"]["step"] == "speech" and st["view"]["day"] == 1 and "nominate" in kinds:
            break
        host.command(game_id, {"type": "draw_first_speaker", "seat": 1} if "draw_first_speaker" in kinds
                     else {"type": "advance"})
    speaker = st["view"]["seat"]
    console = host.page
    console.goto(f"{server}/games/{game_id}")
    console.wait_for_selector("#console[data-step=speech]")
    phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone_ctx.add_cookies([{"name": "lang", "value": lang, "url": server}])
    phone = phone_ctx.new_page()
    phone.set_default_timeout(10_000)
    phone.on("pageerror", lambda exc: errors.append(f"phone: {exc}"))
    phone.goto(links[speaker])
    phone.wait_for_selector("#o-link[data-state=live]")
    # the speech's time, paused; then the host's timer running, then paused again: the phone says so
    phone.wait_for_selector("#o-timer:not(.none)")
    console.click("#timer")
    phone.wait_for_function("() => document.getElementById('o-timer').classList.contains('running')")
    console.click("#timer")
    phone.wait_for_function("() => !document.getElementById('o-timer').classList.contains('running')")
    assert phone.inner_text("#o-timer-state") == console.inner_text("#timer-state")
    assert phone.inner_text("#o-timer-value") == console.inner_text("#timer-value")
    # his nomination, answered
    target = next(s for s in range(1, 11) if s != speaker and roles[s] in BLACK)
    tap(phone, "nominate", (target,))
    done = phone.inner_text("#o-feedback")
    assert done in ("Принято.", "Done."), done
    shot(phone, f"status-nominated-{lang}")
    # the host goes on to the vote (a second nomination on the way)
    while host.state(game_id)["view"]["step"] != "voting":
        st = host.state(game_id)
        v = st["view"]
        if any(c["type"] == "nominate" for c in st["legal"]) and len(v["candidates"]) < 2:
            other = next(s for s in range(1, 11) if s not in v["candidates"] and s != v["seat"])
            host.command(game_id, {"type": "nominate", "by": v["seat"], "target": other})
        host.command(game_id, {"type": "advance"})
    synced(phone, feed_seq(host.page, speaker, game_id))
    console.wait_for_selector("#console[data-step=voting]")
    assert console.get_attribute("#timer", "data-state") == "none"
    phone.wait_for_selector("#o-timer", state="hidden")
    assert phone.inner_text("#o-feedback") == ""
    shot(phone, f"status-vote-{lang}")
    # the phone's link drops and comes back in the vote: still no timer (the speech's is not shown again), once
    # the host's timer has been told to it again
    timers: list[Any] = []

    def timer_frames(ws: Any) -> None:
        ws.on("framereceived", lambda payload: timers.append(payload) if isinstance(payload, str) and json.loads(
            payload).get("type") == "timer" else None)
    phone.on("websocket", timer_frames)
    phone.reload()
    phone.wait_for_selector("#o-link[data-state=live]")
    wait_until(lambda: phone.evaluate("() => true") and timers, "the host's timer told to the phone again")
    drawn(phone)
    assert phone.is_hidden("#o-timer") and phone.inner_text("#o-feedback") == ""
    # the night: no status line, no timer
    while host.state(game_id)["view"]["phase"] != "night":
        host.command(game_id, {"type": "advance"})
    synced(phone, feed_seq(host.page, speaker, game_id))
    assert phone.is_hidden("#o-timer") and phone.inner_text("#o-feedback") == ""
    shot(phone, f"status-night-{lang}")
    assert not errors, errors
    phone_ctx.close()
    host_ctx.close()
    host.close()
