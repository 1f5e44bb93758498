"""`RuleSet`: what a game of Mafia is, as a frozen dataclass of named options.

Every option names the rulebook clause ids it implements (``docs/rules/``) and has a help text, a catalog
message in the context "rule option" (:meth:`RuleSet.doc_of`; its English is the field's ``doc`` metadata).
A rule set is checked when it is made: one that cannot work (a table size outside the range it deals for, as
many black players as red, an option out of its range) is refused with a :class:`RuleSetError`, its reason a
catalog message.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import BilingualError
from ..i18n import N_, Text, msg, pmsg

NightKill = Literal["shoot", "agree"]
"""How the black team kills: every black player shoots (A.night.shoot) or they agree on one victim (B.night)."""

NominationStyle = Literal["sequential", "leaders"]
"""Club voting (candidates voted one by one, A.vote.order) or tournament leaders (B.leaders, B.vote)."""

RemovalRule = Literal["club", "fiim", "none"]
"""What a removal does to the day's vote: A.remove.day/A.remove.vote, F.remove.vote, or nothing."""

LiftThreeAtNine = Literal["allowed", "never", "not-day1"]
"""Three tied at nine players: put to the lift question (A.tie.nine), never, or not on day 1."""

FirstSpeaker = Literal["rotate", "random"]
"""Day 1 opens with seat 1 and each day with the next living seat (A.speech.order), or a lot (B.speech.order)."""


class RuleSetError(BilingualError):
    """A rule set (or a table made with it) that cannot work; its reason is a :class:`~sportmafia.i18n.Text`."""


def _opt(default: Any, clauses: str, doc: Text) -> Any:
    """An option: its default, the rulebook clause ids it implements and its help (``doc`` in English, ``help``
    the message)."""
    return field(default=default, metadata={"clauses": tuple(clauses.split()), "doc": doc.msgid, "help": doc})


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The options of one rule set. Build variants with :meth:`variant`; presets are in the registry."""

    name: str = _opt("custom", "", pmsg("rule option", "Name of the rule set (a preset's id or a club's own name)."))

    # --- table and roles -------------------------------------------------------------------------
    min_players: int = _opt(10, "A.setup B.table", pmsg("rule option", "Smallest table this rule set deals for."))
    max_players: int = _opt(10, "A.setup B.table", pmsg("rule option", "Largest table this rule set deals for."))
    black_counts: tuple[tuple[int, tuple[int, ...]], ...] = _opt(
        ((10, (3,)),), "A.setup B.setup",
        pmsg("rule option", "For each table size, the allowed numbers of black players; the first is the default."),
    )
    don: bool = _opt(
        True, "A.setup",
        pmsg("rule option", "One black player is the Don, who checks for the Sheriff at night."),
    )
    checker: Literal["sheriff", "commissar"] = _opt(
        "sheriff", "A.setup B.setup",
        pmsg("rule option", "The red checker: Sheriff (A.night.checks) or Commissar (B.night)."),
    )
    first_night_meetings: tuple[str, ...] = _opt(
        ("black", "don", "sheriff"), "A.night0 B.flow",
        pmsg("rule option", "Who meets on night 0, in order: 'black' (the team), 'don', 'sheriff', 'commissar'."),
    )

    # --- day structure ---------------------------------------------------------------------------
    intro_day: bool = _opt(
        False, "B.flow",
        pmsg("rule option", "Day 0 is an introduction round: no nominations, no vote."),
    )
    first_speaker: FirstSpeaker = _opt(
        "rotate", "A.speech.order B.speech.order",
        pmsg("rule option", "How each day's first speaker is chosen."),
    )
    speech_rounds: tuple[int, ...] = _opt(
        (60,), "A.speech.order A.timing B.rounds",
        pmsg("rule option", "Seconds of each speaking round of a day (day 1 on)."),
    )
    nomination_round: int = _opt(
        0, "A.nom.own B.rounds",
        pmsg("rule option", "Index of the round in which players nominate."),
    )
    nominations_per_speech: int = _opt(
        1, "A.nom.own B.rounds",
        pmsg("rule option", "Candidates a player may have standing from one speech."),
    )
    withdrawal: bool = _opt(
        True, "A.nom.withdraw F.withdraw",
        pmsg("rule option", "A player may withdraw his own nomination."),
    )
    withdrawn_renominated_last: bool = _opt(
        True, "A.nom.withdraw",
        pmsg("rule option", "D: a withdrawn candidate nominated again goes to the end of the order."),
    )
    self_nomination: bool = _opt(True, "A.nom.own", pmsg("rule option", "A player may nominate himself."))
    first_free: bool = _opt(
        True, "A.nom.first-free B.leaders",
        pmsg(
            "rule option",
            "Of several numbers named, the first not yet nominated is taken; off: the first named is "
            "taken, and naming a nominated player again adds to his nomination count (B.leaders).",
        ),
    )

    # --- voting ----------------------------------------------------------------------------------
    nomination_style: NominationStyle = _opt(
        "sequential", "A.vote.order B.leaders",
        pmsg("rule option", "Club voting or tournament leaders."),
    )
    default_vote: bool = _opt(
        True, "A.vote.default",
        pmsg("rule option", "Who did not vote votes for the last candidate."),
    )
    day1_single_candidate_skip: bool = _opt(
        True, "A.vote.day1-single",
        pmsg("rule option", "On day 1 a single candidate is not voted on."),
    )
    tie_revote: bool = _opt(
        True, "A.tie A.tie.again",
        pmsg("rule option", "Tied candidates speak and are voted on again."),
    )
    lift_vote: bool = _opt(
        True, "A.tie.again A.tie.lift",
        pmsg("rule option", "A repeated tie asks whether all tied leave."),
    )
    lift_two_at_four: bool = _opt(
        True, "A.tie.four",
        pmsg("rule option", "With 4 players two tied players may be lifted."),
    )
    lift_three_at_nine: LiftThreeAtNine = _opt(
        "allowed", "A.tie.nine",
        pmsg(
            "rule option",
            "D: with 9 players three players tied twice are put to the lift question ('allowed'), never "
            "('never': nobody leaves) or not on day 1 ('not-day1').",
        ),
    )
    tie_all_nobody: bool = _opt(
        True, "A.tie.all",
        pmsg(
            "rule option",
            "If the revote ties every living player again nobody leaves; false: the lift question on all "
            "of them.",
        ),
    )
    tie_all_leave: bool = _opt(
        False, "B.tie",
        pmsg("rule option", "A tie in the final vote sends all tied leaders out."),
    )
    zero_tie_nobody: bool = _opt(
        True, "B.tie B.vote",
        pmsg("rule option", "Option: when no leader got a vote (0:0, or 0 for a single leader) nobody leaves."),
    )
    single_leader_majority: bool = _opt(
        True, "B.vote",
        pmsg(
            "rule option",
            "Option: a single leader leaves only if more than half of the living vote for him; off: the "
            "simple (relative) majority of B.vote, he is the leader with the most votes and leaves.",
        ),
    )
    lot_without_nominations: bool = _opt(
        False, "B.lot",
        pmsg("rule option", "Nobody nominated: a lot sends one player out."),
    )

    # --- fouls, sanctions and removals -------------------------------------------------------------
    fouls: bool = _opt(
        True, "A.foul.reasons",
        pmsg("rule option", "Fouls are given (tournament uses warnings instead)."),
    )
    foul_mute: int = _opt(3, "A.foul.three", pmsg("rule option", "The foul that costs a speech."))
    foul_remove: int = _opt(4, "A.foul.four", pmsg("rule option", "The foul that removes the player."))
    short_speech_at: tuple[int, ...] = _opt(
        (3, 4), "A.foul.short",
        pmsg("rule option", "Table sizes at which a muted player speaks a short speech instead."),
    )
    technical_fouls: bool = _opt(
        False, "F.technical",
        pmsg("rule option", "D: technical fouls are given (off by default)."),
    )
    technical_remove: int = _opt(2, "F.technical", pmsg("rule option", "Technical fouls that remove a player."))
    sanctions: bool = _opt(False, "B.sanctions", pmsg("rule option", "The tournament's warnings and sanctions table."))
    removal_rule: RemovalRule = _opt(
        "club", "A.remove.day A.remove.vote F.remove.vote",
        pmsg("rule option", "What a removal does to the vote."),
    )

    # --- night -----------------------------------------------------------------------------------
    night_kill: NightKill = _opt(
        "shoot", "A.night.shoot B.night",
        pmsg("rule option", "Shooting by every black player or one kill."),
    )
    checker_first: bool = _opt(
        False, "A.night.checks B.night",
        pmsg("rule option", "The red checker acts before the kill."),
    )
    don_checks: bool = _opt(
        True, "A.night.checks",
        pmsg("rule option", "The Don checks one player a night for the Sheriff."),
    )

    # --- special results ---------------------------------------------------------------------------
    misses_win: int = _opt(
        3, "A.night.misses",
        pmsg("rule option", "Misses in a row (no one voted out between) that give red the win; 0: off."),
    )
    four_player_nights: int = _opt(
        3, "A.night.four",
        pmsg("rule option", "Nights in a row without a kill at 4 players that give red the win; 0: off."),
    )
    draw_cycles: int = _opt(
        0, "F.draw",
        pmsg("rule option", "Night-and-day cycles without a departure that make a draw; 0: off."),
    )
    best_move: bool = _opt(
        False, "F.bestmove",
        pmsg("rule option", "The first-night victim names up to three players."),
    )
    award: bool = _opt(True, "A.award", pmsg("rule option", "The judge may award the win to the other team."))
    protest: bool = _opt(True, "A.protest", pmsg("rule option", "The protest vote after the game."))
    team_defeat: bool = _opt(False, "F.team-defeat", pmsg("rule option", "The judge may declare a team defeat."))

    # --- timings (seconds) -------------------------------------------------------------------------
    intro_seconds: int = _opt(30, "B.flow B.timing", pmsg("rule option", "Day 0 introduction speech."))
    tie_speech_seconds: int = _opt(30, "A.tie A.timing", pmsg("rule option", "Speech of a tied candidate."))
    defence_seconds: int = _opt(60, "B.defence B.timing", pmsg("rule option", "Defence speech of a leader."))
    last_word_seconds: int = _opt(60, "A.lastword A.timing B.lastword", pmsg("rule option", "Last word."))
    short_speech_seconds: int = _opt(
        30, "A.foul.short A.timing",
        pmsg("rule option", "Speech of a muted player at 3-4 players."),
    )
    meeting_seconds: int = _opt(
        60, "A.night0 A.timing B.flow",
        pmsg("rule option", "The black team's meeting on night 0 (FIIM: exactly one minute)."),
    )

    def __post_init__(self) -> None:
        _validate(self)

    # ------------------------------------------------------------------------------------------------
    def black_options(self, players: int) -> tuple[int, ...]:
        """Allowed numbers of black players at a table of ``players`` (first is the default)."""
        self.check_table(players)
        for size, counts in self.black_counts:
            if size == players:
                return counts
        raise RuleSetError(  # pragma: no cover - _validate guarantees every size is listed
            msg("%(name)s: no role counts for %(players)s players", name=self.name, players=players))

    def check_table(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise RuleSetError(msg("Rule set '%(name)s' plays at tables of %(range)s players, not %(players)s.",
                                   name=self.name, range=self._range(), players=players))

    def roles_for(self, players: int, black: int | None = None) -> tuple[str, ...]:
        """The deck for a table: role names, ``black`` black players (default from the rule set).

        >>> get = RuleSet(name="x").roles_for
        >>> sorted(get(10))
        ['civilian', 'civilian', 'civilian', 'civilian', 'civilian', 'civilian', 'don', 'mafia', 'mafia', 'sheriff']
        """
        options = self.black_options(players)
        if black is None:
            black = options[0]
        if black not in options:
            allowed = ", ".join(map(str, options))
            raise RuleSetError(msg(
                "Rule set '%(name)s' deals %(allowed)s black players at a table of %(players)s, not %(black)s.",
                name=self.name, allowed=allowed, players=players, black=black))
        deck = ["don"] + ["mafia"] * (black - 1) if self.don else ["mafia"] * black
        deck.append(self.checker)
        deck += ["civilian"] * (players - black - 1)
        return tuple(deck)

    def variant(self, name: str, **changes: Any) -> RuleSet:
        """A club's own variant of this rule set, checked like any other."""
        return dataclasses.replace(self, name=name, **changes)

    def options(self) -> dict[str, Any]:
        """The options as plain JSON data (tuples as lists), in declaration order."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> RuleSet:
        """Inverse of :meth:`options`; unknown option names are refused."""
        known = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(options) - set(known) - {"no_lift_three_at_nine"})
        if unknown:
            raise RuleSetError(msg("Unknown rule set options: %(options)s.", options=", ".join(unknown)))
        kwargs: dict[str, Any] = {}
        for key, value in options.items():
            if key == "no_lift_three_at_nine":  # the earlier yes/no form of lift_three_at_nine
                if "lift_three_at_nine" not in options:
                    kwargs["lift_three_at_nine"] = "never" if value else "allowed"
                continue
            if key == "black_counts":
                try:
                    value = tuple((int(s), tuple(int(c) for c in cs)) for s, cs in value)
                except (TypeError, ValueError) as exc:
                    raise RuleSetError(
                        msg("black_counts must be a list of [table size, [black counts]].")) from exc
            elif isinstance(value, list):
                value = tuple(value)
            kwargs[key] = value
        return cls(**kwargs)

    @staticmethod
    def clauses_of(option: str) -> tuple[str, ...]:
        """The rulebook clause ids an option implements."""
        for f in dataclasses.fields(RuleSet):
            if f.name == option:
                return tuple(f.metadata["clauses"])
        raise KeyError(option)

    @staticmethod
    def doc_of(option: str) -> Text:
        """An option's help, a message (context "rule option") to render in the viewer's language.

        >>> RuleSet.doc_of("don").render("en")
        'One black player is the Don, who checks for the Sheriff at night.'
        """
        for f in dataclasses.fields(RuleSet):
            if f.name == option:
                help_text: Text = f.metadata["help"]
                return help_text
        raise KeyError(option)

    def _range(self) -> str:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}-{self.max_players}"


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _fail(reason: Text) -> None:
    raise RuleSetError(reason)


_CHOICES: dict[str, tuple[str, ...]] = {
    "night_kill": ("shoot", "agree"),
    "nomination_style": ("sequential", "leaders"),
    "removal_rule": ("club", "fiim", "none"),
    "first_speaker": ("rotate", "random"),
    "checker": ("sheriff", "commissar"),
    "lift_three_at_nine": ("allowed", "never", "not-day1"),
}
_MEETINGS = ("black", "don", "sheriff", "commissar")
_WRONG_CHECKER: dict[str, str] = {
    "sheriff": N_("The night-0 meeting names a checker who is not the sheriff."),
    "commissar": N_("The night-0 meeting names a checker who is not the commissar."),
}
"""A night-0 meeting of the checker the rule set does not deal, by the one it deals."""


def _validate(rs: RuleSet) -> None:
    for f in dataclasses.fields(rs):
        value = getattr(rs, f.name)
        expected = type(f.default)
        if expected is bool and not isinstance(value, bool):
            _fail(msg("Option %(option)s must be true or false.", option=f.name))
        if expected is int and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            _fail(msg("Option %(option)s must be a whole number of at least 0.", option=f.name))
    for key, choices in _CHOICES.items():
        if getattr(rs, key) not in choices:
            _fail(msg("Option %(option)s must be one of %(choices)s.", option=key, choices=", ".join(choices)))
    if not 3 <= rs.min_players <= rs.max_players <= 30:
        _fail(msg("Table sizes %(min)s-%(max)s are not a range of 3 to 30 players.",
                  min=rs.min_players, max=rs.max_players))
    sizes = [s for s, _ in rs.black_counts]
    if sorted(sizes) != list(range(rs.min_players, rs.max_players + 1)):
        _fail(msg("black_counts must list every table size from %(min)s to %(max)s once.",
                  min=rs.min_players, max=rs.max_players))
    for size, counts in rs.black_counts:
        if not counts:
            _fail(msg("No black counts for %(size)s players.", size=size))
        for black in counts:
            red = size - black
            if black < 1 or black >= red:
                _fail(msg("%(black)s black players at a table of %(size)s cannot work: black must be at least 1 "
                          "and fewer than red (%(red)s).", black=black, size=size, red=red))
            if rs.don and black < 1:  # pragma: no cover - covered by the check above
                _fail(msg("The Don needs a black team."))
    if not rs.speech_rounds or any(s <= 0 for s in rs.speech_rounds):
        _fail(msg("speech_rounds must list at least one positive duration."))
    if not 0 <= rs.nomination_round < len(rs.speech_rounds):
        _fail(msg("nomination_round must name one of the speech rounds."))
    for who in rs.first_night_meetings:
        if who not in _MEETINGS:
            _fail(msg("Unknown night-0 meeting '%(who)s'.", who=who))
    if "don" in rs.first_night_meetings and not rs.don:
        _fail(msg("A Don meeting needs a Don."))
    if any(w in ("sheriff", "commissar") and w != rs.checker for w in rs.first_night_meetings):
        _fail(msg(_WRONG_CHECKER[rs.checker]))
    if rs.don_checks and not rs.don:
        _fail(msg("don_checks needs a Don."))
    if rs.nomination_style == "leaders" and rs.default_vote:
        _fail(msg("Tournament leaders are voted without a default vote (B.vote)."))
    if rs.foul_mute >= rs.foul_remove and rs.fouls:
        _fail(msg("The muting foul must come before the removing foul."))
    if rs.draw_cycles and (rs.misses_win or rs.four_player_nights):
        _fail(msg("The draw rule replaces the misses and four-player rules (F.draw): turn those off."))
