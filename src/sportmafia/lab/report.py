"""A lab run's report: one self-contained HTML page in Russian or English (``report.html``) with charts drawn as
inline SVG (red's win rate by variant with its 95% interval; the games' length in days), how the games ended,
the differences from the first variant with their tests; the charts also as SVG and PNG files.
Its words are catalog messages (``locale/*/LC_MESSAGES/lab.po``)."""

from __future__ import annotations

import math
from html import escape
from pathlib import Path
from typing import Any

from ..engine.describe import RESULT_NAMES, t
from ..i18n import msg

COLOURS = ("#b3261e", "#1f4e9c", "#2e7d32", "#8e5b00", "#6a1b9a", "#00838f")
INK, GRID, FONT = "#222", "#ccc", "font-family:system-ui,sans-serif;font-size:12px"

TITLE = msg("The rules lab")
CHART_RATE = msg("Red's win rate by variant, with its 95% interval")
CHART_EFFECT = msg("The effect of each variant: the difference in red's win rate from the first, with its 95% "
                   "interval")
CHART_DAYS = msg("Game length in days (share of games)")
ENDS = msg("How the games ended (share of games)")
DIFFERENCES = msg("Each variant against the first")
LIMITS = msg("Bots are not people: these figures say what the rules do to the agents' play, not to a club's.")
HEADERS = (msg("Variant"), msg("Games"), msg("Red wins"), msg("95% interval"), msg("Mean days"),
           msg("Mean events"))
TEST_HEADERS = (msg("Variant"), msg("Difference in red's win rate"), msg("95% interval"), msg("p, two-proportion z-test"),
                msg("p, paired (McNemar)"))


def _x(v: float, left: float, width: float) -> float:
    return left + v * width


def rate_chart(variants: list[dict[str, Any]]) -> str:
    """Horizontal bars of red's win rate, a whisker for the interval, a grid at every quarter."""
    left, width, row = 270.0, 360.0, 28
    height = 30 + row * len(variants)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="680" height="{height}" viewBox="0 0 680 {height}" '
             f'style="{FONT}">']
    for q in (0, 0.25, 0.5, 0.75, 1):
        x = _x(q, left, width)
        parts.append(f'<line x1="{x:.1f}" y1="4" x2="{x:.1f}" y2="{height - 18}" stroke="{GRID}"/>'
                     f'<text x="{x:.1f}" y="{height - 4}" text-anchor="middle" fill="{INK}">{q:g}</text>')
    for i, v in enumerate(variants):
        y = 8 + i * row
        rate = v["red_rate"] or 0.0
        lo, hi = v["ci95"]
        colour = COLOURS[i % len(COLOURS)]
        parts.append(f'<text x="{left - 6}" y="{y + 14}" text-anchor="end" fill="{INK}">{escape(_short(v["variant"]))}'
                     f'</text><rect x="{left}" y="{y + 3}" width="{rate * width:.1f}" height="16" fill="{colour}" '
                     f'opacity="0.75"/><line x1="{_x(lo, left, width):.1f}" y1="{y + 11}" x2="{_x(hi, left, width):.1f}" '
                     f'y2="{y + 11}" stroke="{INK}" stroke-width="2"/><line x1="{_x(lo, left, width):.1f}" y1="{y + 5}" '
                     f'x2="{_x(lo, left, width):.1f}" y2="{y + 17}" stroke="{INK}"/><line x1="{_x(hi, left, width):.1f}" '
                     f'y1="{y + 5}" x2="{_x(hi, left, width):.1f}" y2="{y + 17}" stroke="{INK}"/>'
                     f'<text x="{_x(hi, left, width) + 4:.1f}" y="{y + 15}" fill="{INK}">{rate:.3f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def effect_chart(comparisons: list[dict[str, Any]]) -> str:
    """The difference of each variant from the first: a dot at it, a whisker for its interval, a line at 0."""
    left, width, row = 270.0, 360.0, 28
    height = 30 + row * len(comparisons)
    reach = max([abs(float(v)) for c in comparisons for v in c["ci95"]] + [0.01])
    reach = math.ceil(reach * 50) / 50.0  # to the next 0.02

    def x(v: float) -> float:
        return left + (v + reach) / (2 * reach) * width

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="680" height="{height}" viewBox="0 0 680 {height}" '
             f'style="{FONT}">']
    for q in (-reach, -reach / 2, 0.0, reach / 2, reach):
        colour = INK if q == 0 else GRID
        parts.append(f'<line x1="{x(q):.1f}" y1="4" x2="{x(q):.1f}" y2="{height - 18}" stroke="{colour}"/>'
                     f'<text x="{x(q):.1f}" y="{height - 4}" text-anchor="middle" fill="{INK}">{q:+.2f}</text>')
    for i, c in enumerate(comparisons):
        y = 8 + i * row + 11
        lo, hi = c["ci95"]
        d = c["difference"] or 0.0
        colour = COLOURS[(i + 1) % len(COLOURS)]
        parts.append(f'<text x="{left - 6}" y="{y + 3}" text-anchor="end" fill="{INK}">{escape(_short(c["b"]))}</text>'
                     f'<line x1="{x(lo):.1f}" y1="{y}" x2="{x(hi):.1f}" y2="{y}" stroke="{colour}" stroke-width="3"/>'
                     f'<circle cx="{x(d):.1f}" cy="{y}" r="5" fill="{colour}"/>'
                     f'<text x="{x(hi) + 6:.1f}" y="{y + 4}" fill="{INK}">{d:+.3f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def days_chart(variants: list[dict[str, Any]]) -> str:
    """Bars of the share of games that lasted each number of days, side by side by variant, and a legend."""
    days = sorted({int(d) for v in variants for d in v["days"]["hist"]}) or [0]
    span = list(range(days[0], days[-1] + 1))
    left, top, plot_h, plot_w = 40.0, 10.0, 160.0, 540.0
    slot = plot_w / len(span)
    bar = max(1.0, (slot - 4) / max(1, len(variants)))
    peak = max((c / v["games"] for v in variants if v["games"] for c in v["days"]["hist"].values()), default=1.0)
    legend_h = 16 * len(variants)
    height = int(top + plot_h + 24 + legend_h)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="600" height="{height}" viewBox="0 0 600 {height}" '
             f'style="{FONT}">']
    for q in (0.0, 0.5, 1.0):
        y = top + plot_h - q * plot_h
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="{GRID}"/>'
                     f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" fill="{INK}">{q * peak:.2f}</text>')
    for j, d in enumerate(span):
        x0 = left + j * slot + 2
        parts.append(f'<text x="{x0 + (slot - 4) / 2:.1f}" y="{top + plot_h + 14}" text-anchor="middle" '
                     f'fill="{INK}">{d}</text>')
        for i, v in enumerate(variants):
            share = v["days"]["hist"].get(str(d), 0) / v["games"] if v["games"] else 0.0
            h = share / peak * plot_h if peak else 0.0
            parts.append(f'<rect x="{x0 + i * bar:.1f}" y="{top + plot_h - h:.1f}" width="{bar:.1f}" height="{h:.1f}" '
                         f'fill="{COLOURS[i % len(COLOURS)]}" opacity="0.75"/>')
    for i, v in enumerate(variants):
        y = top + plot_h + 24 + i * 16
        parts.append(f'<rect x="{left}" y="{y:.1f}" width="10" height="10" fill="{COLOURS[i % len(COLOURS)]}"/>'
                     f'<text x="{left + 16}" y="{y + 9:.1f}" fill="{INK}">{escape(v["variant"])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _short(label: str, most: int = 42) -> str:
    return label if len(label) <= most else "…" + label[-(most - 1):]


def _table(headers: tuple[Any, ...], rows: list[list[str]], lang: str) -> str:
    head = "".join(f"<th>{escape(h.render(lang))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def render_report(summary: dict[str, Any], lang: str) -> str:
    """The report page in ``lang`` ("ru" or "en")."""
    variants = summary["variants"]
    plan = summary["plan"]
    about = msg("%(games)s games per variant (%(rounds)s rounds of batches), agent %(agent)s, %(players)s players, "
                "seed %(seed)s.", games=variants[0]["games"] if variants else 0, rounds=summary["rounds"],
                agent=plan["agent"], players=plan["players"], seed=plan["seed"]).render(lang)
    stop = summary.get("early_stop") or {}
    if stop.get("stopped"):
        alpha = format(stop["alpha_per_look"], ".4g")
        about += " " + msg("Stopped early: the difference was significant at a look (p under %(alpha)s, "
                           "Bonferroni over %(looks)s looks).", alpha=alpha,
                           looks=stop["looks_planned"]).render(lang)
    main = [[v["variant"], str(v["games"]), f"{v['red_rate']:.3f}" if v["red_rate"] is not None else "–",
             f"{v['ci95'][0]:.3f} – {v['ci95'][1]:.3f}", str(v["days"]["mean"]), str(v["events"]["mean"])]
            for v in variants]
    kinds = sorted({k for v in variants for k in v["results"]})
    ends = [[v["variant"], *(f"{v['results'].get(k, 0):.3f}" for k in kinds)] for v in variants]
    end_headers = (msg("Variant"), *(_Plain(t(RESULT_NAMES, k, lang)) for k in kinds))
    tests = [[c["b"], f"{c['difference']:+.4f}" if c["difference"] is not None else "–",
              f"{c['ci95'][0]:+.4f} – {c['ci95'][1]:+.4f}", f"{c['p_z']:.4g}",
              f"{c['p_paired']:.4g}" if "p_paired" in c else "–"] for c in summary["comparisons"]]
    title = TITLE.render(lang)
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            "<style>body{font-family:system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#222}"
            "table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.25em .6em;"
            "text-align:left}th{background:#f4f4f4}</style></head><body>"
            f"<h1>{escape(title)}</h1><p>{escape(about)}</p>"
            f"{_table(HEADERS, main, lang)}"
            f"<h2>{escape(CHART_RATE.render(lang))}</h2>{rate_chart(variants)}"
            + (f"<h2>{escape(CHART_EFFECT.render(lang))}</h2>{effect_chart(summary['comparisons'])}"
               if summary["comparisons"] else "")
            + f"<h2>{escape(CHART_DAYS.render(lang))}</h2>{days_chart(variants)}"
            f"<h2>{escape(ENDS.render(lang))}</h2>{_table(end_headers, ends, lang)}"
            + (f"<h2>{escape(DIFFERENCES.render(lang))}</h2>{_table(TEST_HEADERS, tests, lang)}" if tests else "")
            + f"<p><em>{escape(LIMITS.render(lang))}</em></p></body></html>\n")


class _Plain:
    """A header already in its language."""

    def __init__(self, text: str) -> None:
        self.text = text

    def render(self, lang: str) -> str:
        return self.text


def write_report(summary: dict[str, Any], out: Path, lang: str = "en") -> Path:
    """``report.html`` in ``lang``, and the charts as ``winrate.svg``/``.png`` and ``days.svg``/``.png``, in
    ``out`` (PNG drawn by resvg at twice the size, on white)."""
    import resvg_py

    out.mkdir(parents=True, exist_ok=True)
    charts = [("winrate", rate_chart(summary["variants"])), ("days", days_chart(summary["variants"]))]
    if summary["comparisons"]:
        charts.append(("effect", effect_chart(summary["comparisons"])))
    for name, svg in charts:
        (out / f"{name}.svg").write_text(svg + "\n", encoding="utf-8")
        png: bytes = bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=2.0, background="#ffffff"))
        (out / f"{name}.png").write_bytes(png)
    path = out / "report.html"
    path.write_text(render_report(summary, lang), encoding="utf-8")
    return path
