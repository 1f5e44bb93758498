"""Readable Russian and English text for steps, roles, reasons and events (used by the CLI and replay)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import Text, join, msg, pmsg, render, verbatim
from . import events as E

STEP_NAMES: dict[str, Text] = {
    "deal": pmsg("step", "the deal"),
    "meet_black": pmsg("step", "the black team meeting"),
    "meet_don": pmsg("step", "the Don meeting the host"),
    "meet_sheriff": pmsg("step", "the Sheriff meeting the host"),
    "meet_commissar": pmsg("step", "the Commissar meeting the host"),
    "first_speaker": pmsg("step", "the draw of the first speaker"),
    "speech": pmsg("step", "a speech"),
    "muted": pmsg("step", "a muted turn"),
    "last_word": pmsg("step", "a last word"),
    "tie_speech": pmsg("step", "a tie speech"),
    "defence": pmsg("step", "a defence speech"),
    "voting": pmsg("step", "the vote"),
    "lift": pmsg("step", "the vote to lift all tied"),
    "lot": pmsg("step", "the lot"),
    "shooting": pmsg("step", "the night shooting"),
    "kill": pmsg("step", "the mafia's choice of victim"),
    "check_don": pmsg("step", "the Don's check"),
    "check_sheriff": pmsg("step", "the Sheriff's check"),
    "check_commissar": pmsg("step", "the Commissar's check"),
    "over": pmsg("step", "the end of the game"),
}

WHAT_NAMES: dict[str, Text] = {
    "draw_first_speaker": pmsg("action", "drawing the first speaker"),
    "draw_lot": pmsg("action", "drawing the lot"),
    "nominate": pmsg("action", "a nomination"),
    "withdraw": pmsg("action", "a withdrawal"),
    "vote": pmsg("action", "a vote"),
    "lift_vote": pmsg("action", "a vote to lift"),
    "shoot": pmsg("action", "a shot"),
    "kill": pmsg("action", "choosing a victim"),
    "check": pmsg("action", "a check"),
}

ROLE_NAMES: dict[str, Text] = {
    "civilian": pmsg("role", "civilian"),
    "sheriff": pmsg("role", "Sheriff"),
    "commissar": pmsg("role", "Commissar"),
    "mafia": pmsg("role", "mafia"),
    "don": pmsg("role", "Don"),
}

TEAM_NAMES: dict[str | None, Text] = {
    "red": pmsg("team", "red (the town)"),
    "black": pmsg("team", "black (the mafia)"),
    None: pmsg("team", "nobody"),
}

HOW_NAMES: dict[str, Text] = {
    "vote": pmsg("left", "voted out"),
    "lift": pmsg("left", "lifted with the tied"),
    "kill": pmsg("left", "killed at night"),
    "lot": pmsg("left", "drawn by lot"),
    "removal": pmsg("left", "removed"),
}

REASON_NAMES: dict[str, Text] = {
    "unethical": pmsg("reason", "unethical behaviour"),
    "night_conduct": pmsg("reason", "breaking night conduct"),
    "gestures": pmsg("reason", "excessive gestures"),
    "hand_pulled": pmsg("reason", "hand pulled back before «thank you» (the vote counts)"),
    "out_of_turn": pmsg("reason", "speaking outside his minute"),
    "forbidden_words": pmsg("reason", "«honestly» / «thank God»"),
    "night_gestures": pmsg("reason", "gestures or touches after night fell"),
    "table_banging": pmsg("reason", "banging the table"),
    "late_mask": pmsg("reason", "late mask"),
    "religion": pmsg("reason", "appealing to religion"),
    "touching": pmsg("reason", "touching another player or the judge"),
    "foul4": pmsg("reason", "fourth foul"),
    "technical": pmsg("reason", "technical fouls"),
    "insult": pmsg("reason", "insult"),
    "bets": pmsg("reason", "disputes and bets"),
    "oath": pmsg("reason", "an oath"),
    "judge_dispute": pmsg("reason", "arguing with the judge"),
    "night_hints": pmsg("reason", "night hints to the Sheriff or Don"),
    "peeping": pmsg("reason", "peeping at night"),
    "left_seat": pmsg("reason", "leaving his seat"),
    "night_touch": pmsg("reason", "night touches"),
    "card_info": pmsg("reason", "revealing card information"),
    "rudeness": pmsg("reason", "rudeness"),
    "eyes_open": pmsg("reason", "opening eyes at night"),
    "disruption": pmsg("reason", "deliberate disruption"),
    "drunk": pmsg("reason", "playing drunk"),
    "arguing": pmsg("reason", "arguing with the host"),
}

SANCTION_NAMES: dict[str, Text] = {
    "warning": pmsg("sanction", "a warning"),
    "game": pmsg("sanction", "removal from the game"),
    "round": pmsg("sanction", "removal from the round"),
    "tournament": pmsg("sanction", "removal from the tournament"),
    "ban": pmsg("sanction", "removal from the tournament and a ban"),
}

SCOPE_NAMES: dict[str, Text] = {
    "game": pmsg("removed for", "this game"),
    "round": pmsg("removed for", "the round"),
    "tournament": pmsg("removed for", "the tournament"),
    "ban": pmsg("removed for", "banned"),
}
"""What a removal on a result sheet reaches: the game, the round, the tournament, or a ban."""

RESULT_NAMES: dict[str, Text] = {
    "black-gone": pmsg("result", "no black player is left"),
    "parity": pmsg("result", "black players are as many as red"),
    "misses": pmsg("result", "three mafia misses in a row"),
    "four-nights": pmsg("result", "three nights without a kill at four players"),
    "draw": pmsg("result", "nobody left for three night-and-day cycles: a draw"),
    "award": pmsg("result", "the judge awarded the win"),
    "team-defeat": pmsg("result", "a team defeat"),
    "override": pmsg("result", "the judge's decision"),
    "protest-annul": pmsg("result", "annulled by protest"),
    "protest-reverse": pmsg("result", "reversed by protest"),
}


VOTE_OUTCOMES: dict[str, Text] = {
    "out": pmsg("vote outcome", "leaves"),
    "tie": pmsg("vote outcome", "tie between"),
    "lift": pmsg("vote outcome", "all leave"),
    "stay": pmsg("vote outcome", "they all stay"),
    "tie-out": pmsg("vote outcome", "tie: all leave"),
    "nobody": pmsg("vote outcome", "nobody leaves"),
    "removed-leads": pmsg("vote outcome", "the removed player led: nobody else leaves"),
    "all-tied": pmsg("vote outcome", "the whole table is tied: nobody leaves"),
    "no-lift": pmsg("vote outcome", "these players cannot be lifted: nobody leaves"),
    "single-day1": pmsg("vote outcome", "a single candidate on day 1 is not voted on"),
    "cancelled": pmsg("vote outcome", "the vote is cancelled"),
    "no-candidates": pmsg("vote outcome", "nobody was nominated"),
}
"""How a vote ended, after the seats leaving (``VoteResult.outcome``)."""

PROTEST_NAMES: dict[str, Text] = {
    "annul": pmsg("protest", "annul"),
    "reverse": pmsg("protest", "reverse"),
}
"""What a protest asks: to annul the result or to reverse it."""

_SPEECH_STEPS = frozenset(("speech", "muted", "last_word", "tie_speech", "defence"))
_NIGHT_PREFIXES = ("meet_", "check_")


def t(table: dict[Any, Text], key: Any, lang: str) -> str:
    """The name of ``key`` in one of the tables above, in ``lang``; an unknown key as it is."""
    text = table.get(key)
    return str(key) if text is None else text.render(lang)


_REVOTE = pmsg("step", "the revote")


def step_banner(step: str, day: int, seat: int, lang: str = "en", kind: str = "") -> str:
    """The console's phase banner, e.g. "Day 2 · speech of player 5" / "День 2 · речь игрока 5"; ``kind``: the
    vote's (``VotingStarted.kind``), which names a revote's "voting" step as such."""
    night = step.startswith(_NIGHT_PREFIXES) or step in ("shooting", "kill")
    head = msg("Night %(n)s", n=day) if night else msg("Day %(n)s", n=day)
    name: Text | str = _REVOTE if step == "voting" and kind == "revote" else STEP_NAMES.get(step, step)
    if step in _SPEECH_STEPS and seat:
        name = msg("%(step)s of player %(seat)s", step=name, seat=seat)
    elif step == "voting" and seat:
        name = msg("%(step)s · candidate %(seat)s", step=name, seat=seat)
    return f"{head.render(lang)} · {render(name, lang)}"


_SEAT_NUMBER = msg("#%(seat)s")


def seat_number(seat: int) -> Text:
    """A seat as every screen writes it: "#3" / "№3"."""
    return Text(_SEAT_NUMBER.msgid, {"seat": seat})


def seat_label(seat: int, lang: str, names: tuple[str, ...] | None = None) -> str:
    """A seat's number in ``lang`` and, where the game has names, the player's name: "№3 Лиса" (the
    timeline's hot path: the catalog's text filled in directly)."""
    label = _SEAT_NUMBER.template(lang) % {"seat": seat}
    if names and 1 <= seat <= len(names):
        label += f" {names[seat - 1]}"
    return label


VOTE_KIND_NAMES: dict[str, Text] = {
    "vote": pmsg("vote kind", "Vote"),
    "revote": pmsg("vote kind", "Revote"),
    "lift": pmsg("vote kind", "Lift"),
    "leaders": pmsg("vote kind", "Vote"),
}
"""How the screens head a vote's count (``VotingStarted.kind``): the revote and the lift named as such."""

_LINE_OUTCOMES: dict[str, Text] = {
    "tie": pmsg("vote line", "tie"),
    "stay": pmsg("vote line", "they stay"),
}
UNCOUNTED = frozenset(("single-day1", "cancelled", "no-candidates"))
"""The outcomes of a day without a vote (``VoteResult.outcome``): nothing was counted."""


def vote_line(kind: str, tally: Sequence[tuple[int, int]], of: int, leaving: Sequence[int] = (),
              outcome: str = "") -> Text:
    """A vote's count as the screens show it, running (no ``outcome``) or closed: "#3 — 5, #6 — 5: tie" headed
    by the vote's kind ("Vote", "Revote"), or for the lift question (``tally`` is ``((0, yes),)``, as in
    ``VoteResult``) "Lift: 4 of 8 — they stay"; ``of``: the players at the table."""
    head = VOTE_KIND_NAMES.get(kind, VOTE_KIND_NAMES["vote"])
    parts: list[Text] = [head]
    if kind == "lift":
        yes = sum(v for _, v in tally)
        parts.append(msg("%(yes)s of %(of)s", yes=yes, of=of))
    elif tally and outcome not in UNCOUNTED:
        parts.append(join([msg("%(seat)s — %(votes)s", seat=seat_number(c), votes=v) for c, v in tally]))
    if not outcome:
        return join(parts, ": ")
    seats = join([seat_number(s) for s in leaving])
    if outcome == "out":
        result = msg("%(seats)s leaves", seats=seats)
    elif outcome in ("lift", "tie-out"):
        result = msg("%(seats)s leave", seats=seats)
    elif outcome == "stay" and kind == "leaders":
        result = VOTE_OUTCOMES["nobody"]
    else:
        result = _LINE_OUTCOMES.get(outcome) or VOTE_OUTCOMES.get(outcome) or verbatim(outcome)
    if kind == "lift":
        return join([join(parts, ": "), result], " — ")
    return join([*parts, result], ": ")


def describe(ev: E.Event, lang: str = "en", names: tuple[str, ...] | None = None) -> str | None:
    """One line for an event, or None for events that only mark the host's "next"."""
    line = _line(ev, lang, names)
    return line if line is None or isinstance(line, str) else line.render(lang)


def _line(ev: E.Event, lang: str, names: tuple[str, ...] | None) -> Text | str | None:
    """The line of ``describe``: a message (rendered by the caller) or a text already in ``lang``."""

    def p(seat: int) -> str:
        return seat_label(seat, lang, names)

    def seats(xs: Any) -> str:
        return ", ".join(p(x) for x in xs) if xs else pmsg("seats", "nobody").render(lang)

    def name(table: dict[Any, Text], key: Any) -> str:
        return t(table, key, lang)

    match ev:
        case E.Advanced():
            return None
        case E.Dealt(roles=roles):
            deck = ", ".join(f"{i}:{name(ROLE_NAMES, r)}" for i, r in enumerate(roles, 1))
            return msg("Cards dealt: %(deck)s", deck=deck)
        case E.FirstSpeakerDrawn(seat=s):
            return msg("Lot: %(seat)s speaks first", seat=p(s))
        case E.LotDrawn(seat=s):
            return msg("The lot sends out %(seat)s", seat=p(s))
        case E.Step(step=step, day=day, seat=s, seconds=secs):
            banner = step_banner(step, day, s, lang)
            if secs:
                return msg("— %(banner)s (%(seconds)s s)", banner=banner, seconds=secs)
            return f"— {banner}"
        case E.Nominated(by=b, target=tg, named=named):
            extra = msg(" (named %(seats)s)", seats=seats(named)).render(lang) if named else ""
            return msg("%(who)s nominates %(target)s%(extra)s", who=p(b), target=p(tg), extra=extra)
        case E.Withdrawn(by=b, target=tg):
            return msg("%(who)s withdraws %(target)s", who=p(b), target=p(tg))
        case E.VoteCast(voter=v, candidate=c):
            return msg("%(who)s votes for %(target)s", who=p(v), target=p(c))
        case E.LiftVoteCast(voter=v):
            return msg("%(who)s votes to lift", who=p(v))
        case E.DefaultVotes(candidate=c, voters=vs):
            return msg("Default votes for %(target)s: %(voters)s", target=p(c), voters=seats(vs))
        case E.VotingStarted(kind=kind, candidates=cs):
            if kind == "lift":
                return msg("Who is for %(seats)s all leaving the game?", seats=seats(cs))
            if kind == "leaders":
                return msg("Leaders for the vote: %(seats)s", seats=seats(cs))
            if kind == "revote":
                return msg("Revote: %(seats)s", seats=seats(cs))
            return msg("Voting: %(seats)s", seats=seats(cs))
        case E.VoteResult(tally=tally, leaving=leaving, outcome=outcome):
            counts = ", ".join(f"{p(c)}: {v}" for c, v in tally if c)
            yes = ", ".join(str(v) for c, v in tally if not c)
            lift = msg("%(votes)s to lift", votes=yes).render(lang) if yes else ""
            bits = [b for b in (counts, lift) if b]
            detail = f" [{'; '.join(bits)}]" if bits else ""
            who = f" {seats(leaving)}" if leaving else ""
            return msg("Result:%(who)s %(outcome)s%(detail)s", who=who, outcome=name(VOTE_OUTCOMES, outcome),
                       detail=detail)
        case E.VoteCancelled(day=d, clause=cl):
            return msg("The vote of day %(day)s is cancelled (%(clause)s)", day=d, clause=cl)
        case E.ShotFired(shooter=s, target=tg):
            return msg("%(who)s shoots %(target)s", who=p(s), target=p(tg))
        case E.VolleyFired(target=tg):
            return msg("All shoot: %(target)s", target=p(tg))
        case E.KillChosen(target=tg):
            return msg("The mafia chooses %(target)s", target=p(tg))
        case E.Checked(checker=c, target=tg, found=found):
            answer = msg("yes") if found else msg("no")
            return msg("%(who)s checks %(target)s: %(answer)s", who=p(c), target=p(tg), answer=answer)
        case E.NightResult(night=nt, killed=k):
            if k:
                return msg("Night %(night)s: %(seat)s is killed", night=nt, seat=p(k))
            return msg("Night %(night)s: a miss", night=nt)
        case E.BestMoveNamed(seat=s, guesses=g, black=b):
            return msg("Best move of %(who)s: %(seats)s (%(black)s black)", who=p(s), seats=seats(g), black=b)
        case E.Fouled(seat=s, reason=r, technical=tech, count=c):
            why = f" — {name(REASON_NAMES, r)}" if r else ""
            if tech:
                return msg("%(who)s: technical foul %(count)s%(why)s", who=p(s), count=c, why=why)
            return msg("%(who)s: foul %(count)s%(why)s", who=p(s), count=c, why=why)
        case E.Muted(seat=s, day=d):
            return msg("%(who)s loses his speech on day %(day)s", who=p(s), day=d)
        case E.Sanctioned(seat=s, offence=o, sanction=sn):
            return f"{p(s)}: {name(REASON_NAMES, o)} — {name(SANCTION_NAMES, sn)}"
        case E.Removed(seat=s, reason=r, scope=sc):
            why = f" — {name(REASON_NAMES, r)}" if r else ""
            scope = "" if sc == "game" else f" ({name(SANCTION_NAMES, sc)})"
            return msg("%(who)s is removed%(scope)s%(why)s", who=p(s), scope=scope, why=why)
        case E.PlayerLeft(seat=s, how=how):
            return msg("%(who)s leaves: %(how)s", who=p(s), how=name(HOW_NAMES, how))
        case E.Awarded(winner=w, reason=r):
            return msg("The judge awards the win to %(team)s (%(reason)s)", team=name(TEAM_NAMES, w), reason=r)
        case E.TeamDefeated(team=tm, reason=r):
            return msg("Team defeat of %(team)s (%(reason)s)", team=name(TEAM_NAMES, tm), reason=r)
        case E.Overridden(winner=w, reason=r):
            return msg("Judge's decision: %(team)s (%(reason)s)", team=name(TEAM_NAMES, w), reason=r)
        case E.ProtestVoted(outcome=o, voters=vs, passed=ok, rule=rule):
            broken = msg("; rule broken: %(rule)s", rule=rule).render(lang) if rule else ""
            result = pmsg("protest", "passed") if ok else pmsg("protest", "failed")
            return msg("Protest (%(what)s%(broken)s): %(seats)s for — %(result)s", what=name(PROTEST_NAMES, o),
                       broken=broken, seats=seats(vs), result=result)
        case E.Undone(seq=q):
            return msg("Action %(seq)s undone", seq=q)
        case E.GameEnded(winner=w, result=r):
            if w is None:
                return msg("Game over: %(result)s", result=name(RESULT_NAMES, r))
            return msg("Winner: %(team)s — %(result)s", team=name(TEAM_NAMES, w), result=name(RESULT_NAMES, r))
    return str(ev.to_json())  # pragma: no cover - every event type is matched above
