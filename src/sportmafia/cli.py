"""The ``sportmafia`` command."""

from __future__ import annotations

import json
import logging
import os
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from .bots import play_plausible, play_random
from .collector import tune_gc
from .cores import pin_said
from .engine import RecordError, describe_event_line, load, replay, summary, to_record
from .engine.describe import RESULT_NAMES, ROLE_NAMES, TEAM_NAMES, t
from .errors import BilingualError
from .i18n import msg, npmsg, pmsg
from .lab.command import lab as lab_command
from .rules import PRESETS, RuleSetError, get_ruleset

app = typer.Typer(add_completion=False, no_args_is_help=True, help="sportmafia: Mafia for clubs and tournaments.")
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

DEMO_DATA = Path(__file__).with_name("web") / "demo.json"
DEMO_NAMES: tuple[str, ...] = tuple(json.loads(DEMO_DATA.read_text(encoding="utf-8"))["roster"])
"""The demo table's players: the demo club's roster (``web/demo.json``, data, not interface text), seated under
the names the club keeps in either language."""


@app.callback()
def main() -> None:
    """sportmafia: Mafia for clubs and tournaments."""


def _print_course(game_events: list[tuple[int, object]], names: tuple[str, ...], lang: str) -> None:
    for i, ev in game_events:
        line = describe_event_line(ev, lang, names)  # type: ignore[arg-type]
        if line:
            style = "bold" if line.startswith("—") else ""
            out.print(f"[dim]{i:4}[/dim] {line}", style=style, markup=True)


@app.command()
def demo(
    preset: Annotated[str, typer.Option(help=f"Rule set: {', '.join(PRESETS)}.")] = "club",
    players: Annotated[int, typer.Option(help="Table size (default: the smallest the preset allows).")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of the random game.")] = 7,
    lang: Annotated[str, typer.Option(help="ru or en.")] = "ru",
    save: Annotated[Path | None, typer.Option(help="Also write the game record to this file.")] = None,
) -> None:
    """Play one random demo game and print it: rule set, seats, every event and the outcome."""
    try:
        rs = get_ruleset(preset)
        n = players or rs.min_players
        rs.check_table(n)
    except RuleSetError as exc:
        err.print(f"[red]{exc.message(lang)}[/red]")
        raise typer.Exit(2) from None
    names = list(DEMO_NAMES[:n]) if n <= len(DEMO_NAMES) else None
    game = play_plausible(rs, n, seed, names)
    label = pmsg("cli demo", "Rule set").render(lang)
    players = npmsg("cli demo", "%(n)s player", "%(n)s players", n).render(lang)
    out.print(f"[bold]{label}:[/bold] {rs.name} · {players} · seed {seed}")
    for s in range(1, n + 1):
        out.print(f"  {s:2}. {game.names[s - 1]:<10} {t(ROLE_NAMES, game.roles[s], lang)}")
    _print_course(list(enumerate(game.log)), game.names, lang)
    _print_outcome(game, lang)
    if save:
        save.write_text(json.dumps(to_record(game), ensure_ascii=False, indent=1), encoding="utf-8")
        out.print(msg("Game record: %(path)s", path=save).render(lang))


def _print_outcome(game: object, lang: str) -> None:
    from .engine import Game

    assert isinstance(game, Game)
    if not game.over:
        unfinished = msg("The game is not finished.").render(lang)
        out.print(f"[yellow]{unfinished}[/yellow]")
        return
    outcome = msg("Outcome: %(team)s — %(result)s", team=t(TEAM_NAMES, game.winner, lang),
                  result=t(RESULT_NAMES, game.result, lang))
    out.print(f"[bold green]{outcome.render(lang)}[/bold green]")


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (JSON, docs/game-record.md).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as one JSON object.")] = False,
    lang: Annotated[str, typer.Option(help="ru or en.")] = "en",
) -> None:
    """Re-run a game record through the engine, checking every event, and print the course and outcome."""
    try:
        record = load(file)
        course: list[tuple[int, object]] = []
        game = replay(record, on_event=lambda i, ev: course.append((i, ev)))
    except FileNotFoundError:
        err.print(f"{file}: no such file", markup=False)
        raise typer.Exit(2) from None
    except RecordError as exc:
        err.print(f"{file}: {exc}", markup=False)
        raise typer.Exit(1) from None
    if as_json:
        sys.stdout.write(json.dumps(summary(game), ensure_ascii=False) + "\n")
        return
    out.print(f"[bold]{game.rules.name}[/bold] · {game.n} · {len(game.log)} events")
    _print_course(course, game.names, lang)
    _print_outcome(game, lang)


@app.command()
def simulate(
    preset: Annotated[str, typer.Option(help=f"Rule set: {', '.join(PRESETS)}.")] = "club",
    players: Annotated[int, typer.Option(help="Table size (default: the smallest the preset allows).")] = 0,
    games: Annotated[int, typer.Option(help="How many games.")] = 1000,
    seed: Annotated[int, typer.Option(help="First seed.")] = 0,
    agent: Annotated[str, typer.Option(help="An agent at every seat (random, baseline, belief); none: random legal "
                                             "commands of the host's, the judge's rare ones included.")] = "",
) -> None:
    """Play many games and print how they ended, as JSON."""
    from .bots import AGENTS
    from .bots.table import play_table

    rs = get_ruleset(preset)
    n = players or rs.min_players
    rs.check_table(n)
    if agent and agent not in AGENTS:
        raise typer.BadParameter(f"unknown agent {agent!r}; known: {', '.join(sorted(AGENTS))}", param_hint="--agent")
    winners: Counter[str] = Counter()
    results: Counter[str] = Counter()
    events = 0
    for k in range(games):
        game = play_table(rs, [AGENTS[agent]() for _ in range(n)], seed + k).game if agent else \
            play_random(rs, n, seed + k)
        winners[str(game.winner)] += 1
        results[game.result] += 1
        events += len(game.log)
    print(json.dumps({"preset": preset, "players": n, "games": games, "agent": agent or None,
                      "winners": dict(winners),
                      "results": dict(results), "events_per_game": round(events / max(games, 1), 1)}))


@app.command()
def agent(
    url: Annotated[str, typer.Argument(help="The seat's personal link (https://host/play/TOKEN); or set "
                                            "$SPORTMAFIA_SEAT_URL and leave it out, to keep it out of the process list.")] = "",
    bot: Annotated[str, typer.Option(help="The agent that plays the seat (random, baseline, belief).")] = "baseline",
    seed: Annotated[int, typer.Option(help="The agent's seed.")] = 0,
) -> None:
    """Play a seat of an online table with one of the bots, through the seat's link (the open seat protocol,
    docs/bots.md); prints how the game ended, as JSON."""
    from .bots import AGENTS
    from .bots.remote import play_seat

    link = url or os.environ.get("SPORTMAFIA_SEAT_URL", "")
    if not link:
        raise typer.BadParameter("the seat's link, or $SPORTMAFIA_SEAT_URL", param_hint="URL")
    if bot not in AGENTS:
        raise typer.BadParameter(f"unknown agent {bot!r}; known: {', '.join(sorted(AGENTS))}", param_hint="--bot")
    try:
        result = play_seat(link, AGENTS[bot](), seed, say=lambda line: err.print(line, markup=False))
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="URL") from None
    print(json.dumps({"seat": result.seat, "winner": result.winner, "result": result.result,
                      "messages": result.messages, "sent": result.sent}))


@app.command()
def arena(
    agents: Annotated[str, typer.Option(help="The agents, separated by commas or spaces (random, baseline, "
                                             "belief).")] = "random,baseline",
    games: Annotated[int, typer.Option(help="How many games at least (whole rounds of tables).")] = 300,
    preset: Annotated[str, typer.Option(help=f"Rule set: {', '.join(PRESETS)}.")] = "club",
    seed: Annotated[int, typer.Option(help="Seed of the seating, the deals and the games.")] = 1,
) -> None:
    """Agents against each other, seated evenly, every role dealt evenly: standings as JSON lines, best first."""
    from .bots import AGENTS
    from .bots.arena import arena as run_arena

    names = [a for a in agents.replace(",", " ").split() if a]
    unknown = [a for a in names if a not in AGENTS]
    if unknown or not names:
        raise typer.BadParameter(f"unknown agent {unknown[0] if unknown else '(none)'!r}; known: "
                                 f"{', '.join(sorted(AGENTS))}", param_hint="--agents")
    if len(set(names)) != len(names):
        raise typer.BadParameter("each agent once", param_hint="--agents")
    for line in run_arena([(a, AGENTS[a]) for a in names], games, get_ruleset(preset), seed):
        print(json.dumps(line.to_json()))


app.command("lab")(lab_command)  # the rules lab (lab/command.py: its options and progress bar)


@app.command()
def seat(
    players: Annotated[int, typer.Option(help="Number of players (indices from 0).")],
    table: Annotated[str, typer.Option(help="Table size (10: who does not fill a table sits out in turn) or range (12-16: everyone plays).")],
    rounds: Annotated[int, typer.Option(help="Number of rounds.")],
    games_per_player: Annotated[int | None, typer.Option(help="Games per player, if fewer than the rounds.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the search (same seed, same seating).")] = 1,
    out_file: Annotated[Path, typer.Option("--out", help="Where to write the seating JSON.")] = Path("seating.json"),
    lang: Annotated[str, typer.Option(help="ru or en (error messages).")] = "en",
) -> None:
    """Seat a tournament: who sits where in every round, with balanced meetings and seats; write the JSON and
    print its quality figures."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from .tournament.seating import SeatingError, generate, parse_table, quality

    try:
        size = parse_table(table)
        with Progress(TextColumn("seating"), BarColumn(), TimeElapsedColumn(), console=err, transient=True) as bar:
            task = bar.add_task("seating", total=1.0)
            seating = generate(players, rounds, size, games_per_player=games_per_player, seed=seed,
                               progress=lambda done: bar.update(task, completed=done))
    except SeatingError as exc:
        err.print(exc.message(lang), markup=False)
        raise typer.Exit(2) from None
    out_file.write_text(json.dumps(seating.to_json()) + "\n", encoding="utf-8")
    q = quality(seating)
    out.print(f"{out_file}: {players} players, {rounds} rounds, {q['games']} games, tables {q['table_sizes']}, "
              f"games per player {q['games_per_player'][0]}-{q['games_per_player'][1]}", markup=False)
    out.print(f"meetings per pair: min {q['pair_min']}, max {q['pair_max']}, RMS deviation {q['pair_rmse']:.4f} "
              f"(best possible >= {q['pair_rmse_bound']:.4f})", markup=False)
    out.print(f"seats: RMS deviation {q['seat_rmse']:.4f} (best possible {q['seat_rmse_floor']:.4f})", markup=False)


def quiet_socket_access(access_log: bool) -> None:
    """Without ``--access-log``, no line per socket opened either (``web.online.SocketAccessFilter``)."""
    from .web.online import SOCKET_ACCESS_FILTER

    logger = logging.getLogger("uvicorn.error")
    if access_log:
        logger.removeFilter(SOCKET_ACCESS_FILTER)
    else:
        logger.addFilter(SOCKET_ACCESS_FILTER)


def server_config(web_app: Any, host: str, port: int, *, access_log: bool = False, proxy_headers: bool = False,
                  forwarded_allow_ips: str = "127.0.0.1", workers: int = 1) -> Any:
    """uvicorn's configuration for ``serve``. Without ``proxy_headers`` no request header changes the client's
    address or the scheme (uvicorn would otherwise trust ``X-Forwarded-For`` from 127.0.0.1); with it,
    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are taken only from the proxies in ``forwarded_allow_ips``
    (comma-separated addresses or networks, ``*`` for any: only when nothing else can reach the port)."""
    import uvicorn

    # no permessage-deflate: compressing every socket message cost the event loop more than it saved on a
    # local network (bench/console.py)
    return uvicorn.Config(web_app, host=host, port=port, log_level="info", access_log=access_log,
                          ws_per_message_deflate=False, proxy_headers=proxy_headers,
                          forwarded_allow_ips=forwarded_allow_ips if proxy_headers else None,
                          workers=workers, factory=isinstance(web_app, str))


WORKER_OPTIONS_ENV = "SPORTMAFIA_SERVE_WORKER"
"""How ``serve --workers N`` hands its options to the worker processes' app factory (:func:`worker_app`): a JSON
object in the environment the workers inherit (uvicorn starts them afresh, passing no arguments)."""


def worker_app() -> Any:
    """The app of one worker process of ``serve --workers N`` (uvicorn's app factory, called in each worker as
    it starts, and again in a worker that replaces one that died): the store of ``$SPORTMAFIA_DATABASE_URL``
    (already migrated by the parent), sessions and users read on every request (``shared``: other processes
    answer the same clients), the socket log filter and the garbage collector's tuning of a single process."""
    from .store import open_store
    from .web import create_app

    options = json.loads(os.environ.get(WORKER_OPTIONS_ENV) or "{}")
    if options.get("pin_cores"):  # --pin-cores (cores.py)
        err.print(pin_said(f"worker {os.getpid()}"), markup=False)
    store = open_store()
    web_app = create_app(store, https_only=bool(options.get("secure_cookies")), shared=True, owns_store=True)
    quiet_socket_access(bool(options.get("access_log")))
    tune_gc()
    return web_app


def _check_workers(workers: int, store: Any) -> None:
    """Refuse several workers on SQLite; warn when they have no Redis between them."""
    from .live.hub import REDIS_ENV

    if workers < 1:
        err.print("--workers is at least 1.", markup=False)
        raise typer.Exit(2)
    if workers == 1:
        return
    if store.engine.dialect.name == "sqlite":
        err.print("--workers > 1 needs PostgreSQL ($SPORTMAFIA_DATABASE_URL): a SQLite database is one machine's "
                  "file with one writer at a time, so several processes would wait on each other's writes (each "
                  "append holds the file) rather than share the work. Serve SQLite with one process.", markup=False)
        raise typer.Exit(2)
    if not os.environ.get(REDIS_ENV):
        err.print(f"warning: --workers {workers} without ${REDIS_ENV}: live updates made through one process reach "
                  "the sockets of the others only by reading the log (within the keepalive's 20 s, or sooner when "
                  "the hub polls it), and a revoked session's sockets there close at their keepalive. Set "
                  f"{REDIS_ENV} for a league's evening (docs/deploy.md).", markup=False)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option(
        "--workers", help="Server processes on the one port (uvicorn's supervisor restarts one that dies). More "
                          "than 1 needs PostgreSQL, and Redis for live updates between them (docs/deploy.md).")] = 1,
    access_log: Annotated[bool, typer.Option("--access-log", help="Log every HTTP request and socket opened (off by "
                                             "default: a line per host action costs the server time).")] = False,
    proxy_headers: Annotated[bool, typer.Option(
        "--proxy-headers", help="Behind a reverse proxy: take the client's address and the scheme from its "
                                "X-Forwarded-For and X-Forwarded-Proto headers, from --forwarded-allow-ips only "
                                "(docs/deploy.md).")] = False,
    forwarded_allow_ips: Annotated[str, typer.Option(
        "--forwarded-allow-ips", help="With --proxy-headers: the proxies trusted, comma-separated addresses or "
                                      "networks.")] = "127.0.0.1",
    secure_cookies: Annotated[bool, typer.Option(
        "--secure-cookies", help="Mark the session cookie Secure (sent over HTTPS only): behind a TLS proxy.")] = False,
    pin_cores: Annotated[bool, typer.Option(
        "--pin-cores", help="Keep each server process on a core of its own (the next free one on this machine; "
                            "Linux): it then spends less CPU per action and answers sooner (docs/deploy.md).")] = False,
) -> None:
    """Run the server (the host console and the JSON API) on the database of $SPORTMAFIA_DATABASE_URL (or
    SQLite in $SPORTMAFIA_DATA, ./var). The first start makes a demo club and the admin account and prints
    its password once."""
    import uvicorn

    from .services.seasons import reindex
    from .store import open_store
    from .web import create_app, ensure_demo
    from .web.security import load_secret_key

    store = open_store(migrate=True)
    _check_workers(workers, store)
    setup = ensure_demo(store)
    indexed = reindex(store)  # games that ended before the index of seasons existed (docs/seasons.md)
    if indexed:
        out.print(f"Indexed {indexed} finished games for statistics and ratings", markup=False)
    if workers == 1:
        if pin_cores:  # before the app starts its threads
            err.print(pin_said("the server"), markup=False)
        web_app = create_app(store, https_only=secure_cookies)
        quiet_socket_access(access_log)
    else:
        load_secret_key()  # made here once (the data folder's file), not by the workers at the same moment
        store.close()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    out.print(f"sportmafia is running at http://{shown}:{port}/", markup=False)
    if shown != host:
        out.print("  (and at this machine's address on the local network, for tablets and phones)", markup=False)
    if workers > 1:
        out.print(f"  ({workers} worker processes)", markup=False)
    if setup.created:
        out.print(f"First start: log in as '{setup.login}'", markup=False)
        if setup.password is not None:
            out.print(f"  password: {setup.password}   (shown only this once: write it down)", markup=False)
        else:
            out.print("  password: the one in SPORTMAFIA_ADMIN_PASSWORD", markup=False)
    if workers > 1:
        _serve_workers(workers, host, port, access_log=access_log, proxy_headers=proxy_headers,
                       forwarded_allow_ips=forwarded_allow_ips, secure_cookies=secure_cookies, pin_cores=pin_cores)
        return
    tune_gc()
    config = server_config(web_app, host, port, access_log=access_log, proxy_headers=proxy_headers,
                           forwarded_allow_ips=forwarded_allow_ips)
    server = uvicorn.Server(config)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        store.close()
    if not server.started:
        raise typer.Exit(3)  # uvicorn's own code for a server that could not start (the port taken...)


def _serve_workers(workers: int, host: str, port: int, *, access_log: bool, proxy_headers: bool,
                   forwarded_allow_ips: str, secure_cookies: bool, pin_cores: bool = False) -> None:
    """uvicorn's own supervisor: the parent binds the port, starts ``workers`` processes that each build
    :func:`worker_app`, and starts a new one in place of any that dies (a SIGKILL, an out-of-memory kill)."""
    from uvicorn.supervisors import Multiprocess

    os.environ[WORKER_OPTIONS_ENV] = json.dumps({"access_log": access_log, "secure_cookies": secure_cookies,
                                                 "pin_cores": pin_cores})
    config = server_config(f"{__name__}:worker_app", host, port, access_log=access_log, proxy_headers=proxy_headers,
                           forwarded_allow_ips=forwarded_allow_ips, workers=workers)
    sock = config.bind_socket()  # exits with uvicorn's message when the port is taken
    Multiprocess(config, sockets=[sock]).run()


@app.command()
def check(
    database: Annotated[str | None, typer.Option(
        "--database", help="The database's URL (default: $SPORTMAFIA_DATABASE_URL, else SQLite in "
                           "$SPORTMAFIA_DATA).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
) -> None:
    """Verify a database, a restored backup first (docs/deploy.md): every game's log has its seqs from 0 with no
    gap and replays through the engine into what its row holds; sheets and tournaments are consistent. Prints a
    summary; exits 1 on a problem, 2 when the database cannot be opened. Reads only."""
    from sqlalchemy.engine import make_url

    from .services.integrity import check as check_database
    from .store import database_url, open_store

    url = database_url(database)
    parsed = make_url(url)
    shown = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() == "sqlite" and not Path(str(parsed.database or "")).is_file():
        err.print(f"{shown}: no such SQLite file", markup=False)  # opening it would make an empty one
        raise typer.Exit(2)
    try:
        with open_store(url) as store:
            report = check_database(store)
    except Exception as exc:  # a wrong URL, a server that does not answer: said, not a traceback
        err.print(f"{shown}: cannot be read: {type(exc).__name__}: {' '.join(str(exc).split())}", markup=False)
        raise typer.Exit(2) from None
    if as_json:
        c = report.counts
        print(json.dumps({"database": shown, "ok": report.ok, "revision": report.revision.current,
                          "head": report.revision.head, "games": c.games if c else 0,
                          "events": c.events if c else 0, "over": report.over, "signed": report.signed,
                          "tournaments": c.tournaments if c else 0, "problems": report.problems}))
    else:
        print(shown)
        for line in report.lines():
            print(f"  {line}")  # whole lines, never wrapped: an operator's log or a script reads them
    if not report.ok:
        raise typer.Exit(1)


@app.command("reindex")
def reindex_command(
    every: Annotated[bool, typer.Option("--all", help="Rewrite every finished game's rows, not only the missing "
                                                      "ones.")] = False,
) -> None:
    """Rebuild the index of finished games that statistics and ratings read, from the games' logs (the data
    folder's database, or $SPORTMAFIA_DATABASE_URL; docs/seasons.md). ``serve`` indexes the missing games
    by itself on start."""
    from .services.seasons import reindex
    from .store import open_store

    with open_store(migrate=True) as store:
        n = reindex(store, every=every)
    print(f"{n} games indexed")


def _club_of(store: Any, club: int | None) -> int:
    """The club named, else the first one of the data folder's database (``serve`` makes the demo club)."""
    from sqlalchemy import select

    from .store import Club

    with store.read() as s:
        ids = list(s.scalars(select(Club.id).order_by(Club.id)))
    if club is None and ids:
        return int(ids[0])
    if club in ids:
        return int(club)
    err.print("No such club: run `sportmafia serve` once to make the club, or name one with --club.", markup=False)
    raise typer.Exit(2)


@app.command()
def calibrate(
    club: Annotated[int | None, typer.Option(help="The club's id (default: the first club).")] = None,
    source: Annotated[str | None, typer.Option(help="Only games from: log (played here), polemica, mafiaratings, "
                                                     "sportmafia (imported).")] = None,
) -> None:
    """The first round's single votes of the club's whole games (docs/bots.md), beside the figures of 1,237 rated
    games on mafiaratings.com: how the club's play compares with the bots' and with real play elsewhere."""
    from .services.calibration import club_single_votes
    from .store import open_store

    with open_store(migrate=True) as store:
        try:
            print(json.dumps(club_single_votes(store, _club_of(store, club), source)))
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--source") from None


@app.command("import")
def import_command(
    files: Annotated[list[Path], typer.Argument(help="Files of games: sportmafia records, Polemica or mafiaratings "
                                                     "games (one, a list, or {\"games\": [...]} per file).")],
    club: Annotated[int | None, typer.Option(help="The club's id (default: the first club).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="A JSON line per game.")] = False,
    lang: Annotated[str, typer.Option(help="ru or en.")] = "ru",
) -> None:
    """Import games into the club (the data folder's database, or $SPORTMAFIA_DATABASE_URL; docs/exchange.md):
    each game replayed through the engine and kept whole, or refused whole naming the game, the event and the
    rule. Prints each game with its outcome and what was kept or left out; exits 1 if a game was refused."""
    from .services.exchange import import_text
    from .store import open_store

    refused = False
    with open_store(migrate=True) as store:
        club_id = _club_of(store, club)
        for path in files:
            try:
                text = path.read_text(encoding="utf-8-sig")
            except OSError as exc:
                print(f"{path}: {exc.strerror}", file=sys.stderr)
                raise typer.Exit(2) from None
            try:
                lines = import_text(store, club_id, text)
            except BilingualError as exc:
                print(f"{path}: {exc.message(lang)}", file=sys.stderr)
                refused = True
                continue
            for line in lines:
                refused |= line.status == "refused"
                if as_json:
                    print(json.dumps({"file": str(path), **line.to_json(lang)}, ensure_ascii=False))
                    continue
                what = {"imported": "imported", "already": "already imported", "refused": "REFUSED"}[line.status]
                head = f"{path}: {line.source} game {line.source_id}: {what}"
                if line.status == "refused":
                    print(f"{head}: [{line.clause}] {line.event}: "
                              f"{line.reason.render(lang) if line.reason else ''}")
                    continue
                detail = "whole game" if line.detail else "result only"
                print(f"{head}, {line.outcome_text(lang)} ({detail})")
                if line.kept:
                    print(f"  kept: {', '.join(line.kept)}")
                if line.left_out:
                    print(f"  left out: {', '.join(line.left_out)}")
    if refused:
        raise typer.Exit(1)


@app.command("export")
def export_command(
    fmt: Annotated[str, typer.Option("--format", help="sportmafia, polemica or mafiaratings.")] = "sportmafia",
    club: Annotated[int | None, typer.Option(help="The club's id (default: the first club).")] = None,
    output: Annotated[Path | None, typer.Option("--out", help="The file to write (default: standard output).")] = None,
    tournament: Annotated[int | None, typer.Option(help="Only this tournament's games (its id).")] = None,
) -> None:
    """Export the club's finished games as a JSON list in a format (docs/exchange.md); games that cannot be
    written in it (a result-only import, another table size) are named on standard error."""
    from .services.exchange import export_games
    from .store import open_store

    with open_store(migrate=True) as store:
        try:
            games, skipped = export_games(store, _club_of(store, club), fmt, tournament)
        except BilingualError as exc:
            err.print(exc.message("en"), markup=False)
            raise typer.Exit(2) from None
    text = json.dumps({"format": fmt, "games": games}, ensure_ascii=False, indent=1)
    if output is None:
        print(text)
    else:
        output.write_text(text + "\n", encoding="utf-8")
    for game_id, why in skipped:
        err.print(f"not exported: {game_id}: {why.render('en')}", markup=False)


if __name__ == "__main__":  # pragma: no cover
    random.seed()
    app()
