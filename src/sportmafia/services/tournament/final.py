"""The tournament's final: its finalists (the judge decides a tie at the cut, T.judge) and their games."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from ...i18n import msg, nmsg
from ...store import UserRecord
from ...store import tournaments as db
from ...store.tournaments import TournamentRecord
from ...tournament import seating as seating_mod
from ...tournament.final import finalists
from ...tournament.groups import TournamentError
from ..errors import conflict, invalid, refusal_from
from .seating import Seating, seated_per_round, seating_quality
from .settings import table_sizes
from .standings import Standings


class Final(Seating, Standings):
    """Choosing the finalists and seating the final."""

    def start_final(self, user: UserRecord, t: TournamentRecord, *, k: int | None = None, include_ties: bool = False,
                    tie_pick: Sequence[int] = (), seed: int = 1, hosts: Sequence[int] = (),
                    steps: int | None = None) -> TournamentRecord:
        """Choose the top ``k`` finalists (default: the setting) and seat the final's games: each finalist
        plays ``games_each`` games, at the rule set's table sizes, seat numbers spread evenly.

        When the place at the cut is shared with players below it the judge decides (T.judge): either
        ``include_ties`` (everyone on that place goes through) or ``tie_pick``, the participants of that
        place he lets through (exactly as many as there are seats left)."""
        self.require_judge(user, t)
        if t.finalists is not None:
            raise conflict("final-started", msg("The final is seated already."))
        main = db.games(self.store, t.id, "main")
        if not main:
            raise conflict("no-games", msg("No game has been played yet."))
        if any(g.accepted_at is None for g in main):
            raise conflict("pending-sheets", msg("Some sheets of the main stage are not accepted yet."))
        planned = int((t.seating or {}).get("rounds", 0))
        if len({g.round for g in main}) < planned:
            raise conflict("rounds-left", msg("Not every round of the main stage has been played."))
        k = k if k is not None else int(t.final_settings["finalists"])
        games_each = int(t.final_settings["games_each"])
        chosen = self._finalists(t, k, include_ties, tie_pick)
        low, high = table_sizes(t)
        n = len(chosen)
        if n < low:
            raise invalid("bad-final", msg("%(n)d finalists are too few for a table of %(low)d-%(high)d.", n=n, low=low,
                                           high=high))
        per_round = seated_per_round(n, low, high)
        rounds = math.ceil(n * games_each / per_round)
        by_id = {str(p.id): p for p in db.participants(self.store, t.id)}
        people = [by_id[pid] for pid in chosen]
        plan_hosts = self._hosts_by_round(t, rounds, hosts, {})
        seating = self._generate(people, {}, lambda: seating_mod.generate(
            n, rounds, (low, high), games_per_player=games_each if rounds > games_each else None, seed=seed,
            steps=steps))
        played = Counter(p for g in seating.games for p in g.seats)
        if any(played[i] != games_each for i in range(n)):
            raise invalid("bad-final", nmsg(
                "%(n)d finalist cannot play exactly %(games)d games at tables of %(low)d-%(high)d; choose another "
                "number of finalists.",
                "%(n)d finalists cannot each play exactly %(games)d games at tables of %(low)d-%(high)d; choose "
                "another number of finalists.", n, games=games_each, low=low, high=high))
        self._check_hosts(seating, plan_hosts)
        doc = {**seating.to_json(), "participants": [int(p) for p in chosen], "rounds": rounds,
               "table": [low, high], "hosts": {str(r): hs for r, hs in plan_hosts.items()},
               "request": {"k": k, "include_ties": include_ties, "seed": seed, "hosts": list(hosts)},
               "quality": seating_quality(seating)}
        return db.update_tournament(self.store, t.id, finalists=[int(p) for p in chosen], final_seating=doc,
                                    status="final")

    def _finalists(self, t: TournamentRecord, k: int, include_ties: bool, tie_pick: Sequence[int]) -> list[str]:
        rows = self.standings(t)
        try:
            return finalists(rows, k, include_ties)
        except TournamentError as exc:
            ranked = [r for r in rows if not r.disqualified and r.place is not None]
            if include_ties or not 1 <= k <= len(ranked):
                raise refusal_from(exc, "bad-final") from None
        cut = ranked[k - 1].place
        above = [r.participant for r in ranked if r.place is not None and cut is not None and r.place < cut]
        tied = [r.participant for r in ranked if r.place == cut]
        picks = [str(p) for p in tie_pick]
        need = k - len(above)
        if len(set(picks)) != len(picks) or not set(picks) <= set(tied) or len(picks) != need:
            names = {str(p.id): p.nickname for p in db.participants(self.store, t.id)}
            shared = ", ".join(names.get(p, p) for p in tied)
            raise invalid("bad-final", msg("Place %(place)s at the cut is shared by %(names)s: pick %(pick)d of them "
                                           "(tie_pick), or take them all (include_ties).", place=cut, names=shared,
                                           pick=need), tied=[int(p) for p in tied], pick=need)
        return above + [p for p in tied if p in set(picks)]
