"""One translation system (``sportmafia.i18n``): every message of the templates and the Python code has its words
in both catalogs, with the same placeholders, once, and no catalog keeps a message nobody uses; no Python string
in ``src/`` is Russian text written inline; a message renders in either language, its parameters too."""

from __future__ import annotations

import pytest

from sportmafia.i18n import Text, msg, npmsg, pmsg, translations

from . import catalogs


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_catalogs_cover_the_code_and_keep_nothing_stale(lang: str) -> None:
    wanted = {**catalogs.template_messages(), **catalogs.python_messages()}
    assert len(wanted) > 400
    found = [line for line in catalogs.problems() if line.startswith(f"{lang}: ")]
    assert not found, "\n".join(found)


def test_no_russian_text_is_written_inline_in_python() -> None:
    found = catalogs.inline_texts()
    assert not found, "move these to the catalogs:\n" + "\n".join(found)


def test_the_inline_check_sees_a_russian_literal_but_not_a_docstring(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "m.py").write_text('"""Модуль."""\n\ndef f():\n    """Функция."""\n    return "Привет"\n',
                                   encoding="utf-8")
    assert [line.split(":")[1] for line in catalogs.inline_texts(tmp_path)] == ["5"]


def test_a_message_renders_in_either_language_with_its_parameters() -> None:
    violation = msg("Player %(seat)s has left the table.", seat=3)
    assert violation.render("en") == "Player 3 has left the table."
    assert violation.render("ru") == "Игрок 3 уже покинул стол."
    assert str(violation) == "Player 3 has left the table."
    assert violation == Text("Player %(seat)s has left the table.", {"seat": 3})


def test_a_parameter_that_is_a_message_renders_in_the_same_language() -> None:
    text = msg("Not now: the game is at %(step)s, and %(what)s is not part of it.",
               step=pmsg("step", "a speech"), what=pmsg("action", "a shot"))
    assert text.render("en") == "Not now: the game is at a speech, and a shot is not part of it."
    assert text.render("ru") == "Не сейчас: идёт «речь», а выстрел сейчас невозможно."


def test_a_context_chooses_among_meanings_and_an_unknown_language_is_russian() -> None:
    assert pmsg("role", "Don").render("ru") == "Дон"
    assert pmsg("role", "Don").render("xx") == "Дон"
    assert translations("en").gettext("Next") == "Next"


def test_russian_plurals_take_three_forms() -> None:
    def players(n: int, lang: str) -> str:
        return npmsg("cli demo", "%(n)s player", "%(n)s players", n).render(lang)

    assert [players(n, "ru") for n in (1, 2, 5, 11, 21, 22)] == [
        "1 игрок", "2 игрока", "5 игроков", "11 игроков", "21 игрок", "22 игрока"]
    assert [players(n, "en") for n in (1, 5)] == ["1 player", "5 players"]
