"""Participants files: a pasted list (one nickname a line) and a CSV file with a header, each refused with
the line number and the reason."""

from __future__ import annotations

import csv

from ...store.tournaments import NewParticipant
from ..errors import invalid

NICKNAME_MAX = 64
COLUMNS = {"nickname": "nickname", "nick": "nickname", "ник": "nickname", "никнейм": "nickname",
           "club": "club", "клуб": "club", "team": "team", "команда": "team"}
"""The header names a participants file may use (English or Russian)."""


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
        raise invalid("bad-participants", "The list has no names.", "В списке нет ни одного имени.")
    return out


def _check_name(name: str, number: int, seen: dict[str, int]) -> None:
    if len(name) > NICKNAME_MAX:
        raise invalid("bad-participants", f"Line {number}: the nickname is longer than {NICKNAME_MAX} characters.",
                      f"Строка {number}: ник длиннее {NICKNAME_MAX} символов.", line=number)
    key = name.casefold()
    if key in seen:
        raise invalid("bad-participants", f"Line {number}: {name!r} repeats line {seen[key]}.",
                      f"Строка {number}: {name!r} повторяет строку {seen[key]}.", line=number)
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
            raise invalid("bad-participants", "The file is not UTF-8 text.", "Файл не в кодировке UTF-8.",
                          line=1) from None
    else:
        text = data.removeprefix("\ufeff")
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise invalid("bad-participants", "The file is empty.", "Файл пуст.", line=1)
    delimiter = ";" if lines[0].count(";") > lines[0].count(",") else ","
    rows = list(csv.reader(lines, delimiter=delimiter))
    header = [h.strip().casefold() for h in rows[0]]
    unknown = [h for h in header if h not in COLUMNS]
    columns = [COLUMNS.get(h, h) for h in header]
    if unknown or "nickname" not in columns or len(set(columns)) != len(columns):
        raise invalid("bad-participants",
                      f"Line 1: the columns must be nickname and optionally club, team; got {', '.join(rows[0])}.",
                      f"Строка 1: нужны столбцы nickname (ник) и, по желанию, club (клуб), team (команда); "
                      f"указаны {', '.join(rows[0])}.", line=1)
    out: list[NewParticipant] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            raise invalid("bad-participants", f"Line {number}: the line is empty.", f"Строка {number}: пустая строка.",
                          line=number)
        if len(row) != len(columns):
            raise invalid("bad-participants",
                          f"Line {number}: {len(row)} fields, the header has {len(columns)}.",
                          f"Строка {number}: полей {len(row)}, а в заголовке {len(columns)}.", line=number)
        cells = {c: v.strip() for c, v in zip(columns, row, strict=True)}
        name = cells["nickname"]
        if not name:
            raise invalid("bad-participants", f"Line {number}: the nickname is empty.",
                          f"Строка {number}: ник не указан.", line=number)
        _check_name(name, number, seen)
        out.append(NewParticipant(name, cells.get("club") or None, cells.get("team") or None))
    if not out:
        raise invalid("bad-participants", "The file has a header but no participants.",
                      "В файле есть заголовок, но нет участников.", line=1)
    return out
