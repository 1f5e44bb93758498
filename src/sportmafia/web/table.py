"""The table view: ``/games/{id}/table``, a page for a projector or a second screen facing the players.

It is built only from the spectator view (``view(game, "spectator")``): the page follows the game over the
live WebSocket with ``view=table`` (``live.py``) and never reads the host's API, so it shows public facts
only (every role once the game is over, when the spectator view has them); the page carries the rule set's
values its script needs (``engine.rule_values``: the foul dots, the speech steps). It faces the audience: no
host control is in sight (the way back to the console is in a small corner menu). Login required, and only for
the user's own club's games (others: "no such game")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import Response

from ..engine import rule_values
from ..engine.describe import HOW_NAMES, RESULT_NAMES, ROLE_NAMES, TEAM_NAMES, t
from .i18n import request_lang
from .pages import club_game, render

router = APIRouter(include_in_schema=False)


@router.get("/games/{game_id}/table")
def table_page(request: Request, game_id: Annotated[str, PathParam(max_length=64)]) -> Response:
    found = club_game(request, game_id)
    if isinstance(found, Response):
        return found
    user, _summary = found
    lang = request_lang(request)
    labels = {
        "how": {k: t(HOW_NAMES, k, lang) for k in HOW_NAMES},
        "teams": {str(k).lower(): t(TEAM_NAMES, k, lang) for k in TEAM_NAMES},
        "results": {k: t(RESULT_NAMES, k, lang) for k in RESULT_NAMES},
        "roles": {k: t(ROLE_NAMES, k, lang) for k in ROLE_NAMES},  # shown at the end, when the view has them
    }
    rules = rule_values(request.app.state.store.load(game_id).rules)
    return render(request, "table.html", user=user, game_id=game_id, labels=labels, rules=rules)
