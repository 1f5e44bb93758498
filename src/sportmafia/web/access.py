"""Who may open a game and act in it: the one decision every game route and socket asks (docs/api.md,
"Who may open a game"; docs/security.md).

- A user who plays in the game (his roster player at a seat, or his tournament participant) gets nothing,
  whatever his role: the host's view shows every role.
- An admin or a judge of the game's club gets ``judge``; so does a judge of the game's tournament (its staff).
- The game's host (the user who created it; a tournament game: its table's host) gets ``host``; so does any
  host of the club for a game with no recorded host (created before hosts were recorded).
- Anyone else gets nothing: "no such game" (404), the same answer as for another club's game, so nothing
  tells him the game exists.

``judge`` may do all the host may, and the judge's commands (``JUDGE_COMMANDS``): a host without the
judge's right is refused those with 403 naming the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..engine import Command
from ..i18n import msg
from ..store import GameNotFound, GameSummary, Store, UserRecord
from ..store.access import GameFacts, game_facts, is_tournament_judge
from .errors import ApiError, game_not_found

Level = Literal["host", "judge"]
JUDGE_ROLES = ("admin", "judge")
"""The club roles that have the judge's right in every game of the club they do not play in."""
JUDGE_COMMANDS: dict[str, str] = {"award": "A.award", "override": "A.judge", "team_defeat": "F.team-defeat"}
"""The judge's commands, by command type, with the rulebook clause that makes them the judge's."""
BEYOND_THE_GAME = ("round", "tournament", "ban")
"""The scopes of a removal that reach beyond the game (T.judge: the tournament judge decides them)."""


@dataclass
class GameAccess:
    """What ``user`` may do in the game: ``host`` or ``judge`` (see the module's text)."""

    store: Store
    user: UserRecord
    facts: GameFacts
    level: Level
    _judge: bool | None = field(default=None, repr=False)

    @property
    def may_judge(self) -> bool:
        """Whether he has the judge's right here: ``judge``, or the game's host who is also a judge of its
        tournament (asked of the store only when needed)."""
        if self._judge is None:
            self._judge = self.level == "judge" or (
                self.facts.tournament_id is not None
                and is_tournament_judge(self.store, self.facts.tournament_id, self.user.id))
        return self._judge

    def judge_clause(self, command: Command) -> str | None:
        """The rulebook clause that makes ``command`` the judge's, or None for a host's command."""
        clause = JUDGE_COMMANDS.get(command.type)
        if clause is None and command.type == "remove" and getattr(command, "scope", "game") in BEYOND_THE_GAME:
            clause = "T.judge"
        return clause

    def check_command(self, command: Command) -> None:
        """Refuse (403) a judge's command from a host without the judge's right."""
        clause = self.judge_clause(command)
        if clause is not None and not self.may_judge:
            raise judge_only(clause)

    def allowed(self, command: Command) -> bool:
        """Whether he may send ``command`` (as far as his right goes; the engine judges the rest)."""
        return self.judge_clause(command) is None or self.may_judge


def judge_only(clause: str) -> ApiError:
    return ApiError(403, "judge-only", msg("Only the judge decides this (%(clause)s): a judge, an admin or the "
                                           "tournament's judge who does not play in this game.", clause=clause),
                    clause=clause)


def decide(store: Store, user: UserRecord, game_id: str) -> GameAccess | None:
    """What ``user`` may do in the game ``game_id``; None: nothing (or no such game)."""
    try:
        facts = game_facts(store, game_id)
    except GameNotFound:
        return None
    return decide_on(store, user, facts)


def decide_on(store: Store, user: UserRecord, facts: GameFacts) -> GameAccess | None:
    """:func:`decide` on the game's facts read already."""
    if facts.club_id != user.club_id or facts.seats(user):
        return None
    if user.role in JUDGE_ROLES:
        return GameAccess(store, user, facts, "judge", True)
    if facts.host_id is None or facts.host_id == user.id:
        return GameAccess(store, user, facts, "host")
    if facts.tournament_id is not None and is_tournament_judge(store, facts.tournament_id, user.id):
        return GameAccess(store, user, facts, "judge", True)
    return None


def game_access(store: Store, user: UserRecord, game_id: str) -> GameAccess:
    """:func:`decide`, or "no such game" (404) when he may do nothing."""
    found = decide(store, user, game_id)
    if found is None:
        raise game_not_found()
    return found


def game_summary(store: Store, user: UserRecord, game_id: str) -> GameSummary | None:
    """The game's summary for one who may open it (:func:`decide`), else None (no such game, or not his to
    open): the one check of the pages and sockets that open a game."""
    if decide(store, user, game_id) is None:
        return None
    try:
        return store.game(game_id)
    except GameNotFound:
        return None


def require_judge(access: GameAccess, clause: str) -> None:
    """Refuse (403) what needs the judge's right to one without it."""
    if not access.may_judge:
        raise judge_only(clause)
