"""The house's shape holds: no import against the layers, no import cycle, no module over 600 lines without
a written reason, no block of six lines written twice, no private name imported from another module, every clause a test cites decided in the source.

Each check is first shown to catch what it looks for, on a small tree made for the purpose."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import architecture as A


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "sportmafia"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_an_engine_module_importing_the_store_is_a_violation(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"engine/__init__.py": "", "engine/game.py": "from ..store import db\n",
                            "store/__init__.py": "", "store/db.py": "from ..engine import game\n",
                            "web/app.py": "from sportmafia.live import hub\nfrom .. import errors\n"})
    assert A.layer_violations(root) == ["engine/game.py:1 engine -> store"]


def test_a_lower_import_under_type_checking_still_counts_but_is_not_a_cycle(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"web/__init__.py": "", "web/a.py": "from . import b\n",
                            "web/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n",
                            "web/c.py": "from . import d\n", "web/d.py": "def f():\n    from . import c\n"})
    assert A.import_cycles(root) == []
    cyclic = _tree(tmp_path / "x", {"web/__init__.py": "", "web/a.py": "from .b import thing\n",
                                    "web/b.py": "from . import c\n", "web/c.py": "import sportmafia.web.a\n"})
    assert A.import_cycles(cyclic) == [["sportmafia.web.a", "sportmafia.web.b", "sportmafia.web.c"]]


def test_a_long_module_needs_its_reason(tmp_path: Path) -> None:
    body = "x = 1\n" * 601
    root = _tree(tmp_path, {"a.py": body, "b.py": '"""Over 600 lines because a table."""\n' + body,
                            "web/static/c.js": "let x;\n" * 601, "web/static/vendor/htmx.js": "x;\n" * 900})
    assert A.long_modules(root) == [("a.py", 601), ("web/static/c.js", 601)]


def test_six_lines_written_twice_are_found_and_five_are_not(tmp_path: Path) -> None:
    six = "".join(f"    total = total + value_{i}\n" for i in range(6))
    five = "".join(f"    other = other * value_{i}\n" for i in range(5))
    root = _tree(tmp_path, {"a.py": "def f():\n" + six + five + "    return 1\n",
                            "b.py": "import os\n\ndef g():\n" + six.replace("    ", "\t") + "\n",
                            "c.py": "def h():\n" + five + "    return 2\n",
                            "d.py": "def k():\n" + "    pass\n" * 12,
                            "e.py": "from x import (\n" + "".join(f"    name_{i},\n" for i in range(8)) + ")\n",
                            "f.py": "from x import (\n" + "".join(f"    name_{i},\n" for i in range(8)) + ")\n"})
    assert A.repeated_blocks(root) == ["a.py:2-7 = b.py:4-9"]


def test_a_private_name_imported_from_another_module_is_a_reach_in(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"web/__init__.py": "", "web/games.py": "def _own(): ...\n",
                            "web/sheets.py": "from .games import _own\nfrom ..cache import step as _step\n"})
    assert A.private_imports(root) == ["web/sheets.py:1: _own"]


def test_no_private_name_is_imported_from_another_module() -> None:
    assert A.private_imports() == []


def test_no_import_runs_against_the_layers() -> None:
    assert A.layer_violations() == []


def test_no_import_cycle() -> None:
    assert A.import_cycles() == []


def test_no_module_over_600_lines_without_its_reason() -> None:
    assert A.long_modules() == []


def test_no_block_of_six_lines_written_twice() -> None:
    assert A.repeated_blocks() == []


def test_every_clause_a_test_cites_is_decided_in_the_source() -> None:
    assert len(A.clauses_cited_by_tests()) >= 60
    assert A.clauses_absent_from_src() == []


@pytest.mark.parametrize("layer", ["rules", "engine", "tournament"])
def test_the_pure_layers_import_no_framework(layer: str) -> None:
    """The pure layers stay pure: no web framework, database, network or clock-driven library."""
    banned = ("fastapi", "starlette", "sqlalchemy", "redis", "psycopg", "httpx", "jinja2", "alembic")
    found = []
    for path in A.sources(".py", root=A.SRC / layer):
        text = path.read_text(encoding="utf-8")
        found += [f"{path.name}: {b}" for b in banned if f"import {b}" in text or f"from {b}" in text]
    assert found == []
