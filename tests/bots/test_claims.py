"""The claims' vocabulary (``sportmafia.bots.claims``): what a seat says in his speech, its JSON form, its text
in both languages, and who may say it when."""

from __future__ import annotations

from typing import Any

import pytest

from sportmafia.bots.claims import KINDS, Claim, Said, check_claim, claim_from_json, said_from_json, speaker
from sportmafia.engine import DrawFirstSpeaker, RuleViolation
from tests.conftest import advance_until, new_game

EVERY_KIND = [Claim(2, "role", role="sheriff"), Claim(2, "role", role="commissar"), Claim(2, "role", role="civilian"),
              Claim(2, "check", target=5, color="red"), Claim(2, "check", target=5, color="black"),
              Claim(2, "suspect", target=5), Claim(2, "trust", target=5), Claim(2, "vote", target=5),
              Claim(2, "lying", target=5)]


def test_every_kind_round_trips_and_reads_in_both_languages() -> None:
    assert {c.kind for c in EVERY_KIND} == set(KINDS)
    texts: dict[str, set[str]] = {"en": set(), "ru": set()}
    for c in EVERY_KIND:
        assert claim_from_json(c.to_json()) == c
        assert said_from_json(Said(17, c).to_json()) == Said(17, c)
        for lang in ("en", "ru"):
            text = c.text().render(lang)
            assert text.startswith("№2: " if lang == "ru" else "#2: ")
            assert (c.target is None) or f"{c.target}" in text
            texts[lang].add(text)
    assert len(texts["en"]) == len(texts["ru"]) == len(EVERY_KIND)  # each says something of its own
    assert not texts["en"] & texts["ru"]  # and the Russian is Russian
    assert Claim(3, "role", role="sheriff").text().render("ru") == "№3: Я шериф."


@pytest.mark.parametrize("data", [
    {"seat": 2, "kind": "hello", "target": 5},  # not a kind
    {"seat": 2, "kind": "role"},  # a role claim names the role
    {"seat": 2, "kind": "role", "role": "don"},  # nobody claims to be black
    {"seat": 2, "kind": "check", "target": 5},  # a check names its color
    {"seat": 2, "kind": "check", "target": 5, "color": "green"},
    {"seat": 2, "kind": "suspect"},  # about someone
    {"seat": 2, "kind": "suspect", "target": 2},  # someone else
    {"seat": 2, "kind": "suspect", "target": 5, "color": "red"},  # only a check has a color
    {"seat": True, "kind": "suspect", "target": 5},
    {"seat": 2, "kind": "suspect", "target": "5"},
    {"seat": 2, "kind": "trust", "target": 5, "why": "because"},  # nothing else
    ["seat", 2],
])
def test_a_malformed_claim_is_refused(data: Any) -> None:
    with pytest.raises(ValueError):
        claim_from_json(data)


@pytest.mark.clause("A.speech.order")
def test_only_the_speaker_claims_and_only_in_his_speech() -> None:
    game = new_game("club")
    advance_until(game, "speech", day=1)
    now = speaker(game)
    assert now is not None
    other = now % 10 + 1
    check_claim(game, Claim(now, "role", role="sheriff"))
    check_claim(game, Claim(now, "suspect", target=other))
    before = len(game.log)
    with pytest.raises(RuleViolation) as info:
        check_claim(game, Claim(other, "suspect", target=now))
    assert (info.value.code, info.value.clause) == ("not-your-word", "A.speech.order")
    assert "own speech" in info.value.message_en and "своей речи" in info.value.message_ru
    with pytest.raises(RuleViolation) as info:  # the club's checker is the Sheriff
        check_claim(game, Claim(now, "role", role="commissar"))
    assert (info.value.code, info.value.clause) == ("no-such-role", "A.setup")
    assert "Commissar" in info.value.message_en
    with pytest.raises(RuleViolation) as info:
        check_claim(game, Claim(now, "suspect", target=11))
    assert info.value.code == "bad-seat"
    assert len(game.log) == before  # a claim never changes the game
    advance_until(game, "shooting")
    assert speaker(game) is None
    with pytest.raises(RuleViolation):
        check_claim(game, Claim(now, "suspect", target=other))


@pytest.mark.clause("B.speech.order")
def test_the_tournaments_speaker_claims_the_commissar() -> None:
    game = new_game("tournament", roles=["civilian"] * 8 + ["commissar", "mafia", "mafia", "mafia"])
    advance_until(game, "first_speaker")
    game.execute(DrawFirstSpeaker(seat=5))  # the introductions' day: speeches already
    now = speaker(game)
    assert now is not None
    check_claim(game, Claim(now, "role", role="commissar"))
    with pytest.raises(RuleViolation) as info:
        check_claim(game, Claim(now, "role", role="sheriff"))
    assert (info.value.code, info.value.clause) == ("no-such-role", "B.setup")
    with pytest.raises(RuleViolation) as info:
        check_claim(game, Claim(now % 12 + 1, "trust", target=now))
    assert info.value.clause == "B.speech.order"
