"""The request bodies, as pydantic models: unknown fields are refused, types are strict."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from ..engine import COMMANDS
from .edge import Id

MAX_SEAT = 30
"""No rule set seats more than 30 players."""

Login = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{1,64}$")]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]


class StrictBody(BaseModel):
    """A request body that takes no unknown field and no value of another type (no "3" for 3)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Body(BaseModel):
    """A request body that takes no unknown field (values converted as pydantic does: the tournament forms)."""

    model_config = ConfigDict(extra="forbid")


class LoginIn(StrictBody):
    login: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)
    next: str | None = Field(default=None, max_length=2048, description="Where the page goes after the login; "
                             "the answer's `next` is it when it is a path of this site, else `/`.")


class PasswordChangeIn(StrictBody):
    old: str = Field(min_length=1, max_length=1024)
    new: str = Field(min_length=8, max_length=1024)


class ClubSettingsIn(StrictBody):
    autostart_timer: bool = Field(description="The console starts the speech timer when a speech begins.")


class NewUserIn(StrictBody):
    login: Login
    password: str = Field(min_length=8, max_length=1024)
    role: Literal["admin", "host", "judge"]


class UserPlayerIn(StrictBody):
    """The club roster player an account is (null: none)."""

    player_id: int | None = Field(ge=1, le=2**31 - 1)


class NewGameIn(StrictBody):
    """A new game at the deal. ``options`` change the rule set options (``docs/rules/options.md``) of the
    preset, or of the club's saved ``variant`` when one is named;
    seats are named by ``names`` or by club ``roster`` ids (not both), seat 1 first."""

    preset: str = Field(default="club", min_length=1, max_length=64)
    variant: Id | None = Field(default=None, description="A saved variant of the club (replaces preset).")
    options: dict[str, Any] | None = None
    players: int = Field(ge=3, le=MAX_SEAT)
    names: list[Name] | None = Field(default=None, max_length=MAX_SEAT)
    roster: list[Id] | None = Field(default=None, max_length=MAX_SEAT)

    @model_validator(mode="after")
    def _one_way_to_name(self) -> NewGameIn:
        if self.names is not None and self.roster is not None:
            raise ValueError("give names or roster ids, not both")
        return self


def _check_value(key: str, value: Any) -> None:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        if not 1 <= value <= MAX_SEAT:
            raise ValueError(f"{key}: {value} is not a seat number (1 to {MAX_SEAT})")
        return
    if isinstance(value, str):
        if len(value) > 500:
            raise ValueError(f"{key}: at most 500 characters")
        return
    if isinstance(value, list):
        if len(value) > MAX_SEAT:
            raise ValueError(f"{key}: at most {MAX_SEAT} items")
        for item in value:
            if isinstance(item, list | dict) or item is None:
                raise ValueError(f"{key}: a list of seat numbers or role names")
            _check_value(key, item)
        return
    raise ValueError(f"{key}: not a value a command takes")


class CommandJson(BaseModel):
    """A command in its JSON form (``docs/engine.md``): ``type`` and the command's own fields. Numbers are
    seat numbers (1 to 30; a deal's ``black`` count too); the engine checks the rest."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(min_length=1, max_length=32)

    @model_validator(mode="after")
    def _check(self) -> CommandJson:
        if self.type not in COMMANDS:
            raise ValueError(f"unknown command type {self.type!r}; known: {', '.join(COMMANDS)}")
        for key, value in (self.model_extra or {}).items():
            _check_value(key, value)
        return self


class CommandIn(StrictBody):
    """One command to append: the ``next_seq`` it was decided on and a client id kept across retries."""

    command: CommandJson
    expected_seq: int = Field(ge=0)
    command_id: str = Field(min_length=1, max_length=64)
