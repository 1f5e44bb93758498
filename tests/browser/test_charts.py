"""The season pages' charts in Chromium (web/charts.py): one written into a page under the site's own
Content-Security-Policy, others loaded through ``<img>`` (SVG and PNG, each with the chart's own policy) and one
opened as a document; no policy violation, no error, the images have a size, a hostile name stays text, and the
charts are legible at a phone's and a tablet's width (screenshots /tmp/charts-<w>x<h>.png)."""

from __future__ import annotations

import html
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any
from xml.etree import ElementTree

import pytest
from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response

from sportmafia.web import charts
from sportmafia.web.headers import security_headers
from tests.waiting import wait_until

from .conftest import app_server, open_page

HOSTILE = '<script>window.pwned=1</script>"&\''
STYLESHEET = """body { font-family: sans-serif; margin: 0; padding: 8px; }
.chart-box { max-width: 640px; }
.chart-box svg, .chart-box img { display: block; width: 100%; height: auto; }"""


def _rating() -> str:
    start = date(2025, 9, 4)
    red = [(start + timedelta(days=7 * i), 1500 + 14 * i - 9 * (i % 3)) for i in range(16)]
    black = [(start + timedelta(days=7 * i + 3), 1490 + 6 * i) for i in range(12)]
    return charts.rating_chart([("Рейтинг за красных", red), ("Рейтинг за чёрных", black)],
                               title=f"Рейтинг: {HOSTILE}", y_label="Очки", locale="ru")


def _roles() -> str:
    return charts.rate_bars([("Мирный", 0.524, (0.47, 0.58), 312), ("Шериф", 0.61, (0.5, 0.71), 80),
                             ("Мафия", 0.41, (0.35, 0.47), 210), ("Дон", 0.38, (0.28, 0.49), 80),
                             ("Все", 0.49, (0.45, 0.53), 682), (HOSTILE, None, None, 0)],
                            title="Победы по ролям", reference=0.5, locale="ru")


def _tables() -> str:
    return charts.rate_bars([(f"Стол {i}", 0.42 + 0.03 * i, (0.3 + 0.03 * i, 0.55 + 0.03 * i), 40 + i)
                             for i in range(1, 5)], title="Balance of the tables", reference=0.531,
                            reference_label="All:", locale="en")


def _app() -> FastAPI:
    app = FastAPI()
    page_headers = {k.decode(): v.decode() for k, v in security_headers("/seasons/1")}

    @app.get("/")
    def page() -> HTMLResponse:
        rows = "".join(f"<tr><td>{html.escape(a)}</td><td>{html.escape(b)}</td><td>{html.escape(c)}</td></tr>"
                       for a, b, c in charts.rating_rows([("Red", [(date(2025, 9, 4), 1500.0)])], "ru"))
        body = (f"<!doctype html><html lang='ru'><head><meta charset='utf-8'>"
                f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
                f"<link rel='stylesheet' href='/chart.css'><title>Charts</title></head><body>"
                f"<div class='chart-box' id='inline'>{_rating()}</div><table>{rows}</table>"
                f"<div class='chart-box'><img id='roles' src='/roles.svg' alt='Победы по ролям'></div>"
                f"<div class='chart-box'><img id='tables' src='/tables.png' alt='Balance'></div>"
                f"</body></html>")
        return HTMLResponse(body, headers=page_headers)

    @app.get("/styled")
    def styled() -> HTMLResponse:  # what a chart library's <style> would meet in a page
        return HTMLResponse("<!doctype html><svg xmlns='http://www.w3.org/2000/svg'><style>rect { fill: red }</style>"
                            "<rect width='10' height='10'/></svg>", headers=page_headers)

    @app.get("/chart.css")
    def stylesheet() -> Response:
        return Response(STYLESHEET, media_type="text/css", headers=page_headers)

    @app.get("/favicon.ico")
    def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/roles.svg")
    def roles() -> Response:
        return charts.svg_response(_roles())

    @app.get("/tables.png")
    def tables() -> Response:
        return charts.png_response(_tables(), scale=2.0)

    @app.get("/download.svg")
    def download() -> Response:
        return charts.svg_response(_roles(), filename="роли.svg")

    return app


@pytest.fixture(scope="module")
def chart_server() -> Iterator[str]:
    with app_server(_app()) as url:
        yield url


def _console_errors(page: Any) -> list[str]:
    found: list[str] = []
    page.on("console", lambda m: found.append(m.text) if m.type in ("error", "warning") else None)
    return found


@pytest.mark.parametrize(("width", "height"), [(390, 844), (820, 1180)])
def test_charts_show_inline_and_as_images_under_the_policy(browser: Any, chart_server: str, width: int,
                                                           height: int, no_csp_violations: list[str]) -> None:
    context, page, errors = open_page(browser, width, height)
    console = _console_errors(page)
    try:
        page.goto(chart_server + "/", wait_until="load")
        page.wait_for_function("() => [...document.images].every(i => i.complete)")
        sizes = page.evaluate("() => [...document.images].map(i => [i.id, i.naturalWidth, i.naturalHeight,"
                              " i.getBoundingClientRect().width])")
        assert [s[0] for s in sizes] == ["roles", "tables"]
        roles = ElementTree.fromstring(_roles())
        assert sizes[0][1:3] == [int(roles.get("width", "")), int(roles.get("height", ""))]  # the SVG's own size
        assert sizes[1][1] == 2 * charts.WIDTH  # the PNG at scale 2
        inline = page.evaluate("() => { const r = document.querySelector('#inline svg').getBoundingClientRect();"
                               " return [r.width, r.height]; }")
        for shown in [inline[0], *(s[3] for s in sizes)]:
            assert 0 < shown <= width  # fits the column, on a phone too
        assert inline[1] > 0
        # the hostile name is text: no script element made, nothing run
        assert page.evaluate("() => window.pwned") is None
        assert page.evaluate("() => document.querySelectorAll('script').length") == 0
        assert HOSTILE in page.evaluate("() => document.querySelector('#inline svg title').textContent")
        assert page.evaluate("() => document.querySelector('#inline svg').getAttribute('role')") == "img"
        page.screenshot(path=f"/tmp/charts-{width}x{height}.png", full_page=True)
        assert not errors and not console, (errors, console)
        assert not no_csp_violations, no_csp_violations
    finally:
        context.close()


def test_a_chart_opened_as_a_document_keeps_its_own_policy(browser: Any, chart_server: str,
                                                          no_csp_violations: list[str]) -> None:
    context, page, errors = open_page(browser, 820, 1180)
    console = _console_errors(page)
    try:
        response = page.goto(chart_server + "/roles.svg", wait_until="load")
        assert response is not None and response.headers["content-security-policy"] == charts.CHART_CSP
        # drawn (not a black box): the bars' colour is applied from the presentation attributes
        fill = page.evaluate("() => getComputedStyle(document.querySelector('g.bar rect')).fill")
        assert fill == "rgb(79, 116, 179)"
        assert page.evaluate("() => window.pwned") is None
        page.screenshot(path="/tmp/charts-document-820x1180.png")
        assert not errors and not console, (errors, console)
        assert not no_csp_violations, no_csp_violations
        page.goto(chart_server + "/styled", wait_until="load")  # the watch is real: a <style> in a page is refused
        wait_until(lambda: page.evaluate("() => true") and any("style-src" in v for v in no_csp_violations),
                   "the refused <style> reported")  # (asking the page lets Playwright hand over its console)
        no_csp_violations.clear()
        download = page.request.get(chart_server + "/download.svg")
        assert download.headers["content-disposition"].startswith('attachment; filename="')
        assert download.headers["content-type"] == "image/svg+xml; charset=utf-8"
    finally:
        context.close()
