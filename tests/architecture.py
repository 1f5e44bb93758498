"""The house's shape, measured from the code (used by ``tests/test_architecture.py`` and runnable alone:
``python -m tests.architecture``): imports against the layers, import cycles, long modules, blocks of lines
written twice, private names imported from another module, clause ids cited by tests but absent from the code
that decides them.

The layers, lowest first; a module may import its own package and any lower one::

    errors, i18n  <  rules  <  engine  <  tournament, seasons, exchange  <  bots  <  lab  <  store  <  services  <  live  <  web  <  cli
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "sportmafia"
LAYERS = ("errors i18n __init__", "rules", "engine", "tournament seasons exchange", "bots", "lab", "store", "services",
          "live", "web", "cli __main__")
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names.split()}
MAX_LINES = 600
REASON = "Over 600 lines because"  # a module that must stay long says why in its first lines
BLOCK = 6
CLAUSE = re.compile(r'clause\("([A-Z]\.[a-z0-9.-]*[a-z0-9])"\)')


def sources(*suffixes: str, root: Path = SRC) -> list[Path]:
    """The project's own source files under ``root`` (not migrations, not vendored or minified files)."""
    return sorted(p for p in root.rglob("*") if p.suffix in suffixes and "migrations" not in p.parts
                  and "vendor" not in p.parts and not p.name.endswith(".min.js") and "__pycache__" not in p.parts)


def module_name(path: Path, root: Path = SRC) -> str:
    parts = ["sportmafia", *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


@dataclass(frozen=True)
class Import:
    source: str  # the importing module, e.g. sportmafia.web.games
    target: str  # the imported module or name, e.g. sportmafia.engine.game
    line: int
    top: bool  # at module level (runs at import), not inside a function or under TYPE_CHECKING


def imports(path: Path, root: Path = SRC) -> Iterator[Import]:
    """Every import of a ``sportmafia`` module in ``path``, relative ones resolved."""
    me = module_name(path, root)
    package = me.split(".") if path.name == "__init__.py" else me.split(".")[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def walk(nodes: Iterable[ast.AST], top: bool) -> Iterator[Import]:
        for node in nodes:
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[:len(package) - node.level + 1]
                    names = ([".".join([*base, node.module])] if node.module else
                             [".".join([*base, a.name]) for a in node.names])
                else:
                    names = [node.module or ""]
                    if node.module and node.module.startswith("sportmafia"):
                        names += [f"{node.module}.{a.name}" for a in node.names]
                for name in names:
                    if name.startswith("sportmafia"):
                        yield Import(me, name, node.lineno, top)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith("sportmafia"):
                        yield Import(me, a.name, node.lineno, top)
            elif isinstance(node, ast.If) and _type_checking(node):
                yield from walk(node.body, False)
                yield from walk(node.orelse, top)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                yield from walk(ast.iter_child_nodes(node), False)
            else:
                yield from walk(ast.iter_child_nodes(node), top)

    yield from walk(tree.body, True)


def layer_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def layer_violations(root: Path = SRC) -> list[str]:
    """Imports that run against the layers: ``file:line layer -> higher layer``."""
    found = []
    for path in sources(".py", root=root):
        for imp in imports(path, root):
            mine, theirs = layer_of(imp.source), layer_of(imp.target)
            if mine != theirs and RANK.get(theirs, -1) > RANK.get(mine, len(LAYERS)):
                found.append(f"{path.relative_to(root)}:{imp.line} {mine} -> {theirs}")
    return found


def import_cycles(root: Path = SRC) -> list[list[str]]:
    """Cycles among the modules' import-time imports (strongly connected components of two or more)."""
    modules = {module_name(p, root) for p in sources(".py", root=root)}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for path in sources(".py", root=root):
        for imp in imports(path, root):
            target = imp.target
            while target not in modules and "." in target:
                target = target.rsplit(".", 1)[0]
            # a package's __init__ that re-exports its submodules is not a cycle with them
            if imp.top and target in modules and target != imp.source and not imp.source.startswith(target + "."):
                graph[imp.source].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    cycles: list[list[str]] = []

    def connect(v: str) -> None:  # Tarjan, iterative enough for a few hundred modules
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                cycles.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return cycles


def long_modules(root: Path = SRC) -> list[tuple[str, int]]:
    """Python and JavaScript modules over 600 lines that do not say why in their first ten lines."""
    found = []
    for path in sources(".py", ".js", root=root):
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) > MAX_LINES and not any(REASON in line for line in lines[:10]):
            found.append((str(path.relative_to(root)), len(lines)))
    return sorted(found, key=lambda item: (-item[1], item[0]))


_SKIP = re.compile(r"^(#|//|/\*|\*|\{#|from \S+ import|import |[\]\[(){};,:]+$|\"\"\"$|'''$|-->|<!--)")


def _import_lines(text: str) -> set[int]:
    """The lines of a Python module's import statements (a long ``from x import (...)`` spans several)."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def _significant(path: Path) -> list[tuple[int, str]]:
    out = []
    source = path.read_text(encoding="utf-8")
    imported = _import_lines(source) if path.suffix == ".py" else set()
    for number, line in enumerate(source.splitlines(), 1):
        text = " ".join(line.split())
        if text and number not in imported and not _SKIP.match(text):
            out.append((number, text))
    return out


def repeated_blocks(root: Path = SRC, size: int = BLOCK) -> list[str]:
    """Blocks of ``size`` or more significant lines (blank lines, comments, imports and lone brackets left
    out, white space folded) that stand in two places of the source: ``a:10-15 = b:40-45``."""
    seen: dict[str, tuple[str, int, int]] = {}
    found: dict[tuple[str, str], str] = {}
    for path in sources(".py", ".js", ".html", root=root):
        rel = str(path.relative_to(root))
        lines = _significant(path)
        last_end: dict[str, int] = {}
        for i in range(len(lines) - size + 1):
            window = lines[i:i + size]
            if len({t for _, t in window}) < 3:
                continue  # a run of alike lines (a table, repeated ``pass``), not a copy of logic
            key = hashlib.blake2b("\n".join(t for _, t in window).encode(), digest_size=12).hexdigest()
            first, end = window[0][0], window[-1][0]
            if key in seen:
                other, o_first, o_end = seen[key]
                if other == rel and o_end >= first:
                    continue  # overlapping with itself: a run of alike lines, not a copy
                pair = (other, rel)
                if pair not in found or last_end.get(other, 0) < first:
                    found.setdefault(pair, f"{other}:{o_first}-{o_end} = {rel}:{first}-{end}")
                last_end[other] = end
            else:
                seen[key] = (rel, first, end)
    return sorted(found.values())


def private_imports(root: Path = SRC) -> list[str]:
    """Names with a leading underscore imported from another module of the package (``from .games import _own``):
    what another module needs is public, else it stays in its module. ``import x as _x`` is a local alias, not a
    reach-in."""
    found = []
    for path in sources(".py", root=root):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("sportmafia")):
                found += [f"{path.relative_to(root)}:{node.lineno}: {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    return found


def clauses_cited_by_tests(tests: Path = ROOT / "tests") -> set[str]:
    return {c for p in tests.rglob("test_*.py") for c in CLAUSE.findall(p.read_text(encoding="utf-8"))}


def clauses_absent_from_src(root: Path = SRC) -> list[str]:
    """Clause ids a test cites (``clause("A.x")``) that appear nowhere in the Python source."""
    code = "\n".join(p.read_text(encoding="utf-8") for p in root.rglob("*.py"))
    return sorted(c for c in clauses_cited_by_tests() if not re.search(rf"(?<![\w.-]){re.escape(c)}(?![\w-])", code))


if __name__ == "__main__":  # pragma: no cover - a report for the developer
    for title, items in (("layer violations", layer_violations()), ("import cycles", import_cycles()),
                         ("modules over 600 lines", long_modules()), ("repeated blocks", repeated_blocks()),
                         ("private names imported", private_imports()),
                         ("clauses absent from src", clauses_absent_from_src())):
        print(f"{title}: {len(items)}")
        for item in items:
            print("  ", item)
