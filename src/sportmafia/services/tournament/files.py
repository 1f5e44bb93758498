"""Participants files: a pasted list (one nickname a line) and a CSV file with a header, each refused with
the line number and the reason."""

from __future__ import annotations

import csv
import functools

from ...i18n import LANGS, msg, pmsg
from ...store.tournaments import NewParticipant
from ..errors import invalid

NICKNAME_MAX = 64
HEADERS = {"nickname": (pmsg("participants file column", "nickname"), pmsg("participants file column", "nick")),
           "club": (pmsg("participants file column", "club"),), "team": (pmsg("participants file column", "team"),)}
"""Each column of a participants file and the names its header may give it (in any language)."""


@functools.cache
def columns() -> dict[str, str]:
    """A header name (casefolded, English or Russian) -> the column it names."""
    return {name.render(lang).casefold(): column for column, names in HEADERS.items() for name in names
            for lang in LANGS}


def parse_pasted(text: str) -> list[NewParticipant]:
    """A pasted list: one nickname a line (blank lines skipped). Duplicates and over-long names are refused
    with the line number."""
    out: list[NewParticipant] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        name = line.strip()
        if not name:
            continue
        _check_name(name, number, seen)
        out.append(NewParticipant(name))
    if not out:
        raise invalid("bad-participants", msg("The list has no names."))
    return out


def _check_name(name: str, number: int, seen: dict[str, int]) -> None:
    if len(name) > NICKNAME_MAX:
        raise invalid("bad-participants", msg("Line %(line)d: the nickname is longer than %(max)d characters.",
                                              line=number, max=NICKNAME_MAX), line=number)
    key = name.casefold()
    if key in seen:
        raise invalid("bad-participants", msg("Line %(line)d: %(name)s repeats line %(first)d.", line=number,
                                              name=repr(name), first=seen[key]), line=number)
    seen[key] = number


def parse_csv(data: bytes | str) -> list[NewParticipant]:
    """A participants file: CSV (comma or semicolon) with a header naming the columns ``nickname`` (required),
    ``club`` and ``team`` (English or Russian names). Refused, with the line number and the reason: an
    unknown or missing column, a line with more or fewer fields than the header, an empty nickname, a
    nickname that repeats an earlier line."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise invalid("bad-participants", msg("The file is not UTF-8 text."), line=1) from None
    else:
        text = data.removeprefix("\ufeff")
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise invalid("bad-participants", msg("The file is empty."), line=1)
    delimiter = ";" if lines[0].count(";") > lines[0].count(",") else ","
    rows = list(csv.reader(lines, delimiter=delimiter))
    header = [h.strip().casefold() for h in rows[0]]
    known = columns()
    unknown = [h for h in header if h not in known]
    named = [known.get(h, h) for h in header]
    if unknown or "nickname" not in named or len(set(named)) != len(named):
        raise invalid("bad-participants", msg("Line 1: the columns must be nickname and optionally club, team; got "
                                              "%(header)s.", header=", ".join(rows[0])), line=1)
    out: list[NewParticipant] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            raise invalid("bad-participants", msg("Line %(line)d: the line is empty.", line=number), line=number)
        if len(row) != len(named):
            raise invalid("bad-participants", msg("Line %(line)d: %(fields)d fields, the header has %(header)d.",
                                                  line=number, fields=len(row), header=len(named)), line=number)
        cells = {c: v.strip() for c, v in zip(named, row, strict=True)}
        name = cells["nickname"]
        if not name:
            raise invalid("bad-participants", msg("Line %(line)d: the nickname is empty.", line=number), line=number)
        _check_name(name, number, seen)
        out.append(NewParticipant(name, cells.get("club") or None, cells.get("team") or None))
    if not out:
        raise invalid("bad-participants", msg("The file has a header but no participants."), line=1)
    return out
