"""docs/rules/options.md is generated from the code and must stay equal to what the generator prints.

If this fails after a change to `RuleSet` or a preset, regenerate the table:
``.venv/bin/python docs/rules/generate_options.py --write``.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import re
from pathlib import Path
from types import ModuleType

from sportmafia.rules import PRESETS, RuleSet

ROOT = Path(__file__).resolve().parents[1]
RULES_DOCS = ROOT / "docs" / "rules"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_options", RULES_DOCS / "generate_options.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_options_table_equals_the_generated_one() -> None:
    committed = (RULES_DOCS / "options.md").read_text(encoding="utf-8")
    assert committed == _generator().render(), (
        "docs/rules/options.md is out of date: run .venv/bin/python docs/rules/generate_options.py --write"
    )


def test_options_table_lists_every_option_and_preset() -> None:
    text = _generator().render()
    header = next(line for line in text.splitlines() if line.startswith("| Option"))
    for preset in PRESETS:
        assert f"`{preset}`" in header
    rows = {m.group(1) for m in re.finditer(r"^\| `(\w+)` \|", text, re.M)}
    assert rows == {f.name for f in dataclasses.fields(RuleSet)}


def test_every_clause_an_option_implements_is_restated_in_docs_rules() -> None:
    pages = "\n".join((RULES_DOCS / page).read_text(encoding="utf-8")
                      for page in ("club.md", "fiim.md", "tournament.md"))
    headings = set(re.findall(r"^#+ .*?\b([ABF]\.[\w.-]*\w)", pages, re.M))
    for f in dataclasses.fields(RuleSet):
        for clause in f.metadata["clauses"]:
            assert clause in headings, f"{f.name}: clause {clause} has no heading in docs/rules/"
