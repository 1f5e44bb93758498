"""``sportmafia lab``: the command's options and its progress bar (registered in ``cli.py``)."""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.text import Text as RichText

from .report import write_report
from .runner import Plan, run
from .variants import LabError, one_at_a_time, split_specs


class RateColumn(ProgressColumn):
    """Games a second."""

    def render(self, task: Task) -> RichText:
        speed = task.finished_speed or task.speed
        return RichText(f"{speed:,.0f} games/s" if speed else "– games/s", style="progress.data.speed")


def lab(
    variant: Annotated[list[str], typer.Option(help="A variant: a preset, or a preset with options changed "
                                                    "(club+lift_two_at_four=false); repeat it or separate by "
                                                    "commas. The first is the one the others are compared with.")],
    each: Annotated[list[str] | None, typer.Option(help="Options changed one at a time from the first variant, "
                                                         "each a variant of its own: option=value, or a yes/no "
                                                         "option's name for its other value (repeat or separate "
                                                         "by commas).")] = None,
    agent: Annotated[str, typer.Option(help="The agent at every seat (random, baseline, belief).")] = "baseline",
    games: Annotated[int, typer.Option(help="Games per variant.")] = 2000,
    players: Annotated[int, typer.Option(help="Table size (default: the smallest the first variant deals for).")] = 0,
    seed: Annotated[int, typer.Option(help="The run's seed (same seed, same result).")] = 0,
    workers: Annotated[int, typer.Option(help="Worker processes (default: every core).")] = 0,
    batch: Annotated[int, typer.Option(help="Games in one batch.")] = 200,
    out: Annotated[Path | None, typer.Option(help="Folder of the results (batches.jsonl: a run there again "
                                                  "resumes), games.csv, summary.json and report.html.")] = None,
    stop_when_significant: Annotated[bool, typer.Option(help="Stop once the first two variants differ at 0.05, "
                                                             "Bonferroni-corrected for the looks.")] = False,
    min_batches: Annotated[int, typer.Option(help="Rounds of batches before the first look.")] = 3,
    cluster: Annotated[str, typer.Option(help="A Dask cluster: 'local' (a local one of --workers processes) "
                                              "or a scheduler's address (tcp://host:8786).")] = "",
    paired: Annotated[bool, typer.Option("--paired/--unpaired", help="The same seeds for every variant (common random numbers) and "
                                              "McNemar's paired test; --unpaired: seeds of their own.")] = True,
    lang: Annotated[str, typer.Option(help="The report's language: ru or en.")] = "en",
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
) -> None:
    """The rules lab: play variants of the rules with bots, and print how red's win rate, the ends of the games
    and their length move, as JSON (docs/lab.md)."""
    if lang not in ("ru", "en"):
        raise typer.BadParameter("ru or en", param_hint="--lang")
    err = Console(stderr=True)
    try:
        specs = split_specs(variant)
        if each and specs:
            specs = [*one_at_a_time(specs[0], split_specs(each)), *specs[1:]]
        plan = Plan(tuple(specs), agent, games, players, seed, batch, paired)
        plan.check()
    except LabError as exc:
        raise typer.BadParameter(exc.message(lang)) from None
    with ExitStack() as stack:
        progress: Any = None
        if not quiet:
            bar = stack.enter_context(Progress(TextColumn("lab"), BarColumn(), MofNCompleteColumn(), RateColumn(),
                                               TimeRemainingColumn(), console=err, transient=False))
            task = bar.add_task("lab", total=games * len(plan.specs))

            started: list[int] = []

            def progress(done: int, total: int) -> None:
                if not started:  # the batches resumed from the results file: not counted in the rate
                    started.append(done)
                    bar.reset(task, total=total, completed=done)
                else:
                    bar.update(task, completed=done, total=total)
        try:
            summary = run(plan, out, workers=workers, cluster=cluster, stop_when_significant=stop_when_significant,
                          min_batches=min_batches, progress=progress)
        except LabError as exc:  # the cluster's refusal
            raise typer.BadParameter(exc.message(lang), param_hint="--cluster") from None
    if out is not None:
        summary["report"] = str(write_report(summary, out, lang))
    print(json.dumps(summary, ensure_ascii=False))
