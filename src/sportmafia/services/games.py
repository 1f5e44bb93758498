"""Games' use cases: a game's rule set assembled from a preset or a club's saved variant and changed options,
a new game created at the deal (typed names or the club's roster), and what the host's "Next" leads to."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..engine import NIGHT_STEPS, Advance, Game, RuleViolation
from ..engine.describe import step_banner
from ..errors import BilingualError
from ..i18n import Text, join, msg, nmsg, pmsg, verbatim
from ..rules import RuleSet, RuleSetError, get_ruleset
from ..store import Store, UserRecord
from .errors import invalid, refusal_from


def exception_text(exc: Exception) -> Text | str:
    """An exception's message as a message's parameter: a refusal's reason (after its prefix) in the viewer's
    language, another exception's own words."""
    if isinstance(exc, BilingualError):
        return join([verbatim(exc.prefix), exc.text], "") if exc.prefix else exc.text
    return str(exc)


def _checked(make: Callable[[], RuleSet], players: int | None, code: str) -> RuleSet:
    """The rule set ``make`` gives (checked for a table of ``players``), its errors as refusals ``code``."""
    try:
        rules = make()
        if players is not None:
            rules.check_table(players)
    except RuleSetError as exc:
        raise refusal_from(exc, code) from None
    except (TypeError, ValueError) as exc:
        raise invalid(code, msg("These rule set options are not valid: %(reason)s.", reason=exception_text(exc))) \
            from None
    return rules


def changed_rules(options: Mapping[str, Any], changes: Mapping[str, Any] | None, name: str | None, *,
                  players: int | None = None, code: str = "bad-settings") -> RuleSet:
    """The rule set of ``options`` (a whole ``RuleSet.options()``) with ``changes``, named ``name`` (None: the
    name ``options`` or ``changes`` give)."""
    named = {} if name is None else {"name": name}
    return _checked(lambda: RuleSet.from_options({**options, **(changes or {}), **named}), players, code)


def assemble_rules(store: Store, club_id: int, *, preset: str | None, variant: int | None,
                   options: Mapping[str, Any] | None, players: int | None = None,
                   code: str = "bad-settings") -> RuleSet:
    """A game's or a tournament's rule set: the club's saved ``variant`` (an id), else the ``preset``, with
    ``options`` changing it (a changed preset is named ``<preset>-variant``); checked for a table of
    ``players`` when given. Refused (``invalid``, ``code``) for another club's or a missing variant, unknown
    or bad options, a table size the rule set does not allow."""
    if variant is not None:
        saved = store.variant(club_id, variant)
        if saved is None:
            raise invalid(code, msg("Your club has no saved variant %(variant)s.", variant=variant))
        return changed_rules(saved.options, options, saved.name, players=players, code=code)
    rules = _checked(lambda: get_ruleset(preset or "tournament"), None, code)
    if options:
        return changed_rules({**rules.options(), "name": f"{rules.name}-variant"}, options, None, players=players,
                             code=code)
    return _checked(lambda: rules, players, code)


def _bad_game(text: Text) -> Exception:
    return invalid("bad-game", text)


def create_game(store: Store, user: UserRecord, *, preset: str | None, variant: int | None,
                options: Mapping[str, Any] | None, players: int, names: Sequence[str] | None,
                roster: Sequence[int] | None) -> str:
    """A new game of the user's club at the deal, hosted by ``user``: its seats are ``names``, or the club's
    ``roster`` players (ids; the host may not sit at his own table). Refused ``bad-game``; returns its id."""
    rules = assemble_rules(store, user.club_id, preset=preset, variant=variant, options=options, players=players,
                           code="bad-game")
    seats: list[str] | None = list(names) if names is not None else None
    seat_players: list[int | None] | None = None
    if roster is not None:
        on_roster = {p.id: p.name for p in store.club_players(user.club_id)}
        missing = [pid for pid in roster if pid not in on_roster]
        if missing:
            raise _bad_game(msg("Not on your club's roster: %(missing)s.", missing=str(missing)))
        if len(set(roster)) != len(roster):
            raise _bad_game(msg("A roster player sits at one seat only."))
        if user.player_id is not None and user.player_id in roster:
            raise _bad_game(msg("You are seated at this table: a game you play in is hosted by someone else."))
        seats = [on_roster[pid] for pid in roster]
        seat_players = list(roster)
    if seats is not None and len(seats) != players:
        raise _bad_game(msg("%(names)s for %(seats)s.", names=nmsg("%(n)d name", "%(n)d names", len(seats)),
                            seats=nmsg("%(n)d seat", "%(n)d seats", players)))
    try:
        return store.create_game(user.club_id, rules, players, seats, host_id=user.id, seat_players=seat_players)
    except ValueError as exc:
        raise _bad_game(msg("The game cannot be created: %(reason)s.", reason=exception_text(exc))) from None


def next_step(game: Game) -> dict[str, Any] | None:
    """The phase the game would show after the host's "Next": one fold of a copy of the log, then Advance."""
    after = Game.from_events(game.rules, game.n, game.log, game.names)
    try:
        after.execute(Advance())
    except RuleViolation:  # pragma: no cover - called only when Advance is legal
        return None
    night = after.step in NIGHT_STEPS
    was_night = game.step in NIGHT_STEPS
    label: dict[str, str] = {}
    for lang in ("en", "ru"):
        banner = step_banner(after.step, after.day, after.seat, lang, after.vote_kind)
        step = banner.split(" · ", 1)[1] if " · " in banner else banner
        step = step[:1].upper() + step[1:]
        if after.over:
            label[lang] = pmsg("next step", "The end of the game").render(lang)
        elif night and not was_night:
            label[lang] = msg("Night falls · %(step)s", step=step).render(lang)
        elif was_night and not night:
            label[lang] = msg("Morning · %(step)s", step=step).render(lang)
        else:
            label[lang] = step
    return {"step": after.step, "day": after.day, "seat": after.seat, "phase": after.phase, "over": after.over,
            "banner": {lang: step_banner(after.step, after.day, after.seat, lang, after.vote_kind)
                       for lang in ("en", "ru")},
            "label": label}
