"""The rules lab's page (docs/lab.md, "The judge's page"): for a club's admins and judges only; a run started
from the web plays in the background to its report, its progress readable; a third run while two play is
refused "busy" in both languages; bad input is refused and writes nothing; a run stopped keeps its batches and
resumes to the same figures; hostile run ids are refused. The runs play in the test's process (``Inline``), small."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from sportmafia.lab import play_batch
from sportmafia.services.lab_runs import MAX_GAMES, Inline, LabRuns
from tests.services.test_club_seasons import game
from tests.web.conftest import Api, own_client
from tests.web.test_tournaments_api import user_client

RUN = {"preset": "club", "changes": ["misses_win=0"], "agent": "random", "games": 4, "seed": 7}


class Gated(Inline):
    """Plays a batch only once the test opens the gate (a run held "running" as long as the test needs)."""

    def __init__(self, gate: threading.Event) -> None:
        super().__init__()
        self.gate = gate

    def result(self, future: Any) -> dict[str, Any]:
        self.gate.wait(30)
        return play_batch(future)


@pytest.fixture
def lab(api: Api, tmp_path: Path) -> Iterator[tuple[LabRuns, threading.Event]]:
    gate = threading.Event()
    gate.set()
    runs = LabRuns(tmp_path / "lab", backend=lambda _w: Gated(gate), batch=3)
    old = api.client.app.state.lab_runs
    api.client.app.state.lab_runs = runs
    yield runs, gate
    gate.set()
    runs.close()
    api.client.app.state.lab_runs = old
    assert not any(t.name.startswith("lab-") for t in threading.enumerate())


def finished(api: Api, runs: LabRuns, run_id: str) -> dict[str, Any]:
    runs.wait(60)
    r = api.get(f"/api/lab/runs/{run_id}")
    assert r.status_code == 200, r.text
    run: dict[str, Any] = r.json()["run"]
    return run


def test_only_the_clubs_admins_and_judges(api: Api, lab: Any) -> None:
    anon = Api(own_client(api.client), api.store, api.club_id)
    to_login = anon.get("/lab", follow_redirects=False)
    assert to_login.status_code in (302, 303, 307) and to_login.headers["location"].startswith("/login")
    assert anon.get("/api/lab/runs").status_code == 401
    player, _ = user_client(api, "lab-host", "host")
    assert player.get("/lab").status_code == 404
    r = player.post("/api/lab/runs", RUN)
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden", r.text
    assert player.get("/api/lab/runs").status_code == 403
    judge, _ = user_client(api, "lab-judge", "judge")
    page = judge.get("/lab")
    assert page.status_code == 200 and 'id="lab-form"' in page.text and "/static/lab.js" in page.text
    assert judge.get("/api/lab/runs").json() == {"runs": []}
    assert player.get("/api/lab/options").status_code == 403
    options = judge.get("/api/lab/options").json()["options"]
    # the form offers first a yes/no option whose other value can be played; "don" cannot be turned off in club
    flips = [o["name"] for o in options if o["flips"]["club"]]
    assert flips and "don" not in flips and all(o["kind"] == "bool" for o in options if o["name"] in flips)
    assert "<script>" not in page.text  # scripts from files only (CSP)
    assert 'id="lab-link"' in judge.get("/").text and 'id="lab-link"' not in player.get("/").text


@pytest.mark.parametrize(("lang", "words"), [("ru", ["Лаборатория правил", "Новый прогон", "Запустить прогон"]),
                                             ("en", ["The rules lab", "New run", "Start the run"])])
def test_the_page_in_both_languages(api: Api, lab: Any, lang: str, words: list[str]) -> None:
    api.client.cookies.set("lang", lang)
    text = api.get("/lab").text
    assert all(w in text for w in words), [w for w in words if w not in text]


def test_a_run_plays_to_its_report(api: Api, lab: Any) -> None:
    runs, _ = lab
    r = api.post("/api/lab/runs", RUN)
    assert r.status_code == 202, r.text
    run_id = r.json()["run"]["id"]
    run = finished(api, runs, run_id)
    assert run["status"] == "finished" and run["done"] == run["total"] == 8 and run["reports"]
    summary = run["summary"]
    assert [v["variant"] for v in summary["variants"]] == ["club", "club+misses_win=0"]
    assert summary["comparisons"][0]["b"] == "club+misses_win=0" and "p_paired" in summary["comparisons"][0]
    assert run["real"] == [None, None]  # no real games of the club at 10 players yet
    assert [x["id"] for x in api.get("/api/lab/runs").json()["runs"]] == [run_id]
    for lang, word in (("ru", "Лаборатория правил"), ("en", "The rules lab")):
        report = api.get(f"/api/lab/runs/{run_id}/report?lang={lang}")
        assert report.status_code == 200 and word in report.text
        assert report.headers["content-disposition"].startswith("attachment")
    games = api.get(f"/api/lab/runs/{run_id}/games.csv")
    assert games.status_code == 200 and games.text.count("\n") == 9
    again = api.post("/api/lab/runs", RUN)  # same seed, same result
    assert finished(api, runs, again.json()["run"]["id"])["summary"]["variants"] == summary["variants"]


def test_a_third_run_is_refused_busy(api: Api, lab: Any) -> None:
    runs, gate = lab
    gate.clear()
    first = [api.post("/api/lab/runs", {**RUN, "seed": s}) for s in (1, 2)]
    assert [r.status_code for r in first] == [202, 202]
    third = api.post("/api/lab/runs", {**RUN, "seed": 3})
    assert third.status_code == 503, third.text
    error = third.json()["error"]
    assert error["code"] == "busy" and "busy" in error["en"] and "занята" in error["ru"]
    assert len(api.get("/api/lab/runs").json()["runs"]) == 2
    gate.set()
    runs.wait(60)
    assert api.post("/api/lab/runs", {**RUN, "seed": 3}).status_code == 202


@pytest.mark.parametrize("body", [
    {**RUN, "games": 0}, {**RUN, "games": MAX_GAMES + 1}, {**RUN, "preset": "nope"},
    {**RUN, "changes": ["no_such_option=1"]}, {**RUN, "changes": ["misses_win=many"]},
    {**RUN, "changes": ["misses_win=0"] * 2}, {**RUN, "changes": [f"misses_win={i}" for i in range(6)]},
    {**RUN, "changes": ["../../etc=1"]}, {**RUN, "agent": "human"}, {**RUN, "seed": -1}, {**RUN, "extra": 1},
    {**RUN, "changes": "misses_win=0"}, {**RUN, "games": "4; rm"},
])
def test_bad_input_is_refused_and_writes_nothing(api: Api, lab: Any, body: dict[str, Any]) -> None:
    runs, _ = lab
    r = api.post("/api/lab/runs", body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["en"] and r.json()["error"]["ru"]
    assert not (runs.folder(api.club_id)).exists()
    assert api.get("/api/lab/runs").json() == {"runs": []}


@pytest.mark.parametrize("run_id", ["..", "..%2F..%2Fetc", "20260101-000000-abcdeg", "x" * 41, "20260101-000000-abcdef"])
def test_hostile_or_unknown_run_ids(api: Api, lab: Any, run_id: str) -> None:
    for method, path in (("GET", ""), ("POST", "/stop"), ("POST", "/resume"), ("GET", "/report"),
                         ("GET", "/games.csv")):
        r = api.client.request(method, f"/api/lab/runs/{run_id}{path}", headers=api._headers())
        assert r.status_code in (404, 422), (method, path, r.status_code)


def test_stop_and_resume(api: Api, lab: Any) -> None:
    runs, gate = lab
    gate.clear()
    body = {**RUN, "games": 7}  # batches of 3, 3 and 1 a variant
    run_id = api.post("/api/lab/runs", body).json()["run"]["id"]
    stopping = api.post(f"/api/lab/runs/{run_id}/stop", {})
    assert stopping.status_code == 200 and stopping.json()["run"]["status"] == "stopping"
    gate.set()
    stopped = finished(api, runs, run_id)
    assert stopped["status"] == "stopped" and stopped["done"] < stopped["total"] == 14 and not stopped["reports"]
    assert api.get(f"/api/lab/runs/{run_id}/report").status_code == 404
    assert api.post(f"/api/lab/runs/{run_id}/stop", {}).status_code == 409
    resumed = api.post(f"/api/lab/runs/{run_id}/resume", {})
    assert resumed.status_code == 202, resumed.text
    done = finished(api, runs, run_id)
    assert done["status"] == "finished" and done["done"] == 14
    assert api.post(f"/api/lab/runs/{run_id}/resume", {}).status_code == 409
    whole = api.post("/api/lab/runs", body).json()["run"]["id"]
    assert finished(api, runs, whole)["summary"]["variants"] == done["summary"]["variants"]


def test_another_clubs_judge_sees_nothing(api: Api, lab: Any) -> None:
    runs, _ = lab
    run_id = api.post("/api/lab/runs", RUN).json()["run"]["id"]
    runs.wait(60)
    other_club = api.store.create_club("Other club")
    judge, _ = user_client(api, "other-judge", "judge", other_club)
    assert judge.get("/api/lab/runs").json() == {"runs": []}
    assert judge.get(f"/api/lab/runs/{run_id}").status_code == 404
    assert judge.get(f"/api/lab/runs/{run_id}/report").status_code == 404


def test_the_clubs_real_games_beside_the_preset(api: Api, lab: Any) -> None:
    """Three of the club's real games of ``club`` at ten players (two won by red): beside ``club``, not beside
    a variant with a change (the club's games are not stored with a lab variant's changes)."""
    runs, _ = lab
    people = api.store.add_club_players(api.club_id, [f"Real {i}" for i in range(1, 11)])
    for day, winner in ((2, "red"), (3, "black"), (4, "red")):
        game(api.store, api.club_id, people, datetime(2026, 3, day, 18, tzinfo=UTC), winner)
    run_id = api.post("/api/lab/runs", RUN).json()["run"]["id"]
    run = finished(api, runs, run_id)
    real, changed = run["real"]
    assert changed is None
    assert (real["games"], real["red_wins"], real["red_rate"]) == (3, 2, round(2 / 3, 4))
    assert real["ci95"][0] < 2 / 3 < real["ci95"][1]
    assert real["bots_minus_real"] == round(run["summary"]["variants"][0]["red_rate"] - 2 / 3, 4)


def test_a_run_the_process_was_playing_when_it_ended_is_stopped_and_resumes(api: Api, lab: Any) -> None:
    runs, _ = lab
    run_id = api.post("/api/lab/runs", RUN).json()["run"]["id"]
    runs.wait(60)
    state = runs.folder(api.club_id, run_id) / "state.json"
    state.write_text(json.dumps({"status": "running", "done": 0, "total": 8}), encoding="utf-8")
    (runs.folder(api.club_id, run_id) / "summary.json").unlink()
    run = api.get(f"/api/lab/runs/{run_id}").json()["run"]
    assert run["status"] == "stopped" and not run["reports"]
    assert api.post(f"/api/lab/runs/{run_id}/resume", {}).status_code == 202
    assert finished(api, runs, run_id)["status"] == "finished"


def test_another_server_process_shows_and_stops_a_run(api: Api, lab: Any) -> None:
    """Two server processes share the data folder: the one not playing a run reads its progress from the folder
    and stops it through the folder."""
    runs, gate = lab
    gate.clear()
    run_id = api.post("/api/lab/runs", {**RUN, "games": 7}).json()["run"]["id"]
    other = LabRuns(runs.root, backend=Inline, batch=3)
    admin = api.store.get_user(api.get("/api/me").json()["user"]["id"])
    assert admin is not None
    seen = other.progress(admin, run_id)
    assert (seen["status"], seen["total"]) == ("running", 14)
    assert other.stop(admin, run_id)["status"] == "stopping"
    gate.set()
    assert finished(api, runs, run_id)["status"] == "stopped"
    assert other.progress(admin, run_id)["status"] == "stopped"
