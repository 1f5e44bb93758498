"""The flake finder: runs the tests that touch the browser, the database and Redis servers or processes of their
own (``-m "browser or postgres or redis or processes"``, tests/suite.py) several times, each round in another
random order (pytest-randomly: the files, the tests in a file and ``random``'s seed all shuffled by the round's
seed), and lists every test whose result was not the same in every round.

    python -m tests.flakes                  # 5 rounds, 2 workers (make flakes)
    python -m tests.flakes --rounds 10 --workers 2 --marks "browser" -- -k practice

A round's seed is printed: ``pytest -p randomly -p no:cacheprovider --randomly-seed=SEED ...`` runs it again.
Exits 1 when a test changed its result (or failed in every round), 0 when every round agreed and passed."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

from tests.suite import MARKS

ROOT = Path(__file__).resolve().parent.parent


def outcomes(report: Path) -> dict[str, str]:
    """Each test's result in a JUnit XML report: passed, failed, error or skipped."""
    found: dict[str, str] = {}
    for case in ET.parse(report).iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        result = "passed"
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                result = {"failure": "failed"}.get(child.tag, child.tag)
                break
        found[name] = result
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", default="2", help="pytest-xdist's -n (default 2)")
    parser.add_argument("--marks", default=" or ".join(MARKS), help="which tests (pytest -m)")
    parser.add_argument("--seed", type=int, default=1, help="the first round's seed; round k has seed + k")
    parser.add_argument("pytest_args", nargs="*", help="more arguments for pytest (after --)")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="sm-flakes-"))
    results: dict[str, dict[int, str]] = defaultdict(dict)
    for k in range(args.rounds):
        seed = args.seed + k
        report = folder / f"round-{k + 1}.xml"
        command = [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "randomly",
                   "-p", "no:cacheprovider", f"--randomly-seed={seed}", "-n", args.workers, "--dist", "loadfile",
                   "-m", args.marks, f"--junitxml={report}", *args.pytest_args]
        print(f"round {k + 1}/{args.rounds}, seed {seed}: {' '.join(command[2:])}", flush=True)
        run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        tail = [line for line in run.stdout.splitlines() if line.strip()][-1:] or ["(no output)"]
        print(f"  {tail[0]}", flush=True)
        if not report.exists():
            print(run.stdout[-3000:], run.stderr[-3000:], sep="\n")
            return 2
        for name, result in outcomes(report).items():
            results[name][k] = result

    changed = {name: runs for name, runs in results.items()
               if len(set(runs.values())) > 1 or len(runs) < args.rounds}
    failing = {name: runs for name, runs in results.items()
               if name not in changed and set(runs.values()) <= {"failed", "error"}}
    print(f"\n{len(results)} tests, {args.rounds} rounds (seeds {args.seed}..{args.seed + args.rounds - 1}), "
          f"reports in {folder}")
    for name, runs in sorted(changed.items()):
        line = " ".join(runs.get(k, "absent") for k in range(args.rounds))
        print(f"CHANGED  {name}: {line}")
    for name in sorted(failing):
        print(f"FAILED   {name}: in every round")
    if not changed and not failing:
        print("every test had the same result in every round")
    return 1 if changed or failing else 0


if __name__ == "__main__":
    sys.exit(main())
