"""Spreadsheet formula injection (OWASP "CSV Injection"): names that start like a formula reach every export
(a game's sheet.csv, a tournament's standings.csv and standings.xlsx) as text, never as a formula."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

import pytest
from openpyxl import load_workbook

from sportmafia.web.exports import safe_cell

from .edge import Server, server
from .test_tournaments_api import finish, put, user_client

EVIL = ['=HYPERLINK("http://x","y")', "+1", "-2+3", "@SUM(A1)", "\t=1", "\r=2", "\n=3", "＝1+1"]
"""Names a spreadsheet would run as formulas (the typed ones lose their leading tab or CR to the
strip the API applies to names, and then start with '=')."""


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with pytest.MonkeyPatch.context() as mp, server("sqlite", tmp_path_factory.mktemp("exports"), mp) as s:
        yield s


def test_safe_cell_prefixes_what_starts_like_a_formula() -> None:
    for name in EVIL:
        assert safe_cell(name) == "'" + name
    for fine in ("Ворон", "a=b", "1+1", "", " =1"):
        assert safe_cell(fine) == fine
    assert safe_cell(-2) == -2 and safe_cell(-0.5) == -0.5 and safe_cell(None) is None


def _formula_like(cell: str) -> bool:
    return cell[:1] in ("=", "+", "-", "@", "\t", "\r", "\n", "＝", "＋", "－", "＠")


def test_sheet_csv_neutralises_formula_names(srv: Server) -> None:
    names = [*EVIL, "Ворон", "Сова"]
    r = srv.admin.post("/api/games", {"preset": "club", "players": 10, "names": names})
    assert r.status_code == 201, r.text
    game_id = r.json()["id"]
    finish(srv.store, game_id, seed=3)
    for lang, delimiter in (("en", ","), ("ru", ";")):
        text = srv.admin.get(f"/api/games/{game_id}/sheet.csv", params={"lang": lang}).content.decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
        cells = [cell for row in rows for cell in row]
        assert not [c for c in cells if _formula_like(c)], cells
        listed = [row[1] for row in rows[rows.index([]) + 2:]]
        stored = [n.strip() for n in names]
        assert listed == [safe_cell(n) for n in stored]
        # every field quoted (OWASP): a cell cannot be split by a tab, a quote or a line break in a name
        assert all(line.startswith('"') for line in text.split("\r\n") if line)


def test_standings_csv_and_xlsx_neutralise_formula_names(srv: Server) -> None:
    r = srv.admin.post("/api/tournaments", {"name": "=cmd|' /C calc'!A0", "preset": "club"})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    # typed participants keep what the API keeps of the name; a CSV upload keeps a leading tab or CR too
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["nickname", "club", "team"])
    w.writerows([n, "@club", "-team"] for n in EVIL)
    upload = buf.getvalue()
    r = srv.admin.post(f"/api/tournaments/{tid}/participants/csv",
                       files={"file": ("p.csv", upload.encode(), "text/csv")})
    assert r.status_code == 201, r.text
    stored = sorted(p["nickname"] for p in r.json()["added"])
    assert any(_formula_like(n) for n in stored)

    for lang, delimiter in (("en", ","), ("ru", ";")):
        text = srv.admin.get(f"/api/tournaments/{tid}/standings.csv", params={"lang": lang}).content.decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
        assert not [c for row in rows for c in row if _formula_like(c)]
        assert sorted(row[1] for row in rows[1:]) == sorted(safe_cell(n) for n in stored)
        assert all(line.startswith('"') for line in text.split("\r\n") if line)

    wb = load_workbook(io.BytesIO(srv.admin.get(f"/api/tournaments/{tid}/standings.xlsx?lang=en").content))
    ws = wb.active
    assert ws is not None
    names = []
    for row in ws.iter_rows(min_row=2):
        nick = row[1]
        assert nick.data_type == "s", (nick.value, nick.data_type)  # text, not a formula ('f')
        assert all(c.data_type != "f" for c in row)
        if _formula_like(str(nick.value)):
            assert nick.quotePrefix  # Excel keeps it text when the cell is edited
        names.append(nick.value)
    assert sorted(names) == stored  # the workbook shows the name exactly as it was typed


def _csv(r: Any) -> tuple[str, str]:
    """A CSV download's text (its BOM checked) and its first line."""
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "text/csv; charset=utf-8" and r.content.startswith(b"\xef\xbb\xbf")
    assert r.headers["content-disposition"].startswith('attachment; filename="') and \
        r.headers["cache-control"] == "no-store"
    text = r.content.decode("utf-8-sig")
    return text, text.split("\r\n", 1)[0]


def test_every_csv_follows_the_page_language(srv: Server) -> None:
    """One convention for every CSV download (a game's sheet, a tournament's standings): in Russian ``;``,
    Russian headers and words, a decimal comma; in English ``,``, English headers, a decimal point; UTF-8 with
    a BOM; the language is the page's (the ``lang`` cookie, Accept-Language) unless ``?lang=`` names it."""
    r = srv.admin.post("/api/tournaments", {"name": "Осень", "preset": "club", "scoring": {
        "base": "regulation", "table": {"civilian": {"win": 1.25}, "sheriff": {"win": 1.5},
                                        "mafia": {"win": 1.25}, "don": {"win": 1.5}}}})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    host, host_id = user_client(srv.admin, "csvhost", "host")
    assert srv.admin.post(f"/api/tournaments/{tid}/participants",
                          {"text": "\n".join(f"Игрок {i}" for i in range(1, 11))}).status_code == 201
    assert put(srv.admin, f"/api/tournaments/{tid}/staff",
               {"staff": [{"user_id": host_id, "role": "host"}]}).status_code == 200
    assert srv.admin.post(f"/api/tournaments/{tid}/seating", {"rounds": 1, "hosts": [host_id]}).status_code == 200
    [game] = srv.admin.post(f"/api/tournaments/{tid}/rounds/1/open").json()["games"]
    finish(srv.store, game["game_id"], seed=3)
    assert host.post(f"/api/games/{game['game_id']}/sheet/sign").status_code == 200
    assert srv.admin.post(f"/api/tournaments/{tid}/games/{game['game_id']}/accept").status_code == 200

    ru, ru_head = _csv(srv.admin.get(f"/api/tournaments/{tid}/standings.csv", params={"lang": "ru"}))
    en, en_head = _csv(srv.admin.get(f"/api/tournaments/{tid}/standings.csv", params={"lang": "en"}))
    assert ru_head.split(";")[:3] == ['"Место"', '"Ник"', '"Очки"'] and '"Вне зачёта"' in ru_head
    assert en_head.split(",")[:3] == ['"Place"', '"Nickname"', '"Points"'] and '"Out of the places"' in en_head
    ru_rows = list(csv.reader(io.StringIO(ru, newline=""), delimiter=";"))[1:]
    en_rows = list(csv.reader(io.StringIO(en, newline=""), delimiter=","))[1:]
    assert len(ru_rows) == len(en_rows) == 10
    points = sorted(row[2] for row in en_rows)
    assert {"1.25", "1.5"} & set(points), points  # the winners' points of the table above
    assert sorted(row[2] for row in ru_rows) == sorted(p.replace(".", ",") for p in points)
    assert {row[8] for row in ru_rows} <= {"да", "нет"} and {row[8] for row in en_rows} <= {"yes", "no"}
    # without ?lang: the page's language (here Accept-Language), for the sheet and the standings alike
    for path in (f"/api/tournaments/{tid}/standings.csv", f"/api/games/{game['game_id']}/sheet.csv"):
        for lang, delimiter, word in (("ru", ";", "Ник"), ("en", ",", "Nickname")):
            text, _head = _csv(srv.admin.get(path, headers={"Accept-Language": lang}))
            rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
            assert word in [cell for row in rows for cell in row], (path, lang)
    wb = load_workbook(io.BytesIO(srv.admin.get(f"/api/tournaments/{tid}/standings.xlsx?lang=ru").content))
    ws = wb.active
    assert ws is not None and ws.title == "Таблица" and ws["A1"].value == "Место" and ws["C1"].value == "Очки"
