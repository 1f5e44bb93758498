"""The catalogs against the code (used by ``tests/test_catalogs.py`` and runnable alone): every message of the
templates and of the Python code has its words in both languages' catalogs, with the same placeholders, once;
no catalog keeps a message nobody uses; no Python string in ``src/`` is Russian text written inline.

``python -m tests.catalogs`` prints what is missing or stale. ``python -m tests.catalogs sync-en`` writes the
English catalog entries the Russian ones lack (msgstr = msgid: the msgids are English), in the file of the same
name. :func:`write_entries` adds or replaces entries in both languages from Python::

    from tests.catalogs import Entry, write_entries
    write_entries("engine", [Entry("Player %(seat)s has left the table.", "Игрок %(seat)s уже покинул стол.")])
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from sportmafia.i18n import KEYWORDS, LANGS, LOCALE_DIR, catalog_files

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "sportmafia"
TEMPLATES = SRC / "web" / "templates"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")

Key = tuple[str | None, str]  # (context, msgid)


@dataclass(frozen=True)
class Entry:
    """A catalog entry: the English msgid, its Russian text, a context, a plural (with its three Russian forms)."""

    msgid: str
    ru: str | tuple[str, str, str]
    context: str | None = None
    plural: str | None = None


def _extracted(found: Iterable[tuple[str, int, str | tuple[str, ...], list[str], str | None]], where: Path
               ) -> dict[Key, list[str]]:
    out: dict[Key, list[str]] = {}
    for filename, lineno, message, _comments, context in found:
        msgid = message if isinstance(message, str) else message[0]
        if msgid:
            out.setdefault((context, msgid), []).append(f"{where.name}/{filename}:{lineno}")
    return out


def template_messages() -> dict[Key, list[str]]:
    return _extracted(extract_from_dir(str(TEMPLATES), method_map=[("**.html", "jinja2")]), TEMPLATES)


def python_messages() -> dict[Key, list[str]]:
    """Every message the Python code marks (``msg``, ``pmsg``, ``nmsg``, ``N_``, ...: ``i18n.KEYWORDS``)."""
    found = extract_from_dir(str(SRC), method_map=[("**.py", "python")], keywords=KEYWORDS)
    return _extracted(found, SRC)


def catalog_entries(lang: str) -> tuple[dict[Key, tuple[str, ...]], list[str]]:
    """The messages of ``lang``'s catalog files (their texts, one or several plural forms), and the problems of
    the files themselves (a message in two files)."""
    entries: dict[Key, tuple[str, ...]] = {}
    problems: list[str] = []
    for path in catalog_files(lang):
        with path.open("rb") as f:
            for m in read_po(f):
                if not m.id:
                    continue
                msgid = m.id if isinstance(m.id, str) else m.id[0]
                key = (m.context, msgid)
                if key in entries:
                    problems.append(f"{lang}: {key!r} is in two catalog files (the second: {path.name})")
                texts = (m.string,) if isinstance(m.string, str) else tuple(m.string)
                entries[key] = tuple(str(t) for t in texts)
    return entries, problems


def inline_texts(root: Path = SRC) -> list[str]:
    """Python string literals in ``src/`` with Russian text in them, docstrings left out: a text to show
    belongs in the catalogs."""
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                    and CYRILLIC.search(node.value)):
                found.append(f"{path.relative_to(root)}:{node.lineno}: {node.value[:60]!r}")
    return found


def problems() -> list[str]:
    """Everything wrong between the code and the catalogs, one line each."""
    wanted = {**template_messages(), **python_messages()}
    out: list[str] = []
    for lang in LANGS:
        entries, file_problems = catalog_entries(lang)
        out += file_problems
        for key, where in sorted(wanted.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
            texts = entries.get(key)
            if not texts or not all(texts):
                out.append(f"{lang}: missing {key!r} (used at {where[0]})")
                continue
            want = sorted(PLACEHOLDER.findall(key[1]))
            for text in texts:
                got = sorted(PLACEHOLDER.findall(text))
                if got != want and not (len(texts) > 1 and set(got) <= set(want)):
                    out.append(f"{lang}: {key!r} has placeholders {got}, its msgid {want}")
        out += [f"{lang}: stale {key!r} (no template or module uses it)" for key in entries if key not in wanted]
    out += [f"inline Russian text: {where}" for where in inline_texts()]
    return out


def _po(lang: str, name: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{name}.po"


def _read(lang: str, name: str) -> Catalog:
    path = _po(lang, name)
    if path.exists():
        with path.open("rb") as f:
            return read_po(f, locale=lang)
    return Catalog(locale=lang, project="sportmafia", version="0.1.0", copyright_holder="sportmafia",
                   fuzzy=False, last_translator="sportmafia", language_team=lang)


def _write(catalog: Catalog, lang: str, name: str) -> None:
    path = _po(lang, name)
    with path.open("wb") as f:
        write_po(f, catalog, width=120, omit_header=False, no_location=True)


def write_entries(name: str, entries: Iterable[Entry]) -> None:
    """Add (or replace) ``entries`` in ``locale/ru/…/name.po`` and ``locale/en/…/name.po``."""
    ru, en = _read("ru", name), _read("en", name)
    for e in entries:
        if e.plural is None:
            assert isinstance(e.ru, str), e
            ru.add(e.msgid, e.ru, context=e.context)
            en.add(e.msgid, e.msgid, context=e.context)
        else:
            assert isinstance(e.ru, tuple) and len(e.ru) == 3, e
            ru.add((e.msgid, e.plural), e.ru, context=e.context)
            en.add((e.msgid, e.plural), (e.msgid, e.plural), context=e.context)
    _write(ru, "ru", name)
    _write(en, "en", name)


def sync_en() -> list[str]:
    """Give every Russian entry an English twin in the file of the same name; returns what it added."""
    added: list[str] = []
    for ru_path in sorted((LOCALE_DIR / "ru" / "LC_MESSAGES").glob("*.po")):
        name = ru_path.stem
        ru, en = _read("ru", name), _read("en", name)
        for m in ru:
            if m.id and en.get(m.id, context=m.context) is None:
                en.add(m.id, m.id, context=m.context)
                added.append(f"{name}: {m.id!r}")
        _write(en, "en", name)
    return added


def main(argv: list[str]) -> int:
    if argv[:1] == ["sync-en"]:
        for line in sync_en():
            print("added", line)
        return 0
    found = problems()
    for line in found:
        print(line)
    print(f"{len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
