"""Running a tournament: the pure tournament modules (groups, seating, results, scoring, standings, final)
on the stored tournament (:mod:`sportmafia.store.tournaments`) and its games (:class:`Store`).

Unlike the rest of this package this module touches the database; the package's ``__init__`` does not
import it. Every refusal is a :class:`Refusal` (a bilingual error with an HTTP-like status and a code) that
the web layer answers as is; a refused request writes nothing.

Rounds are counted from 1 here and in the stored links; the seating module counts them from 0.
"""

from __future__ import annotations

import csv
import dataclasses
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from ..errors import BilingualError
from ..rules import RuleSet, RuleSetError, get_ruleset
from ..store import CorrectionRecord, SheetRefused, Store, UserRecord
from ..store.tournaments import (
    AlreadyAccepted,
    NewParticipant,
    NicknameTaken,
    ParticipantRecord,
    RoundOpen,
    SanctionRecord,
    TournamentGameRecord,
    TournamentNotFound,
    TournamentRecord,
    Tournaments,
)
from ..tournament import seating as seating_mod
from ..tournament.final import final_standings, finalists
from ..tournament.groups import TournamentError
from ..tournament.results import GameResult
from ..tournament.scoring import FIIM, REGULATION, ScoringSystem, custom
from ..tournament.standings import DEFAULT_TIE_BREAKS, Row, Sanction, standings

NICKNAME_MAX = 64
SANCTION_SCOPES = {"round": "round", "tournament": "tournament", "disqualification": "ban"}
"""A stored sanction's kind -> the standings' scope (a removal from the tournament and a disqualification
both take the participant out of the places)."""
COLUMNS = {"nickname": "nickname", "nick": "nickname", "ник": "nickname", "никнейм": "nickname",
           "club": "club", "клуб": "club", "team": "team", "команда": "team"}
"""The header names a participants file may use (English or Russian)."""


class Refusal(BilingualError):
    """A request the tournament service refuses: ``status`` (404, 403, 409, 422), ``code`` and the reason
    in English and Russian; ``extra`` is added to the error body (e.g. the line number of a bad file)."""

    def __init__(self, status: int, code: str, en: str, ru: str, *, extra: Mapping[str, Any] | None = None,
                 clause: str | None = None) -> None:
        super().__init__(en, ru)
        self.status = status
        self.code = code
        self.extra = dict(extra or {})
        self.clause = clause


def _bad(code: str, en: str, ru: str, **extra: Any) -> Refusal:
    return Refusal(422, code, en, ru, extra=extra)


def _conflict(code: str, en: str, ru: str, **extra: Any) -> Refusal:
    return Refusal(409, code, en, ru, extra=extra)


def _from(exc: BilingualError, code: str, status: int = 422) -> Refusal:
    clause = getattr(exc, "clause", None)
    return Refusal(status, code, exc.message("en"), exc.message("ru"), clause=clause)


# --- participants files ----------------------------------------------------------------------------------

def parse_pasted(text: str) -> list[NewParticipant]:
    """A pasted list: one nickname a line (blank lines skipped). Duplicates and over-long names are refused
    with the line number."""
    out: list[NewParticipant] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        name = line.strip()
        if not name:
            continue
        _check_name(name, number, seen)
        out.append(NewParticipant(name))
    if not out:
        raise _bad("bad-participants", "The list has no names.", "В списке нет ни одного имени.")
    return out


def _check_name(name: str, number: int, seen: dict[str, int]) -> None:
    if len(name) > NICKNAME_MAX:
        raise _bad("bad-participants", f"Line {number}: the nickname is longer than {NICKNAME_MAX} characters.",
                   f"Строка {number}: ник длиннее {NICKNAME_MAX} символов.", line=number)
    key = name.casefold()
    if key in seen:
        raise _bad("bad-participants", f"Line {number}: {name!r} repeats line {seen[key]}.",
                   f"Строка {number}: {name!r} повторяет строку {seen[key]}.", line=number)
    seen[key] = number


def parse_csv(data: bytes | str) -> list[NewParticipant]:
    """A participants file: CSV (comma or semicolon) with a header naming the columns ``nickname`` (required),
    ``club`` and ``team`` (English or Russian names). Refused, with the line number and the reason: an
    unknown or missing column, a line with more or fewer fields than the header, an empty nickname, a
    nickname that repeats an earlier line."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise _bad("bad-participants", "The file is not UTF-8 text.", "Файл не в кодировке UTF-8.",
                       line=1) from None
    else:
        text = data.removeprefix("\ufeff")
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise _bad("bad-participants", "The file is empty.", "Файл пуст.", line=1)
    delimiter = ";" if lines[0].count(";") > lines[0].count(",") else ","
    rows = list(csv.reader(lines, delimiter=delimiter))
    header = [h.strip().casefold() for h in rows[0]]
    unknown = [h for h in header if h not in COLUMNS]
    columns = [COLUMNS.get(h, h) for h in header]
    if unknown or "nickname" not in columns or len(set(columns)) != len(columns):
        raise _bad("bad-participants",
                   f"Line 1: the columns must be nickname and optionally club, team; got {', '.join(rows[0])}.",
                   f"Строка 1: нужны столбцы nickname (ник) и, по желанию, club (клуб), team (команда); "
                   f"указаны {', '.join(rows[0])}.", line=1)
    out: list[NewParticipant] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            raise _bad("bad-participants", f"Line {number}: the line is empty.", f"Строка {number}: пустая строка.",
                       line=number)
        if len(row) != len(columns):
            raise _bad("bad-participants",
                       f"Line {number}: {len(row)} fields, the header has {len(columns)}.",
                       f"Строка {number}: полей {len(row)}, а в заголовке {len(columns)}.", line=number)
        cells = {c: v.strip() for c, v in zip(columns, row, strict=True)}
        name = cells["nickname"]
        if not name:
            raise _bad("bad-participants", f"Line {number}: the nickname is empty.",
                       f"Строка {number}: ник не указан.", line=number)
        _check_name(name, number, seen)
        out.append(NewParticipant(name, cells.get("club") or None, cells.get("team") or None))
    if not out:
        raise _bad("bad-participants", "The file has a header but no participants.",
                   "В файле есть заголовок, но нет участников.", line=1)
    return out


# --- settings --------------------------------------------------------------------------------------------

def scoring_from(data: Mapping[str, Any] | str) -> ScoringSystem:
    """A scoring system from the settings: ``"regulation"``, ``"fiim"``, ``{"base": "fiim", "compensation":
    0.4, ...}`` (a preset with changed numbers) or ``{"base": "regulation", "table": {"commissar": {"win":
    1.5}}}`` (points by role and outcome)."""
    presets = {"regulation": REGULATION, "fiim": FIIM}
    if isinstance(data, str):
        data = {"base": data}
    data = dict(data)
    base_name = data.pop("base", None)
    if base_name is None:
        if "name" in data:  # a whole ScoringSystem.to_json()
            try:
                return ScoringSystem.from_json(data)
            except TournamentError as exc:
                raise _from(exc, "bad-settings") from None
            except (TypeError, ValueError) as exc:
                raise _bad("bad-settings", f"Scoring settings are not valid: {exc}.",
                           f"Настройки подсчёта неверны: {exc}.") from None
        base_name = "regulation"
    if base_name not in presets:
        raise _bad("bad-settings", f"Unknown scoring system {base_name!r} (regulation, fiim).",
                   f"Неизвестная система подсчёта {base_name!r} (regulation, fiim).")
    system = presets[base_name]
    table = data.pop("table", None)
    try:
        if table is not None:
            system = custom(str(data.pop("name", f"{base_name}-custom")), table, system)
        if data:
            full = {**system.to_json(), **data}
            if "name" not in data and base_name in presets and data:
                full["name"] = f"{system.name}-variant"
            system = ScoringSystem.from_json(full)
    except TournamentError as exc:
        raise _from(exc, "bad-settings") from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise _bad("bad-settings", f"Scoring settings are not valid: {exc}.",
                   f"Настройки подсчёта неверны: {exc}.") from None
    return system


def ruleset_from(store: Store, club_id: int, preset: str | None, variant: int | None,
                 options: Mapping[str, Any] | None) -> RuleSet:
    """The tournament's rule set: a preset or the club's saved variant, with ``options`` changed."""
    try:
        if variant is not None:
            saved = store.variant(club_id, variant)
            if saved is None:
                raise _bad("bad-settings", f"Your club has no saved variant {variant}.",
                           f"У клуба нет сохранённого варианта {variant}.")
            return RuleSet.from_options({**saved.options, **(options or {}), "name": saved.name})
        rules = get_ruleset(preset or "tournament")
        if options:
            rules = RuleSet.from_options({**rules.options(), "name": f"{rules.name}-variant", **options})
        return rules
    except RuleSetError as exc:
        raise _from(exc, "bad-settings") from None
    except (TypeError, ValueError) as exc:
        raise _bad("bad-settings", f"These rule set options are not valid: {exc}.",
                   f"Эти параметры правил неверны: {exc}.") from None


def rules_of(t: TournamentRecord) -> RuleSet:
    return RuleSet.from_options({**t.ruleset_options, "name": t.ruleset})


def table_sizes(t: TournamentRecord) -> tuple[int, int]:
    """The table sizes of the tournament's rule set: 12-16 for ``tournament``, 10 for ``club``/``fiim``."""
    rules = rules_of(t)
    return rules.min_players, rules.max_players


def check_tie_breaks(keys: Sequence[str]) -> list[str]:
    from ..tournament.standings import TIE_BREAKS

    unknown = [k for k in keys if k not in TIE_BREAKS]
    if unknown or not keys:
        raise _bad("bad-settings", f"Unknown tie-break {unknown[0] if unknown else '(none)'}; known: "
                   f"{', '.join(TIE_BREAKS)}.",
                   f"Неизвестный дополнительный показатель {unknown[0] if unknown else '(нет)'}; есть: "
                   f"{', '.join(TIE_BREAKS)}.")
    return list(dict.fromkeys(keys))


def final_settings_from(data: Mapping[str, Any]) -> dict[str, Any]:
    out = {"finalists": 12, "games_each": 3, "carry_over": True}
    for key, value in data.items():
        if key not in out:
            raise _bad("bad-settings", f"Unknown final setting {key!r} (finalists, games_each, carry_over).",
                       f"Неизвестная настройка финала {key!r} (finalists, games_each, carry_over).")
        if key == "carry_over":
            if not isinstance(value, bool):
                raise _bad("bad-settings", "carry_over is true or false.", "carry_over: true или false.")
        elif not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 200:
            raise _bad("bad-settings", f"{key} is a whole number from 1 to 200.",
                       f"{key}: целое число от 1 до 200.")
        out[key] = value
    return out


# --- the service -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Sheet:
    """A tournament game's result sheet with the judge's corrections applied, and where it stands."""

    link: TournamentGameRecord
    result: GameResult | None
    """None while the game is not over."""
    status: str
    signed_at: datetime | None
    signed_by: int | None
    corrections: tuple[CorrectionRecord, ...] = ()


class TournamentService:
    """The judge's and hosts' operations on the tournaments of ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = Tournaments(store)

    # --- access -------------------------------------------------------------------------------------
    def get(self, tournament_id: int, club_id: int | None = None) -> TournamentRecord:
        """The tournament; "not found" also when it is another club's (``club_id``)."""
        try:
            t = self.db.get(tournament_id)
        except TournamentNotFound:
            raise Refusal(404, "not-found", "No such tournament.", "Такого турнира нет.") from None
        if club_id is not None and t.club_id != club_id:
            raise Refusal(404, "not-found", "No such tournament.", "Такого турнира нет.")
        return t

    def is_judge(self, user: UserRecord, t: TournamentRecord) -> bool:
        """An admin or judge of the club, or a judge of this tournament."""
        if user.club_id != t.club_id:
            return False
        if user.role in ("admin", "judge"):
            return True
        return any(s.user_id == user.id and s.role == "judge" for s in self.db.staff(t.id))

    def require_judge(self, user: UserRecord, t: TournamentRecord) -> None:
        if not self.is_judge(user, t):
            raise Refusal(403, "forbidden", "Only the tournament's judge or the club's admin may do this.",
                          "Это может только судья турнира или администратор клуба.")

    # --- settings -----------------------------------------------------------------------------------
    def create(self, user: UserRecord, name: str, *, preset: str | None = "tournament", variant: int | None = None,
               options: Mapping[str, Any] | None = None, scoring: Mapping[str, Any] | str = "regulation",
               tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS, final: Mapping[str, Any] | None = None,
               starts_on: date | None = None, ends_on: date | None = None) -> TournamentRecord:
        if user.role not in ("admin", "judge"):
            raise Refusal(403, "forbidden", "Only a judge or an admin of the club creates tournaments.",
                          "Создать турнир может только судья или администратор клуба.")
        _check_dates(starts_on, ends_on)
        rules = ruleset_from(self.store, user.club_id, preset, variant, options)
        system = scoring_from(scoring)
        return self.db.create(user.club_id, name, ruleset=rules.name, ruleset_options=rules.options(),
                              scoring=system.to_json(), tie_breaks=check_tie_breaks(tie_breaks),
                              final_settings=final_settings_from(final or {}), starts_on=starts_on, ends_on=ends_on)

    def update(self, user: UserRecord, t: TournamentRecord, changes: Mapping[str, Any]) -> TournamentRecord:
        """Change settings: ``name``, ``starts_on``, ``ends_on``, ``preset``/``variant``/``options`` (only
        before the first game), ``scoring``, ``tie_breaks``, ``final``, ``published``; ``reason``: why an
        announced setting changes after round 1 (:mod:`.announced`)."""
        self.require_judge(user, t)
        out: dict[str, Any] = {}
        if "name" in changes:
            out["name"] = changes["name"]
        starts = changes.get("starts_on", t.starts_on)
        ends = changes.get("ends_on", t.ends_on)
        _check_dates(starts, ends)
        for key in ("starts_on", "ends_on"):
            if key in changes:
                out[key] = changes[key]
        if any(k in changes for k in ("preset", "variant", "options")):
            if self.db.games(t.id):
                raise _conflict("started", "The rule set cannot change once games are created.",
                                "Правила нельзя менять, когда игры уже созданы.")
            if changes.get("preset") is None and changes.get("variant") is None:
                # only options: they change the tournament's own rule set
                try:
                    rules = RuleSet.from_options({**t.ruleset_options, **(changes.get("options") or {}),
                                                  "name": t.ruleset})
                except RuleSetError as exc:
                    raise _from(exc, "bad-settings") from None
                except (TypeError, ValueError) as exc:
                    raise _bad("bad-settings", f"These rule set options are not valid: {exc}.",
                               f"Эти параметры правил неверны: {exc}.") from None
            else:
                rules = ruleset_from(self.store, t.club_id, changes.get("preset"), changes.get("variant"),
                                     changes.get("options"))
            out["ruleset"], out["ruleset_options"] = rules.name, rules.options()
            if t.seating is not None and list(t.seating["table"]) != [rules.min_players, rules.max_players]:
                out["seating"] = None  # made for other table sizes: to be generated anew
        if "scoring" in changes:
            out["scoring"] = scoring_from(changes["scoring"]).to_json()
        if "tie_breaks" in changes:
            out["tie_breaks"] = check_tie_breaks(changes["tie_breaks"])
        if "final" in changes:
            if t.finalists is not None:
                raise _conflict("final-started", "The final is seated: its settings no longer change.",
                                "Финал уже рассажен: его настройки больше не меняются.")
            out["final_settings"] = final_settings_from({**t.final_settings, **changes["final"]})
        if "published" in changes:
            out["published"] = bool(changes["published"])
        from .announced import announced_changes  # B.announce: after round 1 only with a reason, recorded

        log = announced_changes(user, t, out, changes.get("reason"))
        return self.db.update(t.id, announced=log, **out) if out else t

    # --- participants and staff ---------------------------------------------------------------------
    def add_participants(self, user: UserRecord, t: TournamentRecord, entries: Sequence[NewParticipant],
                         ban_override: str | None = None) -> list[ParticipantRecord]:
        """Add participants; one the club has banned is refused (409 ``banned``) unless the judge gives
        ``ban_override``, his reason, which is recorded with the ban (B.sanctions)."""
        self.require_judge(user, t)
        if t.seating is not None:
            raise _conflict("seated", "The seating is made: new participants would not be seated. Add them "
                            "before generating the seating (or generate it anew before round 1).",
                            "Рассадка уже составлена: новые участники в неё не попадут. Добавьте их до рассадки "
                            "(или составьте её заново до первого тура).")
        existing = {p.nickname.casefold() for p in self.db.participants(t.id)}
        for number, e in enumerate(entries, 1):
            if e.nickname.casefold() in existing:
                raise _bad("nickname-taken", f"Line {number}: {e.nickname!r} is already a participant.",
                           f"Строка {number}: {e.nickname!r} уже участвует.", line=number)
            if e.user_id is not None:
                other = self.store.get_user(e.user_id)
                if other is None or other.club_id != t.club_id:
                    raise _bad("bad-participants", f"User {e.user_id} is not a user of the club.",
                               f"Пользователь {e.user_id} не состоит в клубе.")
        from .discipline import Discipline

        discipline = Discipline(self)
        banned = discipline.check_registration(t, entries, ban_override)
        try:
            added = self.db.add_participants(t.id, entries)
        except NicknameTaken as exc:
            raise _conflict("nickname-taken", f"{exc.nickname!r} is already a participant.",
                            f"{exc.nickname!r} уже участвует.") from None
        discipline.record_overrides(user, t, banned, ban_override or "")
        return added

    def delete_participant(self, user: UserRecord, t: TournamentRecord, participant_id: int) -> None:
        self.require_judge(user, t)
        self._participant(t, participant_id)
        if t.seating is not None or self.db.games(t.id):
            raise _conflict("seated", "A seated participant is not deleted; record a sanction or his removal.",
                            "Участника из рассадки не удаляют; оформите санкцию или снятие.")
        self.db.delete_participant(t.id, participant_id)

    def _participant(self, t: TournamentRecord, participant_id: int) -> ParticipantRecord:
        for p in self.db.participants(t.id):
            if p.id == participant_id:
                return p
        raise Refusal(404, "not-found", "No such participant in this tournament.",
                      "В этом турнире нет такого участника.")

    def set_staff(self, user: UserRecord, t: TournamentRecord, staff: Sequence[tuple[int, str]]) -> Any:
        self.require_judge(user, t)
        for uid, _role in staff:
            other = self.store.get_user(uid)
            if other is None or other.club_id != t.club_id:
                raise _bad("bad-staff", f"User {uid} is not a user of the club.",
                           f"Пользователь {uid} не состоит в клубе.")
        return self.db.set_staff(t.id, staff)

    # --- seating ------------------------------------------------------------------------------------
    def generate_seating(self, user: UserRecord, t: TournamentRecord, *, rounds: int, seed: int = 1,
                         hosts: Sequence[int] = (), round_hosts: Mapping[int, Sequence[int]] | None = None,
                         absent: Mapping[int, Sequence[int]] | None = None,
                         pinned: Mapping[int, int] | None = None, apart_by: Sequence[str] = ("team",),
                         apart: Sequence[Sequence[int]] = (), games_per_player: int | None = None,
                         steps: int | None = None) -> TournamentRecord:
        """Seat the active participants for ``rounds`` rounds at the rule set's table sizes.

        ``hosts``: the host (user id) of each table in every round (a fixed host per table);
        ``round_hosts``: round (from 1) -> hosts, for rounds with other hosts. A participant who hosts a
        round sits it out. ``absent``: participant -> rounds (from 1) he misses. ``pinned``: participant ->
        the table (from 1) he always sits at. ``apart_by``: participants of one ``team`` and/or ``club`` do
        not meet; ``apart``: more groups of participant ids who must not meet."""
        self.require_judge(user, t)
        if self.db.games(t.id):
            raise _conflict("started", "Round 1 has begun: regenerate the seating for the remaining rounds.",
                            "Первый тур начат: пересоставьте рассадку оставшихся туров.")
        if not 1 <= rounds <= 100:
            raise _bad("bad-seating", "The number of rounds is 1 to 100.", "Число туров: от 1 до 100.")
        people = [p for p in self.db.participants(t.id) if p.status == "active"]
        index = {p.id: i for i, p in enumerate(people)}
        request = {"rounds": rounds, "seed": seed, "hosts": list(hosts),
                   "round_hosts": {str(k): list(v) for k, v in (round_hosts or {}).items()},
                   "absent": {str(k): list(v) for k, v in (absent or {}).items()},
                   "pinned": {str(k): v for k, v in (pinned or {}).items()}, "apart_by": list(apart_by),
                   "apart": [list(g) for g in apart], "games_per_player": games_per_player}
        plan_hosts = self._hosts_by_round(t, rounds, hosts, round_hosts or {})
        options = self._constraints(t, people, index, rounds, 0, plan_hosts, absent or {}, pinned or {},
                                    apart_by, apart)
        low, high = table_sizes(t)
        seating = self._generate(people, options, lambda: seating_mod.generate(
            len(people), rounds, (low, high), games_per_player=games_per_player, seed=seed, steps=steps,
            **options))
        self._check_hosts(seating, plan_hosts)
        doc = {**seating.to_json(), "participants": [p.id for p in people], "rounds": rounds,
               "table": [low, high], "hosts": {str(r): hs for r, hs in plan_hosts.items()}, "request": request,
               "quality": _quality(seating)}
        return self.db.update(t.id, seating=doc)

    def regenerate_seating(self, user: UserRecord, t: TournamentRecord, *, seed: int = 1,
                           steps: int | None = None) -> TournamentRecord:
        """A new seating for the rounds not opened yet, keeping the opened ones: participants removed from
        the tournament or disqualified sit out every remaining round, those removed from a round sit it out,
        and the request's constraints hold as before."""
        self.require_judge(user, t)
        doc = self._seating(t)
        opened = {g.round for g in self.db.games(t.id, "main")}
        played = max(opened, default=0)
        rounds = int(doc["rounds"])
        if played >= rounds:
            raise _conflict("seated", "Every round is open already.", "Все туры уже начаты.")
        ids: list[int] = list(doc["participants"])
        by_id = {p.id: p for p in self.db.participants(t.id)}
        index = {pid: i for i, pid in enumerate(ids)}
        people = [by_id[pid] for pid in ids]
        dropped = [i for i, p in enumerate(people) if p.status in ("removed-from-tournament", "disqualified")]
        req = doc["request"]
        plan_hosts = {int(r): list(h) for r, h in doc["hosts"].items()}
        options = self._constraints(t, people, index, rounds, played, plan_hosts,
                                    {int(k): v for k, v in req["absent"].items()},
                                    {int(k): v for k, v in req["pinned"].items()}, req["apart_by"], req["apart"])
        old = seating_mod.Seating.from_json(doc)
        low, high = table_sizes(t)
        seating = self._generate(people, options, lambda: seating_mod.regenerate(
            old, played, rounds, (low, high), dropped=dropped, seed=seed, steps=steps, **options))
        self._check_hosts(seating, plan_hosts, first=played + 1)
        new = {**doc, **seating.to_json(), "quality": _quality(seating), "regenerated_from": played + 1}
        return self.db.update(t.id, seating=new)

    def _hosts_by_round(self, t: TournamentRecord, rounds: int, hosts: Sequence[int],
                        round_hosts: Mapping[int, Sequence[int]]) -> dict[int, list[int]]:
        staff = {s.user_id for s in self.db.staff(t.id) if s.role == "host"}
        out: dict[int, list[int]] = {}
        for r in range(1, rounds + 1):
            hs = list(round_hosts.get(r, hosts))
            if hs:
                out[r] = hs
        for r in round_hosts:
            if not 1 <= r <= rounds:
                raise _bad("bad-seating", f"Hosts are given for round {r}, but there are {rounds} rounds.",
                           f"Ведущие указаны для тура {r}, а туров {rounds}.")
        for r, hs in out.items():
            if len(set(hs)) != len(hs):
                raise _bad("bad-seating", f"Round {r}: a host is given for two tables.",
                           f"Тур {r}: ведущий указан за двумя столами.")
            strangers = [u for u in hs if u not in staff]
            if strangers:
                raise _bad("bad-seating", f"Round {r}: user {strangers[0]} is not a host of this tournament.",
                           f"Тур {r}: пользователь {strangers[0]} не ведущий этого турнира.")
        return out

    def _constraints(self, t: TournamentRecord, people: Sequence[ParticipantRecord], index: Mapping[int, int],
                     rounds: int, played: int, plan_hosts: Mapping[int, Sequence[int]],
                     absent: Mapping[int, Sequence[int]], pinned: Mapping[int, int], apart_by: Sequence[str],
                     apart: Sequence[Sequence[int]]) -> dict[str, Any]:
        def idx(pid: int) -> int:
            if pid not in index:
                raise _bad("bad-seating", f"Participant {pid} is not an active participant of this tournament.",
                           f"Участник {pid} не является действующим участником турнира.")
            return index[pid]

        away: dict[int, set[int]] = {}
        for pid, rs in absent.items():
            for r in rs:
                if not 1 <= r <= rounds:
                    raise _bad("bad-seating", f"Absent in round {r}: there are {rounds} rounds.",
                               f"Отсутствие в туре {r}: туров всего {rounds}.")
                away.setdefault(r - 1, set()).add(idx(pid))
        users = {p.user_id: index[p.id] for p in people if p.user_id is not None and p.id in index}
        for r, hs in plan_hosts.items():
            for u in hs:
                if u in users:
                    away.setdefault(r - 1, set()).add(users[u])  # a participant who hosts sits the round out
        for s in self.db.sanctions(t.id):
            if s.kind == "round" and s.round is not None and s.participant_id in index and s.round > played:
                away.setdefault(s.round - 1, set()).add(index[s.participant_id])
        groups: list[list[int]] = [[idx(pid) for pid in g] for g in apart]
        for attr in apart_by:
            if attr not in ("team", "club"):
                raise _bad("bad-seating", f"Keep apart by team or club, not {attr!r}.",
                           f"Разводить можно по команде или клубу, а не {attr!r}.")
            by: dict[str, list[int]] = {}
            for p in people:
                value = getattr(p, attr)
                if value and p.id in index:
                    by.setdefault(value.casefold(), []).append(index[p.id])
            groups += [g for g in by.values() if len(g) > 1]
        pins = {idx(pid): table - 1 for pid, table in pinned.items()}
        if any(t < 0 for t in pins.values()):
            raise _bad("bad-seating", "Tables are numbered from 1.", "Столы нумеруются с 1.")
        return {"apart": groups, "absent": {r: sorted(v) for r, v in away.items()}, "pinned": pins}

    def _generate(self, people: Sequence[ParticipantRecord], options: Mapping[str, Any], run: Any) -> Any:
        names = [p.nickname for p in people]
        try:
            return run()
        except seating_mod.SeatingError as exc:
            raise _bad("bad-seating", _named(exc.message("en"), names), _named(exc.message("ru"), names)) from None

    def _check_hosts(self, seating: seating_mod.Seating, plan_hosts: Mapping[int, Sequence[int]],
                     first: int = 1) -> None:
        tables = Counter(g.round + 1 for g in seating.games)
        for r, n in sorted(tables.items()):
            if r >= first and r in plan_hosts and len(plan_hosts[r]) < n:
                raise _bad("bad-seating", f"Round {r} has {n} tables but {len(plan_hosts[r])} hosts: each table "
                           "needs a host.",
                           f"В туре {r} столов {n}, а ведущих {len(plan_hosts[r])}: у каждого стола свой ведущий.")

    def _seating(self, t: TournamentRecord, stage: str = "main") -> dict[str, Any]:
        doc = t.seating if stage == "main" else t.final_seating
        if doc is None:
            raise _conflict("no-seating", "There is no seating yet: generate it first.",
                            "Рассадки ещё нет: сначала составьте её.")
        return doc

    # --- rounds -------------------------------------------------------------------------------------
    def open_round(self, user: UserRecord, t: TournamentRecord, number: int, stage: str = "main",
                   hosts: Sequence[int] | None = None) -> list[TournamentGameRecord]:
        """Create every table's game of round ``number`` (from 1), seated as the plan says, under the
        tournament's rule set, each assigned to its host (``hosts`` per table, else the plan's)."""
        self.require_judge(user, t)
        doc = self._seating(t, stage)
        rounds = int(doc["rounds"])
        if not 1 <= number <= rounds:
            raise _bad("bad-round", f"There is no round {number}: the plan has {rounds}.",
                       f"Тура {number} нет: в плане их {rounds}.")
        if stage == "main" and t.status not in ("setup", "running"):
            raise _conflict("stage", "The main stage is over: the final is on.", "Основной этап окончен: идёт финал.")
        if any(g.round == number for g in self.db.games(t.id, stage)):
            raise _conflict("round-open", f"Round {number} is open already.", f"Тур {number} уже начат.")
        ids: list[int] = list(doc["participants"])
        by_id = {p.id: p for p in self.db.participants(t.id)}
        tables = sorted((g for g in seating_mod.Seating.from_json(doc).games if g.round == number - 1),
                        key=lambda g: g.table)
        host_list = list(hosts) if hosts is not None else list(doc.get("hosts", {}).get(str(number), []))
        staff = {s.user_id for s in self.db.staff(t.id) if s.role == "host"}
        if len(host_list) < len(tables):
            raise _bad("bad-round", f"Round {number} has {len(tables)} tables and {len(host_list)} hosts: "
                       "each table needs a host.",
                       f"В туре {number} столов {len(tables)}, а ведущих {len(host_list)}: у каждого стола свой "
                       "ведущий.")
        if len(set(host_list)) != len(host_list) or any(u not in staff for u in host_list):
            raise _bad("bad-round", "Each table's host is a different host of this tournament.",
                       "У каждого стола свой ведущий из ведущих этого турнира.")
        round_sanctioned = {s.participant_id for s in self.db.sanctions(t.id)
                            if s.kind == "round" and s.round == number}
        seated_users = {}
        for g in tables:
            for i in g.seats:
                p = by_id[ids[i]]
                if p.status != "active" or p.id in round_sanctioned:
                    raise _conflict("removed-seated",
                                    f"{p.nickname} is seated in round {number} but was removed; regenerate the "
                                    "seating for the remaining rounds first.",
                                    f"{p.nickname} посажен в тур {number}, но снят; сначала пересоставьте рассадку "
                                    "оставшихся туров.")
                if p.user_id is not None:
                    seated_users[p.user_id] = p.nickname
        for u in host_list:
            if u in seated_users:
                raise _bad("bad-round", f"{seated_users[u]} plays in round {number} and cannot host it.",
                           f"{seated_users[u]} играет в туре {number} и не может его вести.")
        rules = rules_of(t)
        created: list[tuple[str, int, int, int | None, list[int]]] = []
        for g, host in zip(tables, host_list, strict=False):
            seats = [ids[i] for i in g.seats]
            names = [by_id[pid].nickname for pid in seats]
            try:
                game_id = self.store.create_game(t.club_id, rules, len(seats), names, host_id=host)
            except (RuleSetError, ValueError) as exc:
                raise _bad("bad-round", f"Table {g.table + 1}: the game cannot be created: {exc}.",
                           f"Стол {g.table + 1}: игру нельзя создать: {exc}.") from None
            created.append((game_id, number, g.table + 1, host, seats))
        try:
            self.db.link_games(t.id, stage, created)
        except RoundOpen:
            raise _conflict("round-open", f"Round {number} is open already.", f"Тур {number} уже начат.") from None
        if stage == "main" and t.status == "setup":
            self.db.update(t.id, status="running")
        return [g for g in self.db.games(t.id, stage) if g.round == number]

    # --- sheets -------------------------------------------------------------------------------------
    def sheet(self, t: TournamentRecord, game_id: str) -> Sheet:
        link = self.db.game(game_id)
        if link is None or link.tournament_id != t.id:
            raise Refusal(404, "not-found", "No such game in this tournament.", "В этом турнире нет такой игры.")
        return self._sheet(link)

    def _sheet(self, link: TournamentGameRecord) -> Sheet:
        """The stored sheet (:meth:`Store.sheet`: the game's result, every correction applied) with the
        tournament's participant ids in place of the seats' names."""
        summary = self.store.game(link.game_id)
        result: GameResult | None = None
        corrections: tuple[CorrectionRecord, ...] = ()
        if summary.status == "over":
            stored = self.store.sheet(link.game_id)
            ids = {seat: str(pid) for seat, pid in enumerate(link.seats, 1)}
            players = tuple(dataclasses.replace(p, participant=ids[p.seat]) for p in stored.result.players)
            result = dataclasses.replace(stored.result, players=players)
            corrections = stored.corrections
        return Sheet(link, result, summary.status, summary.signed_at, summary.signed_by, corrections)

    def inbox(self, user: UserRecord, t: TournamentRecord) -> list[Sheet]:
        """The signed games of the tournament whose sheets are not accepted yet, oldest signature first."""
        self.require_judge(user, t)
        sheets = [self._sheet(g) for g in self.db.games(t.id) if g.accepted_at is None]
        signed = [s for s in sheets if s.signed_at is not None]
        return sorted(signed, key=lambda s: s.signed_at or datetime.min.replace(tzinfo=UTC))

    def accept(self, user: UserRecord, t: TournamentRecord, game_id: str) -> Sheet:
        self.require_judge(user, t)
        sheet = self.sheet(t, game_id)
        if sheet.signed_at is None or sheet.result is None:
            raise _conflict("not-signed", "The host has not signed this game's sheet yet.",
                            "Ведущий ещё не подписал бланк этой игры.")
        try:
            link = self.db.accept(game_id, user.id)
        except AlreadyAccepted:
            raise _conflict("accepted", "This sheet is accepted already.", "Этот бланк уже принят.") from None
        # a removal from the tournament (or a ban) on the sheet takes the participant out of later seating
        for p in sheet.result.players:
            status = {"tournament": "removed-from-tournament", "ban": "disqualified"}.get(p.removed or "")
            if status is not None:
                self.db.set_participant_status(t.id, int(p.participant), status)
        from .discipline import Discipline

        Discipline(self).after_accept(user, t, game_id)  # bans on the sheet; steps due by repetition
        return dataclasses.replace(sheet, link=link)

    def correct(self, user: UserRecord, t: TournamentRecord, game_id: str, reason: str,
                changes: Sequence[Mapping[str, Any]]) -> Sheet:
        """The judge's correction of a signed sheet (before it is accepted), with its reason."""
        self.require_judge(user, t)
        if not reason or not reason.strip():
            raise _bad("reason-required", "A correction needs a reason.", "Для исправления нужна причина.")
        sheet = self.sheet(t, game_id)
        if sheet.link.accepted_at is not None:
            raise _conflict("accepted", "This sheet is accepted already; it is not corrected any more.",
                            "Этот бланк уже принят и больше не исправляется.")
        if sheet.signed_at is None or sheet.result is None:
            raise _conflict("not-signed", "The host has not signed this game's sheet yet.",
                            "Ведущий ещё не подписал бланк этой игры.")
        try:
            self.store.correct(game_id, user.id, reason, [dict(c) for c in changes])
        except SheetRefused as exc:
            status = 422 if exc.code == "bad-correction" else 409
            raise Refusal(status, exc.code, exc.message_en, exc.message_ru, clause="B.sheet") from None
        return self.sheet(t, game_id)

    # --- sanctions ----------------------------------------------------------------------------------
    def add_sanction(self, user: UserRecord, t: TournamentRecord, participant_id: int, kind: str, reason: str,
                     round_: int | None = None) -> SanctionRecord:
        self.require_judge(user, t)
        self._participant(t, participant_id)
        if not reason or not reason.strip():
            raise _bad("reason-required", "A sanction needs a reason.", "Для санкции нужна причина.")
        if kind == "round":
            rounds = int((t.seating or {}).get("rounds", 0))
            if round_ is None or not 1 <= round_ <= max(rounds, 1):
                raise _bad("bad-sanction", "A removal from a round names the round.",
                           "Снятие с тура указывает номер тура.")
        elif round_ is not None:
            raise _bad("bad-sanction", "Only a removal from a round names a round.",
                       "Номер тура указывается только при снятии с тура.")
        return self.db.add_sanction(t.id, participant_id, kind, reason.strip(), user.id, round_)

    # --- standings ----------------------------------------------------------------------------------
    def accepted_results(self, t: TournamentRecord, stage: str = "main") -> list[GameResult]:
        out: list[GameResult] = []
        for g in self.db.games(t.id, stage):
            if g.accepted_at is not None:
                sheet = self._sheet(g)
                assert sheet.result is not None
                out.append(sheet.result)
        return out

    def _sanctions(self, t: TournamentRecord) -> list[Sanction]:
        return [Sanction(str(s.participant_id), SANCTION_SCOPES[s.kind], s.reason) for s in self.db.sanctions(t.id)]

    def standings(self, t: TournamentRecord) -> list[Row]:
        """The main stage's standings over the accepted sheets."""
        system = ScoringSystem.from_json(t.scoring)
        ids = [str(p.id) for p in self.db.participants(t.id)]
        return standings(self.accepted_results(t), system, t.tie_breaks, sanctions=self._sanctions(t),
                         participants=ids)

    def final_standings(self, t: TournamentRecord) -> list[Row]:
        if t.finalists is None:
            raise _conflict("no-final", "The finalists are not chosen yet.", "Финалисты ещё не выбраны.")
        system = ScoringSystem.from_json(t.scoring)
        final_games = self.db.games(t.id, "final")
        results = self.accepted_results(t, "final")
        rounds = int((t.final_seating or {}).get("rounds", 0))
        complete = bool(final_games) and len(results) == len(final_games) and \
            len({g.round for g in final_games}) == rounds
        try:
            return final_standings(self.standings(t), results, system, bool(t.final_settings["carry_over"]),
                                   t.tie_breaks, [str(p) for p in t.finalists],
                                   int(t.final_settings["games_each"]) if complete else None)
        except TournamentError as exc:
            raise _from(exc, "bad-final", 409) from None

    # --- final --------------------------------------------------------------------------------------
    def start_final(self, user: UserRecord, t: TournamentRecord, *, k: int | None = None, include_ties: bool = False,
                    tie_pick: Sequence[int] = (), seed: int = 1, hosts: Sequence[int] = (),
                    steps: int | None = None) -> TournamentRecord:
        """Choose the top ``k`` finalists (default: the setting) and seat the final's games: each finalist
        plays ``games_each`` games, at the rule set's table sizes, seat numbers spread evenly.

        When the place at the cut is shared with players below it the judge decides (T.judge): either
        ``include_ties`` (everyone on that place goes through) or ``tie_pick``, the participants of that
        place he lets through (exactly as many as there are seats left)."""
        self.require_judge(user, t)
        if t.finalists is not None:
            raise _conflict("final-started", "The final is seated already.", "Финал уже рассажен.")
        main = self.db.games(t.id, "main")
        if not main:
            raise _conflict("no-games", "No game has been played yet.", "Ещё не сыграно ни одной игры.")
        if any(g.accepted_at is None for g in main):
            raise _conflict("pending-sheets", "Some sheets of the main stage are not accepted yet.",
                            "Не все бланки основного этапа приняты.")
        planned = int((t.seating or {}).get("rounds", 0))
        if len({g.round for g in main}) < planned:
            raise _conflict("rounds-left", "Not every round of the main stage has been played.",
                            "Сыграны не все туры основного этапа.")
        k = k if k is not None else int(t.final_settings["finalists"])
        games_each = int(t.final_settings["games_each"])
        chosen = self._finalists(t, k, include_ties, tie_pick)
        low, high = table_sizes(t)
        n = len(chosen)
        if n < low:
            raise _bad("bad-final", f"{n} finalists are too few for a table of {low}-{high}.",
                       f"{n} финалистов слишком мало для стола на {low}-{high} человек.")
        per_round = _seated_per_round(n, low, high)
        rounds = math.ceil(n * games_each / per_round)
        by_id = {str(p.id): p for p in self.db.participants(t.id)}
        people = [by_id[pid] for pid in chosen]
        plan_hosts = self._hosts_by_round(t, rounds, hosts, {})
        seating = self._generate(people, {}, lambda: seating_mod.generate(
            n, rounds, (low, high), games_per_player=games_each if rounds > games_each else None, seed=seed,
            steps=steps))
        played = Counter(p for g in seating.games for p in g.seats)
        if any(played[i] != games_each for i in range(n)):
            raise _bad("bad-final", f"{n} finalists cannot each play exactly {games_each} games at tables of "
                       f"{low}-{high}; choose another number of finalists.",
                       f"{n} финалистов не могут сыграть ровно по {games_each} игры за столами по {low}-{high}; "
                       "выберите другое число финалистов.")
        self._check_hosts(seating, plan_hosts)
        doc = {**seating.to_json(), "participants": [int(p) for p in chosen], "rounds": rounds,
               "table": [low, high], "hosts": {str(r): hs for r, hs in plan_hosts.items()},
               "request": {"k": k, "include_ties": include_ties, "seed": seed, "hosts": list(hosts)},
               "quality": _quality(seating)}
        return self.db.update(t.id, finalists=[int(p) for p in chosen], final_seating=doc, status="final")

    def _finalists(self, t: TournamentRecord, k: int, include_ties: bool, tie_pick: Sequence[int]) -> list[str]:
        rows = self.standings(t)
        try:
            return finalists(rows, k, include_ties)
        except TournamentError as exc:
            ranked = [r for r in rows if not r.disqualified and r.place is not None]
            if include_ties or not 1 <= k <= len(ranked):
                raise _from(exc, "bad-final") from None
        cut = ranked[k - 1].place
        above = [r.participant for r in ranked if r.place is not None and cut is not None and r.place < cut]
        tied = [r.participant for r in ranked if r.place == cut]
        picks = [str(p) for p in tie_pick]
        need = k - len(above)
        if len(set(picks)) != len(picks) or not set(picks) <= set(tied) or len(picks) != need:
            names = {str(p.id): p.nickname for p in self.db.participants(t.id)}
            shared = ", ".join(names.get(p, p) for p in tied)
            raise _bad("bad-final", f"Place {cut} at the cut is shared by {shared}: pick {need} of them (tie_pick), "
                       "or take them all (include_ties).",
                       f"Место {cut} на границе финала делят {shared}: выберите {need} из них (tie_pick) "
                       "или возьмите всех (include_ties).", tied=[int(p) for p in tied], pick=need)
        return above + [p for p in tied if p in set(picks)]

    def finish(self, user: UserRecord, t: TournamentRecord) -> TournamentRecord:
        self.require_judge(user, t)
        games = self.db.games(t.id)
        if not games or any(g.accepted_at is None for g in games):
            raise _conflict("pending-sheets", "Every game's sheet must be accepted first.",
                            "Сначала нужно принять бланки всех игр.")
        return self.db.update(t.id, status="finished")

    # --- players' pages -----------------------------------------------------------------------------
    def player_games(self, t: TournamentRecord, participant_id: int) -> dict[str, Any]:
        """A participant's games: round, table, seat and the game's state; the role, team, winner and
        points only of games whose sheets are accepted (never of a game in progress)."""
        p = self._participant(t, participant_id)
        system = ScoringSystem.from_json(t.scoring)
        from ..tournament.scoring import score_game

        games = []
        for g in self.db.games(t.id):
            if p.id not in g.seats:
                continue
            entry: dict[str, Any] = {"game_id": g.game_id, "stage": g.stage, "round": g.round, "table": g.table,
                                     "seat": g.seats.index(p.id) + 1, "accepted": g.accepted_at is not None}
            if g.accepted_at is not None:
                result = self._sheet(g).result
                assert result is not None
                me = result.player(str(p.id))
                score = score_game(result, system)[str(p.id)]
                entry.update(role=me.role, team=me.team, winner=result.winner, result=result.result,
                             points=score.points, fouls=me.fouls, removed=me.removed)
            games.append(entry)
        return {"participant": participant_json(p), "games": games}

    # --- exports ------------------------------------------------------------------------------------
    def archive(self, t: TournamentRecord) -> dict[str, Any]:
        """Everything about the tournament: settings, participants, staff, seating plans, sanctions, and
        every game's record with its sheet, corrections and acceptance."""
        games = []
        for g in self.db.games(t.id):
            sheet = self._sheet(g)
            games.append({**link_json(g), "status": sheet.status,
                          "signed_at": _iso(sheet.signed_at), "signed_by": sheet.signed_by,
                          "corrections": [correction_json(c) for c in sheet.corrections],
                          "sheet": None if sheet.result is None else sheet.result.to_json(),
                          "record": self.store.record(g.game_id, {"tournament_id": t.id, "stage": g.stage,
                                                                  "round": g.round, "table": g.table})})
        return {"format": "sportmafia-tournament", "version": 1, "tournament": tournament_json(t),
                "participants": [participant_json(p) for p in self.db.participants(t.id)],
                "staff": [{"user_id": s.user_id, "login": s.login, "role": s.role} for s in self.db.staff(t.id)],
                "seating": t.seating, "final_seating": t.final_seating, "finalists": t.finalists,
                "sanctions": [sanction_json(s) for s in self.db.sanctions(t.id)], **_discipline_archive(self, t),
                "games": games}


# --- helpers ---------------------------------------------------------------------------------------------

def _discipline_archive(svc: TournamentService, t: TournamentRecord) -> dict[str, Any]:
    """The judge's offence records, the bans this tournament entered and its registrations despite a ban."""
    from .discipline import Discipline, ban_json, offence_json

    d = Discipline(svc)
    return {"offences": [offence_json(r) for r in d.db.offences(t.id)],
            "bans": [ban_json(b) for b in d.db.bans(t.club_id) if b.tournament_id == t.id],
            "ban_overrides": [{"ban_id": o.ban_id, "nickname": o.nickname, "reason": o.reason, "by": o.user_id,
                               "created_at": _iso(o.created_at)} for o in d.db.overrides(t.id)]}


def _check_dates(starts: date | None, ends: date | None) -> None:
    if starts is not None and ends is not None and ends < starts:
        raise _bad("bad-settings", "The tournament cannot end before it starts.",
                   "Турнир не может закончиться раньше, чем начался.")


def _seated_per_round(n: int, low: int, high: int) -> int:
    from ..tournament.groups import plan_tables

    tables, _out = plan_tables(n, (low, high))
    return sum(tables)


def _named(message: str, names: Sequence[str]) -> str:
    """A seating refusal with its player indices replaced by nicknames."""
    import re

    def sub(m: re.Match[str]) -> str:
        i = int(m.group(2))
        return f"{m.group(1)}{names[i]}" if 0 <= i < len(names) else m.group(0)

    message = re.sub(r"(players? |игрок[иа]? |игроков? )(\d+)", sub, message)
    return re.sub(r"( and | и )(\d+)", sub, message)


def _quality(seating: seating_mod.Seating) -> dict[str, Any]:
    try:
        q = seating_mod.quality(seating)
    except (ValueError, ZeroDivisionError):
        return {}
    return {k: v for k, v in q.items() if isinstance(v, int | float | str)}


def _iso(moment: datetime | date | None) -> str | None:
    return None if moment is None else moment.isoformat()


def tournament_json(t: TournamentRecord) -> dict[str, Any]:
    return {"id": t.id, "club_id": t.club_id, "name": t.name, "starts_on": _iso(t.starts_on),
            "ends_on": _iso(t.ends_on), "ruleset": t.ruleset, "ruleset_options": t.ruleset_options,
            "table_sizes": list(table_sizes(t)), "scoring": t.scoring, "tie_breaks": list(t.tie_breaks),
            "final": t.final_settings, "status": t.status, "published": t.published,
            "rounds": None if t.seating is None else t.seating["rounds"],
            "finalists": None if t.finalists is None else list(t.finalists),
            "created_at": _iso(t.created_at), "updated_at": _iso(t.updated_at)}


def participant_json(p: ParticipantRecord) -> dict[str, Any]:
    return {"id": p.id, "nickname": p.nickname, "club": p.club, "team": p.team, "user_id": p.user_id,
            "status": p.status}


def link_json(g: TournamentGameRecord) -> dict[str, Any]:
    return {"game_id": g.game_id, "stage": g.stage, "round": g.round, "table": g.table, "host_id": g.host_id,
            "seats": list(g.seats), "accepted_at": _iso(g.accepted_at), "accepted_by": g.accepted_by}


def sanction_json(s: SanctionRecord) -> dict[str, Any]:
    return {"id": s.id, "participant_id": s.participant_id, "kind": s.kind, "round": s.round, "reason": s.reason,
            "by": s.user_id, "created_at": _iso(s.created_at)}


def sheet_json(sheet: Sheet, names: Mapping[int, str]) -> dict[str, Any]:
    """A sheet for the judge: seat, nickname, role, team, fouls, removal; the winner; every correction."""
    out: dict[str, Any] = {**link_json(sheet.link), "status": sheet.status, "signed_at": _iso(sheet.signed_at),
                           "signed_by": sheet.signed_by, "sheet": None}
    r = sheet.result
    if r is not None:
        out["sheet"] = {
            "winner": r.winner, "result": r.result, "table_size": r.table_size, "first_killed": r.first_killed,
            "best_move_black": r.best_move_black,
            "players": [{"seat": p.seat, "participant_id": int(p.participant),
                         "nickname": names.get(int(p.participant), p.name), "role": p.role, "team": p.team,
                         "fouls": p.fouls, "warnings": p.warnings, "removed": p.removed,
                         "removal_reason": p.removal_reason} for p in r.players],
            "corrections": [{"reason": c.reason, "by": c.by, "changes": dict(c.changes)} for c in r.corrections]}
    out["corrections"] = [correction_json(c) for c in sheet.corrections]
    return out


def correction_json(c: CorrectionRecord) -> dict[str, Any]:
    return {"id": c.id, "user_id": c.user_id, "login": c.login, "reason": c.reason, "changes": list(c.changes),
            "created_at": _iso(c.created_at)}


def row_json(row: Row, names: Mapping[int, str]) -> dict[str, Any]:
    pid = int(row.participant)
    return {"place": row.place, "participant_id": pid, "nickname": names.get(pid, row.participant),
            "points": row.points, "games": row.games, "wins": row.wins,
            "wins_by_role": dict(row.wins_by_role), "extra_points": row.extra_points, "penalties": row.penalties,
            "carried": row.carried, "disqualified": row.disqualified, "top_three": row.top_three,
            "sanctions": [{"scope": s.scope, "reason": s.reason, "game_id": s.game_id or None}
                          for s in row.sanctions]}


__all__ = ["Refusal", "Sheet", "TournamentService", "parse_csv", "parse_pasted"]
