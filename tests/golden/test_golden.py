"""Golden game records: whole games replayed through ``sportmafia replay FILE --json``.

The records are written by ``build.py`` (scripted commands); the outcomes they must replay to are written
by hand in ``expected.json``, reasoned from the rulebook. Records the engine plays differently from the
rulebook are listed in ``KNOWN.md`` instead. Further tests: every hard case of the rulebook is covered by
some record (by its ``meta.covers`` and by what its events show), and tampered records are refused with
the event index and the clause.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sportmafia.cli import app
from sportmafia.engine import EVENTS, RecordError, replay

GOLDEN = Path(__file__).resolve().parent
EXPECTED: dict[str, Any] = {
    k: v for k, v in json.loads((GOLDEN / "expected.json").read_text(encoding="utf-8")).items()
    if not k.startswith("_")
}
RECORDS: dict[str, Path] = {p.stem: p for p in sorted(GOLDEN.glob("*.json")) if p.name != "expected.json"}
KNOWN: set[str] = set(re.findall(r"^## `([\w.-]+)\.json`", (GOLDEN / "KNOWN.md").read_text(encoding="utf-8"),
                                 re.MULTILINE))
NIGHT_STEPS = {"meet_black", "meet_don", "meet_sheriff", "meet_commissar", "shooting", "kill", "check_don",
               "check_sheriff", "check_commissar"}
RULE_CLAUSE = re.compile(r"^[ABFT]\.[\w.-]+$")

runner = CliRunner()


def run_replay(path: Path) -> tuple[int, str, str]:
    """Exit code, stdout, and stderr with whitespace collapsed (the console wraps long lines)."""
    result = runner.invoke(app, ["replay", str(path), "--json"])
    return result.exit_code, result.stdout, " ".join(result.stderr.split())


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORDS[name].read_text(encoding="utf-8"))
    return data


# --------------------------------------------------------------------------------------------------------
# reading a record's events (undone actions left out)
def effective_events(record: dict[str, Any]) -> list[dict[str, Any]]:
    events = record["events"]
    undone = {e["seq"] for e in events if e["type"] == "undone"}
    out, group = [], -1
    for i, ev in enumerate(events):
        if EVENTS[ev["type"]].action:
            group = i
        if ev["type"] != "undone" and group not in undone:
            out.append(ev)
    return out


@dataclass
class At:
    """Where the game stood just before an event."""

    step: str = "deal"
    day: int = 0
    seat: int = 0
    alive: int = 0
    spoken: set[int] = field(default_factory=set)

    @property
    def night(self) -> bool:
        return self.step in NIGHT_STEPS


def walk(record: dict[str, Any]) -> Iterator[tuple[dict[str, Any], At]]:
    at = At(alive=record["players"])
    for ev in effective_events(record):
        yield ev, at
        at = At(at.step, at.day, at.seat, at.alive, set(at.spoken))
        if ev["type"] == "step":
            if ev["day"] != at.day:
                at.spoken = set()
            at.step, at.day, at.seat = ev["step"], ev["day"], ev["seat"]
            if at.step in ("speech", "muted"):
                at.spoken.add(at.seat)
        elif ev["type"] == "player_left":
            at.alive -= 1


def of_type(record: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [ev for ev in effective_events(record) if ev["type"] == kind]


# --------------------------------------------------------------------------------------------------------
# the outcome of every record
def test_enough_records() -> None:
    assert len(RECORDS) >= 30, sorted(RECORDS)


def test_every_record_has_an_expectation() -> None:
    missing = sorted(set(RECORDS) - set(EXPECTED) - KNOWN)
    assert not missing, f"records with no expectation in expected.json (nor in KNOWN.md): {missing}"
    both = sorted(set(EXPECTED) & KNOWN)
    assert not both, f"records both expected and known to disagree: {both}"


def test_every_expectation_has_a_record() -> None:
    assert not sorted(set(EXPECTED) - set(RECORDS)), "expectations without a record"
    assert not sorted(KNOWN - set(RECORDS)), "KNOWN.md names records that do not exist"


def _extras(record: dict[str, Any]) -> dict[str, Any]:
    """What the record's events show beyond the summary (the replay proved the engine draws them)."""
    walked = list(walk(record))
    evs = [ev for ev, _ in walked]
    moves = [ev for ev in evs if ev["type"] == "best_move_named"]
    protests = [ev for ev in evs if ev["type"] == "protest_voted"]
    return {
        "votes": [f"{ev['kind']}:{ev['outcome']}" for ev in evs if ev["type"] == "vote_result"],
        "ballots": [[ev["kind"], ev["candidates"]] for ev in evs if ev["type"] == "voting_started"],
        "muted": [[ev["seat"], ev["day"]] for ev in evs if ev["type"] == "muted"],
        "muted_speeches": [[ev["seat"], ev["day"], ev["seconds"]] for ev in evs
                           if ev["type"] == "step" and ev["step"] == "muted"],
        "cancelled": [ev["day"] for ev in evs if ev["type"] == "vote_cancelled"],
        "kills": [ev["killed"] for ev in evs if ev["type"] == "night_result"],
        "best_move": ({"seat": moves[-1]["seat"], "guesses": moves[-1]["guesses"], "black": moves[-1]["black"]}
                      if moves else None),
        "protest": protests[-1]["passed"] if protests else None,
        "undone": sum(1 for ev in record["events"] if ev["type"] == "undone"),
    }


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_record_replays_to_the_expected_outcome(name: str) -> None:
    code, out, err = run_replay(RECORDS[name])
    assert code == 0, err
    got = json.loads(out)
    want = EXPECTED[name]
    assert got["winner"] == want["winner"], (got["winner"], want["winner"])
    assert got["result"] == want["result"], (got["result"], want["result"])
    departures = [[d["seat"], d["how"], d["day"]] for d in got["departures"]]
    assert departures == want["departures"]
    if "events" in want:
        assert got["events"] == want["events"]
    extras = _extras(load(name))
    for key, value in want.items():
        if key in extras:
            assert extras[key] == value, f"{key}: the game shows {extras[key]}, expected {value}"


def test_known_disagreements_still_replay() -> None:
    """Records the engine plays differently from the rulebook (KNOWN.md) must still replay; when the engine
    is fixed they stop replaying: finish the scenario, rebuild and move the expectation to expected.json."""
    for name in sorted(KNOWN):
        code, _, err = run_replay(RECORDS[name])
        assert code == 0, f"{name} no longer replays (engine changed? see KNOWN.md): {err}"


def test_build_script_describes_every_record() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("golden_build", GOLDEN / "build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert set(module.SCENARIOS) == set(RECORDS)
    for name, (title, covers, _) in module.SCENARIOS.items():
        meta = load(name)["meta"]
        assert meta == {"title": title, "covers": covers}, f"{name}: rebuild the records (build.py)"


# --------------------------------------------------------------------------------------------------------
# every hard case is covered
def _tie_changes_number(r: dict[str, Any]) -> bool:
    sizes: dict[int, list[int]] = {}
    for ev, at in walk(r):
        if ev["type"] == "vote_result" and ev["outcome"] == "tie":
            sizes.setdefault(at.day, []).append(len(ev["leaving"]))
    return any(a != b for s in sizes.values() for a, b in pairwise(s))


def _lift_at(alive: int, outcome: str, tied: int) -> Callable[[dict[str, Any]], bool]:
    def check(r: dict[str, Any]) -> bool:
        for ev, at in walk(r):
            if ev["type"] != "vote_result" or ev["outcome"] != outcome or at.alive != alive:
                continue
            if outcome == "lift" and len(ev["leaving"]) == tied:
                return True
            if outcome == "no-lift" and len(ev["tally"]) == tied:
                return True
        return False
    return check


def _event(kind: str, **match: Any) -> Callable[[dict[str, Any]], bool]:
    return lambda r: any(all(ev.get(k) == v for k, v in match.items()) for ev in of_type(r, kind))


def _preset(r: dict[str, Any]) -> str:
    name: str = r["ruleset"]["name"]
    return name.split("-")[0]


def _removal_while(r: dict[str, Any], where: Callable[[At], bool]) -> bool:
    return any(ev["type"] in ("removed", "expelled") and where(at) for ev, at in walk(r))


def _third_foul_before_speech(r: dict[str, Any]) -> bool:
    pairs = [(ev["seat"], ev["day"]) for ev, at in walk(r)
             if ev["type"] == "muted" and not at.night and ev["day"] == at.day and ev["seat"] not in at.spoken]
    spoke_muted = {(ev["seat"], ev["day"]) for ev in of_type(r, "step") if ev["step"] == "muted"}
    return any(p in spoke_muted for p in pairs)


def _third_foul_in_own_speech(r: dict[str, Any]) -> bool:
    return any(ev["type"] == "muted" and at.step == "speech" and at.seat == ev["seat"] and ev["day"] == at.day + 1
               for ev, at in walk(r))


def _short_speech(r: dict[str, Any]) -> bool:
    return any(ev["type"] == "step" and ev["step"] == "muted" and ev["seconds"] == 30 and at.alive in (3, 4)
               for ev, at in walk(r))


def _leader_counts(r: dict[str, Any]) -> Iterator[tuple[list[int], list[int]]]:
    """For each leaders vote: the nomination counts of that day (highest first) and the leaders."""
    counts: Counter[int] = Counter()
    day = -1
    for ev, at in walk(r):
        if at.day != day:
            counts, day = Counter(), at.day
        if ev["type"] == "nominated":
            counts[ev["target"]] += 1
        elif ev["type"] == "voting_started" and ev["kind"] == "leaders":
            yield sorted(counts.values(), reverse=True), ev["candidates"]


def _leaders_tie_first(r: dict[str, Any]) -> bool:
    return any(len(c) >= 2 and c[0] == c[1] and len(leaders) == c.count(c[0]) for c, leaders in _leader_counts(r))


def _leaders_tie_second(r: dict[str, Any]) -> bool:
    return any(len(c) >= 3 and c[0] > c[1] == c[2] and len(leaders) == 1 + c.count(c[1])
               for c, leaders in _leader_counts(r))


def _first_free(r: dict[str, Any]) -> bool:
    return any(ev["named"] and ev["target"] != ev["named"][0] for ev in of_type(r, "nominated"))


def _table(n: int) -> Callable[[dict[str, Any]], bool]:
    return lambda r: r["players"] == n and _preset(r) == "tournament"


CASES: list[tuple[str, str, Callable[[dict[str, Any]], bool]]] = [
    ("a revote ties a different number of players", "A.tie.again", _tie_changes_number),
    ("lift vote at 4 players: two tied lifted", "A.tie.four", _lift_at(4, "lift", 2)),
    ("lift vote at 9 players: three tied not lifted", "A.tie.nine", _lift_at(9, "no-lift", 3)),
    ("the whole table tied", "A.tie.all", _event("vote_result", outcome="all-tied")),
    ("club: removal in the day", "A.remove.day",
     lambda r: _preset(r) == "club" and _event("vote_cancelled", clause="A.remove.day")(r)),
    ("club: removal during voting", "A.remove.vote",
     lambda r: _preset(r) == "club" and _removal_while(r, lambda at: at.step in ("voting", "lift", "tie_speech"))),
    ("club: removal at night", "A.remove.night",
     lambda r: _preset(r) == "club" and _removal_while(r, lambda at: at.night)),
    ("fiim: a removal cancels a vote", "F.remove.vote", _event("vote_cancelled", clause="F.remove.vote")),
    ("third foul before one's own speech", "A.foul.three", _third_foul_before_speech),
    ("third foul during one's own speech", "A.foul.three", _third_foul_in_own_speech),
    ("third foul at 3-4 players: short speech", "A.foul.short", _short_speech),
    ("three misses", "A.night.misses", _event("game_ended", result="misses")),
    ("three nights without a kill at four players", "A.night.four", _event("game_ended", result="four-nights")),
    ("withdrawal", "A.nom.withdraw", _event("withdrawn")),
    ("several numbers named: the first free one", "A.nom.first-free", _first_free),
    ("day 1: a single candidate", "A.vote.day1-single", _event("vote_result", outcome="single-day1")),
    ("tournament leaders: tie on first place", "B.leaders", _leaders_tie_first),
    ("tournament leaders: tie on second place", "B.leaders", _leaders_tie_second),
    ("the lot", "B.lot", _event("lot_drawn")),
    ("a tie in the final vote sends all leaders out", "B.tie", _event("vote_result", outcome="tie-out")),
    ("a 15-player table", "B.table", _table(15)),
    ("a 16-player table", "B.table", _table(16)),
    ("an awarded win", "A.award", _event("game_ended", result="award")),
    ("a team defeat", "F.team-defeat", _event("game_ended", result="team-defeat")),
    ("a judge's override", "A.judge", _event("overridden")),
    ("a protest that passes", "A.protest", _event("protest_voted", passed=True)),
    ("a protest that fails", "A.protest", _event("protest_voted", passed=False)),
    ("fiim best move", "F.bestmove", _event("best_move_named")),
    ("fiim draw", "F.draw", _event("game_ended", result="draw")),
    ("undo, kept in the log as undone", "undo", lambda r: any(ev["type"] == "undone" for ev in r["events"])),
]


@pytest.mark.parametrize(("case", "clause", "shows"), CASES, ids=[c[0] for c in CASES])
def test_case_is_covered(case: str, clause: str, shows: Callable[[dict[str, Any]], bool]) -> None:
    """Some record with an expectation names the clause in ``meta.covers`` and its events show the case."""
    claimed = [n for n in sorted(EXPECTED) if clause in load(n)["meta"]["covers"]]
    assert claimed, f"no record covers {clause}"
    assert any(shows(load(n)) for n in claimed), f"{case}: none of {claimed} shows it"


def test_covers_are_clause_ids() -> None:
    """``meta.covers`` names rulebook clauses (the shared rulebook, or the project's docs/rules), or "undo"
    (the host's undo, which the rulebook states without an id)."""
    texts = [p.read_text(encoding="utf-8") for p in (GOLDEN.parent.parent / "docs" / "rules").glob("*.md")]
    rulebook = GOLDEN.parent.parent.parent / "shared" / "docs" / "RULEBOOK.md"
    if rulebook.exists():
        texts.append(rulebook.read_text(encoding="utf-8"))
    ids = {m for text in texts for m in re.findall(r"(?:\*\*|### )([ABFT]\.[\w.-]*\w)", text)}
    for name in RECORDS:
        for clause in load(name)["meta"]["covers"]:
            if clause == "undo":
                continue
            assert RULE_CLAUSE.match(clause), (name, clause)
            assert not ids or clause in ids, f"{name}: {clause} is not a rulebook clause"


# --------------------------------------------------------------------------------------------------------
# tampered records are refused
BASE = "club_plain_red_win"
EVENT_ERROR = re.compile(r"event (\d+): \[([^\]]+)\]")


def _write(tmp_path: Path, record: dict[str, Any]) -> Path:
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def _refused(tmp_path: Path, record: dict[str, Any]) -> tuple[int, str]:
    """Replay a tampered record: it must exit non-zero; return the event index and clause it names."""
    code, out, err = run_replay(_write(tmp_path, record))
    assert code != 0 and not out, (code, out)
    m = EVENT_ERROR.search(err)
    assert m, f"no 'event N: [clause]' in: {err}"
    return int(m.group(1)), m.group(2)


def _library_error(record: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(copy.deepcopy(record))
    return info.value


def _index(events: list[dict[str, Any]], kind: str, after: int = 0) -> int:
    return next(i for i, ev in enumerate(events) if i >= after and ev["type"] == kind)


def test_the_untouched_record_replays(tmp_path: Path) -> None:
    code, out, err = run_replay(_write(tmp_path, load(BASE)))
    assert code == 0, err
    assert json.loads(out)["winner"] == "red"


def test_changed_vote_is_refused(tmp_path: Path) -> None:
    record = load(BASE)
    i = _index(record["events"], "vote_cast")
    assert record["events"][i]["candidate"] == 4
    record["events"][i]["candidate"] = 9                       # 9 is not the candidate being voted on
    assert _refused(tmp_path, record) == (i, "A.vote.one")


def test_changed_vote_for_a_leader_is_refused_at_the_result(tmp_path: Path) -> None:
    """In a tournament vote any leader may get the hand: the change shows at the count (A.vote.result)."""
    record = load("tour12_leaders_tie_first")
    i = _index(record["events"], "vote_cast")
    assert record["events"][i]["candidate"] == 2
    record["events"][i]["candidate"] = 7
    index, clause = _refused(tmp_path, record)
    assert index > i and record["events"][index]["type"] in ("vote_result", "player_left")
    assert RULE_CLAUSE.match(clause), clause


def test_deleted_consequence_is_refused(tmp_path: Path) -> None:
    record = load(BASE)
    k = _index(record["events"], "advanced") + 1
    assert record["events"][k]["type"] == "step"
    del record["events"][k]
    index, clause = _refused(tmp_path, record)
    assert index == k and RULE_CLAUSE.match(clause), (index, clause)


def test_deleted_vote_is_refused(tmp_path: Path) -> None:
    record = load(BASE)
    k = _index(record["events"], "vote_cast")
    del record["events"][k]                                     # one hand fewer: the count differs
    index, clause = _refused(tmp_path, record)
    assert index >= k and clause.startswith("A.vote."), (index, clause)


def test_deleted_last_event_is_refused(tmp_path: Path) -> None:
    record = load(BASE)
    assert record["events"][-1]["type"] == "game_ended"
    del record["events"][-1]
    index, clause = _refused(tmp_path, record)
    assert index == len(record["events"]) and clause == "A.win"


def _stray_consequence(record: dict[str, Any]) -> int:
    """Insert a departure that no action drew, just before an action (between two groups)."""
    k = _index(record["events"], "nominated")
    record["events"].insert(k, {"type": "player_left", "seat": 5, "how": "vote", "day": 1, "night": False})
    return k


def _malformed(record: dict[str, Any]) -> int:
    k = _index(record["events"], "vote_cast")
    record["events"][k] = {"type": "vote_cast", "voter": "one", "candidate": 4}
    return k


def _unknown_type(record: dict[str, Any]) -> int:
    k = _index(record["events"], "shot_fired")
    record["events"][k] = {"type": "poisoned", "seat": 1}
    return k


def test_format_errors_name_index_and_clause_in_the_library() -> None:
    """The engine's RecordError: the event index and the clause ("record" is the record format's clause)."""
    for tamper in (_stray_consequence, _malformed, _unknown_type):
        record = load(BASE)
        k = tamper(record)
        err = _library_error(record)
        assert (err.index, err.clause) == (k, "record"), (tamper.__name__, str(err))
        assert str(err).startswith(f"event {k}: [record]")
    record = load(BASE)
    record["version"] = 99
    err = _library_error(record)
    assert err.index is None and err.clause == "record" and "99" in str(err)


@pytest.mark.parametrize("tamper", [_stray_consequence, _malformed, _unknown_type], ids=lambda f: f.__name__)
def test_format_error_names_index(tmp_path: Path, tamper: Callable[[dict[str, Any]], int]) -> None:
    record = load(BASE)
    k = tamper(record)
    code, out, err = run_replay(_write(tmp_path, record))
    assert code != 0 and not out
    assert f"event {k}:" in err, err


@pytest.mark.parametrize("tamper", [_stray_consequence, _malformed, _unknown_type], ids=lambda f: f.__name__)
def test_format_error_names_clause_in_the_cli(tmp_path: Path, tamper: Callable[[dict[str, Any]], int]) -> None:
    record = load(BASE)
    k = tamper(record)
    assert _refused(tmp_path, record) == (k, "record")


def test_unknown_version_is_refused(tmp_path: Path) -> None:
    record = load(BASE)
    record["version"] = 99
    code, out, err = run_replay(_write(tmp_path, record))
    assert code != 0 and not out
    assert "version 99" in err, err


def test_unknown_version_names_clause_in_the_cli(tmp_path: Path) -> None:
    record = load(BASE)
    record["version"] = 99
    _, _, err = run_replay(_write(tmp_path, record))
    assert "record: [record] unsupported version 99" in err, err
