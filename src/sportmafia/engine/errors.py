"""`RuleViolation`: an illegal command, refused with a code, the rulebook clause and its reason (a message of the
catalogs, ``locale/*/LC_MESSAGES/engine.po``, shown in either language). The game is left exactly as it was."""

from __future__ import annotations

from typing import Any

from ..errors import BilingualError
from ..i18n import N_, Text

# code: (clause id, the reason's msgid); a clause "{clause}" is the one the raising rule names
MESSAGES: dict[str, tuple[str, str]] = {
    "game-over": ("A.win", N_("The game is over: only judge actions remain.")),
    "not-dealt": ("B.deal", N_("Cards have not been dealt yet.")),
    "already-dealt": ("B.deal", N_("Cards have already been dealt.")),
    "bad-deal": ("A.setup", N_("This deal does not fit the rule set: %(detail)s.")),
    "need-rng": ("B.deal", N_("This is a chance step: pass a random generator or the outcome.")),
    "wrong-step": ("{clause}", N_("Not now: the game is at %(step)s, and %(what)s is not part of it.")),
    "bad-seat": ("A.setup", N_("There is no seat %(seat)s at this table of %(n)s.")),
    "not-alive": ("A.nom.dead", N_("Player %(seat)s has left the table.")),
    "not-your-speech": ("A.nom.own", N_("Player %(seat)s may nominate only during his own speech (now: %(speaker)s).")),
    "no-nominations-now": ("{clause}", N_("Nominations are not accepted in this speech.")),
    "vote-cancelled": ("{clause}", N_("There is no vote today after the removal, so no nominations.")),
    "one-nomination": ("A.nom.own", N_("Player %(seat)s already has a candidate standing from this speech.")),
    "self-nomination": ("A.nom.own", N_("A player may not nominate himself under these rules.")),
    "no-withdrawal": ("F.withdraw", N_("A nomination cannot be withdrawn under these rules.")),
    "nothing-to-withdraw": ("A.nom.withdraw", N_("Player %(seat)s has not nominated %(target)s in this speech.")),
    "not-a-candidate": ("A.vote.one", N_("Player %(target)s is not the candidate being voted on now.")),
    "not-a-leader": ("B.vote", N_("Player %(target)s is not a leader of this vote.")),
    "already-voted": ("A.vote.one", N_("Player %(seat)s has already voted.")),
    "cannot-vote": ("A.vote.one", N_("Player %(seat)s cannot vote: he has left the table.")),
    "not-black": ("A.night.shoot", N_("Player %(seat)s is not a living black player and cannot shoot.")),
    "shot-twice": ("A.night.shoot", N_("Player %(seat)s has already shot twice tonight.")),
    "volley-after-shot": ("A.night.shoot", N_("«All shoot» is for before anyone shot tonight: record the other shots one by one.")),
    "already-killed": ("B.night", N_("The mafia has already chosen tonight's victim.")),
    "kill-required": ("B.night", N_("The mafia must choose a victim before the night ends.")),
    "not-checker": ("{clause}", N_("Player %(seat)s is not the one who checks now.")),
    "already-checked": ("{clause}", N_("Player %(seat)s has already checked tonight.")),
    "check-self": ("{clause}", N_("A player does not check himself.")),
    "no-best-move": ("F.bestmove", N_("There is no best move now.")),
    "bad-best-move": ("F.bestmove", N_("A best move names one to three other players, each once.")),
    "no-fouls": ("B.sanctions", N_("These rules have no fouls; use warnings and sanctions.")),
    "no-technical": ("F.technical", N_("Technical fouls are off in these rules.")),
    "no-sanctions": ("B.sanctions", N_("These rules have no sanctions table; use fouls and removal.")),
    "bad-offence": ("B.sanctions", N_("Unknown offence '%(offence)s'.")),
    "bad-scope": ("B.sanctions", N_("Removal beyond the game needs the tournament rules.")),
    "no-award": ("A.award", N_("These rules have no awarded win.")),
    "no-protest": ("A.protest", N_("These rules have no protest vote.")),
    "protest-during-game": ("A.protest", N_("A protest is voted only after the game.")),
    "protest-twice": ("A.protest", N_("The protest has already been voted.")),
    "protest-no-winner": ("A.protest", N_("There is no winning team to protest against.")),
    "protest-judge": ("A.judge", N_("The judge's decision cannot be appealed by a protest.")),
    "no-team-defeat": ("F.team-defeat", N_("These rules have no team defeat.")),
    "bad-team": ("A.award", N_("A team is 'red' or 'black'.")),
    "reason-required": ("A.judge", N_("A judge's decision needs a reason.")),
    "nothing-to-undo": ("A.judge", N_("There is nothing to undo.")),
    "not-yours": ("A.nom.own", N_("Seat %(actor)s may act only for himself.")),
    "unknown-command": ("A.judge", N_("Unknown command %(name)s.")),
    "not-your-word": ("{clause}", N_("Player %(seat)s speaks only in his own speech (now: %(speaker)s).")),
    "no-such-role": ("{clause}", N_("There is no %(role)s at this table.")),
}


class RuleViolation(BilingualError):
    """An illegal command. ``code`` is stable, ``clause`` the rulebook id, ``text`` the reason with ``params``;
    ``str(error)`` is ``[clause] `` and the English reason."""

    def __init__(self, code: str, clause: str | None = None, **params: Any) -> None:
        template_clause, msgid = MESSAGES[code]
        self.code = code
        self.clause = clause or template_clause.format(**params, clause="A.judge")
        self.params = params
        super().__init__(Text(msgid, params), prefix=f"[{self.clause}] ")

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "clause": self.clause, **self.text.to_json()}
