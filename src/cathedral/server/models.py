"""The shapes of every message, as pydantic models.

Requests are strict (no type coercion, no unknown fields) so a malformed body is refused with
the field named; ``problem`` turns validation errors into the one sentence of an error body.
Every reply has its model, so ``/api/openapi.json`` documents every body; the server builds
game views as JSON text on the hot path and the tests check them against ``GameView``.
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


class CorrespondenceSpec(Request):
    """Correspondence: each move may take up to this many days."""

    days_per_move: Annotated[int, Field(ge=1, le=14)]


class CreateGame(Request):
    game: Annotated[str, Field(max_length=64)]
    params: dict[Annotated[str, Field(max_length=64)], ParamValue] = Field(default_factory=dict)
    seats: Annotated[list[Annotated[str, Field(min_length=1, max_length=100)]],
                     Field(min_length=1, max_length=8)]
    clock: ClockSpec | CorrespondenceSpec | None = None
    public: bool = False
    rated: bool = False


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
    waiting: list[int] = Field(default_factory=list,
                               description="human seats whose link has not been opened yet: "
                               "the clock starts once every one has, or at a person's first "
                               "move")
    per_move: bool = Field(default=False, description="correspondence: every move gets "
                           "initial_s afresh (days per move)")


class RecentPly(BaseModel):
    ply: int = Field(description="1 for the first ply")
    player: int = Field(description="who chose it; -1 for chance")
    text: str = Field(description="the game's description: notation, then what it did")


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
    movers: list[int] = Field(description="who chose each ply (-1: chance)")
    turn_starts: list[int] = Field(description="the plies (from 1) that start a turn")
    skips: list[tuple[int, list[int]]] = Field(description="[ply, players skipped after it]")
    turns: int = Field(description="turns begun (chance and set-up are none)")
    in_turn: bool = Field(description="whether the player to move goes on with a turn under "
                          "way (rather than starting one)")
    recent: list[RecentPly] = Field(description="the last round in words: from the start of "
                                    "the last turn the player to move completed")
    scores: list[float]
    result: ResultView | None
    clock: ClockView | None
    read_only: bool
    public: bool
    rematch: str | None
    rematch_of: str | None
    names: list[str | None] = Field(default_factory=list, description="each seat's account "
                                    "name (null: anonymous or a computer)")
    rated: bool = False
    rating_changes: list[dict[str, float] | None] | None = Field(
        default=None, description="once a rated game is rated: each seat's rating before and "
        "after (null for a computer)")
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
    """Every refusal: one sentence a person can act on."""

    error: str


class SeatOf(BaseModel):
    player: int


class Joined(BaseModel):
    player: int
    token: str
    url: str


class Uploaded(BaseModel):
    id: str
    watch_url: str
    replay_url: str


class RecordBody(BaseModel):
    """A game record (``cathedral.Record``): the file the terminal, the server and the arena
    write. Replaying ``actions`` (notation) from the start of ``game`` with ``params``
    reproduces the game."""

    game: str
    params: dict[str, Any]
    rules_version: int
    players: list[str]
    result: dict[str, Any] | None = None
    actions: list[str]
    meta: dict[str, Any] = Field(default_factory=dict)


class Hint(BaseModel):
    """An analysis (``cathedral.ai.analyse``), with ``values`` on the scale of returns."""

    level: str
    action: int
    move: str
    pv: list[str]
    expected: list[float]
    values: list[float]
    proven: bool
    solved: str | None
    depth: int
    nodes: int
    seconds: float
    final: bool


class LobbyItem(BaseModel):
    id: str
    game: str
    params: dict[str, Any]
    players: list[str]
    seats: list[str]
    open_seats: list[int]
    status: Literal["playing", "finished"]
    ply: int
    turns: int
    updated: float
    read_only: bool
    public: bool
    names: list[str | None] = Field(default_factory=list)
    rated: bool = False


class Lobby(BaseModel):
    """Public tables only: with an open seat, being played, recently finished."""

    open: list[LobbyItem]
    playing: list[LobbyItem]
    finished: list[LobbyItem]


class CatalogParameter(BaseModel):
    name: str
    type: Literal["int", "str", "bool"]
    default: ParamValue
    choices: list[ParamValue]
    help: str
    optional: bool
    minimum: int | None
    maximum: int | None


class CatalogGame(BaseModel):
    name: str
    title: str
    summary: str
    parameters: list[CatalogParameter]
    players: dict[str, list[str]]
    lower_score_wins: bool


class ClockPreset(BaseModel):
    name: str
    initial_s: float
    increment_s: float


class Catalog(BaseModel):
    games: list[CatalogGame]
    levels: list[str]
    agents: list[str]
    clock_presets: list[ClockPreset]


class Health(BaseModel):
    status: Literal["ok"]
    games_live: int


def problem(errors: list[dict], what: str = "request body") -> str:
    """Returns the first of pydantic's validation errors as one sentence naming the field."""
    error = errors[0] if errors else {}
    loc = [str(part) for part in error.get("loc", ()) if part != "__root__"]
    if loc[:1] == ["body"]:
        loc = loc[1:]
        if not loc:
            if error.get("type") == "missing":
                return f"{what} is missing: send a JSON object"
            return f"{what} must be a JSON object"
    elif loc[:1] in (["query"], ["path"], ["header"]):
        what = f"{loc[0]} parameter"
        loc = loc[1:]
    where = ".".join(loc)
    message = error.get("msg", "invalid").removeprefix("Value error, ")
    if error.get("type") == "missing":
        return f"bad {what}: missing field {where!r}"
    if error.get("type") == "extra_forbidden":
        return f"bad {what}: unknown field {where!r}"
    return f"bad {what}: {where + ': ' if where else ''}{message}"


def problem_of(exc: ValidationError, what: str = "request body") -> str:
    """``problem`` of a ``ValidationError``."""
    return problem(exc.errors(), what)


# ----- accounts (docs/accounts.md) -----------------------------------------------------------


class NameBody(Request):
    name: Annotated[str, Field(max_length=64)]


class PasswordBody(NameBody):
    password: Annotated[str, Field(max_length=1024)]


class PasskeyOptionsBody(Request):
    purpose: Literal["signup", "signin", "add"]
    name: Annotated[str, Field(max_length=64)] | None = None


class PasskeyBody(Request):
    ticket: Annotated[str, Field(max_length=100)]
    credential: dict[str, Any]


class NotifySwitches(Request):
    page: bool | None = None
    browser: bool | None = None
    email: bool | None = None


class AccountSettings(Request):
    email: Annotated[str, Field(max_length=254)] | None = ""  # "" means unchanged
    notify: NotifySwitches | None = None


class ReadUpTo(Request):
    up_to: int


class ChallengeBody(Request):
    game: Annotated[str, Field(max_length=64)]
    params: dict[Annotated[str, Field(max_length=64)], ParamValue] = Field(default_factory=dict)
    clock: ClockSpec | CorrespondenceSpec | None = None
    rated: bool = False
    to: Annotated[str, Field(max_length=64)] | None = None


class PairingBody(Request):
    game: Annotated[str, Field(max_length=64)]
    params: dict[Annotated[str, Field(max_length=64)], ParamValue] = Field(default_factory=dict)
    clock: ClockSpec | CorrespondenceSpec | None = None
    rated: bool = True
    range: Annotated[int, Field(ge=50, le=1000)] = 200


class AccountView(BaseModel):
    name: str
    csrf: str
    email: str | None
    notify: dict[str, bool]
    passkeys: int
    password: bool
    created: float


class Me(BaseModel):
    account: AccountView | None
