"""Seasons benchmark: a club's year of games imported, its ratings from scratch, and its players' pages.

Prints one JSON line:
{"bench": "seasons", "games": 20000, "players": 200, "import_games_per_s": ..., "ratings_s": ..., "elo_s": ...,
 "skill_s": ..., "profile_page_p50_ms": ..., "profile_page_p99_ms": ..., "club_page_p99_ms": ...,
 "targets": {...}, "met": true}

1. ``--games`` games played by the engine at a plausible table (``bots.plausible``; ``club`` and ``fiim``, the
   presets of ten seats), each one's ten players drawn from ``--players`` persons with weights (the regulars
   play more), dated over a year. Generated in a pool of processes and kept in a cache file keyed by the
   parameters (``$SPORTMAFIA_BENCH_CACHE``, default ``/tmp/sportmafia-bench-cache``).
2. Imported into a fresh migrated SQLite store in a temporary folder through ``services.exchange.import_text``
   (sportmafia records with ``meta.id`` and ``meta.date``), in files of ``--batch`` games.
3. The ratings from scratch: ``services.seasons.club_ratings`` with nothing kept (the index read and both
   ratings: ``ratings_s``), and the pure computations over the games read (``elo_s``, ``skill_s``).
4. ``GET /players/{id}`` for every player, served by the app (``web.create_app`` under Starlette's TestClient),
   twice over (the first round untimed); ``GET /clubs/{id}/players`` ``--club-pages`` times.
5. One more game played through the store, command by command (the index and the kept ratings brought
   forward in the append that ends it and at the next read), then the page of one of its players
   (``after_game_profile_ms``).

Run: ``make bench`` or ``python bench/seasons.py [--games N] [--players P] [--seed S] [--batch B]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from datetime import date, timedelta
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from sportmafia.bots.plausible import play_plausible
from sportmafia.engine.record import command_for, to_record
from sportmafia.rules import get_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parent))
from online import machine_loop_ms

CACHE_VERSION = 2
PRESETS = ("club", "club", "fiim")
"""The presets of ten seats, a club night's mix: two club games for one fiim game."""
FIRST_DAY = date(2025, 1, 1)
"""The first day of the year of games (a year before this machine's clock: the game played at the end comes last)."""
CLUB = "Bench club"
TARGETS = {"ratings_s": 5.0, "profile_page_p99_ms": 100.0, "after_game_profile_ms": 100.0}


def names(players: int) -> list[str]:
    return [f"Player {k:03d}" for k in range(1, players + 1)]


def weights(players: int) -> list[float]:
    """How often each person comes: the first few are regulars (about six times the last one's games)."""
    scale = max(1.0, players / 5)
    return [1.0 / (1.0 + k / scale) for k in range(players)]


def table(k: int, games: int, players: int, seed: int) -> tuple[str, list[str], date]:
    """Game ``k``'s preset, its ten players in seat order, and its day."""
    rng = random.Random(f"{seed}:{k}")
    people = names(players)
    chosen: list[str] = []
    w = weights(players)
    while len(chosen) < 10:
        name = rng.choices(people, w)[0]
        if name not in chosen:
            chosen.append(name)
    day = FIRST_DAY + timedelta(days=k * 365 // max(1, games))
    return PRESETS[k % len(PRESETS)], chosen, day


def generate(args: tuple[int, int, int, int]) -> str:
    """One game's sportmafia record as a JSON line."""
    k, games, players, seed = args
    preset, seated, day = table(k, games, players, seed)
    game = play_plausible(get_ruleset(preset), 10, seed * 1_000_003 + k, seated)
    return json.dumps(to_record(game, {"id": f"bench-{seed}-{k}", "date": day.isoformat()}))


def cache_dir() -> Path:
    return Path(os.environ.get("SPORTMAFIA_BENCH_CACHE", "/tmp/sportmafia-bench-cache"))


def records(games: int, players: int, seed: int) -> tuple[list[str], float, bool]:
    """The games' records (JSON lines), the seconds spent and whether they came from the cache."""
    path = cache_dir() / f"seasons-v{CACHE_VERSION}-g{games}-p{players}-s{seed}.jsonl.gz"
    started = time.perf_counter()
    if path.exists():
        with gzip.open(path, "rt", encoding="utf-8") as f:
            lines = f.read().splitlines()
        if len(lines) == games:
            return lines, time.perf_counter() - started, True
    with Pool(os.cpu_count() or 1) as pool:
        lines = pool.map(generate, [(k, games, players, seed) for k in range(games)], chunksize=50)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=3) as f:
        f.write("\n".join(lines) + "\n")
    tmp.replace(path)
    return lines, time.perf_counter() - started, False


def batches(lines: list[str], size: int) -> Iterator[tuple[int, str]]:
    """Files of ``size`` games: how many, and the file's text."""
    for i in range(0, len(lines), size):
        part = lines[i:i + size]
        yield len(part), '{"games": [' + ",".join(part) + "]}"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def one_more_game(store: Any, club_id: int, people: list[int], seed: int) -> str:
    """A game played through the store command by command, as a host plays it; its id."""
    game = play_plausible(get_ruleset("club"), 10, seed, [f"P{i}" for i in range(10)])
    game_id = store.create_game(club_id, "club", 10, list(game.names), seat_players=people)
    seq = 0
    for ev in game.log:
        if ev.action:
            seq = store.append(game_id, command_for(ev), expected_seq=seq, command_id=uuid.uuid4().hex).next_seq
    return str(game_id)


def timed_get(client: Any, url: str) -> float:
    started = time.perf_counter()
    answer = client.get(url)
    elapsed = (time.perf_counter() - started) * 1000
    if answer.status_code != 200:
        raise SystemExit(f"GET {url}: {answer.status_code}")
    return elapsed


def note(text: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {text}", file=sys.stderr, flush=True)


def run(games: int, players: int, seed: int, batch: int, club_pages: int, data: str | None,
        pages: int | None) -> dict[str, Any]:
    from sqlalchemy import select
    from starlette.testclient import TestClient

    from sportmafia.collector import tune_gc
    from sportmafia.seasons.elo import rate
    from sportmafia.seasons.skill import rate_skill
    from sportmafia.services import seasons
    from sportmafia.services.exchange import import_text
    from sportmafia.store import Club, open_store
    from sportmafia.store import seasons as db
    from sportmafia.store.migrate import upgrade
    from sportmafia.web import create_app

    with tempfile.TemporaryDirectory(prefix="sportmafia-seasons-") as temporary:
        folder = Path(data or temporary)
        path = folder / f"seasons-g{games}-p{players}-s{seed}.db"
        url = f"sqlite:///{path}"
        imported = path.exists()  # --data: a store imported by an earlier run is measured again as it is
        generate_s = import_s = None
        if not imported:
            lines, generate_s, cached = records(games, players, seed)
            note(f"records: {generate_s:.1f} s ({'from the cache' if cached else 'generated'})")
            folder.mkdir(parents=True, exist_ok=True)
        upgrade(url)
        store = open_store(url)
        if not imported:
            club_id = store.create_club(CLUB)
            started = time.perf_counter()
            done = 0
            for count, text in batches(lines, batch):
                refused = [line for line in import_text(store, club_id, text) if line.status != "imported"]
                if refused:
                    raise SystemExit(f"not imported: {refused[0]}")
                done += count
                if done % (batch * 10) == 0:
                    note(f"imported {done} games, {done / (time.perf_counter() - started):.1f} a second")
            import_s = time.perf_counter() - started
            note(f"imported: {import_s:.1f} s")
            del lines
        else:
            with store.read() as s:
                club_id = int(s.scalar(select(Club.id).where(Club.name == CLUB)) or 0)

        seasons._KEPT.clear()  # nothing kept: the ratings from scratch, the index read included
        started = time.perf_counter()
        kept = seasons.club_ratings(store, club_id)
        ratings_s = time.perf_counter() - started
        rated = [seasons.rated(g) for g in db.index_games(store, club_id) if g.kind != "none"]
        started = time.perf_counter()
        elo = rate(rated)
        elo_s = time.perf_counter() - started
        started = time.perf_counter()
        skill = rate_skill(rated)
        skill_s = time.perf_counter() - started
        note(f"ratings from scratch {ratings_s:.2f} s; elo {elo_s:.2f} s, skill {skill_s:.2f} s")
        assert elo.to_json() == kept.elo.to_json() and skill.to_json() == kept.skill.to_json()

        people = [pid for pid, *_ in db.club_people(store, club_id)]  # most games first
        shown = people if pages is None or pages >= len(people) else \
            [people[i * len(people) // pages] for i in range(pages)]  # spread from the most games to the fewest
        most = max(len(h) for h in elo.history.values())
        with TestClient(create_app(store)) as client:
            for pid in shown[:5]:  # warm-up: templates, catalogs, the kept ratings
                timed_get(client, f"/players/{pid}")
            # the garbage collector as `sportmafia serve` tunes it: what lives long (the kept ratings' histories,
            # some 400,000 objects here) frozen out of the full collections' walk (collector.tune_gc)
            tune_gc()
            note(f"{len(shown)} profile pages")
            profile_ms = [timed_get(client, f"/players/{pid}") for pid in shown]
            note(f"{club_pages} club pages")
            club_ms = [timed_get(client, f"/clubs/{club_id}/players") for _ in range(club_pages)]
            seated = people[:10]
            one_more_game(store, club_id, seated, seed + 1)
            after_ms = timed_get(client, f"/players/{seated[0]}")
        store.close()

    figures: dict[str, Any] = {
        "bench": "seasons", "games": games, "players": players,
        "import_games_per_s": None if import_s is None else round(games / import_s, 1),
        "import_s": None if import_s is None else round(import_s, 1),
        "generate_s": None if generate_s is None else round(generate_s, 1),
        "ratings_s": round(ratings_s, 3), "elo_s": round(elo_s, 3), "skill_s": round(skill_s, 3),
        "profile_page_p50_ms": round(statistics.median(profile_ms), 1),
        "profile_page_p99_ms": round(percentile(profile_ms, 0.99), 1),
        "profile_page_max_ms": round(max(profile_ms), 1),
        "club_page_p99_ms": round(percentile(club_ms, 0.99), 1),
        "after_game_profile_ms": round(after_ms, 1), "most_games_per_player": most,
    }
    met = {name: figures[name] < limit for name, limit in TARGETS.items()}
    figures.update(targets={name: {"under": limit, "met": met[name]} for name, limit in TARGETS.items()},
                   met=all(met.values()), machine_loop_ms=machine_loop_ms())
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=500, help="games per imported file")
    parser.add_argument("--club-pages", type=int, default=10, help="requests of the club's page")
    parser.add_argument("--pages", type=int, help="profile pages measured (default: every player's)")
    parser.add_argument("--data", help="a folder for the store, kept (a second run measures it again, without "
                                       "the generation and the import)")
    args = parser.parse_args()
    if args.players < 10:
        parser.error("--players: at least 10 (a table of ten)")
    print(json.dumps(run(args.games, args.players, args.seed, args.batch, args.club_pages, args.data,
                         args.pages)), flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
