"""Browser tests: the real server (``sportmafia serve`` in a subprocess, on 127.0.0.1, a temporary SQLite
store, a known admin password) driven by Playwright through Debian's Chromium at /usr/bin/chromium (never a
browser downloaded by ``playwright install``). Without Chromium the tests are skipped with the reason, and fail
when ``CI=true`` (``make test`` installs it as root)."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from sportmafia.engine import feed_length, replay
from tests.waiting import wait_until

CHROMIUM = Path(os.environ.get("SPORTMAFIA_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ADMIN_PASSWORD = "correct horse battery"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SIZES = ((1024, 768), (390, 844))


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"browser tests cannot run under CI: {reason}")
    print(f"\nskipping the browser tests: {reason}", file=sys.stderr)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module. Not for the whole session: Playwright's sync API keeps an event loop running
    in the main thread while it is started, so every later test of the worker would find itself inside a running
    loop (where `asyncio.run` refuses to start)."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        _unavailable(f"no Chromium at {CHROMIUM} (as root: apt-get install -y chromium; `make test` does it)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[dev]')")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield CspWatchingBrowser(b)
        finally:
            b.close()


CSP_VIOLATIONS: list[str] = []
"""What Chromium refused under the pages' Content-Security-Policy during the current test."""


def _on_console(message: Any) -> None:
    if "Content Security Policy" in message.text:
        CSP_VIOLATIONS.append(f"{message.location.get('url', '?')}: {message.text}")


class CspWatchingBrowser:
    """The Playwright browser, whose every context and page reports what the Content-Security-Policy refused
    (Chromium logs each violation to the console) into ``CSP_VIOLATIONS``."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, *args: Any, **kwargs: Any) -> Any:
        context = self._browser.new_context(*args, **kwargs)
        context.on("console", _on_console)
        return context

    def new_page(self, *args: Any, **kwargs: Any) -> Any:
        page = self._browser.new_page(*args, **kwargs)
        page.on("console", _on_console)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(autouse=True)
def no_csp_violations() -> Iterator[list[str]]:
    """Every browser test fails when a page it opened broke the Content-Security-Policy (an inline script or
    style, an event handler attribute, a script from elsewhere)."""
    CSP_VIOLATIONS.clear()
    yield CSP_VIOLATIONS
    found, CSP_VIOLATIONS[:] = list(CSP_VIOLATIONS), []
    assert not found, "Content-Security-Policy violations:\n" + "\n".join(found)


def open_page(browser: Any, width: int, height: int, *, lang: str | None = None, server: str | None = None,
              **context: Any) -> tuple[Any, Any, list[str]]:
    """A new context and page at ``width`` x ``height`` (a touch phone below 700 px), its page errors collected;
    with ``lang`` the site's language cookie for ``server``. The caller closes the context."""
    touch = width < 700
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch,
                              **context)
    if lang is not None and server is not None:
        ctx.add_cookies([{"name": "lang", "value": lang, "url": server}])
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return ctx, page, errors


def log_in_as_admin(page: Any, server: str) -> None:
    """Log ``page`` in as the demo club's admin through the login form."""
    page.goto(server + "/login")
    page.fill("#login", "admin")
    page.fill("#password", ADMIN_PASSWORD)
    page.click("#login-submit")
    page.wait_for_url(server + "/")


def drawn(page: Any) -> None:
    """Until ``page`` has drawn two animation frames since now: what a resize, a scroll or a click changed is on
    the screen (a screenshot waits for nothing else)."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def screenshots(page: Any, name: str, *, full_page: bool = False, pause: int | None = None) -> None:
    """``page`` at a tablet's and a phone's size (``SIZES``): test-artifacts/<name>-<w>x<h>.png; the page's own
    size is restored after. Each is taken once the page has drawn at its new size (``drawn``); ``pause`` is
    no longer used (a fixed wait once stood there)."""
    del pause
    ARTIFACTS.mkdir(exist_ok=True)
    first = page.viewport_size
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        drawn(page)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{w}x{h}.png"), full_page=full_page)
    page.set_viewport_size(first)


SEEDED_RANDOM = """(() => {
  let state = %d >>> 0;
  Math.random = () => {  // mulberry32
    state = (state + 0x6D2B79F5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})()"""


def seed_chance(context: Any, seed: int) -> None:
    """Every page of ``context`` draws ``Math.random`` from a generator seeded with ``seed`` (a page that draws a
    number, such as the desk's "another seating", draws the same one on every run)."""
    context.add_init_script(SEEDED_RANDOM % seed)


SEARCH_STEPS = 20_000
"""The steps of a seating search the browser tests ask for (the server's default, some 400,000 for 26 players and
three rounds, is the judge's; how good a search of each length is belongs to tests/tournament)."""

_SEARCHES = re.compile(r".*/api/tournaments/\d+/(seating|seating/regenerate|final)$")


def short_seating_searches(context: Any, steps: int = SEARCH_STEPS) -> None:
    """The seating searches the pages of ``context`` start (a seating, another one, the rounds seated anew, the
    final's) run ``steps`` steps: the page's request as it sent it, with ``steps`` added where it names none."""

    def shorten(route: Any) -> None:
        body = route.request.post_data_json if route.request.method == "POST" else None
        if isinstance(body, dict) and "steps" not in body:
            route.continue_(post_data=json.dumps({**body, "steps": steps}))
        else:
            route.continue_()

    context.route(_SEARCHES, shorten)


_ADMIN_STATES: dict[str, Any] = {}


def admin_state(browser: Any, server: str) -> Any:
    """The storage state (cookies) of the admin logged in on the session's ``server``: logged in once through the
    login form (``log_in_as_admin``), then given to each new context that needs it (``storage_state=``). Not for a
    server of one test (another may later listen at its address)."""
    if server not in _ADMIN_STATES:
        ctx = browser.new_context()
        try:
            page = ctx.new_page()
            page.set_default_timeout(20_000)
            log_in_as_admin(page, server)
            _ADMIN_STATES[server] = ctx.storage_state()
        finally:
            ctx.close()
    return _ADMIN_STATES[server]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def app_server(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread of this process on a free port, while the block runs: its URL."""
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_until(lambda: server.started or not thread.is_alive(), "the test server to start")
    assert server.started, "the test server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a fresh server: ``sportmafia serve`` with its own SQLite store and admin password."""
    data = tmp_path_factory.mktemp("server")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SPORTMAFIA_")}
    env.update(SPORTMAFIA_DATA=str(data), SPORTMAFIA_ADMIN_PASSWORD=ADMIN_PASSWORD,
               SPORTMAFIA_SECRET_KEY="browser-test-secret", PYTHONUNBUFFERED="1")
    log = (data / "server.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "sportmafia.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
                            env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        if proc.poll() is not None:
            log.flush()
            raise RuntimeError("the server did not start:\n" + (data / "server.log").read_text(errors="replace"))
        try:
            with urllib.request.urlopen(url + "/login", timeout=2) as r:
                return bool(r.status == 200)
        except OSError:
            return False

    try:
        wait_until(answers, "the server to answer", every=0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def feed_seq(page: Any, viewer: str | int, game_id: str | None = None) -> int:
    """How many entries ``viewer``'s feed of the game has now (the ``next_seq`` his screens reach: the table
    view's is the spectator's), from the game's record read with ``page``'s login (the game of ``page``'s
    address unless ``game_id`` is given)."""
    base = "/".join(page.url.split("/", 3)[:3])  # scheme://host:port
    if game_id is None:
        game_id = page.url.split("/games/", 1)[1].split("/")[0].split("?")[0].split("#")[0]
    record = page.request.get(f"{base}/api/games/{game_id}/record").json()
    return feed_length(replay(record), viewer)
