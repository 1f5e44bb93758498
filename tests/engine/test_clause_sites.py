"""Every clause id a test cites also appears in ``src/``, beside the code that decides it: a reader who knows
the rule finds that code with one grep of its id."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_clause_cited_by_a_test_is_cited_in_src() -> None:
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py"))
    cited = set(re.findall(r'clause\("([ABF]\.[a-z0-9.-]*[a-z0-9])"\)', tests))
    assert len(cited) >= 60, sorted(cited)
    src = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "src" / "sportmafia").rglob("*.py"))
    assert sorted(i for i in cited if not re.search(re.escape(i) + r"(?![a-z0-9-])", src)) == []
