"""The rules lab: how a rule change moves the game's balance, measured over many games of bots
(``sportmafia lab``, docs/lab.md). Variants (:mod:`.variants`), seeded batches and exact totals (:mod:`.batches`),
where they are played (:mod:`.backends`), a run (:mod:`.runner`), its tests (:mod:`.stats`) and its report
(:mod:`.report`)."""

from .batches import Tally, Task, game_seed, play_batch
from .runner import Plan, run
from .variants import LabError, Variant, parse_variant, split_specs

__all__ = ["LabError", "Plan", "Tally", "Task", "Variant", "game_seed", "parse_variant", "play_batch", "run",
           "split_specs"]
