"""`RuleViolation`: an illegal command, refused with a code, the rulebook clause and a message in Russian
and English. The game is left exactly as it was."""

from __future__ import annotations

from typing import Any

# code: (clause id, English template, Russian template)
MESSAGES: dict[str, tuple[str, str, str]] = {
    "game-over": ("A.win", "The game is over: only judge actions remain.",
                  "Игра окончена: возможны только решения судьи."),
    "not-dealt": ("B.deal", "Cards have not been dealt yet.", "Карты ещё не розданы."),
    "already-dealt": ("B.deal", "Cards have already been dealt.", "Карты уже розданы."),
    "bad-deal": ("A.setup", "This deal does not fit the rule set: {detail}.",
                 "Раздача не подходит к правилам: {detail}."),
    "need-rng": ("B.deal", "This is a chance step: pass a random generator or the outcome.",
                 "Это шаг жребия: передайте генератор случайных чисел или результат."),
    "wrong-step": ("{clause}", "Not now: the game is at {step}, and {what} is not part of it.",
                   "Не сейчас: идёт «{step_ru}», а {what_ru} сейчас невозможно."),
    "bad-seat": ("A.setup", "There is no seat {seat} at this table of {n}.",
                 "За этим столом ({n}) нет места {seat}."),
    "not-alive": ("A.nom.dead", "Player {seat} has left the table.", "Игрок {seat} уже покинул стол."),
    "not-your-speech": ("A.nom.own", "Player {seat} may nominate only during his own speech (now: {speaker}).",
                        "Игрок {seat} может выставлять только в свою речь (сейчас говорит {speaker})."),
    "no-nominations-now": ("{clause}", "Nominations are not accepted in this speech.",
                           "В этой речи выставления не принимаются."),
    "vote-cancelled": ("{clause}", "There is no vote today after the removal, so no nominations.",
                       "После удаления голосования сегодня нет, выставления не принимаются."),
    "one-nomination": ("A.nom.own", "Player {seat} already has a candidate standing from this speech.",
                       "У игрока {seat} уже есть выставленная в этой речи кандидатура."),
    "self-nomination": ("A.nom.own", "A player may not nominate himself under these rules.",
                        "По этим правилам нельзя выставить самого себя."),
    "no-withdrawal": ("F.withdraw", "A nomination cannot be withdrawn under these rules.",
                      "По этим правилам выставление нельзя отозвать."),
    "nothing-to-withdraw": ("A.nom.withdraw", "Player {seat} has not nominated {target} in this speech.",
                            "Игрок {seat} не выставлял {target} в этой речи."),
    "not-a-candidate": ("A.vote.one", "Player {target} is not the candidate being voted on now.",
                        "Игрок {target} сейчас не голосуется."),
    "not-a-leader": ("B.vote", "Player {target} is not a leader of this vote.",
                     "Игрок {target} не лидер этого голосования."),
    "already-voted": ("A.vote.one", "Player {seat} has already voted.", "Игрок {seat} уже проголосовал."),
    "cannot-vote": ("A.vote.one", "Player {seat} cannot vote: he has left the table.",
                    "Игрок {seat} не может голосовать: он покинул стол."),
    "not-black": ("A.night.shoot", "Player {seat} is not a living black player and cannot shoot.",
                  "Игрок {seat} не живой чёрный игрок и не может стрелять."),
    "shot-twice": ("A.night.shoot", "Player {seat} has already shot twice tonight.",
                   "Игрок {seat} уже дважды выстрелил этой ночью."),
    "already-killed": ("B.night", "The mafia has already chosen tonight's victim.",
                       "Мафия уже выбрала жертву этой ночью."),
    "kill-required": ("B.night", "The mafia must choose a victim before the night ends.",
                      "Мафия должна выбрать жертву до конца ночи."),
    "not-checker": ("{clause}", "Player {seat} is not the one who checks now.",
                    "Игрок {seat} сейчас не проверяет."),
    "already-checked": ("{clause}", "Player {seat} has already checked tonight.",
                        "Игрок {seat} уже проверял этой ночью."),
    "check-self": ("{clause}", "A player does not check himself.", "Себя не проверяют."),
    "no-best-move": ("F.bestmove", "There is no best move now.", "Лучший ход сейчас невозможен."),
    "bad-best-move": ("F.bestmove", "A best move names one to three other players, each once.",
                      "В лучшем ходе называют от одного до трёх других игроков, без повторов."),
    "no-fouls": ("B.sanctions", "These rules have no fouls; use warnings and sanctions.",
                 "В этих правилах нет фолов: используйте предупреждения и санкции."),
    "no-technical": ("F.technical", "Technical fouls are off in these rules.",
                     "Технические фолы в этих правилах отключены."),
    "no-sanctions": ("B.sanctions", "These rules have no sanctions table; use fouls and removal.",
                     "В этих правилах нет таблицы санкций: используйте фолы и удаление."),
    "bad-offence": ("B.sanctions", "Unknown offence '{offence}'.", "Неизвестное нарушение «{offence}»."),
    "bad-scope": ("B.sanctions", "Removal beyond the game needs the tournament rules.",
                  "Удаление за пределы игры бывает только в турнирных правилах."),
    "no-award": ("A.award", "These rules have no awarded win.", "В этих правилах нет присуждения победы."),
    "no-protest": ("A.protest", "These rules have no protest vote.", "В этих правилах нет протеста."),
    "protest-during-game": ("A.protest", "A protest is voted only after the game.",
                            "Протест голосуется только после игры."),
    "protest-twice": ("A.protest", "The protest has already been voted.", "Протест уже голосовался."),
    "protest-no-winner": ("A.protest", "There is no winning team to protest against.",
                          "Нет команды-победителя, против которой протест."),
    "protest-judge": ("A.judge", "The judge's decision cannot be appealed by a protest.",
                      "Решение судьи обжалованию не подлежит."),
    "no-team-defeat": ("F.team-defeat", "These rules have no team defeat.",
                       "В этих правилах нет командного поражения."),
    "bad-team": ("A.award", "A team is 'red' or 'black'.", "Команда: «red» или «black»."),
    "reason-required": ("A.judge", "A judge's decision needs a reason.", "Решение судьи требует причины."),
    "nothing-to-undo": ("A.judge", "There is nothing to undo.", "Отменять нечего."),
    "not-yours": ("A.nom.own", "Seat {actor} may act only for himself.", "Игрок {actor} действует только за себя."),
    "unknown-command": ("A.judge", "Unknown command {name}.", "Неизвестная команда {name}."),
}


class RuleViolation(ValueError):
    """An illegal command. ``code`` is stable, ``clause`` the rulebook id, messages in both languages."""

    def __init__(self, code: str, clause: str | None = None, **params: Any) -> None:
        template_clause, en, ru = MESSAGES[code]
        self.code = code
        self.clause = clause or template_clause.format(**params, clause="A.judge")
        fmt = {k: v for k, v in params.items()}
        fmt.setdefault("clause", self.clause)
        self.message_en = en.format(**fmt)
        self.message_ru = ru.format(**fmt)
        self.params = params
        super().__init__(f"[{self.clause}] {self.message_en}")

    def message(self, lang: str = "en") -> str:
        return self.message_ru if lang == "ru" else self.message_en

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "clause": self.clause, "en": self.message_en, "ru": self.message_ru}
