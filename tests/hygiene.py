"""Finds what makes a test depend on the machine's speed or on chance: sleeps, clocks and unseeded random.

Read by ``tests/test_hygiene.py`` over the whole of tests/ (and runnable alone: ``python -m tests.hygiene``).
What it finds, in the syntax tree of each file:

- ``sleep``: ``time.sleep``, ``asyncio.sleep`` of more than 0 (``asyncio.sleep(0)`` only yields to the loop),
  Playwright's ``wait_for_timeout``, and ``tests/waiting.py``'s own ``pause``: a test waits for a condition
  (``wait_until``), never for a while, unless time passing is its subject;
- ``clock``: ``time.time``, ``time.monotonic``, ``time.perf_counter`` (and their ``_ns``), ``loop.time()``: a
  test asserts no duration (timing belongs in ``bench/``) and bounds a wait only through ``wait_until``;
- ``chance``: ``random.Random()`` or ``random.Random(None)`` (seeded from the clock), the module's own
  ``random.random()``, ``random.choice(...)`` and the like, ``random.seed()`` with no seed,
  ``random.SystemRandom``: a test's chance is seeded so that a failure can be run again.

Importing those names (``from time import sleep``) counts as using them. Each place that must keep one is in
``ALLOWED`` of ``tests/test_hygiene.py`` with its reason."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parent

SLEEPS = {("time", "sleep")}
CLOCKS = {("time", name) for name in ("time", "monotonic", "perf_counter", "time_ns", "monotonic_ns",
                                       "perf_counter_ns")}
RANDOM_FUNCTIONS = {"random", "choice", "choices", "shuffle", "sample", "randint", "randrange", "uniform",
                    "gauss", "getrandbits", "triangular", "betavariate", "expovariate", "normalvariate",
                    "randbytes"}


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    """The file, relative to the repository (``tests/web/test_x.py``)."""
    line: int
    kind: str
    """``sleep``, ``clock`` or ``chance``."""
    what: str
    """The call as written (``time.sleep``)."""
    where: str
    """The function (``Class.method``) it stands in, or ``<module>``."""

    @property
    def key(self) -> tuple[str, str, str]:
        """What the allow-list names: the file, the function and the call (not the line, which moves)."""
        return (self.path, self.where, self.what)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.kind}: {self.what} in {self.where}"


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else f"?.{node.attr}"
    if isinstance(node, ast.Call):
        head = _dotted(node.func)
        return f"{head}()" if head else None
    return None


def _positive(node: ast.expr | None) -> bool:
    """Whether a sleep's argument may be more than zero (only a literal 0 is not)."""
    return not (isinstance(node, ast.Constant) and node.value in (0, 0.0))


class _Scanner(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.scope: list[str] = []
        self.found: list[Finding] = []
        self.imported: dict[str, tuple[str, str]] = {}
        """Names bound by ``from time import sleep`` and the like: the local name -> (module, name)."""

    def _add(self, node: ast.AST, kind: str, what: str) -> None:
        where = ".".join(self.scope) or "<module>"
        self.found.append(Finding(self.path, getattr(node, "lineno", 0), kind, what, where))

    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            pair = (node.module or "", alias.name)
            if pair in SLEEPS | CLOCKS or (pair[0] == "random" and alias.name in RANDOM_FUNCTIONS | {
                    "SystemRandom", "seed"}) or pair == ("asyncio", "sleep"):
                self.imported[alias.asname or alias.name] = pair
                self._add(node, "import", f"from {pair[0]} import {pair[1]}")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _dotted(node.func)
        if name is not None:
            self._call(node, name)
        self.generic_visit(node)

    def _call(self, node: ast.Call, name: str) -> None:
        parts = tuple(name.split("."))
        if len(parts) == 1 and name in self.imported:
            parts = self.imported[name]
        arg = node.args[0] if node.args else None
        if parts in SLEEPS:
            self._add(node, "sleep", "time.sleep")
        elif parts == ("asyncio", "sleep") and _positive(arg):
            self._add(node, "sleep", "asyncio.sleep")
        elif parts in (("pause",), ("waiting", "pause")) and not self.path.endswith("tests/waiting.py"):
            self._add(node, "sleep", "pause")
        elif parts[-1] == "wait_for_timeout":
            self._add(node, "sleep", "wait_for_timeout")
        elif parts in CLOCKS:
            self._add(node, "clock", ".".join(parts))
        elif parts[-1] == "time" and len(parts) >= 2 and "loop" in parts[-2]:
            self._add(node, "clock", "loop.time")
        elif parts == ("random", "Random") and (arg is None or (isinstance(arg, ast.Constant) and arg.value is None)):
            self._add(node, "chance", "random.Random()")
        elif parts == ("random", "SystemRandom"):
            self._add(node, "chance", "random.SystemRandom")
        elif parts == ("random", "seed") and arg is None:
            self._add(node, "chance", "random.seed()")
        elif len(parts) == 2 and parts[0] == "random" and parts[1] in RANDOM_FUNCTIONS:
            self._add(node, "chance", f"random.{parts[1]}")


def scan_source(source: str, path: str) -> list[Finding]:
    """What ``source`` (the text of ``path``) holds of sleeps, clocks and unseeded chance."""
    scanner = _Scanner(path)
    scanner.visit(ast.parse(source, filename=path))
    return sorted(scanner.found)


def scan(root: Path = TESTS) -> list[Finding]:
    """Every finding in the Python files under ``root`` (tests/), paths relative to the repository."""
    found: list[Finding] = []
    for file in sorted(root.rglob("*.py")):
        rel = file.relative_to(root.parent).as_posix()
        found.extend(scan_source(file.read_text(encoding="utf-8"), rel))
    return found


if __name__ == "__main__":
    for finding in scan():
        print(finding)
    sys.exit(0)
