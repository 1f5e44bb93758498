"""The season pages' charts (docs/seasons-pages.md, "Charts"): a rating over time and rates with their intervals,
drawn server-side as SVG text and answered as SVG or PNG.

- The SVG uses presentation attributes only (``fill=``, ``stroke=``, ``font-size=``...): no ``<style>``, no
  ``style=""``, no script, no link, no id. So it can be written into a page under the site's
  Content-Security-Policy (``style-src 'self'``) as well as served as an image of its own.
- It is built with ``xml.etree``, which escapes every text and attribute; characters XML forbids are dropped
  first, so a player's name of ``<script>`` or ``"&'`` is only text.
- Each chart is ``role="img"`` with an ``aria-label``, a ``<title>`` and a ``<desc>`` that says its numbers; the
  page shows the same numbers in a table (:func:`bar_rows`, :func:`rating_rows` format them alike).
- Numbers, percents and dates in the viewer's language through Babel ("47,5 %" in Russian, "47.5%" in English).
- PNG through resvg (``resvg-py``: a self-contained wheel, no system library).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from datetime import date
from functools import lru_cache
from urllib.parse import quote
from xml.etree import ElementTree as ET

import resvg_py
from babel import Locale
from babel.dates import format_skeleton
from babel.numbers import format_decimal, format_percent
from starlette.responses import Response

from sportmafia.i18n import msg

Series = Sequence[tuple[str, Sequence[tuple[date, float]]]]
"""``rating_chart``'s data: (name, [(game date, value), ...]) per line."""
Bar = tuple[str, float | None, tuple[float, float] | None, int]
"""``rate_bars``' data: (label, rate in [0, 1] or None, (low, high) or None, games)."""

WIDTH = 420
"""Every chart's width in SVG units (its pixels at scale 1); the page's stylesheet scales it to the column."""
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif"
INK, MUTED, GRID, PAPER = "#222222", "#5f6368", "#d9d9d9", "#ffffff"
BAR_FILL, REFERENCE = "#4f74b3", "#8a8a8a"
SERIES_COLORS = ("#c62828", "#222222", "#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00")
"""The lines' colours in order: red rating first, black rating second."""
CHART_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"
"""The policy of a chart answered on its own: it needs nothing (no script, style, font or image from anywhere),
and when it is opened as a document (a new tab) it runs sandboxed."""
MAX_SCALE = 4.0
PAD = 12
_CHAR = 0.6
"""A glyph's width as a share of the font size (DejaVu Sans, the widest of the listed fonts): for fitting text."""
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


# ---------------------------------------------------------------- formatting (shared with the page's table)

@lru_cache(maxsize=16)
def _percent_pattern(locale: str) -> str:
    """The locale's own percent pattern with one decimal (``#,##0.0 %`` in Russian, ``#,##0.0%`` in English)."""
    pattern: str = Locale.parse(locale).percent_formats[None].pattern
    return re.sub(r"^(.*0)", r"\g<1>.0", pattern, count=1)


def format_rate(value: float | None, locale: str, *, decimals: bool = True) -> str:
    """``0.475`` as "47,5 %" (ru) or "47.5%" (en); None as a dash."""
    if value is None:
        return "—"
    return format_percent(value, format=_percent_pattern(locale) if decimals else None, locale=locale)


def format_interval(interval: tuple[float, float] | None, locale: str) -> str:
    """``(0.4, 0.55)`` as "40,0 % – 55,0 %"; None as an empty string."""
    if interval is None:
        return ""
    low, high = _interval(interval)
    return f"{format_rate(low, locale)} – {format_rate(high, locale)}"


def format_number(value: float, locale: str) -> str:
    """A rating: "1 503,5" (ru), "1,503.5" (en)."""
    return format_decimal(value, format="#,##0.#", locale=locale)


def format_day(day: date, locale: str, *, year: bool = False) -> str:
    """A game's date, short: "1 сент." / "Sep 1" (with the year when ``year``)."""
    return format_skeleton("yMMMd" if year else "MMMd", day, locale=locale)


def bar_rows(bars: Sequence[Bar], locale: str) -> list[tuple[str, str, str, str]]:
    """The page's table beside :func:`rate_bars`: (label, rate, interval, games) as shown in the chart."""
    return [(_text(label), format_rate(_rate(rate), locale), format_interval(interval, locale),
             format_decimal(max(n, 0), locale=locale)) for label, rate, interval, n in bars]


def rating_rows(series: Series, locale: str) -> list[tuple[str, str, str]]:
    """The page's table beside :func:`rating_chart`: (series, date, value) per point, dates in order."""
    return [(_text(name), format_day(day, locale, year=True), format_number(value, locale))
            for name, points in series for day, value in _points(points)]


# ---------------------------------------------------------------- the charts

def rating_chart(series: Series, *, title: str, y_label: str, locale: str, desc: str | None = None,
                 colors: Sequence[str] = SERIES_COLORS, empty: str | None = None) -> str:
    """Lines of a rating over time (x: the game's date, y: the value), one per series, each point a dot.

    ``title``, ``y_label`` and the series' names come translated; ``desc`` (the text for screen readers) is
    made from the data when not given; ``empty`` replaces "No games yet." when no series has a point."""
    lines = [(_text(name), _points(points)) for name, points in series]
    lines = [(name, points) for name, points in lines if points]
    if not lines:
        return _empty_chart(title, locale, empty)
    days = sorted({day for _, points in lines for day, _ in points})
    values = [value for _, points in lines for _, value in points]
    if desc is None:
        desc = "; ".join(f"{name}: " + ", ".join(
            f"{format_day(d, locale, year=True)} {format_number(v, locale)}" for d, v in _ends(points))
            for name, points in lines)
    y_ticks = _nice_ticks(min(values), max(values))
    y_texts = [format_number(t, locale) for t in y_ticks]
    height = 300
    svg = _root(height, title, desc)
    legend_bottom = _legend(svg, [name for name, _ in lines], colors, top=46)
    left = 34 + _width(max(y_texts, key=len), 12)
    top, right, bottom = legend_bottom + 14, WIDTH - 18, height - 34
    y_lo, y_hi = y_ticks[0], y_ticks[-1]

    def y_at(value: float) -> float:
        return bottom - (value - y_lo) / (y_hi - y_lo) * (bottom - top)

    grid = _el(svg, "g", class_="y-axis", font_size=12, fill=MUTED, text_anchor="end")
    for tick, text in zip(y_ticks, y_texts, strict=True):
        _el(grid, "line", x1=left, x2=right, y1=y_at(tick), y2=y_at(tick), stroke=GRID)
        _el(grid, "text", text, x=left - 6, y=y_at(tick) + 4)
    _el(svg, "text", _fit(_text(y_label), bottom - top, 12), font_size=12, fill=MUTED, text_anchor="middle",
        transform=f"translate(14 {_n((top + bottom) / 2)}) rotate(-90)")
    first, last = days[0].toordinal(), days[-1].toordinal()
    span = last - first

    def x_at(day: date) -> float:
        if span == 0:
            return (left + right) / 2
        return left + (day.toordinal() - first) / span * (right - left)

    _date_axis(svg, days, x_at, left, right, bottom, locale)
    for index, (name, points) in enumerate(lines):
        color = colors[index % len(colors)]
        group = _el(svg, "g", class_="series", data_name=name)
        if len(points) > 1:
            _el(group, "polyline", fill="none", stroke=color, stroke_width=2, stroke_linejoin="round",
                points=" ".join(f"{_n(x_at(d))},{_n(y_at(v))}" for d, v in points))
        for day, value in points:
            dot = _el(group, "circle", cx=x_at(day), cy=y_at(value), r=3, fill=color, stroke=PAPER, stroke_width=1)
            _el(dot, "title", f"{name}: {format_day(day, locale, year=True)}, {format_number(value, locale)}")
    return _serialize(svg)


def rate_bars(bars: Sequence[Bar], *, title: str, reference: float | None, locale: str, desc: str | None = None,
              reference_label: str | None = None, empty: str | None = None) -> str:
    """Horizontal bars of rates in [0, 1], one row per ``(label, rate, (low, high), n)``: the label with "n = …"
    under it, the bar, the interval's whiskers (clipped to [0, 1]) and the rate written at the row's end;
    ``reference`` (50 %, or the overall rate) a dashed line across the rows, written above them
    (``reference_label`` before the number when given). A rate of None is a row without bar ("—")."""
    if not bars:
        return _empty_chart(title, locale, empty)
    rows = [(_text(label), _rate(rate), None if interval is None else _interval(interval), max(int(n), 0))
            for label, rate, interval, n in bars]
    if desc is None:
        desc = "; ".join(f"{label}: {format_rate(rate, locale)}"
                         + (f" ({format_interval(interval, locale)})" if interval else "")
                         + f", n = {format_decimal(n, locale=locale)}" for label, rate, interval, n in rows)
    row_h, label_w, value_w = 46, 128, 60
    x0, x1 = PAD + label_w + 8, WIDTH - PAD - value_w
    reference = _rate(reference)
    top = 44 + (18 if reference is not None else 0)
    height = top + row_h * len(rows) + 34
    svg = _root(height, title, desc)

    def x_at(rate: float) -> float:
        return x0 + rate * (x1 - x0)

    axis = _el(svg, "g", class_="x-axis", font_size=12, fill=MUTED, text_anchor="middle")
    bottom = top + row_h * len(rows)
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        _el(axis, "line", x1=x_at(tick), x2=x_at(tick), y1=top - 4, y2=bottom + 4, stroke=GRID)
        _el(axis, "text", format_rate(tick, locale, decimals=False), x=x_at(tick), y=bottom + 20)
    for index, (label, rate, interval, n) in enumerate(rows):
        mid = top + row_h * index + row_h / 2
        row = _el(svg, "g", class_="bar", data_label=label)
        tip = f"{label}: {format_rate(rate, locale)}" + (f" ({format_interval(interval, locale)})" if interval else "")
        _el(row, "title", f"{tip}, n = {format_decimal(n, locale=locale)}")
        _el(row, "text", _fit(label, label_w, 14), x=PAD, y=mid - 3, font_size=14, fill=INK)
        _el(row, "text", f"n = {format_decimal(n, locale=locale)}", class_="n", x=PAD, y=mid + 13, font_size=12,
            fill=MUTED)
        if rate is not None:
            _el(row, "rect", x=x0, y=mid - 9, width=x_at(rate) - x0, height=18, fill=BAR_FILL,
                data_rate=_n(rate, 4))
        if interval is not None:
            low, high = x_at(interval[0]), x_at(interval[1])
            whisker = _el(row, "g", class_="whisker", stroke=INK, stroke_width=1.5)
            _el(whisker, "line", x1=low, x2=high, y1=mid, y2=mid)
            for x in (low, high):
                _el(whisker, "line", x1=x, x2=x, y1=mid - 7, y2=mid + 7)
        _el(row, "text", format_rate(rate, locale), class_="value", x=WIDTH - PAD, y=mid + 5, font_size=13,
            fill=INK, text_anchor="end", font_weight="bold")
    if reference is not None:
        line = _el(svg, "g", class_="reference")
        x = x_at(reference)
        _el(line, "line", x1=x, x2=x, y1=top - 6, y2=bottom + 4, stroke=REFERENCE, stroke_width=1.5,
            stroke_dasharray="5 4")
        text = format_rate(reference, locale)
        text = f"{_text(reference_label)} {text}" if reference_label else text
        anchor = "start" if reference < 0.2 else "end" if reference > 0.8 else "middle"
        _el(line, "text", _fit(text, WIDTH - 2 * PAD, 12), x=x, y=top - 10, font_size=12, fill=MUTED,
            text_anchor=anchor)
    return _serialize(svg)


# ---------------------------------------------------------------- the answers

def svg_response(svg: str, *, filename: str | None = None, max_age: int = 300) -> Response:
    """A chart answered on its own, for ``<img src>`` (inline) or as a download (``filename``): its own strict
    policy (:data:`CHART_CSP`), cached by the viewer's browser only (``private``: a club's pages may be closed)."""
    return Response(svg.encode(), media_type="image/svg+xml; charset=utf-8",
                    headers=_headers(filename, ".svg", max_age))


def png_response(svg: str, *, filename: str | None = None, scale: float = 2.0, max_age: int = 300) -> Response:
    """The chart as a PNG (:func:`to_png`), inline or as a download, with :func:`svg_response`'s headers."""
    return Response(to_png(svg, scale), media_type="image/png", headers=_headers(filename, ".png", max_age))


def to_png(svg: str, scale: float = 2.0) -> bytes:
    """The SVG drawn by resvg at ``scale`` times its size (a 420-wide chart is 840 px wide at 2), on white.
    A scale outside (0, 4] is refused (ValueError): it may come from a query string."""
    if not (0 < scale <= MAX_SCALE) or math.isnan(scale):
        raise ValueError(f"scale must be in (0, {MAX_SCALE}], not {scale}")
    png: bytes = resvg_py.svg_to_bytes(svg_string=svg, zoom=scale, background=PAPER)
    return png


def _headers(filename: str | None, suffix: str, max_age: int) -> dict[str, str]:
    headers = {"Content-Security-Policy": CHART_CSP, "X-Content-Type-Options": "nosniff",
               "Cache-Control": f"private, max-age={max(int(max_age), 0)}"}
    if filename is None:
        headers["Content-Disposition"] = "inline"
        return headers
    name = _text(filename).replace("/", "_").replace("\\", "_").strip() or "chart"
    if not name.lower().endswith(suffix):
        name += suffix
    ascii_name = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_.") or "chart"
    if not ascii_name.lower().endswith(suffix):
        ascii_name += suffix
    headers["Content-Disposition"] = f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name, safe='')}"
    return headers


# ---------------------------------------------------------------- drawing

def _root(height: int, title: str, desc: str) -> ET.Element:
    title = _text(title)
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {WIDTH} {height}",
                             "width": str(WIDTH), "height": str(height), "role": "img", "aria-label": title,
                             "font-family": FONT, "class": "chart"})
    _el(svg, "title", title)
    _el(svg, "desc", _text(desc))
    _el(svg, "rect", width=WIDTH, height=height, fill=PAPER)
    _el(svg, "text", _fit(title, WIDTH - 2 * PAD, 16), class_="chart-title", x=PAD, y=26, font_size=16,
        font_weight="bold", fill=INK)
    return svg


def _empty_chart(title: str, locale: str, empty: str | None) -> str:
    text = _text(empty) if empty else msg("No games yet.").render(locale)
    svg = _root(140, title, text)
    _el(svg, "rect", x=PAD, y=42, width=WIDTH - 2 * PAD, height=84, fill="none", stroke=GRID,
        stroke_dasharray="4 4", rx=6)
    _el(svg, "text", _fit(text, WIDTH - 4 * PAD, 14), class_="empty", x=WIDTH / 2, y=89, font_size=14, fill=MUTED,
        text_anchor="middle")
    return _serialize(svg)


def _legend(svg: ET.Element, names: list[str], colors: Sequence[str], *, top: float) -> float:
    """The series' names with their colours, wrapped onto rows; returns the legend's bottom."""
    group = _el(svg, "g", class_="legend", font_size=13, fill=INK)
    x, y = float(PAD), top
    for index, name in enumerate(names):
        text = _fit(name, WIDTH - 2 * PAD - 24, 13)
        width = 24 + _width(text, 13) + 14
        if x > PAD and x + width > WIDTH - PAD:
            x, y = float(PAD), y + 18
        _el(group, "line", x1=x, x2=x + 18, y1=y - 4, y2=y - 4, stroke=colors[index % len(colors)], stroke_width=3)
        _el(group, "text", text, x=x + 24, y=y)
        x += width
    return y + 4


def _date_axis(svg: ET.Element, days: list[date], x_at: Callable[[date], float], left: float, right: float,
               bottom: float, locale: str) -> None:
    """Up to six dates under the plot, evenly spread from the first game to the last, none overlapping."""
    first, last = days[0], days[-1]
    year = first.year != last.year
    widest = max(_width(format_day(d, locale, year=year), 12) for d in (first, last))
    count = max(1, min(6, int((right - left) // (widest + 14)) + 1, (last - first).days + 1))
    span = (last - first).days
    ticks = sorted({date.fromordinal(first.toordinal() + round(i * span / max(count - 1, 1))) for i in range(count)})
    axis = _el(svg, "g", class_="x-axis", font_size=12, fill=MUTED, text_anchor="middle")
    _el(axis, "line", x1=left, x2=right, y1=bottom, y2=bottom, stroke=MUTED)
    for day in ticks:
        x = x_at(day)
        text = format_day(day, locale, year=year)
        half = _width(text, 12) / 2
        _el(axis, "line", x1=x, x2=x, y1=bottom, y2=bottom + 4, stroke=MUTED)
        _el(axis, "text", text, x=min(max(x, half + 2), WIDTH - half - 2), y=bottom + 18)


def _nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round ticks (steps of 1, 2, 2.5 or 5 times a power of ten) that cover [low, high]."""
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    raw = (high - low) / (count - 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw * (1 - 1e-9))
    start, stop = math.floor(low / step + 1e-9) * step, math.ceil(high / step - 1e-9) * step
    return [round(start + i * step, 10) for i in range(round((stop - start) / step) + 1)]


def _el(parent: ET.Element, tag: str, text: str | None = None, **attrs: object) -> ET.Element:
    """A child element; ``font_size=12`` is written ``font-size="12"``, ``class_`` ``class``, numbers rounded."""
    element = ET.SubElement(parent, tag, {key.rstrip("_").replace("_", "-"): _n(value) if isinstance(value, float)
                                          else str(value) for key, value in attrs.items()})
    if text is not None:
        element.text = text
    return element


def _serialize(svg: ET.Element) -> str:
    return ET.tostring(svg, encoding="unicode", short_empty_elements=True)


# ---------------------------------------------------------------- hostile data

def _clean(text: str) -> str:
    """What XML 1.0 allows (control characters and lone surrogates dropped)."""
    return _NOT_XML.sub("", str(text))


def _text(text: str | None) -> str:
    """A label on one line: XML-safe, whitespace runs as one space."""
    return " ".join(_clean(text or "").split())


def _fit(text: str, width: float, size: float) -> str:
    """``text`` cut with "…" to fit ``width`` units at ``size`` (the full text stays in the row's title)."""
    if _width(text, size) <= width:
        return text
    keep = max(int(width / (size * _CHAR)) - 1, 1)
    return text[:keep].rstrip() + "…"


def _width(text: str, size: float) -> float:
    return len(text) * size * _CHAR


def _rate(value: float | None) -> float | None:
    """A rate clipped to [0, 1]; None (or NaN) stays unknown."""
    if value is None or math.isnan(value):
        return None
    return min(max(float(value), 0.0), 1.0)


def _interval(interval: tuple[float, float]) -> tuple[float, float]:
    """An interval clipped to [0, 1], its ends in order (a NaN end is the other end)."""
    low, high = (_rate(v) for v in interval)
    low = high if low is None else low
    high = low if high is None else high
    if low is None or high is None:
        return 0.0, 0.0
    return min(low, high), max(low, high)


def _points(points: Sequence[tuple[date, float]]) -> list[tuple[date, float]]:
    """The finite points, by date (a stable sort: games of one day keep their order)."""
    return sorted(((d, float(v)) for d, v in points if math.isfinite(v)), key=lambda p: p[0])


def _ends(points: list[tuple[date, float]]) -> list[tuple[date, float]]:
    return points if len(points) < 3 else [points[0], points[-1]]


def _n(value: object, digits: int = 2) -> str:
    """A coordinate: at most ``digits`` decimals, no trailing zeros."""
    if isinstance(value, float):
        text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
        return "0" if text in ("", "-0") else text
    return str(value)
