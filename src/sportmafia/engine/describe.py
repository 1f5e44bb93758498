"""Readable Russian and English text for steps, roles, reasons and events (used by the CLI and replay)."""

from __future__ import annotations

from typing import Any

from ..i18n import Text, pmsg
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


def t(table: dict[Any, Text], key: Any, lang: str) -> str:
    """The name of ``key`` in one of the tables above, in ``lang``; an unknown key as it is."""
    text = table.get(key)
    return str(key) if text is None else text.render(lang)


def step_banner(step: str, day: int, seat: int, lang: str = "en") -> str:
    """The console's phase banner, e.g. "Day 2 · speech of player 5" / "День 2 · речь игрока 5"."""
    ru = lang == "ru"
    night = step.startswith(("meet_", "check_")) or step in ("shooting", "kill")
    head = (f"Ночь {day}" if ru else f"Night {day}") if night else (f"День {day}" if ru else f"Day {day}")
    name = t(STEP_NAMES, step, lang)
    if step in ("speech", "muted", "last_word", "tie_speech", "defence") and seat:
        name = f"{name} игрока {seat}" if ru else f"{name} of player {seat}"
    elif step == "voting" and seat:
        name = f"{name} · кандидат {seat}" if ru else f"{name} · candidate {seat}"
    return f"{head} · {name}"


def describe(ev: E.Event, lang: str = "en", names: tuple[str, ...] | None = None) -> str | None:
    """One line for an event, or None for events that only mark the host's "next"."""
    ru = lang == "ru"

    def p(seat: int) -> str:
        label = f"№{seat}" if ru else f"#{seat}"
        if names and 1 <= seat <= len(names):
            label += f" {names[seat - 1]}"
        return label

    def seats(xs: Any) -> str:
        return ", ".join(p(x) for x in xs) if xs else ("никого" if ru else "nobody")

    match ev:
        case E.Advanced():
            return None
        case E.Dealt(roles=roles):
            deck = ", ".join(f"{i}:{t(ROLE_NAMES, r, lang)}" for i, r in enumerate(roles, 1))
            return f"Карты розданы: {deck}" if ru else f"Cards dealt: {deck}"
        case E.FirstSpeakerDrawn(seat=s):
            return f"Жребий: первым говорит {p(s)}" if ru else f"Lot: {p(s)} speaks first"
        case E.LotDrawn(seat=s):
            return f"Жребий на вылет: {p(s)}" if ru else f"The lot sends out {p(s)}"
        case E.Step(step=step, day=day, seat=s, seconds=secs):
            banner = step_banner(step, day, s, lang)
            return f"— {banner}" + (f" ({secs} с)" if ru and secs else f" ({secs} s)" if secs else "")
        case E.Nominated(by=b, target=tg, named=named):
            extra = (f" (названы {seats(named)})" if ru else f" (named {seats(named)})") if named else ""
            return f"{p(b)} выставляет {p(tg)}{extra}" if ru else f"{p(b)} nominates {p(tg)}{extra}"
        case E.Withdrawn(by=b, target=tg):
            return f"{p(b)} отзывает {p(tg)}" if ru else f"{p(b)} withdraws {p(tg)}"
        case E.VoteCast(voter=v, candidate=c):
            return f"{p(v)} голосует за {p(c)}" if ru else f"{p(v)} votes for {p(c)}"
        case E.LiftVoteCast(voter=v):
            return f"{p(v)} за подъём" if ru else f"{p(v)} votes to lift"
        case E.DefaultVotes(candidate=c, voters=vs):
            return (f"Голоса по умолчанию за {p(c)}: {seats(vs)}" if ru
                    else f"Default votes for {p(c)}: {seats(vs)}")
        case E.VotingStarted(kind=kind, candidates=cs):
            if kind == "lift":
                return (f"Кто за то, чтобы {seats(cs)} покинули игру?" if ru
                        else f"Who is for {seats(cs)} all leaving the game?")
            if kind == "leaders":
                return f"Лидеры на посадку: {seats(cs)}" if ru else f"Leaders for the vote: {seats(cs)}"
            word = ("Переголосование" if kind == "revote" else "В городе голосование") if ru else (
                "Revote" if kind == "revote" else "Voting")
            return f"{word}: {seats(cs)}"
        case E.VoteResult(tally=tally, leaving=leaving, outcome=outcome):
            counts = ", ".join(f"{p(c)}: {v}" for c, v in tally if c) or ""
            yes = ", ".join(str(v) for c, v in tally if not c)
            text = {
                "out": ("leaves", "покидает стол"), "tie": ("tie between", "перестрелка"),
                "lift": ("all leave", "все покидают стол"), "stay": ("they all stay", "все остаются"),
                "tie-out": ("tie: all leave", "равенство: все уходят"),
                "nobody": ("nobody leaves", "никто не уходит"),
                "removed-leads": ("the removed player led: nobody else leaves",
                                  "больше всех у удалённого: больше никто не уходит"),
                "all-tied": ("the whole table is tied: nobody leaves", "весь стол в перестрелке: никто не уходит"),
                "no-lift": ("these players cannot be lifted: nobody leaves", "подъём невозможен: никто не уходит"),
                "single-day1": ("a single candidate on day 1 is not voted on", "единственная кандидатура в первый день не голосуется"),
                "cancelled": ("the vote is cancelled", "голосование отменено"),
                "no-candidates": ("nobody was nominated", "никто не выставлен"),
            }.get(outcome, (outcome, outcome))
            word = text[1] if ru else text[0]
            bits = [b for b in (counts, (f"за подъём {yes}" if ru else f"{yes} to lift") if yes else "") if b]
            detail = f" [{'; '.join(bits)}]" if bits else ""
            who = f" {seats(leaving)}" if leaving and outcome not in ("tie",) else (
                f" {seats(leaving)}" if leaving else "")
            return f"Итог:{who} {word}{detail}" if ru else f"Result:{who} {word}{detail}"
        case E.VoteCancelled(day=d, clause=cl):
            return f"Голосование дня {d} отменено ({cl})" if ru else f"The vote of day {d} is cancelled ({cl})"
        case E.ShotFired(shooter=s, target=tg):
            return f"{p(s)} стреляет в {p(tg)}" if ru else f"{p(s)} shoots {p(tg)}"
        case E.KillChosen(target=tg):
            return f"Мафия выбирает {p(tg)}" if ru else f"The mafia chooses {p(tg)}"
        case E.Checked(checker=c, target=tg, found=found):
            ans = ("да" if found else "нет") if ru else ("yes" if found else "no")
            return f"{p(c)} проверяет {p(tg)}: {ans}" if ru else f"{p(c)} checks {p(tg)}: {ans}"
        case E.NightResult(night=nt, killed=k):
            if k:
                return f"Ночь {nt}: убит {p(k)}" if ru else f"Night {nt}: {p(k)} is killed"
            return f"Ночь {nt}: промах" if ru else f"Night {nt}: a miss"
        case E.BestMoveNamed(seat=s, guesses=g, black=b):
            return (f"Лучший ход {p(s)}: {seats(g)} (чёрных: {b})" if ru
                    else f"Best move of {p(s)}: {seats(g)} ({b} black)")
        case E.Fouled(seat=s, reason=r, technical=tech, count=c):
            kind = ("техфол" if tech else "фол") if ru else ("technical foul" if tech else "foul")
            why = f" — {t(REASON_NAMES, r, lang)}" if r else ""
            return f"{p(s)}: {kind} {c}{why}"
        case E.Muted(seat=s, day=d):
            return f"{p(s)} лишён слова в день {d}" if ru else f"{p(s)} loses his speech on day {d}"
        case E.Sanctioned(seat=s, offence=o, sanction=sn):
            return (f"{p(s)}: {t(REASON_NAMES, o, lang)} — {t(SANCTION_NAMES, sn, lang)}")
        case E.Removed(seat=s, reason=r, scope=sc):
            why = f" — {t(REASON_NAMES, r, lang)}" if r else ""
            scope = "" if sc == "game" else f" ({t(SANCTION_NAMES, sc, lang)})"
            return f"{p(s)} удалён{scope}{why}" if ru else f"{p(s)} is removed{scope}{why}"
        case E.PlayerLeft(seat=s, how=how):
            return f"{p(s)} покидает стол: {t(HOW_NAMES, how, lang)}" if ru else f"{p(s)} leaves: {t(HOW_NAMES, how, lang)}"
        case E.Awarded(winner=w, reason=r):
            return (f"Судья присуждает победу: {t(TEAM_NAMES, w, lang)} ({r})" if ru
                    else f"The judge awards the win to {t(TEAM_NAMES, w, lang)} ({r})")
        case E.TeamDefeated(team=tm, reason=r):
            return (f"Командное поражение: {t(TEAM_NAMES, tm, lang)} ({r})" if ru
                    else f"Team defeat of {t(TEAM_NAMES, tm, lang)} ({r})")
        case E.Overridden(winner=w, reason=r):
            return (f"Решение судьи: {t(TEAM_NAMES, w, lang)} ({r})" if ru
                    else f"Judge's decision: {t(TEAM_NAMES, w, lang)} ({r})")
        case E.ProtestVoted(outcome=o, voters=vs, passed=ok, rule=rule):
            what = ("аннулировать" if o == "annul" else "изменить") if ru else o
            res = ("принят" if ok else "отклонён") if ru else ("passed" if ok else "failed")
            broken = (f"; нарушено: {rule}" if ru else f"; rule broken: {rule}") if rule else ""
            return (f"Протест ({what}{broken}): за {seats(vs)} — {res}" if ru
                    else f"Protest ({what}{broken}): {seats(vs)} for — {res}")
        case E.Undone(seq=q):
            return f"Отменено действие №{q}" if ru else f"Action {q} undone"
        case E.GameEnded(winner=w, result=r):
            if w is None:
                return f"Игра окончена: {t(RESULT_NAMES, r, lang)}" if ru else f"Game over: {t(RESULT_NAMES, r, lang)}"
            return (f"Победа: {t(TEAM_NAMES, w, lang)} — {t(RESULT_NAMES, r, lang)}" if ru
                    else f"Winner: {t(TEAM_NAMES, w, lang)} — {t(RESULT_NAMES, r, lang)}")
    return str(ev.to_json())  # pragma: no cover - every event type is matched above
