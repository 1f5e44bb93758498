"""Announced settings (B.announce, seed B 7.2: "the tournament judge may change the scheme of the
tournament; all players must then be told before round 1").

The scheme players are told of is the scoring system, the tie-break order and the final's settings. Before
round 1 is opened the judge changes them freely. Once it is opened (the tournament's status is no longer
``setup``) a change of any of them is refused unless it carries the judge's reason, and each such change is
recorded (who, when, the setting's old and new value, the reason) and listed on the public standings page.
The rule set itself cannot change once games are created at all (:meth:`TournamentService.update`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..i18n import msg
from ..store import UserRecord
from ..store.tournaments import NewRuleChanges, RuleChangeRecord, TournamentRecord
from .errors import Refusal

ANNOUNCED = ("scoring", "tie_breaks", "final_settings")
"""The settings announced before round 1 (their column names)."""

CLAUSE = "B.announce"


def _current(t: TournamentRecord, setting: str) -> Any:
    value = getattr(t, setting)
    return list(value) if isinstance(value, tuple) else value


def announced_changes(user: UserRecord, t: TournamentRecord, out: Mapping[str, Any],
                      reason: str | None) -> NewRuleChanges | None:
    """What of ``out`` (the columns about to change) changes an announced setting after round 1, to record
    with ``reason``; None before round 1 or when none of them changes. Refused (409 ``announced``) without a
    reason."""
    if t.status == "setup":
        return None
    changes = tuple((k, _current(t, k), _plain(out[k])) for k in ANNOUNCED
                    if k in out and _plain(out[k]) != _current(t, k))
    if not changes:
        return None
    reason = (reason or "").strip()
    if not reason:
        names = ", ".join(k for k, _, _ in changes)
        raise Refusal("conflict", "announced",
                      msg("Round 1 has started: the players were told the tournament's scheme (%(settings)s) before it "
                          "(B.announce, regulation 7.2). Give the reason for the change; it is shown on the public "
                          "standings.", settings=names),
                      clause=CLAUSE, extra={"settings": [k for k, _, _ in changes]})
    return NewRuleChanges(changes, reason, user.id, user.login)


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def rule_change_json(c: RuleChangeRecord) -> dict[str, Any]:
    return {"id": c.id, "setting": c.setting, "old": c.old, "new": c.new, "reason": c.reason, "by": c.login,
            "at": c.created_at.isoformat()}
