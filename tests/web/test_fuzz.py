"""The API fuzzed from its own OpenAPI schema (Schemathesis, in process through ASGI, no network): every
operation, as an anonymous visitor and as the club's admin, a host and a judge (each logged in once), with
valid and invalid requests. No answer may be a 5xx, and every answer must be one the schema declares, with a
body of its declared shape. Bounded (a few examples per operation, derandomized: the same requests every run)
and on a store of its own, made for the run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.python.asgi import ASGIClient
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from sportmafia.web.security import CSRF_HEADER
from tests.depth import count

from .conftest import ADMIN_PASSWORD
from .edge import PASSWORD, Server, server
from .seeded_draws import seeded_server

pytestmark = pytest.mark.usefixtures(seeded_server.__name__)
"""The server's draws (a deal without roles, a first speaker drawn, that the fuzzer's requests may leave to
chance) are seeded: with the derandomized requests, the same run every time."""

EXAMPLES = count(check=2, suite=6, deep=25)
"""Requests per operation (each with one of the four roles, valid or not), by the run's depth (tests/depth.py)."""
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
NOT_FOR_SESSIONS = {("POST", "/api/logout"), ("POST", "/api/login")}
"""Sent only without a session: a logged-in fuzzer would log its own role out."""


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with pytest.MonkeyPatch.context() as mp, server("sqlite", tmp_path_factory.mktemp("fuzz"), mp) as s:
        yield s


def _session(srv: Server, login: str | None) -> ASGIClient:
    client = ASGIClient(srv.client.app)
    if login is not None:
        r = client.post("/api/login", json={"login": login, "password": ADMIN_PASSWORD if login == "admin" else PASSWORD})
        assert r.status_code == 200, r.text
        client.headers[CSRF_HEADER] = r.json()["csrf_token"]
    return client


HEAVY = ("/seating", "/seating/regenerate", "/final")
"""Operations whose real work grows with the request (a seating plan of 100 rounds searches for seconds, as it
should): the fuzzer's valid bodies ask for little of it, so that the run stays within its time."""


def _bounded(case: Any) -> None:
    if case.operation.path == "/api/lab/runs" and isinstance(case.body, dict):
        games = case.body.get("games", 1000)
        if isinstance(games, int) and not isinstance(games, bool) and games > 2:
            case.body["games"] = 2  # the lab's runs: a game or two a variant
    if case.operation.path.endswith(HEAVY) and isinstance(case.body, dict):
        for field, most in (("rounds", 2), ("steps", 1000), ("k", 10)):
            value = case.body.get(field)
            if isinstance(value, int) and not isinstance(value, bool) and value > most:
                case.body[field] = most


def _real_objects(srv: Server) -> dict[str, Any]:
    """A game with its online table and a seat link, a finished and signed game, a published tournament with
    participants, a saved variant: the values of the path parameters that exist."""
    admin = srv.admin
    game_id = admin.new_game()
    table = admin.post(f"/api/games/{game_id}/online").json()
    link = admin.post(f"/api/games/{game_id}/online/seats/1/link").json()
    tid = admin.post("/api/tournaments", {"name": "Fuzz cup", "preset": "club"}).json()["id"]
    pid = admin.post(f"/api/tournaments/{tid}/participants", {"text": "\n".join(f"P{i}" for i in range(12))}
                     ).json()["added"][0]["id"]
    admin.client.patch(f"/api/tournaments/{tid}", json={"published": True}, headers=admin._headers())
    variant = admin.post("/api/variants", {"name": "fuzz", "preset": "club", "options": {}}).json()
    return {"game_id": game_id, "code": table["code"], "token": link["url"].rsplit("/", 1)[1], "seat": 1,
            "tournament_id": tid, "participant_id": pid, "number": 1, "variant_id": variant.get("id", 1),
            "request_id": 1}


def test_the_api_answers_every_request_as_its_schema_says(srv: Server) -> None:
    for login, role in (("fuzzhost", "host"), ("fuzzjudge", "judge")):
        srv.as_role(login, role)
    sessions = {"anonymous": _session(srv, None), "admin": _session(srv, "admin"),
                "host": _session(srv, "fuzzhost"), "judge": _session(srv, "fuzzjudge")}
    real = _real_objects(srv)
    schema = schemathesis.openapi.from_asgi("/openapi.json", srv.client.app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 60
    failures: list[str] = []
    for operation in operations:
        key = (operation.method.upper(), operation.path)
        roles = ["anonymous"] if key in NOT_FOR_SESSIONS else list(sessions)
        names = {p.name for p in operation.path_parameters}
        known = {name: value for name, value in real.items() if name in names}
        # half the requests name the objects that exist (a game, its table, a seat link, a tournament...), so
        # that the routes get past "not found"
        cases = st.one_of(*(operation.as_strategy(mode, path_parameters=fixed)
                            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
                            for fixed in ((None, known) if known else (None,))))

        @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None, phases=(Phase.generate, Phase.shrink),
                  suppress_health_check=list(HealthCheck))
        @given(case=cases, role=st.sampled_from(roles))
        def fuzz(case: Any, role: str) -> None:
            session = sessions[role]
            _bounded(case)
            response = case.call(session=session)
            case.validate_response(response, checks=CHECKS)

        try:
            fuzz()
        except (Exception, BaseExceptionGroup) as exc:  # every operation is fuzzed; then all that failed are shown at once
            failures.append(f"{key[0]} {key[1]}: {exc}")
    assert not failures, "\n\n".join(failures)


def test_the_schema_declares_the_error_shape_and_the_downloads(srv: Server) -> None:
    """What the fuzzer first found: answers the schema did not declare (a 401 or 404 of any route, FastAPI's
    own 422 shape instead of the API's, a CSV, a workbook or an SVG declared as JSON)."""
    doc = srv.client.get("/openapi.json").json()
    paths = doc["paths"]
    for status in ("401", "403", "404", "409", "413", "422", "429"):
        declared = paths["/api/games/{game_id}"]["get"]["responses"][status]["content"]["application/json"]
        assert declared["schema"]["$ref"].endswith("/ErrorOut")
    assert "HTTPValidationError" not in doc["components"]["schemas"]
    for path, media_type in (("/api/tournaments/{tournament_id}/standings.csv", "text/csv"),
                             ("/api/tournaments/{tournament_id}/standings.xlsx",
                              "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
                             ("/api/games/{game_id}/sheet.csv", "text/csv"),
                             ("/api/games/{game_id}/online/join-qr.svg", "image/svg+xml")):
        assert list(paths[path]["get"]["responses"]["200"]["content"]) == [media_type], path
    # the bounds of ids are in the schema too: clients and the fuzzer keep within them
    tid = next(p for p in paths["/api/tournaments/{tournament_id}"]["get"]["parameters"] if p["name"] == "tournament_id")
    assert (tid["schema"]["minimum"], tid["schema"]["maximum"]) == (1, 2**31 - 1)
