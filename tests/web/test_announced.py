"""B.announce (seed B 7.2): the tournament's scheme (scoring, tie-breaks, the final's settings) is announced
before round 1; once round 1 is opened a change needs the judge's reason, is recorded (who, when, old -> new,
why) and is listed on the public standings and in the tournament's settings."""

from __future__ import annotations

import pytest

from .conftest import Api, own_client
from .test_tournaments_api import club_tournament, create, patch


@pytest.mark.clause("B.announce")
def test_after_round_1_the_scheme_changes_only_with_a_reason_shown_publicly(api: Api) -> None:
    tid, _ids, _host_id, host = club_tournament(api)
    # before round 1: free, nothing recorded
    r = patch(api, f"/api/tournaments/{tid}", {"tie_breaks": ["points", "wins"], "published": True})
    assert r.status_code == 200, r.text
    assert r.json()["rule_changes"] == []
    assert api.post(f"/api/tournaments/{tid}/rounds/1/open").status_code == 200
    # after: refused without a reason, naming the rule, in both languages; nothing written
    for body in ({"scoring": "fiim"}, {"tie_breaks": ["points", "fewer_games"]}, {"final": {"finalists": 4}}):
        r = patch(api, f"/api/tournaments/{tid}", body)
        assert r.status_code == 409, (body, r.text)
        error = r.json()["error"]
        assert error["code"] == "announced" and error["clause"] == "B.announce", error
        assert "7.2" in error["en"] and "Первый тур начался" in error["ru"]
    blank = patch(api, f"/api/tournaments/{tid}", {"tie_breaks": ["points", "fewer_games"], "reason": "   "})
    assert blank.status_code == 422 and blank.json()["details"][0]["loc"] == ["body", "reason"]
    t = api.get(f"/api/tournaments/{tid}").json()
    assert t["tie_breaks"] == ["points", "wins"] and t["scoring"]["name"] == "regulation"
    assert t["final"]["finalists"] == 12
    # a judge's setting that is not announced, or the same value again, needs no reason
    assert patch(api, f"/api/tournaments/{tid}", {"name": "Cup 2", "tie_breaks": ["points", "wins"]}).status_code == 200
    # the host is no judge: still 403 with a reason
    r = patch(host, f"/api/tournaments/{tid}", {"tie_breaks": ["points"], "reason": "mine"})
    assert r.status_code == 403
    # with the reason: changed and recorded, old -> new
    r = patch(api, f"/api/tournaments/{tid}",
              {"tie_breaks": ["points", "fewer_games"], "final": {"finalists": 4}, "reason": "Two players left"})
    assert r.status_code == 200, r.text
    changes = r.json()["rule_changes"]
    assert [(c["setting"], c["old"], c["new"], c["reason"], c["by"]) for c in changes] == [
        ("tie_breaks", ["points", "wins"], ["points", "fewer_games"], "Two players left", "admin"),
        ("final_settings", {"finalists": 12, "games_each": 3, "carry_over": True},
         {"finalists": 4, "games_each": 3, "carry_over": True}, "Two players left", "admin")]
    assert all(c["at"] for c in changes)
    # the public standings list them, without a login
    anon = Api(own_client(api.client), api.store, api.club_id)
    public = anon.get(f"/api/public/tournaments/{tid}/standings").json()
    assert [c["setting"] for c in public["rule_changes"]] == ["tie_breaks", "final_settings"]
    assert public["tie_breaks"] == ["points", "fewer_games"]


def test_a_tournament_not_started_records_nothing(api: Api) -> None:
    tid = create(api)
    r = patch(api, f"/api/tournaments/{tid}", {"scoring": "fiim", "reason": "just because"})
    assert r.status_code == 200 and r.json()["rule_changes"] == []
