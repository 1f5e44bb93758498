"""Views: the only way game information leaves the engine.

``view(game, viewer)`` builds what one viewer may see now, as plain JSON data:

* ``"host"`` (the host or judge): everything, roles and night actions included;
* a seat number: the public table, plus his own role, his black teammates if he is black, and the
  results of his own checks;
* ``"spectator"``: public facts only (seats, who left and how, fouls, nominations, votes, the phase), and
  every seat's role once the game is over (then public: a player's and the spectators' views show them too);
* ``"after"``: everything, and only once the game is over.

``visible_events(game, viewer)`` filters and redacts the log the same way, for clients that follow a game
event by event. Nothing else is sent to any client.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, cast

from ..rules import RuleSet
from . import events as E
from .describe import UNCOUNTED, step_banner, vote_line
from .game import Game
from .rules.club_vote import vote_tally
from .rules.judge import BEST_MOVE_GUESSES
from .rules.night import step_seconds
from .state import BLACK_ROLES, NIGHT_STEPS, SPEECH_STEPS, team_of

Viewer = str | int


class HiddenView(PermissionError):
    """The viewer may not see this (the after-the-game view of a game in progress)."""


def _check_viewer(game: Game, viewer: Viewer) -> None:
    if isinstance(viewer, bool) or (isinstance(viewer, int) and not 1 <= viewer <= game.n):
        raise ValueError(f"no seat {viewer}")
    if isinstance(viewer, str) and viewer not in ("host", "spectator", "after"):
        raise ValueError(f"unknown viewer {viewer!r}")
    if viewer == "after" and not game.over:
        raise HiddenView("the after-the-game view opens when the game is over")


def rule_values(rules: RuleSet) -> dict[str, Any]:
    """The rule set's values the pages' scripts use (never constants of their own): whether fouls and sanctions
    are given, the foul that removes (A.foul.four: the foul dots), the black roles (a physical deal's count of
    black cards, the open stream's role colours), the final minute's length (A.win), the steps that are a
    player's speech (the speaker's seat marked), the most players a best move names (F.bestmove) and the red
    checker's role (the Sheriff or the Commissar: what a player may claim to be, docs/bots.md). A step's
    seconds are in the view (``seconds``), those of the night-0 meeting included (A.night0)."""
    return {"fouls": rules.fouls, "sanctions": rules.sanctions, "last_word_seconds": rules.last_word_seconds,
            "foul_remove": rules.foul_remove, "black_roles": sorted(BLACK_ROLES),
            "speech_steps": sorted(SPEECH_STEPS), "best_move_max": BEST_MOVE_GUESSES, "checker": rules.checker}


def view(game: Game, viewer: Viewer) -> dict[str, Any]:
    """What ``viewer`` may see now (see the module doc)."""
    return Views(game)(viewer)


class Views:
    """The views of one game at one moment for many viewers (the sockets of a table after a move): what the
    players and spectators share is built once, and each seat's view is that plus his own. The dicts returned
    share their nested lists and dicts with each other: read them, do not change them. The game must not move
    while a ``Views`` of it is in use."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._public: dict[str, Any] | None = None

    def __call__(self, viewer: Viewer) -> dict[str, Any]:
        game = self.game
        _check_viewer(game, viewer)
        if viewer in ("host", "after"):
            return _view(game, viewer, full=True)
        if self._public is None:
            self._public = _view(game, "spectator", full=False)
        out = dict(self._public)
        out["viewer"] = viewer
        if isinstance(viewer, int):
            if game.step in NIGHT_STEPS:  # his own fouls of tonight are his to see
                seats = list(out["seats"])
                seats[viewer - 1] = _seat(game, viewer, hide_tonight=False, full=False)
                out["seats"] = seats
            out["you"] = _you(game, viewer)
        return out


def _seat(game: Game, s: int, hide_tonight: bool, full: bool) -> dict[str, Any]:
    """Seat ``s`` in a view; ``hide_tonight``: without the fouls given tonight (the viewer is not the host nor
    this player, and it is night); its role in the host's view (``full``), and in everyone's once the game is
    over."""
    fouls = game.fouls[s]
    muted_day = game.mute_day[s] or None
    if hide_tonight:
        fouls -= game.night_fouls[s]
        if game.night_fouls[s] and fouls < game.rules.foul_mute:
            muted_day = None  # A.foul.night: a third foul tonight would name the player
    left = game.left.get(s)
    entry: dict[str, Any] = {
        "seat": s,
        "name": game.names[s - 1],
        "alive": game.alive[s],
        "left": {"how": left[0], "day": left[1], "phase": "night" if left[2] else "day"} if left else None,
        "fouls": fouls,
        "technical_fouls": game.tech[s],
        "muted_day": muted_day,
        "warnings": sum(1 for _, sn in game.sanctions[s] if sn == "warning"),
        "removed": game.removed.get(s),
        "nominated_by": list(game.nominators.get(s, ())),
    }
    if full or game.over:  # at the end every role is public (the table view, the spectators, the players)
        entry["role"] = game.roles[s] or None
    return entry


def _view(game: Game, viewer: Viewer, full: bool) -> dict[str, Any]:
    """The view of the host (``full``) or a spectator; a seat's is built on the spectator's by ``Views``."""
    night = game.step in NIGHT_STEPS
    seats = [_seat(game, s, night and not full, full) for s in range(1, game.n + 1)]
    out: dict[str, Any] = {
        "viewer": viewer,
        "ruleset": game.rules.name,
        "players": game.n,
        "phase": game.phase,
        "step": game.step,
        "day": game.day,
        "seat": game.seat,
        "round": game.round,
        # the step's seconds for every screen's timer; a timed step whose event carries none takes them from the
        # rule set (A.night0: the black team's minute)
        "seconds": game.seconds or step_seconds(game.rules).get(game.step, 0),
        "banner": {"en": step_banner(game.step, game.day, game.seat, "en", game.vote_kind),
                   "ru": step_banner(game.step, game.day, game.seat, "ru", game.vote_kind)},
        "seats": seats,
        "candidates": list(game.candidates),
        "vote": _vote(game),
        "vote_cancelled": game.day in game.cancelled_days,
        "night_kills": {str(k): v for k, v in sorted(game.night_kills.items())},
        "best_move": None,
        "unnamed_night_fouls": sum(game.night_fouls) if night and not full else 0,
        "over": game.over,
        "final_words": game.final_words(),
        "winner": game.winner,
        "result": game.result,
        "protest": None,
    }
    if game.best_move:
        seat, guesses, black = game.best_move
        out["best_move"] = {"seat": seat, "guesses": list(guesses), "black": black if full else None}
    if game.protest:
        outcome, voters, passed = game.protest
        out["protest"] = {"outcome": outcome, "voters": list(voters), "passed": passed, "rule": game.protest_rule}
    if full:
        out["night"] = {
            "shots": {str(k): list(v) for k, v in sorted(game.shots.items())},
            "kill": game.kill_target or None,
        }
        out["checks"] = [_check_json(c) for c in game.checks]
    return out


def _vote(game: Game) -> dict[str, Any]:
    """The vote: its kind, candidates and hands; the count of the vote in progress (``now``: per candidate in
    voting order, or the lift question's hands); the day's votes closed (``results``); and ``lines``, the
    counts as every screen shows them (the day's results and the running count; at night the day's last
    result; nothing once the game is over; a day without a vote has a result but no line). Votes are cast
    openly: all of it is public."""
    running: tuple[tuple[int, int], ...] | None = None
    if game.step == "lift":
        running = ((0, len(game.lift_yes)),)
    elif game.step == "voting":
        running = tuple(vote_tally(game.vote_candidates, game.votes))
    results = game.vote_results
    counted = [] if game.over else [r for r in results if r[3] not in UNCOUNTED]
    shown = counted[-1:] if game.step in NIGHT_STEPS else counted
    lines = [vote_line(kind, tally, of, leaving, outcome) for kind, tally, leaving, outcome, of in shown]
    if running is not None:
        lines.append(vote_line(game.vote_kind, running, game.alive_count))
    return {
        "kind": game.vote_kind,
        "candidates": list(game.vote_candidates),
        "votes": {str(v): c for v, c in sorted(game.votes.items())},
        "lift": sorted(game.lift_yes),
        "now": None if running is None else _count_json(game.vote_kind, running, game.alive_count),
        "results": [{**_count_json(kind, tally, of), "leaving": list(leaving), "outcome": outcome}
                    for kind, tally, leaving, outcome, of in results],
        "lines": [line.to_json() for line in lines],
    }


def _count_json(kind: str, tally: tuple[tuple[int, int], ...], of: int) -> dict[str, Any]:
    """A vote's count: ``tally`` per candidate (``[{"seat", "votes"}]``), or for the lift question ``yes``;
    ``of``: the players at the table."""
    if kind == "lift":
        return {"kind": kind, "tally": [], "yes": sum(v for _, v in tally), "of": of}
    return {"kind": kind, "tally": [{"seat": c, "votes": v} for c, v in tally], "yes": None, "of": of}


def _check_json(c: tuple[int, int, int, bool]) -> dict[str, Any]:
    night, checker, target, found = c
    return {"night": night, "checker": checker, "target": target, "found": found}


def _you(game: Game, seat: int) -> dict[str, Any]:
    role = game.roles[seat]
    you: dict[str, Any] = {"seat": seat, "role": role or None, "team": team_of(role) if role else None,
                           "teammates": [], "checks": []}
    if role in BLACK_ROLES:
        you["teammates"] = [
            {"seat": s, "role": game.roles[s]} for s in range(1, game.n + 1)
            if s != seat and game.roles[s] in BLACK_ROLES
        ]
    you["checks"] = [_check_json(c) for c in game.checks if c[1] == seat]
    return you


def feed_item(seq: int, data: dict[str, Any]) -> dict[str, Any]:
    """An event as an entry of a numbered feed: ``{"seq": seq, **data}``, where ``seq`` is the entry's number in
    its viewer's feed. The one event with a field of that name, ``undone``, gives the number of the entry it
    undoes as ``undoes``.

    >>> feed_item(7, {"type": "undone", "seq": 3})
    {'seq': 7, 'type': 'undone', 'undoes': 3}
    """
    if "seq" in data:
        data = {("undoes" if k == "seq" else k): v for k, v in data.items()}
    return {"seq": seq, **data}


# --- a viewer's feed ---------------------------------------------------------------------------------------
# Each viewer has a feed of his own: the entries of the log he may see, numbered 0, 1, 2, ... in HIS feed. The
# host's (and the after-the-game) feed is the whole log, numbered as the log is. A seat's or a spectator's feed
# leaves out what he may not see, and its numbering counts only what it keeps: a hidden shot or check leaves no
# gap, so neither the numbers, nor the count of entries, nor when an entry comes tell him it happened. An
# ``undone`` is in a feed when the group it takes back had an entry there, and names that entry's number.
# Everything a viewer is sent changes only with his feed (a view is a function of what its viewer may see:
# tests/engine/test_feeds.py checks it), so a live connection sends a viewer something exactly when his feed
# grows.


class _FeedIndex:
    """Where a viewer's feed entries stand in the log, kept on the game and extended as its log grows."""

    __slots__ = ("entries", "read")

    def __init__(self) -> None:
        self.read = 0  # the log's events looked at so far
        self.entries: list[int] = []  # per entry: its log index * 2, + 1 if it was given at night


class _LogFacts:
    """What every viewer's feed needs of each log event, worked out once per event for all of them.

    Per event: ``codes`` (its log index * 2, + 1 if it was given at night: a feed entry), ``groups`` (the log
    index of its group's action), ``masks`` (bit s: seat s sees it, bit 0: the spectators; -1: everyone; an
    ``undone`` is looked at per feed, in ``undone``) and ``forms``: what every viewer who sees it is shown, the
    same dict for all of them, its number first (never handed out: each entry is a copy, numbered), or None
    where a viewer's entry is made for him: the deal, an ``undone``, a foul given at night, and a form with
    lists (``listed``, with the keys of its lists and of those that hold lists: each entry gets lists of its
    own, so a consumer that changes his entry changes nobody else's). ``hidden``: per log index, how many
    events before it some viewer does not see (none new: a feed's new entries are the log's)."""

    __slots__ = ("codes", "forms", "group", "groups", "hidden", "listed", "masks", "night", "read", "undone")

    def __init__(self) -> None:
        self.read = 0
        self.night = False
        self.group = -1
        self.codes: list[int] = []
        self.groups: list[int] = []
        self.masks: list[int] = []
        self.hidden = [0]  # per log index: how many events before it some viewer does not see
        self.forms: list[dict[str, Any] | None] = []
        self.listed: dict[int, tuple[dict[str, Any], tuple[str, ...], tuple[str, ...]]] = {}
        self.undone: list[int] = []


_SHARED_KINDS = frozenset({E.Step, E.Advanced, E.Nominated, E.VoteCast, E.ShotFired})
"""The events the engine makes once and shares by all games (``engine/cache.py``): who sees one (everyone; a shot:
its shooter) and what he is shown are the event's alone, in every game, by day and by night."""
_SHARED_FORMS: dict[int, tuple[E.Event, int, dict[str, Any], tuple[str, ...], tuple[str, ...]]] = {}
"""Their masks, forms and lists (see :class:`_LogFacts`), kept by :func:`_share`."""
_TOLD_FORMS: dict[int, tuple[E.Event, int, Mapping[str, Any]]] = {}
"""Their masks and told entries (:class:`SeatFeeds`), kept by :func:`_share`."""
FORMS_LIMIT = 8192


def _log_facts(game: Game) -> _LogFacts:
    facts: _LogFacts | None = game._feed_log
    log = game.log
    if facts is None or facts.read > len(log):
        facts = game._feed_log = _LogFacts()
    if facts.read == len(log):
        return facts
    night, group = facts.night, facts.group
    codes, groups, masks, forms, hidden = facts.codes, facts.groups, facts.masks, facts.forms, facts.hidden
    for i in range(facts.read, len(log)):
        ev = log[i]
        if ev.action:
            group = i
        if type(ev) is E.Step:
            night = ev.step in NIGHT_STEPS
        codes.append(2 * i + night)
        groups.append(group)
        shared = _SHARED_FORMS.get(id(ev))
        if shared is not None and shared[0] is ev:  # a step, "Next", a nomination, a vote or a shot seen before
            mask = shared[1]
            masks.append(mask)
            hidden.append(hidden[-1] + (mask != -1))
            if shared[3]:
                facts.listed[i] = shared[2:]
            forms.append(None if shared[3] else shared[2])
            continue
        mask = _seen_by(ev, night)
        masks.append(mask)
        hidden.append(hidden[-1] + (mask != -1))
        form: dict[str, Any] | None = None
        if isinstance(ev, E.Undone):
            facts.undone.append(i)
        elif not _each_his_own(ev, night):
            form = {"seq": 0, **_redact(ev, 0, night)}
            lists = tuple(k for k, v in form.items() if isinstance(v, list))
            pairs = tuple(k for k in lists if any(isinstance(v, list) for v in form[k]))
            _share(_SHARED_FORMS, ev, (ev, mask, form, lists, pairs))
            if lists:
                facts.listed[i] = (form, lists, pairs)
                form = None
        forms.append(form)
    facts.read, facts.night, facts.group = len(log), night, group
    return facts


def _each_his_own(ev: E.Event, night: bool) -> bool:
    """Whether each viewer's entry of ``ev`` is made for him (the deal, a foul given at night: :func:`_redact`)."""
    return isinstance(ev, E.Dealt) or (night and isinstance(ev, E.Fouled))


def _share(cache: dict[int, Any], ev: E.Event, facts: tuple[Any, ...]) -> None:
    """Keep ``facts`` (the event first) of an event of ``_SHARED_KINDS`` in ``cache`` by its id, the cache cleared
    at ``FORMS_LIMIT`` (a log read back from a store has events of its own, each kept until then)."""
    if type(ev) in _SHARED_KINDS:
        if len(cache) > FORMS_LIMIT:
            cache.clear()
        cache[id(ev)] = facts


def _seen_by(ev: E.Event, night: bool) -> int:
    """Who of the seats and the spectators sees anything of ``ev`` (see :func:`_redact`), as a mask."""
    if isinstance(ev, E.ShotFired):
        return 1 << ev.shooter
    if isinstance(ev, E.VolleyFired):  # each shooter knows his teammates already
        return sum(1 << s for s in ev.shooters)
    if isinstance(ev, E.KillChosen | E.Undone):
        return 0
    if isinstance(ev, E.Checked):
        return 1 << ev.checker
    if night and isinstance(ev, E.Muted):
        return 1 << ev.seat
    return -1


def _first_of_group(facts: _LogFacts, entries: list[int], group: int) -> int | None:
    """The number of a feed's first entry of the group whose action is at log index ``group``, if any."""
    k = bisect_left(entries, 2 * group)
    return k if k < len(entries) and facts.groups[entries[k] >> 1] == group else None


def _feed_index(game: Game, viewer: int | str) -> _FeedIndex:
    feeds: dict[int | str, _FeedIndex] = game._feeds
    index = feeds.get(viewer)
    log = game.log
    if index is None or index.read > len(log):
        index = feeds[viewer] = _FeedIndex()
    end = len(log)
    if index.read == end:
        return index
    facts = _log_facts(game)
    seat = viewer if isinstance(viewer, int) else 0
    entries, codes, masks, undone = index.entries, facts.codes, facts.masks, facts.undone
    start = index.read
    if facts.hidden[start] == facts.hidden[end]:  # every new event is everyone's
        entries.extend(codes[start:end])
        index.read = end
        return index
    for u in undone[bisect_left(undone, start):]:  # an undone is in the feed if the group it takes back is
        entries.extend([codes[i] for i in range(start, u) if masks[i] >> seat & 1])
        if _first_of_group(facts, entries, cast(E.Undone, log[u]).seq) is not None:
            entries.append(codes[u])
        start = u + 1
    entries.extend([codes[i] for i in range(start, end) if masks[i] >> seat & 1])
    index.read = end
    return index


def feed_length(game: Game, viewer: Viewer) -> int:
    """How many entries ``viewer``'s feed of the game has: the number his next entry will get (his
    ``next_seq``). The host's is the log's length."""
    _check_viewer(game, viewer)
    if viewer in ("host", "after"):
        return len(game.log)
    return len(_feed_index(game, viewer).entries)


def feed_position(game: Game, viewer: Viewer, cursor: int) -> int:
    """The log's length when ``viewer``'s feed had its first ``cursor`` entries and not the next one: where in
    the log a viewer who holds ``cursor`` entries stands (what he saw is ``game.log[:position]``, and what came
    after it up to his next entry is hidden from him). Raises ValueError for a cursor beyond his feed."""
    _check_viewer(game, viewer)
    if viewer in ("host", "after"):
        if not 0 <= cursor <= len(game.log):
            raise ValueError(f"no entry {cursor} in the feed")
        return cursor
    entries = _feed_index(game, viewer).entries
    if not 0 <= cursor <= len(entries):
        raise ValueError(f"no entry {cursor} in the feed")
    return 0 if cursor == 0 else (entries[cursor - 1] >> 1) + 1


def feed_events(game: Game, viewer: Viewer, since: int = 0) -> list[E.Event]:
    """The log's events behind ``viewer``'s feed entries from number ``since`` on (unredacted: for the server's
    own decisions, never for a client). Raises ValueError for a number beyond his feed."""
    if not 0 <= since <= feed_length(game, viewer):
        raise ValueError(f"no entry {since} in the feed")
    if viewer in ("host", "after"):
        return game.log[since:]
    log = game.log
    return [log[at >> 1] for at in _feed_index(game, viewer).entries[since:]]


def visible_events(game: Game, viewer: Viewer, since: int = 0) -> list[dict[str, Any]]:
    """``viewer``'s feed from his entry number ``since`` on: ``feed_item(number, event)`` or a redacted form.

    The host's feed is the log (numbered as the log). Other viewers' feeds leave night actions and checks out
    (the checker sees his own check, a shooter his own shot); the deal shows a seat its own card; a foul given
    at night is shown without the player's name to everyone but him and the host.
    """
    _check_viewer(game, viewer)
    log = game.log
    if viewer in ("host", "after"):
        return [feed_item(i, log[i].to_json()) for i in range(max(since, 0), len(log))]
    entries = _feed_index(game, viewer).entries
    since = max(since, 0)
    if since >= len(entries):
        return []
    facts = _log_facts(game)
    forms = facts.forms
    out: list[dict[str, Any]] = []
    listed = facts.listed
    for k in range(since, len(entries)):
        at = entries[k]
        form = forms[at >> 1]
        if form is not None:
            item = form.copy()  # the form's first key is "seq" (a dict's copy is quicker than a dict made anew)
            item["seq"] = k
        elif at >> 1 in listed:
            item = _listed_entry(listed[at >> 1], k)
        else:
            item = _own_entry(game, facts, entries, viewer, k)
        out.append(item)
    return out


def _listed_entry(listed: tuple[dict[str, Any], tuple[str, ...], tuple[str, ...]], k: int) -> dict[str, Any]:
    """Entry number ``k`` of a form with lists (see :class:`_LogFacts`): lists of his own, a tally's pairs too."""
    form, lists, pairs = listed
    item = form.copy()
    item["seq"] = k
    for key in lists:
        item[key] = _pairs(form[key]) if key in pairs else form[key].copy()
    return item


def _pairs(values: list[Any]) -> list[Any]:
    """A list of its own, and of its own lists (a vote's tally)."""
    return [list(v) if isinstance(v, list) else v for v in values]


def _own_entry(game: Game, facts: _LogFacts, entries: list[int], viewer: Viewer, k: int) -> dict[str, Any]:
    """Entry ``k`` of ``viewer``'s feed where it is his own: the deal, an ``undone``, a foul given at night."""
    at = entries[k]
    ev = game.log[at >> 1]
    if isinstance(ev, E.Undone):
        return feed_item(k, {"type": "undone", "seq": _first_of_group(facts, entries, ev.seq)})
    return feed_item(k, _redact(ev, viewer if isinstance(viewer, int) else 0, at & 1))


def _redact(ev: E.Event, seat: int, night: int) -> dict[str, Any]:
    """What seat ``seat`` (0: a spectator) sees of an event that :func:`_seen_by` lets him see."""
    if isinstance(ev, E.Dealt):
        item: dict[str, Any] = {"type": "dealt"}
        if seat:
            item["role"] = ev.roles[seat - 1]
            if ev.roles[seat - 1] in BLACK_ROLES:
                item["teammates"] = [s for s, r in enumerate(ev.roles, 1) if r in BLACK_ROLES and s != seat]
        return item
    if isinstance(ev, E.BestMoveNamed):
        return {"type": ev.type, "seat": ev.seat, "guesses": list(ev.guesses)}
    if night and isinstance(ev, E.Fouled) and ev.seat != seat:
        return {"type": ev.type, "seat": None}
    return ev.to_json()


class SeatFeeds:
    """Every seat's feed of one game as it grows, as a table's agents are told it (``bots/agents.py``):
    ``take(seat)`` is ``visible_events(game, seat, since)`` from where his last ``take`` left off, each entry as
    :func:`told_entry` makes it. Who sees an event, and the entry all who see it are shown alike (one read-only
    object for them all), are worked out once per event; a seat's own (``_each_his_own``) is made for him. An
    ``undone`` among the new events sends the seat to ``visible_events``. The log only grows."""

    __slots__ = ("counts", "game", "masks", "night", "odd", "odd_at_night", "reads", "told", "undone")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.reads = [0] * (game.n + 1)  # per seat: the log's events his entries were made from so far
        self.counts = [0] * (game.n + 1)  # per seat: the entries of his feed made so far (his next number)
        self.masks: list[int] = []  # per log event: who sees it (as ``_seen_by``: -1 is everyone)
        self.told: list[Mapping[str, Any] | None] = []  # per log event: its entry for all, or None (his own)
        self.odd: list[int] = []  # the log indices of the events not everyone's alike (hidden from some, or own)
        self.odd_at_night: list[bool] = []  # per one of ``odd``: whether it was given at night
        self.undone = -1  # the log index of the last ``undone``
        self.night = False

    def take(self, seat: int) -> list[Mapping[str, Any]]:
        """The entries of ``seat``'s feed not taken yet (the first call: his whole feed)."""
        game = self.game
        start, end = self.reads[seat], len(game.log)
        if start == end:
            return []
        if len(self.told) < end:
            self._read(end)
        self.reads[seat] = end
        if self.undone >= start:  # an undone's entry depends on his feed: it is read whole
            out = [told_entry(e) for e in visible_events(game, seat, self.counts[seat])]
        else:  # the slices of entries everyone is told alike, and each odd event in between
            told, odd, masks = self.told, self.odd, self.masks  # a mask of -1 has every bit
            first = bisect_left(odd, start)
            out, at = [], start
            for j in range(first, bisect_left(odd, end, first)):
                i = odd[j]
                out += told[at:i]  # type: ignore[arg-type]  # none is None
                if masks[i] >> seat & 1:
                    out.append(told[i] or told_entry(_redact(game.log[i], seat, self.odd_at_night[j])))
                at = i + 1
            out += told[at:end]  # type: ignore[arg-type]
        self.counts[seat] += len(out)
        return out

    def _read(self, end: int) -> None:
        """Who sees each new event of the log, up to ``end``, and the entry of those all are shown alike."""
        log, masks, told, night, odd = self.game.log, self.masks, self.told, self.night, self.odd
        for i in range(len(told), end):
            ev = log[i]
            if type(ev) is E.Step:
                night = ev.step in NIGHT_STEPS
            shared = _TOLD_FORMS.get(id(ev))
            if shared is not None and shared[0] is ev:  # a step, "Next", a nomination, a vote or a shot seen before
                masks.append(shared[1])
                told.append(shared[2])
                if shared[1] != -1:
                    odd.append(i)
                    self.odd_at_night.append(night)
                continue
            mask = _seen_by(ev, night)
            entry: Mapping[str, Any] | None = None
            if isinstance(ev, E.Undone):
                self.undone = i
            elif not _each_his_own(ev, night):
                entry = told_entry(_redact(ev, 0, night))
                _share(_TOLD_FORMS, ev, (ev, mask, entry))
            masks.append(mask)
            told.append(entry)
            if mask != -1 or entry is None:
                odd.append(i)
                self.odd_at_night.append(night)
        self.night = night



def told_entry(entry: Mapping[str, Any]) -> Mapping[str, Any]:
    """A feed's entry as a table's agent is told it: read-only (a mapping nobody can change, its lists tuples),
    without its number (``seq``: its place in the agent's feed is its number).

    >>> told_entry({"seq": 4, "type": "voting_started", "candidates": [3, 7]})
    mappingproxy({'type': 'voting_started', 'candidates': (3, 7)})
    """
    out = dict(entry)
    out.pop("seq", None)
    for key, value in entry.items():
        if type(value) is list:
            out[key] = _tupled(value)
    return MappingProxyType(out)


def _tupled(values: list[Any]) -> tuple[Any, ...]:
    return tuple([_tupled(v) if type(v) is list else v for v in values])
