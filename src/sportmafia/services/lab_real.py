"""A lab run beside the club's real games (docs/lab.md, "The judge's page"): for each variant of a run that is
a preset as it is (the club's games are stored with the preset they were played under, not with a lab
variant's changes), the club's finished games of that preset at that table size, from the index of finished
games: how many, red's win rate with its 95% interval, how they ended and their mean length in days, and the
bots' rate minus the club's."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..seasons.stats import wilson
from ..store import Store
from ..store import seasons as index


def real_figures(store: Store, club_id: int, summary: dict[str, Any]) -> list[dict[str, Any] | None]:
    """Per variant of ``summary`` (the lab's), the club's real figures, or None (a variant with changes, or no
    such game stored)."""
    players = int(summary.get("plan", {}).get("players") or 0)
    wanted = {v["variant"] for v in summary.get("variants", []) if not v.get("changed")}
    games: dict[str, list[Any]] = {name: [] for name in wanted}
    if wanted:
        for line in index.game_lines(store, club_id):
            facts = line.facts
            if facts.ruleset in games and facts.players == players and facts.winner in ("red", "black"):
                games[facts.ruleset].append(facts)
    out: list[dict[str, Any] | None] = []
    for v in summary.get("variants", []):
        played = games.get(v["variant"]) if not v.get("changed") else None
        if not played:
            out.append(None)
            continue
        n = len(played)
        red = sum(f.winner == "red" for f in played)
        lo, hi = wilson(red, n)
        ends = Counter(f.result for f in played)
        rate = red / n
        out.append({"games": n, "red_wins": red, "red_rate": round(rate, 4), "ci95": [round(lo, 4), round(hi, 4)],
                    "results": {k: round(c / n, 4) for k, c in ends.most_common()},
                    "days": round(sum(f.days for f in played) / n, 3),
                    "bots_minus_real": None if v.get("red_rate") is None else round(v["red_rate"] - rate, 4)})
    return out
