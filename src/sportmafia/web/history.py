"""A club's saved rule-set variants (``/api/variants``), the rule set options a variant form offers
(``/api/rules``) and a game's timeline page (``/games/{id}/timeline``): every event of the log as the host
sees it, in the page's language, with the time it was recorded, grouped by day and night."""

from __future__ import annotations

import dataclasses
import typing
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from pydantic import Field, StringConstraints

from ..engine import NIGHT_STEPS, Event, visible_events
from ..engine import events as E
from ..engine.describe import REASON_NAMES, SANCTION_NAMES, describe, seat_label, t
from ..i18n import Text, msg
from ..rules import PRESETS, RuleSet, RuleSetError, get_ruleset
from ..store import Store, VariantRecord, VariantTaken
from .auth import StoreDep, UserDep
from .edge import path_id
from .errors import ApiError, forbidden
from .i18n import request_lang
from .pages import club_game, render
from .schemas import StrictBody

router = APIRouter()

VariantName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]
EDITORS = ("admin", "host")
"""Who saves variants: the club's admins and hosts (judges read them)."""


class VariantIn(StrictBody):
    """A variant to save: a preset and the options it changes (``docs/rules/options.md``)."""

    name: VariantName
    preset: str = Field(default="club", min_length=1, max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)


def _variant_json(v: VariantRecord) -> dict[str, Any]:
    return {"id": v.id, "name": v.name, "options": v.options, "min_players": v.options.get("min_players"),
            "max_players": v.options.get("max_players"), "created_at": v.created_at.isoformat()}


def _bad_variant(text: Text) -> ApiError:
    return ApiError(422, "bad-variant", text)


def _type_name(tp: Any) -> str:
    """A RuleSet field's type as the form shows it: bool, int, choice, list of int / str, black_counts."""
    if tp is bool:
        return "bool"
    if tp is int:
        return "int"
    if tp is str:
        return "str"
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return "choice"
    if origin is tuple:
        args = typing.get_args(tp)
        inner = args[0] if args else Any
        if inner is int:
            return "list[int]"
        if inner is str:
            return "list[str]"
        return "black_counts"
    return "json"  # pragma: no cover - every RuleSet field is one of the above


def rule_fields() -> list[dict[str, Any]]:
    """Every RuleSet option but ``name``: its type, choices (for a Literal), the default and the doc (``doc`` in
    English, ``doc_ru`` in Russian)."""
    hints = typing.get_type_hints(RuleSet)
    out: list[dict[str, Any]] = []
    for f in dataclasses.fields(RuleSet):
        if f.name == "name":
            continue
        tp = hints[f.name]
        item: dict[str, Any] = {"name": f.name, "type": _type_name(tp), "doc": f.metadata.get("doc", ""),
                                "doc_ru": RuleSet.doc_of(f.name).render("ru"),
                                "clauses": list(f.metadata.get("clauses", ()))}
        if item["type"] == "choice":
            item["choices"] = list(typing.get_args(tp))
        out.append(item)
    return out


@router.get("/api/rules", tags=["variants"], summary="The presets' options and every rule set option's type (for a variant form)")
def rules(user: UserDep) -> dict[str, Any]:
    return {"presets": {name: get_ruleset(name).options() for name in PRESETS}, "fields": rule_fields()}


@router.get("/api/variants", tags=["variants"], summary="Your club's saved rule set variants, by name")
def list_variants(user: UserDep, store: StoreDep) -> dict[str, Any]:
    return {"variants": [_variant_json(v) for v in store.club_variants(user.club_id)]}


@router.get("/api/variants/{variant_id}", tags=["variants"], summary="One saved variant of your club")
def get_variant(variant_id: Annotated[int, path_id("The variant's id.")], user: UserDep, store: StoreDep) -> dict[str, Any]:
    saved = store.variant(user.club_id, variant_id)
    if saved is None:
        raise ApiError(404, "not-found", msg("No such variant."))
    return _variant_json(saved)


@router.post("/api/variants", status_code=201, tags=["variants"], summary="Save a variant: a preset with changed options (admins, hosts)")
def save_variant(body: VariantIn, user: UserDep, store: StoreDep) -> dict[str, Any]:
    if user.role not in EDITORS:
        raise forbidden(msg("Only an admin or a host saves rule set variants."))
    try:
        base = get_ruleset(body.preset)
        rules = RuleSet.from_options({**base.options(), **body.options, "name": body.name})
    except RuleSetError as exc:
        raise _bad_variant(exc.text) from None
    except (TypeError, ValueError) as exc:
        raise _bad_variant(msg("These rule set options are not valid: %(error)s.", error=str(exc))) from None
    try:
        saved = store.save_variant(user.club_id, body.name, rules.options())
    except VariantTaken:
        raise ApiError(409, "variant-taken", msg("Your club already has a variant named «%(name)s».", name=body.name)
                       ) from None
    return _variant_json(saved)


# --- the timeline page -------------------------------------------------------------------------------------
CATEGORIES: dict[str, str] = {
    "nominated": "votes", "withdrawn": "votes", "vote_cast": "votes", "lift_vote_cast": "votes",
    "default_votes": "votes", "voting_started": "votes", "vote_result": "votes", "vote_cancelled": "votes",
    "lot_drawn": "votes",
    "shot_fired": "night", "volley_fired": "night", "kill_chosen": "night", "checked": "night", "night_result": "night",
    "best_move_named": "night",
    "fouled": "fouls", "muted": "fouls", "sanctioned": "fouls", "removed": "fouls", "expelled": "fouls",
    "awarded": "judge", "team_defeated": "judge", "overridden": "judge", "protest_voted": "judge",
}
"""The filter chip an event belongs to (besides "all")."""

_LEFT_CATEGORY = {"vote": "votes", "lift": "votes", "lot": "votes", "kill": "night", "removal": "fouls"}


def _category(ev: Event) -> str:
    if isinstance(ev, E.PlayerLeft):
        return _LEFT_CATEGORY.get(ev.how, "")
    return CATEGORIES.get(ev.type, "")


def _sentence(ev: Event, lang: str, names: tuple[str, ...]) -> str | None:
    if isinstance(ev, E.Expelled):  # describe() has no line of its own for it
        label = seat_label(ev.seat, lang, names)
        why = t(REASON_NAMES, ev.reason, lang)
        scope = t(SANCTION_NAMES, ev.scope, lang)
        return f"{label}: {scope} — {why}"
    return describe(ev, lang, names)


@dataclasses.dataclass
class Line:
    seq: int
    type: str
    text: str | None
    at: datetime | None
    category: str
    action: bool
    undone_by: int | None = None
    undoes: int | None = None


@dataclasses.dataclass
class Phase:
    kind: str  # "deal", "day", "night", "over"
    number: int
    lines: list[Line]


def timeline_phases(store: Store, game_id: str, lang: str) -> list[Phase]:
    """The host's view of the log, as sentences grouped by phase. An undone action and its consequences
    carry the seq of the undo that took them back; an undo carries the seq it undid."""
    game = store.load(game_id)
    recorded = {seq: at for seq, _ev, at in store.timeline(game_id)}
    # The host sees every event (visible_events(game, "host") is the whole log, in order); the events are
    # taken from the log by position, since an "undone" item's own "seq" names the action it undoes.
    visible = visible_events(game, "host")
    if len(visible) != len(game.log):  # pragma: no cover - the host's view leaves nothing out
        raise RuntimeError("the host's view of the log is not the whole log")
    events = list(enumerate(game.log))
    group_of: dict[int, int] = {}
    group = -1
    undone_by: dict[int, int] = {}
    for seq, ev in events:
        if ev.action:
            group = seq
        group_of[seq] = group
        if isinstance(ev, E.Undone):
            undone_by[ev.seq] = seq
    category_of_group: dict[int, str] = {}
    for seq, ev in events:
        cat = _category(ev)
        if cat and group_of[seq] not in category_of_group:
            category_of_group[group_of[seq]] = cat
    phases: list[Phase] = [Phase("deal", 0, [])]
    for seq, ev in events:
        if isinstance(ev, E.Step):
            if ev.step == "over":
                key = ("over", 0)
            else:
                key = ("night" if ev.step in NIGHT_STEPS else "day", ev.day)
            if (phases[-1].kind, phases[-1].number) != key:
                phases.append(Phase(key[0], key[1], []))
        line = Line(seq, ev.type, _sentence(ev, lang, game.names), recorded.get(seq), _category(ev), ev.action)
        by = undone_by.get(group_of[seq])
        if by is not None and not isinstance(ev, E.Undone):
            line.undone_by = by
        if isinstance(ev, E.Undone):
            line.undoes = ev.seq
            line.category = category_of_group.get(ev.seq, "")
        phases[-1].lines.append(line)
    return [p for p in phases if p.lines]


@router.get("/games/{game_id}/timeline", include_in_schema=False)
def timeline_page(request: Request, game_id: Annotated[str, PathParam(max_length=64)]) -> Response:
    found = club_game(request, game_id)
    if isinstance(found, Response):
        return found
    user, summary = found
    lang = request_lang(request)
    return render(request, "timeline.html", user=user, game=summary, phases=timeline_phases(request.app.state.store, game_id, lang),
                  signed=getattr(summary, "signed_at", None) is not None)
