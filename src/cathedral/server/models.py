"""The shapes of every message, as pydantic models.

Requests are strict (no type coercion, no unknown fields) so a malformed body is refused with
the field named; ``problem`` turns a validation error into the one sentence of an error body.
Replies are documented by models too; the server builds views as plain dicts on the hot path
and the tests check them against ``GameView``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

MAX_MOVE_BYTES = 64 * 1024
MAX_BODY_BYTES = 64 * 1024
MAX_RECORD_BYTES = 1024 * 1024

ParamValue = str | int | bool | None


class Request(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class ClockSpec(Request):
    initial_s: Annotated[float, Field(gt=0, le=7 * 24 * 3600)]
    increment_s: Annotated[float, Field(ge=0, le=24 * 3600)] = 0.0


class CreateGame(Request):
    game: Annotated[str, Field(max_length=64)]
    params: dict[Annotated[str, Field(max_length=64)], ParamValue] = Field(default_factory=dict)
    seats: Annotated[list[Annotated[str, Field(min_length=1, max_length=100)]],
                     Field(min_length=1, max_length=8)]
    clock: ClockSpec | None = None
    public: bool = False


class Move(Request):
    """A move: the ply the client saw and either the notation or the action number."""

    ply: int  # any number: one that is not the game's ply is a 409, not a 400
    move: str | None = None  # an empty or unreadable move is the engine's 422
    action: int | None = None  # so is a number out of range

    @model_validator(mode="after")
    def _one_of(self) -> Move:
        if (self.move is None) == (self.action is None):
            raise ValueError("give exactly one of 'move' (notation) or 'action' (a number)")
        return self


class SocketMove(Move):
    type: Literal["move"]
    token: Annotated[str, Field(min_length=1, max_length=200)]


class SocketHint(Request):
    """A hint asked over the socket: its progress and result come back on that socket."""

    type: Literal["hint"]
    level: Annotated[str, Field(max_length=20)] = "medium"
    ply: int | None = None
    token: Annotated[str, Field(max_length=200)] | None = None


class Resign(Request):
    ply: int | None = None


class Join(Request):
    player: Annotated[int, Field(ge=0)]


# ----- replies (documentation and tests) -----------------------------------------------------


class SeatReply(BaseModel):
    player: int
    kind: str
    token: str | None = None
    url: str | None = None
    open: bool | None = None


class Created(BaseModel):
    id: str
    seats: list[SeatReply]
    watch_url: str


class ClockView(BaseModel):
    initial_s: float
    increment_s: float
    remaining_s: list[float]
    running: int | None
    as_of: float


class ResultView(BaseModel):
    text: str
    scores: list[float]
    returns: list[float]
    resigned: int | None = None
    timeout: bool = False


class GameView(BaseModel):
    id: str
    game: str
    params: dict[str, Any]
    status: Literal["playing", "finished"]
    ply: int
    current_player: int
    players: list[str]
    seats: list[str]
    open_seats: list[int]
    state: str
    returns: list[float] | None
    last_move: str | None
    history: list[str]
    scores: list[float]
    result: ResultView | None
    clock: ClockView | None
    read_only: bool
    public: bool
    rematch: str | None
    rematch_of: str | None
    takeback: bool
    created: float
    updated: float


class ViewMessage(BaseModel):
    type: Literal["view"]
    view: GameView


class ErrorMessage(BaseModel):
    type: Literal["error"]
    status: int
    error: str


class ErrorBody(BaseModel):
    error: str


def problem(exc: ValidationError, what: str = "request body") -> str:
    """Returns the first validation error as one sentence naming the field."""
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error.get("loc", ()) if part != "__root__")
    message = error.get("msg", "invalid").removeprefix("Value error, ")
    if error.get("type") == "missing":
        return f"bad {what}: missing field {where!r}"
    if error.get("type") == "extra_forbidden":
        return f"bad {what}: unknown field {where!r}"
    return f"bad {what}: {where + ': ' if where else ''}{message}"
