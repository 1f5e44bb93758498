"""Readable Russian and English text for steps, roles, reasons and events (used by the CLI and replay)."""

from __future__ import annotations

from typing import Any

from . import events as E

STEP_NAMES: dict[str, tuple[str, str]] = {
    "deal": ("the deal", "раздача карт"),
    "meet_black": ("the black team meeting", "договорка чёрных"),
    "meet_don": ("the Don meeting the host", "знакомство Дона"),
    "meet_sheriff": ("the Sheriff meeting the host", "знакомство Шерифа"),
    "meet_commissar": ("the Commissar meeting the host", "знакомство Комиссара"),
    "first_speaker": ("the draw of the first speaker", "жребий первого слова"),
    "speech": ("a speech", "речь"),
    "muted": ("a muted turn", "ход без слова"),
    "last_word": ("a last word", "последнее слово"),
    "tie_speech": ("a tie speech", "речь в перестрелке"),
    "defence": ("a defence speech", "оправдательная речь"),
    "voting": ("the vote", "голосование"),
    "lift": ("the vote to lift all tied", "голосование за подъём"),
    "lot": ("the lot", "жребий"),
    "shooting": ("the night shooting", "стрельба"),
    "kill": ("the mafia's choice of victim", "выбор жертвы мафией"),
    "check_don": ("the Don's check", "проверка Дона"),
    "check_sheriff": ("the Sheriff's check", "проверка Шерифа"),
    "check_commissar": ("the Commissar's check", "проверка Комиссара"),
    "over": ("the end of the game", "конец игры"),
}

WHAT_NAMES: dict[str, tuple[str, str]] = {
    "draw_first_speaker": ("drawing the first speaker", "жребий первого слова"),
    "draw_lot": ("drawing the lot", "жребий"),
    "nominate": ("a nomination", "выставление"),
    "withdraw": ("a withdrawal", "снятие кандидатуры"),
    "vote": ("a vote", "голос"),
    "lift_vote": ("a vote to lift", "голос за подъём"),
    "shoot": ("a shot", "выстрел"),
    "kill": ("choosing a victim", "выбор жертвы"),
    "check": ("a check", "проверка"),
}

ROLE_NAMES: dict[str, tuple[str, str]] = {
    "civilian": ("civilian", "мирный"),
    "sheriff": ("Sheriff", "Шериф"),
    "commissar": ("Commissar", "Комиссар"),
    "mafia": ("mafia", "мафия"),
    "don": ("Don", "Дон"),
}

TEAM_NAMES: dict[str | None, tuple[str, str]] = {
    "red": ("red (the town)", "красные (город)"),
    "black": ("black (the mafia)", "чёрные (мафия)"),
    None: ("nobody", "никто"),
}

HOW_NAMES: dict[str, tuple[str, str]] = {
    "vote": ("voted out", "заголосован"),
    "lift": ("lifted with the tied", "поднят в перестрелке"),
    "kill": ("killed at night", "убит ночью"),
    "lot": ("drawn by lot", "ушёл по жребию"),
    "removal": ("removed", "удалён"),
}

REASON_NAMES: dict[str, tuple[str, str]] = {
    "unethical": ("unethical behaviour", "неэтичное поведение"),
    "night_conduct": ("breaking night conduct", "нарушение ночного поведения"),
    "gestures": ("excessive gestures", "излишняя жестикуляция"),
    "hand_pulled": ("hand pulled back before «thank you» (the vote counts)", "отдёрнул руку до «спасибо» (голос засчитан)"),
    "out_of_turn": ("speaking outside his minute", "высказывание вне своей минуты"),
    "forbidden_words": ("«honestly» / «thank God»", "«честно» / «слава Богу»"),
    "night_gestures": ("gestures or touches after night fell", "жесты и касания после объявления ночи"),
    "table_banging": ("banging the table", "удары по столу"),
    "late_mask": ("late mask", "несвоевременная маска"),
    "religion": ("appealing to religion", "апелляция к религии"),
    "touching": ("touching another player or the judge", "прикосновение к игроку или судье"),
    "foul4": ("fourth foul", "четвёртый фол"),
    "technical": ("technical fouls", "технические фолы"),
    "insult": ("insult", "оскорбление"),
    "bets": ("disputes and bets", "споры и пари"),
    "oath": ("an oath", "клятва"),
    "judge_dispute": ("arguing with the judge", "спор с судьёй"),
    "night_hints": ("night hints to the Sheriff or Don", "ночные подсказки Шерифу или Дону"),
    "peeping": ("peeping at night", "подглядывание ночью"),
    "left_seat": ("leaving his seat", "покинул место"),
    "night_touch": ("night touches", "ночные прикосновения"),
    "card_info": ("revealing card information", "раскрытие информации карты"),
    "rudeness": ("rudeness", "грубость"),
    "eyes_open": ("opening eyes at night", "открыл глаза ночью"),
    "disruption": ("deliberate disruption", "преднамеренный срыв игры"),
    "drunk": ("playing drunk", "нетрезвый вид"),
    "arguing": ("arguing with the host", "спор с ведущим"),
}

SANCTION_NAMES: dict[str, tuple[str, str]] = {
    "warning": ("a warning", "предупреждение"),
    "game": ("removal from the game", "удаление из игры"),
    "round": ("removal from the round", "снятие с тура"),
    "tournament": ("removal from the tournament", "снятие с турнира"),
    "ban": ("removal from the tournament and a ban", "снятие с турнира и запрет участия"),
}

RESULT_NAMES: dict[str, tuple[str, str]] = {
    "black-gone": ("no black player is left", "чёрных не осталось"),
    "parity": ("black players are as many as red", "чёрных не меньше, чем красных"),
    "misses": ("three mafia misses in a row", "три промаха мафии подряд"),
    "four-nights": ("three nights without a kill at four players", "три ночи без убийства при четырёх игроках"),
    "draw": ("nobody left for three night-and-day cycles: a draw", "три круга никто не покинул стол: ничья"),
    "award": ("the judge awarded the win", "судья присудил победу"),
    "team-defeat": ("a team defeat", "командное поражение"),
    "override": ("the judge's decision", "решение судьи"),
    "protest-annul": ("annulled by protest", "аннулирован протестом"),
    "protest-reverse": ("reversed by protest", "изменён протестом"),
}


def t(table: dict[Any, tuple[str, str]], key: Any, lang: str) -> str:
    pair = table.get(key)
    if pair is None:
        return str(key)
    return pair[1] if lang == "ru" else pair[0]


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
