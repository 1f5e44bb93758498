"""Every clause of the engine's rule sets is cited by a test that exercises it.

The clause ids come from the rulebook beside the checkout (``../shared/docs/RULEBOOK.md``) when it is
there, and from the project's own restatement in ``docs/rules/`` always. The tournament-layer clauses
(``T.*``: groups, scoring, standings, the final) belong to the tournament package, not to the engine, and
are cited by its tests when it exists.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ID = re.compile(r"\*\*([ABF]\.[a-z0-9.-]*[a-z0-9])\*\*")


def _clause_ids() -> set[str]:
    ids: set[str] = set()
    rulebook = ROOT.parent / "shared" / "docs" / "RULEBOOK.md"
    if rulebook.exists():
        ids |= set(ID.findall(rulebook.read_text(encoding="utf-8")))
    for page in ("club.md", "fiim.md", "tournament.md"):
        text = (ROOT / "docs" / "rules" / page).read_text(encoding="utf-8")
        ids |= set(re.findall(r"#+ .*?\b([ABF]\.[a-z0-9.-]*[a-z0-9])\b", text))
    return ids


def test_every_engine_clause_is_cited_by_a_test() -> None:
    ids = _clause_ids()
    assert len(ids) >= 60, sorted(ids)
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py")
                      if p.name != "test_clause_coverage.py")
    cited = {i for i in ids if f'clause("{i}")' in tests}
    assert sorted(ids - cited) == []
