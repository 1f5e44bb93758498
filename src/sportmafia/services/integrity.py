"""A database verified as a whole (``sportmafia check``, docs/deploy.md "Backups and restore"): after a restore,
before the server is pointed at it, and whenever an operator wants to know that the log of truth is whole.

- the schema is ours and at the code's last migration;
- every game's log has the seqs ``0 .. next_seq - 1`` with no gap, re-runs through the engine command by
  command into the very events stored (:func:`sportmafia.engine.replay`), and folds into the summary its row
  holds (status, winner, result);
- a signed sheet is a finished game's, with its signer; corrections are of finished games, and the sheet with
  every correction applied is made;
- each player's and each club's statistics kept as games end are those of the index;
- a tournament's game seats as many participants as the game has seats, an accepted sheet is signed, and
  every tournament's standings (and its final's, once there are finalists) are computed.

Read-only: nothing is written, nothing migrated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..engine import Game, RecordError, replay
from ..store import Store
from ..store import integrity as db
from ..store import seasons as seasons_db
from ..store.records import StoreError
from ..store.tournaments import TournamentNotFound
from .errors import Refusal
from .sheets import sheet
from .tournament import TournamentService


@dataclass
class Report:
    """What the check found: the counts, and every problem as a line naming where it is."""

    revision: db.Revision
    counts: db.Counts | None = None
    over: int = 0
    signed: int = 0
    corrected: int = 0
    tournament_games: int = 0
    accepted: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        """The summary an operator reads, the problems last."""
        r = self.revision
        if not r.tables:
            schema = "no sportmafia tables here (an empty database, or another schema or database than the backup's)"
        else:
            schema = f"schema at revision {r.current} (the code's head: {r.head})"
        out = [schema]
        c = self.counts
        if c is not None:
            out += [f"clubs {c.clubs}, users {c.users}, tournaments {c.tournaments}",
                    f"games {c.games}: events {c.events}, over {self.over}, signed {self.signed}, "
                    f"sheets corrected {self.corrected}",
                    f"tournament games {self.tournament_games}, accepted {self.accepted}"]
        out += [f"PROBLEM {p}" for p in self.problems]
        out.append("OK: every log replays into what the database holds" if self.ok else
                   f"{len(self.problems)} problem(s)")
        return out


def _status(game: Game) -> str:
    """The status a game's row holds for the game its log folds to."""
    return "over" if game.over else ("dealing" if game.step == "deal" else "playing")


def _game_problems(store: Store, row: db.GameRow) -> list[str]:
    where = f"game {row.id}:"
    seqs = db.event_seqs(store, row.id)
    if seqs != list(range(row.next_seq)):
        missing = sorted(set(range(row.next_seq)) - set(seqs))[:5]
        return [f"{where} {len(seqs)} events stored, its row says next_seq {row.next_seq} "
                f"(missing seqs {missing}, last stored {seqs[-1] if seqs else None})"]
    try:
        game = store.load(row.id)
        replayed = replay(store.record(row.id))
    except RecordError as exc:
        return [f"{where} the log does not replay under its rules: {exc}"]
    except (StoreError, ValueError, TypeError, KeyError) as exc:
        return [f"{where} the log cannot be read: {type(exc).__name__}: {exc}"]
    problems = []
    if replayed.snapshot() != game.snapshot():
        problems.append(f"{where} the replayed game differs from the folded one")
    held = (row.status, row.winner, row.result)
    folded = (_status(game), game.winner, game.result if game.over else None)
    if held != folded:
        problems.append(f"{where} its row holds (status, winner, result) {held}, its log folds to {folded}")
    if (row.signed_at is None) != (row.signed_by is None):
        problems.append(f"{where} signed_at and signed_by disagree")
    if (row.signed_at is not None or row.corrections) and not game.over:
        problems.append(f"{where} a sheet signed or corrected, but the game is not over")
    elif game.over:
        try:
            sheet(store, row.id)
        except (Refusal, StoreError, ValueError, KeyError) as exc:
            problems.append(f"{where} its sheet cannot be made: {type(exc).__name__}: {exc}")
    problems += _index_problems(store, row.id, game)
    return problems


def _index_problems(store: Store, game_id: str, game: Game) -> list[str]:
    """The index of finished games against the log (docs/seasons.md): a finished game indexed with the facts its
    log gives, an unfinished one not indexed."""
    where = f"game {game_id}:"
    indexed = seasons_db.indexed_facts(store, game_id)
    if not game.over:
        return [] if indexed is None else [f"{where} not over, but in the index of finished games"]
    if indexed is None:
        return [f"{where} over, but not in the index of finished games (sportmafia reindex)"]
    if indexed != seasons_db.expected_facts(store, game_id, game):
        return [f"{where} its index differs from the facts of its log (sportmafia reindex --all)"]
    return []


def _tournament_problems(store: Store, rows: dict[str, db.GameRow], report: Report) -> list[str]:
    problems = []
    for link in db.tournament_links(store):
        report.tournament_games += 1
        report.accepted += link.accepted_at is not None
        game = rows.get(link.game_id)
        where = f"tournament {link.tournament_id}, game {link.game_id}:"
        if game is None:
            problems.append(f"{where} no such game")
            continue
        if len(link.seats) != game.players:
            problems.append(f"{where} {len(link.seats)} participants seated at a table of {game.players}")
        if link.accepted_at is not None and game.signed_at is None:
            problems.append(f"{where} accepted, but its sheet is not signed")
    svc = TournamentService(store)
    for tid in db.tournament_ids(store):
        try:
            t = svc.get(tid)
            svc.standings(t)
            if t.finalists is not None:
                svc.final_standings(t)
        except (Refusal, TournamentNotFound, StoreError, ValueError, KeyError, AssertionError) as exc:
            problems.append(f"tournament {tid}: its standings cannot be computed: {type(exc).__name__}: {exc}")
    return problems


def check(store: Store, progress: Callable[[int, int], None] | None = None) -> Report:
    """Check the database of ``store`` as a whole (see the module); ``progress(done, total)`` after each game."""
    report = Report(db.revision(store))
    rev = report.revision
    if not rev.tables:
        report.problems.append("the database holds no sportmafia tables")
        return report
    if rev.current != rev.head:
        report.problems.append(f"the schema is at revision {rev.current}, the code's is {rev.head} "
                               "(the server migrates on start; check a backup with the version that made it)")
        return report
    report.counts = db.counts(store)
    rows = {}
    for row in db.game_rows(store):
        rows[row.id] = row
        problems = _game_problems(store, row)
        report.problems += problems
        report.over += row.status == "over"
        report.signed += row.signed_at is not None
        report.corrected += row.corrections > 0
        if progress is not None:
            progress(len(rows), report.counts.games)
    report.problems += _tournament_problems(store, rows, report)
    report.problems += [f"{who}: the statistics kept as games end differ from those of the index "
                        "(sportmafia reindex --all)" for who in seasons_db.miscounted(store)]
    return report
