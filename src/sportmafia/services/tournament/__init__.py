"""Running a tournament: the pure tournament modules (groups, seating, results, scoring, standings, final)
on the stored tournament (:mod:`sportmafia.store.tournaments`) and its games (:class:`~sportmafia.store.Store`).

:class:`TournamentService` is made of one part per concern: settings (:mod:`.settings`), participants and
staff (:mod:`.registration`), seating and rounds (:mod:`.seating`), the judge's sheets and sanctions
(:mod:`.sheets`), standings, the end and the archive (:mod:`.standings`), the final (:mod:`.final`); the JSON
of its records is :mod:`.as_json`, participants files :mod:`.files`. Every refusal is a
:class:`~sportmafia.services.errors.Refusal` (a kind, a code, the reason in English and Russian) that the web
layer answers with its kind's status; a refused request writes nothing.
"""

from ..errors import Refusal
from ..sheets import Sheet
from .as_json import (
    link_json,
    participant_json,
    row_json,
    sanction_json,
    tournament_json,
    tournament_sheet_json,
)
from .files import parse_csv, parse_pasted
from .final import Final
from .registration import Registration
from .settings import Settings


class TournamentService(Settings, Registration, Final):
    """The judge's and hosts' operations on the tournaments of ``store``."""


__all__ = [
    "Refusal", "Sheet", "TournamentService", "link_json", "parse_csv", "parse_pasted",
    "participant_json", "row_json", "sanction_json", "tournament_json", "tournament_sheet_json",
]
