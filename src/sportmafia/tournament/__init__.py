"""The tournament layer: pure functions over plain data (no database, no web).

Groups and tables (:mod:`.groups`, T.groups), result sheets and the judge's corrections (:mod:`.results`,
B.sheet), scoring systems as data (:mod:`.scoring`, T.score), standings with the judge's tie-breaks
(:mod:`.standings`, T.total, T.judge), the final (:mod:`.final`, T.final), sanctions across games
(:mod:`.offences`, B.sanctions) and seating (:mod:`.seating`, a package). See docs/tournament.md.
"""

from .final import FinalSettings, final_standings, finalists
from .groups import RoundPlan, TournamentError, assign_round, plan_tables, split_tables
from .results import Correction, GameResult, PlayerResult, corrected, from_game, from_record
from .scoring import FIIM, REGULATION, GameScore, ScoringSystem, custom, score_game
from .standings import DEFAULT_TIE_BREAKS, TIE_BREAKS, Adjustment, Row, Sanction, standings

__all__ = [
    "DEFAULT_TIE_BREAKS", "FIIM", "REGULATION", "TIE_BREAKS", "Adjustment", "Correction", "FinalSettings",
    "GameResult", "GameScore", "PlayerResult", "RoundPlan", "Row", "Sanction", "ScoringSystem",
    "TournamentError", "assign_round", "corrected", "custom", "final_standings", "finalists", "from_game",
    "from_record", "plan_tables", "score_game", "split_tables", "standings",
]
