"""A tournament's participants (a list or a file, a banned player only with the judge's reason) and staff."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...i18n import Text, msg
from ...store import UserRecord
from ...store import tournaments as db
from ...store.tournaments import NewParticipant, NicknameTaken, ParticipantRecord, TournamentRecord
from ..discipline import Discipline
from ..errors import conflict, invalid
from .base import TournamentBase


class Registration(TournamentBase):
    """Adding and deleting participants; the tournament's judges and hosts."""

    def add_participants(self, user: UserRecord, t: TournamentRecord, entries: Sequence[NewParticipant],
                         ban_override: str | None = None) -> list[ParticipantRecord]:
        """Add participants; one the club has banned is refused (409 ``banned``) unless the judge gives
        ``ban_override``, his reason, which is recorded with the ban (B.sanctions)."""
        self.require_judge(user, t)
        if t.seating is not None and not db.games(self.store, t.id):  # once begun, they join at a regeneration
            raise conflict("seated", msg("The seating is made: new participants would not be seated. Add them before "
                                         "generating the seating (or generate it anew before round 1)."))
        existing = {p.nickname.casefold() for p in db.participants(self.store, t.id)}
        for number, e in enumerate(entries, 1):
            if e.nickname.casefold() in existing:
                raise invalid("nickname-taken", msg("Line %(line)d: %(name)s is already a participant.", line=number,
                                                    name=repr(e.nickname)), line=number)
            if e.user_id is not None:
                other = self.store.get_user(e.user_id)
                if other is None or other.club_id != t.club_id:
                    raise invalid("bad-participants", _not_of_club(e.user_id))
        discipline = Discipline(self)
        banned = discipline.check_registration(t, entries, ban_override)
        try:
            added = db.add_participants(self.store, t.id, entries)
        except NicknameTaken as exc:
            raise conflict("nickname-taken", msg("%(name)s is already a participant.",
                                                 name=repr(exc.nickname))) from None
        discipline.record_overrides(user, t, banned, ban_override or "")
        return added

    def delete_participant(self, user: UserRecord, t: TournamentRecord, participant_id: int) -> None:
        self.require_judge(user, t)
        self.participant(t, participant_id)
        if t.seating is not None or db.games(self.store, t.id):
            raise conflict("seated", msg("A seated participant is not deleted; record a sanction or his removal."))
        db.delete_participant(self.store, t.id, participant_id)

    def set_staff(self, user: UserRecord, t: TournamentRecord, staff: Sequence[tuple[int, str]]) -> Any:
        self.require_judge(user, t)
        for uid, _role in staff:
            other = self.store.get_user(uid)
            if other is None or other.club_id != t.club_id:
                raise invalid("bad-staff", _not_of_club(uid))
        return db.set_staff(self.store, t.id, staff)


def _not_of_club(user_id: int) -> Text:
    return msg("User %(user)s is not a user of the club.", user=user_id)
