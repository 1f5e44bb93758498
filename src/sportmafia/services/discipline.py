"""Sanctions across a tournament's games and bans carried forward (B.sanctions), on the stored tournament.

Like :mod:`.service` this module touches the database. The steps come from :mod:`.offences`: every offence
the hosts recorded on the sheets and every offence the judge records is numbered per kind over the
participant's games; what is due beyond what a game applied is recorded here:

- **automatically** when a sheet is accepted, for the steps the seed names as a repetition ("при повторе":
  a second eyes-open is a disqualification, a second rudeness too), by the accepting judge;
- **on the judge's confirmation** for the "systematic" step (arguing with the host after the removal from
  the round): the desk shows it as due, the judge applies it (``record`` with the game).

A step beyond a game is also a tournament sanction (``tournament_sanctions``: round, tournament,
disqualification), so standings and seating take it as before. A ban ("с запрещением участия в дальнейших
турнирах": deliberate disruption) disqualifies and enters the player in the club's list of bans; registering
a banned player in a later tournament of the club is refused unless the judge gives a reason to override.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..i18n import Text, msg, pmsg
from ..store import UserRecord
from ..store import bans as ban_db
from ..store import tournaments as tournament_db
from ..store.bans import BanRecord, OffenceRecord
from ..store.tournaments import NewParticipant, TournamentRecord
from ..tournament.offences import LADDERS, RANK, Entry, Offence, automatic, from_sheet, history, next_step
from .errors import Refusal

if TYPE_CHECKING:
    from .tournament.base import TournamentBase

STAGES = {"main": 0, "final": 1}
STEP_KINDS = {"round": "round", "tournament": "tournament", "disqualification": "disqualification",
              "ban": "disqualification"}
"""A step beyond a game -> the tournament sanction it records."""
MAX_REASON = 1000
_BAN_WORDS = pmsg("ban", "with a ban from later tournaments")
"""The seed's words for a ban, quoted as the (Russian) regulation says them."""


def _refusal(kind: str, code: str, text: Text, **extra: Any) -> Exception:
    return Refusal(kind, code, text, extra=extra, clause="B.sanctions")


class Discipline:
    """Offences, their steps and the club's bans, for one tournament service."""

    def __init__(self, svc: TournamentBase) -> None:
        self.svc = svc

    # --- the history ----------------------------------------------------------------------------------
    def offences(self, t: TournamentRecord) -> tuple[list[Offence], dict[tuple[str, str, str], str]]:
        """Every offence of the tournament (the sheets' and the judge's) and the escalations applied."""
        out: list[Offence] = []
        for g in tournament_db.games(self.svc.store, t.id):
            sheet = self.svc.link_sheet(g)
            if sheet.result is not None:
                out += from_sheet(sheet.result, (STAGES[g.stage], g.round, 0, g.table), round_=g.round,
                                  table=g.table, by=g.host_id, accepted=g.accepted_at is not None)
        escalations: dict[tuple[str, str, str], str] = {}
        for r in ban_db.offences(self.svc.store, t.id):
            if r.game_id:
                key = (str(r.participant_id), r.game_id, r.offence)
                if RANK[r.step] > RANK.get(escalations.get(key, "warning"), 0) or key not in escalations:
                    escalations[key] = r.step
            else:
                out.append(Offence(str(r.participant_id), r.offence, r.step, "judge", (0, r.round or 0, 1, r.id),
                                   round=r.round, by=r.user_id, id=r.id, reason=r.reason))
        return out, escalations

    def history(self, t: TournamentRecord) -> dict[str, list[Entry]]:
        offences, escalations = self.offences(t)
        return history(offences, escalations)

    # --- recording --------------------------------------------------------------------------------------
    def record(self, user: UserRecord, t: TournamentRecord, participant_id: int, offence: str, reason: str, *,
               game_id: str | None = None, round_: int | None = None) -> dict[str, Any]:
        """The judge records an offence: a new one (its step is the next due for the participant), or, with
        ``game_id``, the confirmation of the step due for that game's offence."""
        self.svc.require_judge(user, t)
        p = self.svc.participant(t, participant_id)
        reason = (reason or "").strip()
        if not reason:
            raise _refusal("invalid", "reason-required", msg("An offence needs a reason."))
        if offence not in LADDERS:
            raise _refusal("invalid", "bad-offence", msg("Unknown offence %(offence)s; known: %(known)s.",
                                                         offence=repr(offence), known=", ".join(LADDERS)))
        entries = self.history(t).get(str(p.id), [])
        if game_id is not None:
            due = [e for e in entries if e.offence.game_id == game_id and e.offence.offence == offence and e.pending]
            if not due:
                raise _refusal("conflict", "nothing-due", msg("Nothing is due for this offence of that game."))
            entry = due[0]
            return self._apply(user, t, p.id, p.nickname, p.user_id, offence, entry.due.step, reason,
                               game_id=game_id, round_=entry.offence.round, number=entry.number)
        number, step = next_step(entries, offence)
        rounds = int((t.seating or {}).get("rounds", 0))
        if round_ is None:
            opened = [g.round for g in tournament_db.games(self.svc.store, t.id, "main")]
            round_ = max(opened, default=1)
        if not 1 <= round_ <= max(rounds, 1):
            raise _refusal("invalid", "bad-sanction", msg("There is no round %(round)s.", round=round_))
        return self._apply(user, t, p.id, p.nickname, p.user_id, offence, step.step, reason, round_=round_,
                           number=number)

    def _apply(self, user: UserRecord, t: TournamentRecord, pid: int, nickname: str, user_id: int | None,
               offence: str, step: str, reason: str, *, game_id: str | None = None, round_: int | None = None,
               number: int = 1) -> dict[str, Any]:
        record = ban_db.add_offence(self.svc.store, t.id, pid, offence, step, reason, user.id, game_id=game_id,
                                    round_=round_)
        out: dict[str, Any] = {"offence": offence_json(record), "number": number, "step": step,
                               "sanction": None, "ban": None}
        kind = STEP_KINDS.get(step)
        if kind is not None:
            s = tournament_db.add_sanction(self.svc.store, t.id, pid, kind, f"{offence}: {reason}", user.id,
                                         round_ if kind == "round" else None)
            from .tournament import sanction_json

            out["sanction"] = sanction_json(s)
        if step == "ban":
            out["ban"] = ban_json(ban_db.add_ban(self.svc.store, t.club_id, f"{offence}: {reason}", user.id,
                                                 nickname=nickname, user_id=user_id, tournament_id=t.id))
        return out

    def after_accept(self, user: UserRecord, t: TournamentRecord, game_id: str) -> list[dict[str, Any]]:
        """On a sheet's acceptance: a ban on the sheet enters the club's list; every step due by repetition
        ("при повторе") on the accepted sheets is applied."""
        applied: list[dict[str, Any]] = []
        by_id = {str(p.id): p for p in tournament_db.participants(self.svc.store, t.id)}
        sheet = self.svc.link_sheet(tournament_db.game(self.svc.store, game_id))  # type: ignore[arg-type]
        if sheet.result is not None:
            banned = {(b.tournament_id, (b.nickname or "").casefold()) for b in ban_db.bans(self.svc.store, t.club_id)}
            for pl in sheet.result.players:
                p = by_id[pl.participant]
                if pl.removed == "ban" and (t.id, p.nickname.casefold()) not in banned:
                    why = pl.removal_reason or "ban"
                    ban_db.add_ban(self.svc.store, t.club_id, f"{why}: game {game_id}", user.id, nickname=p.nickname,
                                   user_id=p.user_id, tournament_id=t.id)
        for entries in self.history(t).values():
            for e in automatic(entries):
                p = by_id[e.offence.participant]
                reason = (f"B.sanctions: offence {e.number} of {e.offence.offence} in the tournament "
                          f"(the game applied {e.offence.applied})")
                applied.append(self._apply(user, t, p.id, p.nickname, p.user_id, e.offence.offence, e.due.step,
                                           reason, game_id=e.offence.game_id, round_=e.offence.round,
                                           number=e.number))
        return applied

    # --- bans --------------------------------------------------------------------------------------------
    def check_registration(self, t: TournamentRecord, entries: Sequence[NewParticipant],
                           override: str | None) -> list[tuple[BanRecord, NewParticipant]]:
        """The club's active bans the new participants match; refused (409 ``banned``) unless ``override``
        (the judge's reason) is given. Returns what the override lets through, to record."""
        hits: list[tuple[BanRecord, NewParticipant]] = []
        for e in entries:
            uids = [e.user_id] if e.user_id is not None else []
            hits += [(b, e) for b in ban_db.matching_bans(self.svc.store, t.club_id, [e.nickname], uids)]
        if hits and not (override and override.strip()):
            b, e = hits[0]
            when = b.created_at.date().isoformat()
            where = (msg("tournament '%(name)s'", name=b.tournament_name) if b.tournament_name
                     else pmsg("ban", "the club"))
            raise _refusal("conflict", "banned",
                           msg("%(name)s is banned from the club's tournaments (B.sanctions, \"%(seed)s\"): ban "
                               "%(ban)s, %(where)s, %(when)s, reason: %(reason)s. A judge may register him anyway, "
                               "giving a reason (ban_override).", name=e.nickname, seed=_BAN_WORDS.render("ru"),
                               ban=b.id, where=where, when=when, reason=b.reason),
                           bans=[ban_json(b) for b, _e in hits])
        return hits

    def record_overrides(self, user: UserRecord, t: TournamentRecord,
                         hits: Sequence[tuple[BanRecord, NewParticipant]], reason: str) -> None:
        for b, e in hits:
            ban_db.add_override(self.svc.store, b.id, t.id, e.nickname, reason.strip(), user.id)


def offence_json(r: OffenceRecord) -> dict[str, Any]:
    return {"id": r.id, "participant_id": r.participant_id, "offence": r.offence, "step": r.step,
            "game_id": r.game_id, "round": r.round, "reason": r.reason, "by": r.user_id,
            "created_at": r.created_at.isoformat()}


def ban_json(b: BanRecord) -> dict[str, Any]:
    return {"id": b.id, "nickname": b.nickname, "user_id": b.user_id, "tournament_id": b.tournament_id,
            "tournament": b.tournament_name, "reason": b.reason, "by": b.created_by, "by_login": b.created_by_login,
            "created_at": b.created_at.isoformat(), "active": b.lifted_at is None,
            "lifted_at": None if b.lifted_at is None else b.lifted_at.isoformat(), "lifted_by": b.lifted_by,
            "lift_reason": b.lift_reason}


def entry_json(e: Entry, names: Mapping[int, str]) -> dict[str, Any]:
    o = e.offence
    return {"offence": o.offence, "number": e.number, "due": e.due.step, "confirm": e.due.confirm,
            "applied": o.applied, "escalated": e.escalated, "steps": list(e.steps), "pending": e.pending,
            "source": o.source, "game_id": o.game_id or None, "round": o.round, "table": o.table, "by": o.by,
            "by_login": names.get(o.by) if o.by is not None else None, "accepted": o.accepted, "reason": o.reason}


__all__ = ["Discipline", "ban_json", "entry_json", "offence_json"]
