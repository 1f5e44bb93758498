"""Sanctions across a tournament's games (B.sanctions): each offence of the regulation's table with its
ladder of steps, and a participant's offences counted over all his games.

The engine applies the table inside one game (a second offence of a kind in the same game gets the next
step). A player removed from the round for opening his eyes has left that game, so his repetition can only
come in a later game, where the engine starts counting again. The tournament counts here instead: every
offence the hosts recorded on the sheets, and every offence the judge records, in the order of the rounds;
the n-th offence of a kind is due the ladder's n-th step (the last step repeats). Where a game applied
less than is due, the entry is *pending*: its step is applied as a tournament sanction (automatically
when the seed names the repetition, "при повторе"; on the judge's confirmation when it is a judgement,
"при систематическом нарушении").

Pure: plain data in, plain data out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..i18n import Text, msg, pmsg
from .groups import TournamentError
from .results import GameResult

RANK = {"warning": 0, "game": 1, "round": 2, "tournament": 3, "disqualification": 3, "ban": 4}
"""How far a step reaches: a disqualification and a removal from the tournament both end the tournament."""


@dataclass(frozen=True)
class Step:
    """One step of a ladder: ``step`` (warning, game, round, tournament, disqualification, ban);
    ``confirm``: the judge confirms it (the seed's "systematic": a judgement, not a count)."""

    step: str
    confirm: bool = False


@dataclass(frozen=True)
class Ladder:
    """An offence of the seed's table and its steps in order of repetition (the last repeats).
    ``per_game``: the repetition counts within one game only (the step is "removal from the game")."""

    offence: str
    steps: tuple[Step, ...]
    words: Text
    """The seed's words (a message of the catalogs)."""
    per_game: bool = False

    @property
    def seed(self) -> str:
        """The seed's own words, as the (Russian) regulation says them."""
        return self.words.render("ru")


LADDERS: dict[str, Ladder] = {ladder.offence: ladder for ladder in (
    Ladder("card_info", (Step("disqualification"),),
           pmsg("sanction ladder", "immediate disqualification and removal from the tournament")),
    Ladder("rudeness", (Step("warning"), Step("disqualification")),
           pmsg("sanction ladder", "a warning; when repeated, disqualification and removal from the tournament")),
    Ladder("eyes_open", (Step("round"), Step("disqualification")),
           pmsg("sanction ladder", "removal from the round. When repeated, disqualification and removal from the "
                                   "tournament")),
    Ladder("disruption", (Step("ban"),),
           pmsg("sanction ladder", "removal from the tournament with a ban from later tournaments")),
    Ladder("gestures", (Step("warning"), Step("game")),
           pmsg("sanction ladder", "a warning; when repeated, removal from the game"), per_game=True),
    Ladder("drunk", (Step("tournament"),), pmsg("sanction ladder", "removal from the tournament")),
    Ladder("arguing", (Step("warning"), Step("warning"), Step("round"), Step("disqualification", confirm=True)),
           pmsg("sanction ladder", "two warnings, then removal from the round. When systematic, disqualification")),
)}


def due_step(offence: str, number: int) -> Step:
    """The step due for the ``number``-th (from 1) offence of a kind."""
    ladder = LADDERS.get(offence)
    if ladder is None:
        raise TournamentError("B.sanctions", msg("unknown offence %(offence)s; known: %(known)s",
                                                 offence=repr(offence), known=", ".join(LADDERS)))
    if number < 1:
        raise ValueError("offences are counted from 1")
    return ladder.steps[min(number, len(ladder.steps)) - 1]


@dataclass(frozen=True)
class Offence:
    """An offence as recorded: on a game's sheet (``source="game"``, by the host) or by the judge
    (``source="judge"``). ``applied``: the step recorded with it; ``order``: its place in time (round first)."""

    participant: str
    offence: str
    applied: str
    source: str
    order: tuple[int, ...]
    game_id: str = ""
    round: int | None = None
    table: int | None = None
    by: int | None = None
    accepted: bool = True
    """A game's offence counts once its sheet is accepted; until then it is shown but applies nothing."""
    id: int | None = None
    """The judge's record's id."""
    reason: str = ""


@dataclass(frozen=True)
class Entry:
    """An offence in a participant's history: the ``number``-th of its kind, the step ``due``, the steps
    applied (``applied``, then any escalation), and whether the due step still waits (``pending``)."""

    offence: Offence
    number: int
    due: Step
    escalated: str | None = None
    pending: bool = False
    steps: tuple[str, ...] = field(default=())


def history(offences: Iterable[Offence], escalations: Mapping[tuple[str, str, str], str] | None = None
            ) -> dict[str, list[Entry]]:
    """Each participant's offences in order, numbered per kind (per game for a per-game ladder), with the
    step due. ``escalations``: (participant, game id, offence) -> the step the judge (or the acceptance)
    applied beyond what the game applied."""
    escalations = escalations or {}
    out: dict[str, list[Entry]] = {}
    counts: dict[tuple[str, str, str], int] = {}
    for o in sorted(offences, key=lambda o: (o.participant, o.order)):
        ladder = LADDERS.get(o.offence)
        entries = out.setdefault(o.participant, [])
        if ladder is None:  # a removal for another reason: listed, not counted
            entries.append(Entry(o, 0, Step(o.applied), steps=(o.applied,)))
            continue
        key = (o.participant, o.offence, o.game_id if ladder.per_game else "")
        counts[key] = counts.get(key, 0) + 1
        due = due_step(o.offence, counts[key])
        extra = escalations.get((o.participant, o.game_id, o.offence)) if o.source == "game" else None
        reached = max(RANK[o.applied], RANK[extra] if extra else -1)
        steps = (o.applied,) + ((extra,) if extra else ())
        entries.append(Entry(o, counts[key], due, extra, o.accepted and RANK[due.step] > reached, steps))
    return out


def from_sheet(result: GameResult, order: tuple[int, ...], *, round_: int | None = None, table: int | None = None,
               by: int | None = None, accepted: bool = True) -> list[Offence]:
    """The offences a game's sheet records: each sanction of the table the host gave (with the step the game
    applied), and a removal for another reason (listed with its scope, not counted). ``order``: the game's
    place in the tournament (e.g. (stage, round, table))."""
    out: list[Offence] = []
    for p in result.players:
        for i, (offence, step) in enumerate(p.offences):
            out.append(Offence(p.participant, offence, step, "game", (*order, i), result.game_id, round_, table,
                               by, accepted))
        if p.removed and not any(step == p.removed for _o, step in p.offences):
            out.append(Offence(p.participant, p.removal_reason or "removal", p.removed, "game",
                               (*order, len(p.offences)), result.game_id, round_, table, by, accepted,
                               reason=p.removal_reason or ""))
    return out


def next_step(entries: Sequence[Entry], offence: str) -> tuple[int, Step]:
    """The number and the step due for a new offence of ``offence`` after a participant's ``entries``
    (the judge's own record: counted across the tournament even for a per-game ladder's kind)."""
    number = 1 + sum(1 for e in entries if e.offence.offence == offence and e.number)
    return number, due_step(offence, number)


def automatic(entries: Iterable[Entry]) -> list[Entry]:
    """The pending entries whose step applies without the judge's confirmation (the seed's "при повторе")."""
    return [e for e in entries if e.pending and not e.due.confirm]


__all__ = ["LADDERS", "RANK", "Entry", "Ladder", "Offence", "Step", "automatic", "due_step", "from_sheet", "history",
           "next_step"]
