"""A tournament's settings: its rule set, scoring system, tie-breaks, the final's settings and its dates; the
announced ones change after round 1 only with a reason (:mod:`sportmafia.services.announced`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from ...i18n import msg, pmsg
from ...rules import RuleSet
from ...store import UserRecord
from ...store import tournaments as db
from ...store.tournaments import TournamentRecord
from ...tournament.groups import TournamentError
from ...tournament.scoring import FIIM, REGULATION, ScoringSystem, custom
from ...tournament.standings import DEFAULT_TIE_BREAKS, TIE_BREAKS
from ..errors import Refusal, conflict, invalid, refusal_from
from ..games import assemble_rules, changed_rules, exception_text
from .base import TournamentBase


def scoring_from(data: Mapping[str, Any] | str) -> ScoringSystem:
    """A scoring system from the settings: ``"regulation"``, ``"fiim"``, ``{"base": "fiim", "compensation":
    0.4, ...}`` (a preset with changed numbers) or ``{"base": "regulation", "table": {"commissar": {"win":
    1.5}}}`` (points by role and outcome)."""
    presets = {"regulation": REGULATION, "fiim": FIIM}
    if isinstance(data, str):
        data = {"base": data}
    data = dict(data)
    base_name = data.pop("base", None)
    if base_name is None:
        if "name" in data:  # a whole ScoringSystem.to_json()
            try:
                return ScoringSystem.from_json(data)
            except TournamentError as exc:
                raise refusal_from(exc, "bad-settings") from None
            except (TypeError, ValueError) as exc:
                raise _bad_scoring(exc) from None
        base_name = "regulation"
    if base_name not in presets:
        raise invalid("bad-settings", msg("Unknown scoring system %(name)s (regulation, fiim).", name=repr(base_name)))
    system = presets[base_name]
    table = data.pop("table", None)
    try:
        if table is not None:
            system = custom(str(data.pop("name", f"{base_name}-custom")), table, system)
        if data:
            full = {**system.to_json(), **data}
            if "name" not in data and base_name in presets and data:
                full["name"] = f"{system.name}-variant"
            system = ScoringSystem.from_json(full)
    except TournamentError as exc:
        raise refusal_from(exc, "bad-settings") from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise _bad_scoring(exc) from None
    return system


def _bad_scoring(exc: Exception) -> Refusal:
    return invalid("bad-settings", msg("Scoring settings are not valid: %(reason)s.", reason=exception_text(exc)))


def rules_of(t: TournamentRecord) -> RuleSet:
    return RuleSet.from_options({**t.ruleset_options, "name": t.ruleset})


def table_sizes(t: TournamentRecord) -> tuple[int, int]:
    """The table sizes of the tournament's rule set: 12-16 for ``tournament``, 10 for ``club``/``fiim``."""
    rules = rules_of(t)
    return rules.min_players, rules.max_players


def check_tie_breaks(keys: Sequence[str]) -> list[str]:
    unknown = [k for k in keys if k not in TIE_BREAKS]
    if unknown or not keys:
        raise invalid("bad-settings", msg("Unknown tie-break %(key)s; known: %(known)s.",
                                          key=unknown[0] if unknown else pmsg("tie-break", "(none)"),
                                          known=", ".join(TIE_BREAKS)))
    return list(dict.fromkeys(keys))


def final_settings_from(data: Mapping[str, Any]) -> dict[str, Any]:
    out = {"finalists": 12, "games_each": 3, "carry_over": True}
    for key, value in data.items():
        if key not in out:
            raise invalid("bad-settings", msg("Unknown final setting %(key)s (finalists, games_each, carry_over).",
                                              key=repr(key)))
        if key == "carry_over":
            if not isinstance(value, bool):
                raise invalid("bad-settings", msg("carry_over is true or false."))
        elif not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 200:
            raise invalid("bad-settings", msg("%(key)s is a whole number from 1 to 200.", key=key))
        out[key] = value
    return out


def _check_dates(starts: date | None, ends: date | None) -> None:
    if starts is not None and ends is not None and ends < starts:
        raise invalid("bad-settings", msg("The tournament cannot end before it starts."))


class Settings(TournamentBase):
    """Creating a tournament and changing its settings."""

    def create(self, user: UserRecord, name: str, *, preset: str | None = "tournament", variant: int | None = None,
               options: Mapping[str, Any] | None = None, scoring: Mapping[str, Any] | str = "regulation",
               tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS, final: Mapping[str, Any] | None = None,
               starts_on: date | None = None, ends_on: date | None = None) -> TournamentRecord:
        if user.role not in ("admin", "judge"):
            raise Refusal("forbidden", "forbidden", msg("Only a judge or an admin of the club creates tournaments."))
        _check_dates(starts_on, ends_on)
        rules = assemble_rules(self.store, user.club_id, preset=preset, variant=variant, options=options)
        system = scoring_from(scoring)
        return db.create_tournament(self.store, user.club_id, name, ruleset=rules.name,
                                    ruleset_options=rules.options(), scoring=system.to_json(),
                                    tie_breaks=check_tie_breaks(tie_breaks),
                                    final_settings=final_settings_from(final or {}), starts_on=starts_on,
                                    ends_on=ends_on)

    def update(self, user: UserRecord, t: TournamentRecord, changes: Mapping[str, Any]) -> TournamentRecord:
        """Change settings: ``name``, ``starts_on``, ``ends_on``, ``preset``/``variant``/``options`` (only
        before the first game), ``scoring``, ``tie_breaks``, ``final``, ``published``; ``reason``: why an
        announced setting changes after round 1 (:mod:`.announced`)."""
        self.require_judge(user, t)
        out: dict[str, Any] = {}
        if "name" in changes:
            out["name"] = changes["name"]
        starts = changes.get("starts_on", t.starts_on)
        ends = changes.get("ends_on", t.ends_on)
        _check_dates(starts, ends)
        for key in ("starts_on", "ends_on"):
            if key in changes:
                out[key] = changes[key]
        if any(k in changes for k in ("preset", "variant", "options")):
            if db.games(self.store, t.id):
                raise conflict("started", msg("The rule set cannot change once games are created."))
            if changes.get("preset") is None and changes.get("variant") is None:
                # only options: they change the tournament's own rule set
                rules = changed_rules(t.ruleset_options, changes.get("options"), t.ruleset)
            else:
                rules = assemble_rules(self.store, t.club_id, preset=changes.get("preset"),
                                       variant=changes.get("variant"), options=changes.get("options"))
            out["ruleset"], out["ruleset_options"] = rules.name, rules.options()
            if t.seating is not None and list(t.seating["table"]) != [rules.min_players, rules.max_players]:
                out["seating"] = None  # made for other table sizes: to be generated anew
        if "scoring" in changes:
            out["scoring"] = scoring_from(changes["scoring"]).to_json()
        if "tie_breaks" in changes:
            out["tie_breaks"] = check_tie_breaks(changes["tie_breaks"])
        if "final" in changes:
            if t.finalists is not None:
                raise conflict("final-started", msg("The final is seated: its settings no longer change."))
            out["final_settings"] = final_settings_from({**t.final_settings, **changes["final"]})
        if "published" in changes:
            out["published"] = bool(changes["published"])
        from ..announced import announced_changes  # B.announce: after round 1 only with a reason, recorded

        log = announced_changes(user, t, out, changes.get("reason"))
        return db.update_tournament(self.store, t.id, announced=log, **out) if out else t
