"""What a game of Mafia is: rule sets and the preset registry."""

from .presets import CLUB, FIIM, PRESETS, TOURNAMENT, get_ruleset
from .ruleset import RuleSet, RuleSetError

__all__ = ["CLUB", "FIIM", "PRESETS", "TOURNAMENT", "RuleSet", "RuleSetError", "get_ruleset"]
