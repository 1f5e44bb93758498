"""Writes tests/durations.json: each test file's measured seconds (set-up, call and tear-down of all its tests),
which tests/suite.py reads to run the longest files first.

    python -m tests.durations report.xml [more.xml ...]   # JUnit XML reports of whole runs (``make durations``)

With several reports, a file's figure is its median over them."""

from __future__ import annotations

import json
import statistics
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

from tests.suite import DURATIONS


def per_file(report: Path) -> dict[str, float]:
    """Seconds per test file in one JUnit XML report (its test cases' ``classname`` names the module)."""
    seconds: dict[str, float] = defaultdict(float)
    for case in ET.parse(report).iter("testcase"):
        module = [part for part in case.get("classname", "").split(".") if not part[:1].isupper()]
        seconds["/".join(module) + ".py"] += float(case.get("time") or 0.0)
    return dict(seconds)


def main(reports: list[str]) -> None:
    runs = [per_file(Path(r)) for r in reports]
    files = sorted({f for run in runs for f in run})
    merged = {f: round(statistics.median(run[f] for run in runs if f in run), 1) for f in files}
    DURATIONS.write_text(json.dumps(dict(sorted(merged.items(), key=lambda kv: -kv[1])), indent=1) + "\n",
                         encoding="utf-8")
    top = sorted(merged.items(), key=lambda kv: -kv[1])[:10]
    print(f"{DURATIONS}: {len(merged)} files, {sum(merged.values()):.0f} s in all; the longest:")
    for name, s in top:
        print(f"  {s:7.1f} s  {name}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
