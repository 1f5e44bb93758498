"""A variant of the lab: a rule set named by a spec, a preset with options changed (``club``,
``club+lift_two_at_four=false``, ``fiim+misses_win=3+four_player_nights=3``).

A value is read by the option's type: ``true``/``false`` (also ``yes``/``no``, ``on``/``off``, ``1``/``0``) for
a yes/no option, a whole number for a count, one of the option's words for a choice, numbers separated by ``/``
for a list (``short_speech_at=3/4``). An unknown preset, option or value is refused with a
:class:`LabError` naming it.

>>> parse_variant("club+lift_two_at_four=false").rules.lift_two_at_four
False
>>> parse_variant("club + misses_win = 0").label
'club+misses_win=0'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..errors import BilingualError
from ..i18n import msg
from ..rules import PRESETS, RuleSet, RuleSetError, get_ruleset

YES = ("true", "yes", "on", "1")
NO = ("false", "no", "off", "0")


class LabError(BilingualError):
    """A lab run that cannot be made: an unknown variant, option or value, a table the rule set does not deal."""


@dataclass(frozen=True)
class Variant:
    """A spec and the rule set it names (its name is the spec)."""

    label: str
    rules: RuleSet
    changed: tuple[tuple[str, Any], ...] = ()
    """The options changed from the preset, in the spec's order."""


def _value(option: str, text: str, current: Any) -> Any:
    word = text.strip().lower()
    if isinstance(current, bool):
        if word in YES:
            return True
        if word in NO:
            return False
        raise LabError(msg("Option %(option)s takes true or false, not '%(value)s'.", option=option, value=text))
    if isinstance(current, int):
        if word.isdigit():
            return int(word)
        raise LabError(msg("Option %(option)s takes a whole number, not '%(value)s'.", option=option, value=text))
    if isinstance(current, tuple):
        parts = [p for p in word.split("/") if p]
        if all(p.isdigit() for p in parts) and not (current and isinstance(current[0], tuple)):
            return tuple(int(p) for p in parts)
        raise LabError(msg("Option %(option)s cannot take '%(value)s' in a variant.", option=option, value=text))
    return text.strip()


@lru_cache(maxsize=256)
def parse_variant(spec: str) -> Variant:
    """The variant a spec names: a preset, then ``+option=value`` changes (see the module's doc)."""
    parts = [p.strip() for p in spec.split("+")]
    preset = parts[0]
    if preset not in PRESETS:
        raise LabError(msg("Unknown rule set '%(name)s'; presets: %(presets)s.", name=preset,
                           presets=", ".join(PRESETS)))
    base = get_ruleset(preset)
    known = {f.name for f in dataclasses.fields(RuleSet)} - {"name"}
    changes: dict[str, Any] = {}
    for part in parts[1:]:
        option, sep, text = part.partition("=")
        option = option.strip()
        if not sep or not option:
            raise LabError(msg("A change is written option=value, not '%(change)s'.", change=part))
        if option not in known:
            raise LabError(msg("Unknown rule option '%(option)s' in the variant '%(spec)s'.", option=option,
                               spec=spec))
        changes[option] = _value(option, text, getattr(base, option))
    label = "+".join([preset, *(f"{k}={_plain(v)}" for k, v in changes.items())])
    try:
        rules = base.variant(label, **changes)
    except RuleSetError as exc:
        raise LabError(msg("The variant '%(spec)s' cannot be played: %(reason)s", spec=spec, reason=exc.text)) from None
    return Variant(label, rules, tuple(changes.items()))


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "/".join(str(v) for v in value)
    return str(value)


def one_at_a_time(base: str, changes: list[str] | tuple[str, ...]) -> list[str]:
    """The base spec, then one variant of it for each change: ``option=value``, or a yes/no option's name alone
    for its other value (``lift_two_at_four`` of ``club`` is ``club+lift_two_at_four=false``).

    >>> one_at_a_time("club", ["lift_two_at_four", "misses_win=0"])
    ['club', 'club+lift_two_at_four=false', 'club+misses_win=0']
    """
    rules = parse_variant(base).rules
    specs = [base]
    for change in changes:
        option = change.partition("=")[0].strip()
        if "=" not in change:
            if option not in {f.name for f in dataclasses.fields(RuleSet)}:
                spec = base + "+" + option
                raise LabError(msg("Unknown rule option '%(option)s' in the variant '%(spec)s'.", option=option,
                                   spec=spec))
            current = getattr(rules, option)
            if not isinstance(current, bool):
                raise LabError(msg("Name a value for option %(option)s: %(option)s=value.", option=option))
            change = f"{option}={_plain(not current)}"
        specs.append(parse_variant(f"{base}+{change.strip()}").label)
    return specs


def split_specs(texts: list[str] | tuple[str, ...]) -> list[str]:
    """The specs of ``--variant`` given once or more, each perhaps several separated by commas."""
    return [s.strip() for t in texts for s in t.split(",") if s.strip()]
