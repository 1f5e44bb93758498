"""The rules of the game, one module per rule family.

Each module holds the pure decisions of its family (small functions named after what they decide, with the
rulebook clause id beside each) and a mixin of ``Game`` whose handlers check commands and emit events:

- ``deal``: the deal of the cards (A.setup, B.setup, B.deal) and the day-0 introductions (B.flow);
- ``speeches``: the speaking order, muted and short speeches, last words (A.speech.order, A.lastword,
  A.foul.three, A.foul.short, B.speech.order, B.rounds, B.defence);
- ``nominations``: who may nominate whom, and withdrawals (A.nom.*, B.rounds);
- ``club_vote``: the club vote with its default votes, the revote and the lift question (A.vote.*,
  A.tie.*, A.remove.vote, F.remove.vote);
- ``leaders_vote``: the tournament's leaders, their vote and the lot (B.leaders, B.vote, B.tie, B.lot);
- ``night``: the night's steps, the shots, the kill and the checks (A.night0, A.night.*, B.night,
  A.remove.night);
- ``win``: departures and the results they give: parity, the last black gone, misses, four-player nights,
  the draw (A.win, B.win, A.night.misses, A.night.four, F.draw);
- ``discipline``: fouls, sanctions and removals (A.foul.*, A.remove.*, B.sanctions, F.technical,
  F.remove.vote);
- ``judge``: the judge's award, override, team defeat, the protest vote, and the best move (A.award,
  A.judge, A.protest, F.team-defeat, F.bestmove);
- ``legal``: the commands legal now (``legal_commands``).
"""
