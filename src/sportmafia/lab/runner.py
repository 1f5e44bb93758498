"""A lab run: variants x agent x games x table size x seed, split into seeded batches (:mod:`.batches`) played
by a backend (:mod:`.backends`), kept in a results file as they finish, combined exactly into a summary.

- **Rounds.** Batch ``k`` of every variant makes round ``k``; batches are handed out round by round. The totals
  are those of the first rounds whole (every variant's batch done), so they do not depend on which worker
  finished first.
- **Resume.** Every finished batch is appended to ``OUT/batches.jsonl`` (one JSON line, its tally and its
  games' rows); a run in the same folder plays only the batches whose key (rule options, agent, table, seed,
  batch, size) is not there yet.
- **Early stop.** With ``stop_when_significant``, after each round from ``min_batches`` on the paired test of
  the first two variants is looked at; the run stops at the first look whose p-value is under
  ``0.05 / looks`` (Bonferroni over the looks the plan may make).
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..i18n import msg
from ..seasons.stats import wilson
from .backends import Backend, backend, cores
from .batches import EVENT_BIN, Tally, Task
from .stats import difference_interval, look_alpha, mcnemar, paired_interval, two_proportions
from .variants import LabError, parse_variant

ALPHA = 0.05
RESULTS = "batches.jsonl"


@dataclass(frozen=True)
class Plan:
    """What a run plays: ``games`` per variant, in batches of ``batch_size``."""

    specs: tuple[str, ...]
    agent: str = "baseline"
    games: int = 1000
    players: int = 0
    """The table's size; 0: the smallest the first variant deals for."""
    seed: int = 0
    batch_size: int = 200
    paired: bool = True

    def table(self) -> int:
        return self.players or parse_variant(self.specs[0]).rules.min_players

    def rounds(self) -> int:
        return math.ceil(self.games / self.batch_size)

    def tasks(self) -> list[Task]:
        """Every batch, round by round."""
        n = self.table()
        return [Task(spec, v, k, min(self.batch_size, self.games - k * self.batch_size), self.agent, n, self.seed,
                     self.paired)
                for k in range(self.rounds()) for v, spec in enumerate(self.specs)]

    def check(self) -> None:
        """Refuse a plan that cannot run (an unknown variant or agent, a table a variant does not deal)."""
        from ..bots import AGENTS
        from ..rules import RuleSetError

        if not self.specs:
            raise LabError(msg("Name at least one variant."))
        if self.agent not in AGENTS:
            raise LabError(msg("Unknown agent '%(agent)s'; agents: %(agents)s.", agent=self.agent,
                               agents=", ".join(sorted(AGENTS))))
        if self.games < 1 or self.batch_size < 1:
            raise LabError(msg("A run plays at least one game in batches of at least one."))
        for spec in self.specs:
            try:
                parse_variant(spec).rules.check_table(self.table())
            except RuleSetError as exc:
                raise LabError(exc.text) from None


def load_done(out: Path | None) -> dict[str, dict[str, Any]]:
    """The batches already played in ``out`` by their key (a line cut short by a stop is left out)."""
    done: dict[str, dict[str, Any]] = {}
    path = out / RESULTS if out else None
    if path is None or not path.exists():
        return done
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        done[record["key"]] = compact(record)
    return done


class _Looks:
    """The early stop's looks at whole rounds."""

    def __init__(self, plan: Plan, on: bool, min_batches: int) -> None:
        self.on = on and len(plan.specs) >= 2
        self.first = max(1, min_batches)
        self.planned = max(0, plan.rounds() - self.first + 1)
        self.alpha = look_alpha(ALPHA, self.planned)
        self.made = 0
        self.stopped_at: int | None = None
        self.last_p: float | None = None

    def look(self, rounds: int, records: dict[tuple[int, int], dict[str, Any]]) -> bool:
        """Look at the first ``rounds`` rounds (if it is a look's turn); True to stop."""
        if not self.on or self.stopped_at is not None or rounds < self.first:
            return self.stopped_at is not None
        self.made += 1
        b, c = discordant(records, 0, 1, rounds)
        self.last_p = mcnemar(b, c)
        if self.last_p < self.alpha:
            self.stopped_at = rounds
        return self.stopped_at is not None


def compact(record: dict[str, Any]) -> dict[str, Any]:
    """A batch's record as a run keeps it: its games' rows as their JSON text, and one byte a game (1: red won)
    for the paired test (some 40 bytes a game in all, so that a run of millions of games fits in memory)."""
    rows = record["rows"]
    return {**record, "red": bytes(row[1] == "red" for row in rows),
            "rows": json.dumps(rows, separators=(",", ":"))}


def discordant(records: dict[tuple[int, int], dict[str, Any]], a: int, b: int, rounds: int) -> tuple[int, int]:
    """Pairs (one seed under variants ``a`` and ``b``) red won under ``a`` only, and under ``b`` only."""
    only_a = only_b = 0
    for k in range(rounds):
        for red_a, red_b in zip(records[(a, k)]["red"], records[(b, k)]["red"], strict=True):
            only_a += red_a > red_b
            only_b += red_b > red_a
    return only_a, only_b


def run(plan: Plan, out: Path | None = None, *, workers: int = 0, cluster: str = "",
        stop_when_significant: bool = False, min_batches: int = 3,
        progress: Callable[[int, int], None] | None = None, pool: Backend | None = None) -> dict[str, Any]:
    """Play ``plan`` (what is not in ``out`` yet) and return its summary (:func:`summarize`).

    ``progress(done_games, total_games)`` is called as batches finish; ``pool`` is a backend to use (and leave
    open) instead of one made here from ``workers`` (0: every core) and ``cluster``."""
    plan.check()
    tasks = plan.tasks()
    done = load_done(out)
    records: dict[tuple[int, int], dict[str, Any]] = {}
    todo: list[Task] = []
    for task in tasks:
        record = done.get(task.key())
        if record is not None:
            records[(task.variant, task.batch)] = record
        else:
            todo.append(task)
    resumed = len(records)
    looks = _Looks(plan, stop_when_significant, min_batches)
    total = plan.games * len(plan.specs)
    whole = _whole_rounds(plan, records, 0)
    stop = any(looks.look(m, records) for m in range(1, whole + 1))
    played = sum(r["tally"]["games"] for r in records.values())
    if progress:
        progress(played, total)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    own = pool is None
    used = pool or (backend(workers or cores(), cluster) if todo and not stop else None)
    try:
        if used is not None and not stop:
            stop, whole, played = _play(used, todo, records, looks, out, plan, whole, played, total, progress)
    finally:
        if own and used is not None:
            used.close()
    rounds = looks.stopped_at if looks.stopped_at is not None else whole
    summary = summarize(plan, records, rounds)
    summary["batches_resumed"] = resumed
    summary["cpu_s"] = round(sum(r.get("cpu_s", 0.0) for (_, k), r in records.items() if k < rounds), 3)
    summary["workers"] = used.workers if used is not None else 0
    summary["backend"] = used.name if used is not None else None
    summary["early_stop"] = {"on": looks.on, "stopped": looks.stopped_at is not None, "looks": looks.made,
                             "looks_planned": looks.planned, "alpha_per_look": looks.alpha, "last_p": looks.last_p,
                             "min_batches": looks.first}
    if out is not None:
        write_games(out, rows(plan, records, rounds))
        (out / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return summary


def write_games(out: Path, table: list[list[Any]]) -> list[Path]:
    """The games as ``games.csv`` (and ``games.parquet`` where pyarrow is installed) for analysts."""
    header = ["variant", "batch", "seed", "winner", "result", "days", "events"]
    path = out / "games.csv"
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(table)
    written = [path]
    try:
        import pyarrow as pa  # type: ignore[import-not-found]
        import pyarrow.parquet as pq  # type: ignore[import-not-found]
    except ImportError:
        return written
    columns = {name: [row[i] for row in table] for i, name in enumerate(header)}  # pragma: no cover
    pq.write_table(pa.table(columns), out / "games.parquet")  # pragma: no cover
    return [*written, out / "games.parquet"]  # pragma: no cover


def _whole_rounds(plan: Plan, records: dict[tuple[int, int], dict[str, Any]], start: int) -> int:
    m = start
    while m < plan.rounds() and all((v, m) in records for v in range(len(plan.specs))):
        m += 1
    return m


def _play(pool: Backend, todo: list[Task], records: dict[tuple[int, int], dict[str, Any]], looks: _Looks,
          out: Path | None, plan: Plan, whole: int, played: int, total: int,
          progress: Callable[[int, int], None] | None) -> tuple[bool, int, int]:
    queue = list(reversed(todo))
    pending: set[Any] = set()
    stop = False
    sink = _append(out / RESULTS) if out is not None else None
    try:
        while (queue or pending) and not stop:
            while queue and len(pending) < 2 * pool.workers:
                pending.add(pool.submit(queue.pop()))
            finished, pending = pool.wait(pending)
            for future in finished:
                record = pool.result(future)
                task = record["task"]
                if sink is not None:
                    sink.write(json.dumps(record, separators=(",", ":")) + "\n")
                    sink.flush()
                records[(task["variant"], task["batch"])] = compact(record)
                played += record["tally"]["games"]
            now = _whole_rounds(plan, records, whole)
            for m in range(whole + 1, now + 1):
                stop = stop or looks.look(m, records)
            whole = now
            if progress:
                progress(played, total)
    finally:
        if sink is not None:
            sink.close()
    return stop, whole, played


def _append(path: Path) -> Any:
    """The results file opened to append to, a last line a stop cut short ended first (it is left out)."""
    cut = False
    if path.exists() and path.stat().st_size > 0:
        with path.open("rb") as f:
            f.seek(-1, 2)
            cut = f.read(1) != b"\n"
    sink = path.open("a", encoding="utf-8")
    if cut:
        sink.write("\n")
    return sink


def summarize(plan: Plan, records: dict[tuple[int, int], dict[str, Any]], rounds: int) -> dict[str, Any]:
    """Per variant its totals over the first ``rounds`` rounds; each later variant against the first."""
    variants: list[dict[str, Any]] = []
    tallies: list[Tally] = []
    for v, spec in enumerate(plan.specs):
        tally = Tally()
        for k in range(rounds):
            tally.merge(Tally.from_json(records[(v, k)]["tally"]))
        tallies.append(tally)
        variants.append(describe(parse_variant(spec).label, dict(parse_variant(spec).changed), tally))
    comparisons = []
    for v in range(1, len(plan.specs)):
        a, b = tallies[0], tallies[v]
        z, p = two_proportions(b.red, b.games, a.red, a.games)
        row: dict[str, Any] = {"a": variants[0]["variant"], "b": variants[v]["variant"],
                               "difference": _r(b.red / b.games - a.red / a.games) if a.games and b.games else None,
                               "z": _r(z), "p_z": p,
                               "ci95": [_r(x) for x in difference_interval(a.red, a.games, b.red, b.games)]}
        if plan.paired:
            only_a, only_b = discordant(records, 0, v, rounds)
            row.update({"red_a_only": only_a, "red_b_only": only_b, "p_paired": mcnemar(only_a, only_b),
                        "ci95": [_r(x) for x in paired_interval(only_a, only_b, a.games)]})
        comparisons.append(row)
    return {"plan": {**asdict(plan), "specs": list(plan.specs), "players": plan.table()}, "rounds": rounds,
            "variants": variants, "comparisons": comparisons}


def describe(label: str, changed: dict[str, Any], tally: Tally) -> dict[str, Any]:
    """One variant's figures: red wins with the Wilson interval, results' shares, days and events."""
    n = tally.games
    lo, hi = wilson(tally.red, n)
    return {
        "variant": label, "changed": changed, "games": n, "red_wins": tally.red, "black_wins": tally.black,
        "red_rate": _r(tally.red / n) if n else None, "ci95": [_r(lo), _r(hi)],
        "results": {k: _r(c / n) for k, c in tally.results.most_common()} if n else {},
        "results_count": dict(tally.results.most_common()),
        "days": {"mean": _r(tally.days_sum / n, 3) if n else None, "hist": {str(d): c for d, c in
                                                                             sorted(tally.days.items())}},
        "events": {"mean": _r(tally.events_sum / n, 1) if n else None, "bin": EVENT_BIN,
                   "hist": {str(e): c for e, c in sorted(tally.events.items())}},
    }


def _r(x: float, digits: int = 4) -> float:
    return round(x, digits)


def rows(plan: Plan, records: dict[tuple[int, int], dict[str, Any]], rounds: int) -> list[list[Any]]:
    """The games of the first ``rounds`` rounds as rows: variant, batch, seed, winner, result, days, events."""
    return [[parse_variant(spec).label, k, *row] for k in range(rounds) for v, spec in enumerate(plan.specs)
            for row in json.loads(records[(v, k)]["rows"])]
