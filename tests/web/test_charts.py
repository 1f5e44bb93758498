"""The season pages' charts (web/charts.py): well-formed SVG whatever the data, bars and dots where the numbers
put them, labels escaped, numbers in the viewer's language, PNG of the expected size, and the answers' headers."""

from __future__ import annotations

import itertools
import re
import struct
from datetime import date, timedelta
from urllib.parse import unquote
from xml.etree import ElementTree as ET

import pytest

from sportmafia.web import charts

NS = {"s": "http://www.w3.org/2000/svg"}
ROLES = [("Red", 0.524, (0.47, 0.58), 312), ("Sheriff", 0.61, (0.5, 0.71), 80), ("Black", 0.41, (0.35, 0.47), 210),
         ("Don", 0.38, (0.28, 0.49), 80), ("All", 0.49, (0.45, 0.53), 682)]
HOSTILE = ['<script>alert(1)</script>', '"&\'', "]]><x/>", "a\x00b\x1bc\ud800", "&amp;"]


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _series(count: int, start: float = 1500.0) -> list[tuple[date, float]]:
    return [(date(2025, 9, 1) + timedelta(days=3 * i), start + 10 * i) for i in range(count)]


def _bars(root: ET.Element) -> list[ET.Element]:
    return root.findall("s:g[@class='bar']", NS)


def _rects(root: ET.Element) -> list[ET.Element]:
    return [rect for bar in _bars(root) for rect in bar.findall("s:rect", NS)]


def _texts(root: ET.Element) -> list[str]:
    return [e.text or "" for e in root.iter() if e.tag.endswith("}text")]


def test_rate_bars_draw_one_bar_per_row_with_widths_proportional_to_the_rates() -> None:
    root = _parse(charts.rate_bars(ROLES, title="Wins by role", reference=0.5, locale="en"))
    assert len(_bars(root)) == 5
    rects = _rects(root)
    assert len(rects) == 5
    x0 = float(rects[0].get("x", ""))
    width_per_unit = float(rects[0].get("width", "")) / 0.524
    for rect, (_, rate, _, _) in zip(rects, ROLES, strict=True):
        assert float(rect.get("x", "")) == x0
        assert float(rect.get("width", "")) == pytest.approx(rate * width_per_unit, abs=0.02)


def test_whiskers_stand_at_the_interval_ends() -> None:
    root = _parse(charts.rate_bars(ROLES, title="Wins", reference=None, locale="en"))
    rect = _rects(root)[0]
    x0, unit = float(rect.get("x", "")), float(rect.get("width", "")) / 0.524
    for bar, (_, _, (low, high), _) in zip(_bars(root), ROLES, strict=True):
        whisker = bar.find("s:g[@class='whisker']", NS)
        assert whisker is not None
        caps = [line for line in whisker.findall("s:line", NS) if line.get("x1") == line.get("x2")]
        assert [float(c.get("x1", "")) for c in caps] == pytest.approx([x0 + low * unit, x0 + high * unit], abs=0.02)


def test_intervals_and_rates_are_clipped_to_zero_and_one() -> None:
    bars = [("never", 0.0, (-0.2, 0.1), 5), ("always", 1.0, (0.9, 1.3), 5), ("wild", 1.7, (1.2, -0.5), 3)]
    root = _parse(charts.rate_bars(bars, title="Edges", reference=0.5, locale="en"))
    rects = _rects(root)
    full = float(rects[1].get("width", ""))
    assert float(rects[0].get("width", "")) == 0
    assert float(rects[2].get("width", "")) == full
    x0 = float(rects[0].get("x", ""))
    ends = [float(line.get("x1", "")) for bar in _bars(root) for line in bar.findall("s:g/s:line", NS)
            if line.get("x1") == line.get("x2")]
    assert min(ends) == x0 and max(ends) == x0 + full
    values = [e.text for e in root.iter() if e.get("class") == "value"]
    assert values == ["0.0%", "100.0%", "100.0%"]


def test_the_games_count_is_written_under_each_label() -> None:
    root = _parse(charts.rate_bars(ROLES, title="Wins", reference=0.5, locale="en"))
    counts = [e.text for bar in _bars(root) for e in bar.iter() if e.get("class") == "n"]
    assert counts == ["n = 312", "n = 80", "n = 210", "n = 80", "n = 682"]


def test_a_row_without_a_rate_has_no_bar_and_a_dash() -> None:
    root = _parse(charts.rate_bars([("Don", None, None, 0), ("Red", 0.5, None, 2)], title="Wins", reference=None,
                                   locale="en"))
    assert len(_bars(root)) == 2 and len(_rects(root)) == 1
    assert [e.text for e in root.iter() if e.get("class") == "value"] == ["—", "50.0%"]
    assert root.find(".//s:g[@class='whisker']", NS) is None


def test_the_reference_line_stands_at_its_rate_and_is_written() -> None:
    root = _parse(charts.rate_bars(ROLES, title="Wins", reference=0.475, locale="ru", reference_label="Всего"))
    rect = _rects(root)[0]
    x0, unit = float(rect.get("x", "")), float(rect.get("width", "")) / 0.524
    reference = root.find("s:g[@class='reference']", NS)
    assert reference is not None
    line, text = reference.find("s:line", NS), reference.find("s:text", NS)
    assert line is not None and text is not None
    assert float(line.get("x1", "")) == pytest.approx(x0 + 0.475 * unit, abs=0.02)
    assert text.text == "Всего 47,5\xa0%"
    no_reference = _parse(charts.rate_bars(ROLES, title="Wins", reference=None, locale="ru"))
    assert no_reference.find("s:g[@class='reference']", NS) is None


def test_numbers_follow_the_locale() -> None:
    ru = charts.rate_bars([("Шериф", 0.475, (0.4, 0.55), 1200)], title="Победы", reference=0.5, locale="ru")
    en = charts.rate_bars([("Sheriff", 0.475, (0.4, 0.55), 1200)], title="Wins", reference=0.5, locale="en")
    assert "47,5\xa0%" in _texts(_parse(ru)) and "47.5%" in _texts(_parse(en))
    assert "n = 1\xa0200" in _texts(_parse(ru)) and "n = 1,200" in _texts(_parse(en))
    line = [("Red", [(date(2025, 9, 1), 1503.5), (date(2025, 10, 1), 1520.0)])]
    ru_line = _parse(charts.rating_chart(line, title="Рейтинг", y_label="Рейтинг", locale="ru"))
    en_line = _parse(charts.rating_chart(line, title="Rating", y_label="Rating", locale="en"))
    assert "1 сент." in _texts(ru_line) and "Sep 1" in _texts(en_line)
    assert "1\xa0500" in _texts(ru_line) and "1,500" in _texts(en_line)
    assert charts.format_rate(0.475, "ru") != charts.format_rate(0.475, "en")


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_stay_text(name: str) -> None:
    bars = charts.rate_bars([(name, 0.5, (0.4, 0.6), 3)], title=name, reference=0.5, locale="en",
                            reference_label=name)
    line = charts.rating_chart([(name, _series(3))], title=name, y_label=name, locale="en")
    for svg in (bars, line):
        root = _parse(svg)
        assert "<script" not in svg and "<x/>" not in svg
        assert not root.findall(".//s:script", NS) and not root.findall(".//s:x", NS)
        kept = "".join(ch for ch in name if ch >= " " and not "\ud800" <= ch <= "\udfff")
        assert root.get("aria-label") == kept
        title = root.find("s:title", NS)
        assert title is not None and title.text == kept
        assert kept in _texts(root)


def test_no_chart_has_styles_scripts_or_ids() -> None:
    """What the site's policy (style-src 'self') would refuse in a page, and what would clash between charts."""
    svgs = [charts.rate_bars(ROLES, title="Wins", reference=0.5, locale="en"),
            charts.rating_chart([("Red", _series(20)), ("Black", _series(10, 1400))], title="R", y_label="y",
                                locale="en"),
            charts.rate_bars([], title="Wins", reference=0.5, locale="en")]
    for svg in svgs:
        root = _parse(svg)
        for element in root.iter():
            assert element.tag.rsplit("}", 1)[-1] not in ("style", "script", "foreignObject", "a", "image", "use")
            assert not {"style", "id", "href"} & set(element.attrib)
            assert not any(k.startswith("on") for k in element.attrib)


def test_charts_are_labelled_for_screen_readers() -> None:
    root = _parse(charts.rate_bars(ROLES, title="Wins by role", reference=0.5, locale="en"))
    assert root.get("role") == "img" and root.get("aria-label") == "Wins by role"
    title, desc = root.find("s:title", NS), root.find("s:desc", NS)
    assert title is not None and title.text == "Wins by role"
    assert desc is not None and desc.text is not None
    assert desc.text.startswith("Red: 52.4% (47.0% – 58.0%), n = 312; Sheriff: 61.0%")
    own = _parse(charts.rate_bars(ROLES, title="Wins", reference=0.5, locale="en", desc="Mine"))
    assert own.findtext("s:desc", namespaces=NS) == "Mine"


def test_the_rating_chart_has_a_dot_per_point_and_a_line_per_series() -> None:
    root = _parse(charts.rating_chart([("Red", _series(12)), ("Black", _series(7, 1400))], title="Rating",
                                      y_label="Points", locale="en"))
    groups = root.findall("s:g[@class='series']", NS)
    assert [g.get("data-name") for g in groups] == ["Red", "Black"]
    assert [len(g.findall("s:circle", NS)) for g in groups] == [12, 7]
    assert [len(g.findall("s:polyline", NS)) for g in groups] == [1, 1]
    red = groups[0].findall("s:circle", NS)
    xs, ys = [float(c.get("cx", "")) for c in red], [float(c.get("cy", "")) for c in red]
    assert xs == sorted(xs) and ys == sorted(ys, reverse=True)  # later right, higher up
    steps = [b - a for a, b in itertools.pairwise(xs)]
    assert max(steps) - min(steps) < 0.05  # evenly spaced dates, evenly spaced dots
    legend = root.find("s:g[@class='legend']", NS)
    assert legend is not None and [t.text for t in legend.findall("s:text", NS)] == ["Red", "Black"]


def test_one_point_and_flat_series_are_drawn() -> None:
    root = _parse(charts.rating_chart([("Red", [(date(2025, 9, 1), 1500.0)])], title="R", y_label="y", locale="en"))
    circles = root.findall(".//s:circle", NS)
    assert len(circles) == 1 and not root.findall(".//s:polyline", NS)
    assert 0 < float(circles[0].get("cx", "")) < charts.WIDTH
    flat = _parse(charts.rating_chart([("Red", [(date(2025, 9, 1), 7.0), (date(2025, 9, 1), 7.0)])], title="R",
                                      y_label="y", locale="en"))
    assert len({c.get("cy") for c in flat.findall(".//s:circle", NS)}) == 1


def test_points_that_are_not_numbers_are_left_out() -> None:
    root = _parse(charts.rating_chart([("Red", [(date(2025, 9, 1), 1.0), (date(2025, 9, 2), float("nan")),
                                                (date(2025, 9, 3), float("inf")), (date(2025, 9, 4), 2.0)])],
                                      title="R", y_label="y", locale="en"))
    assert len(root.findall(".//s:circle", NS)) == 2


@pytest.mark.parametrize(("locale", "text"), [("en", "No games yet."), ("ru", "Игр пока нет.")])
def test_no_data_draws_a_chart_that_says_so(locale: str, text: str) -> None:
    for svg in (charts.rate_bars([], title="Wins", reference=0.5, locale=locale),
                charts.rating_chart([], title="Rating", y_label="y", locale=locale),
                charts.rating_chart([("Red", [])], title="Rating", y_label="y", locale=locale)):
        root = _parse(svg)
        assert [e.text for e in root.iter() if e.get("class") == "empty"] == [text]
        assert root.findtext("s:desc", namespaces=NS) == text
    own = _parse(charts.rate_bars([], title="Wins", reference=None, locale="en", empty="Nothing <here>"))
    assert [e.text for e in own.iter() if e.get("class") == "empty"] == ["Nothing <here>"]


def test_long_labels_are_cut_and_kept_whole_in_the_tooltip() -> None:
    name = "Клубный пресет с очень длинным названием, которое не помещается"
    root = _parse(charts.rate_bars([(name, 0.5, None, 1)], title="Wins", reference=None, locale="ru"))
    bar = _bars(root)[0]
    shown = bar.find("s:text", NS)
    assert shown is not None and shown.text is not None and shown.text.endswith("…") and len(shown.text) < len(name)
    assert (bar.findtext("s:title", namespaces=NS) or "").startswith(name)


def test_table_rows_match_the_chart() -> None:
    assert charts.bar_rows([("Don", 0.38, (0.28, 0.49), 1200)], "ru") == [
        ("Don", "38,0\xa0%", "28,0\xa0% – 49,0\xa0%", "1\xa0200")]
    assert charts.rating_rows([("Red", [(date(2025, 9, 2), 1503.5), (date(2025, 9, 1), 1500.0)])], "en") == [
        ("Red", "Sep 1, 2025", "1,500"), ("Red", "Sep 2, 2025", "1,503.5")]


def _png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def _svg_size(svg: str) -> tuple[int, int]:
    root = _parse(svg)
    return int(root.get("width", "")), int(root.get("height", ""))


@pytest.mark.parametrize("scale", [1.0, 2.0, 1.5])
def test_png_is_the_chart_at_its_scale(scale: float) -> None:
    svg = charts.rate_bars(ROLES, title="Wins", reference=0.5, locale="en")
    width, height = _svg_size(svg)
    assert _png_size(charts.to_png(svg, scale)) == (round(width * scale), round(height * scale))


@pytest.mark.parametrize("scale", [0.0, -1.0, 4.5, 1000.0, float("nan")])
def test_png_refuses_a_scale_out_of_bounds(scale: float) -> None:
    with pytest.raises(ValueError):
        charts.to_png(charts.rate_bars([], title="Wins", reference=None, locale="en"), scale)


def test_png_of_hostile_labels_renders() -> None:
    svg = charts.rating_chart([(HOSTILE[0], _series(4))], title=HOSTILE[1], y_label=HOSTILE[3], locale="ru")
    assert _png_size(charts.to_png(svg, 1.0)) == _svg_size(svg)


def test_svg_response_inline_and_download_headers() -> None:
    svg = charts.rate_bars(ROLES, title="Wins", reference=0.5, locale="en")
    inline = charts.svg_response(svg)
    assert inline.media_type == "image/svg+xml; charset=utf-8"
    assert inline.headers["content-type"] == "image/svg+xml; charset=utf-8"
    assert inline.headers["content-disposition"] == "inline"
    assert inline.headers["content-security-policy"] == "default-src 'none'; frame-ancestors 'none'; sandbox"
    assert inline.headers["x-content-type-options"] == "nosniff"
    assert inline.headers["cache-control"] == "private, max-age=300"
    assert inline.body == svg.encode()
    download = charts.svg_response(svg, filename="roles")
    assert download.headers["content-disposition"] == "attachment; filename=\"roles.svg\"; filename*=UTF-8''roles.svg"


def test_png_response_headers() -> None:
    svg = charts.rate_bars(ROLES, title="Wins", reference=0.5, locale="en")
    response = charts.png_response(svg, filename="roles.png", scale=1.0, max_age=0)
    assert response.headers["content-type"] == "image/png"
    assert response.headers["content-disposition"] == "attachment; filename=\"roles.png\"; filename*=UTF-8''roles.png"
    assert response.headers["content-security-policy"] == charts.CHART_CSP
    assert response.headers["cache-control"] == "private, max-age=0"
    assert _png_size(bytes(response.body)) == _svg_size(svg)


def test_download_names_are_safe_in_the_header() -> None:
    svg = charts.rate_bars([], title="t", reference=None, locale="ru")
    header = charts.svg_response(svg, filename='рейтинг "Дон"\r\n../x;').headers["content-disposition"]
    ascii_name = re.search(r'filename="([^"]*)"', header)
    assert ascii_name is not None and re.fullmatch(r"[A-Za-z0-9._-]+\.svg", ascii_name.group(1))
    assert "\r" not in header and "\n" not in header and '"Дон"' not in header
    assert unquote(header.split("filename*=UTF-8''")[1]) == 'рейтинг "Дон" .._x;.svg'
