"""What a client may ask of the server: computer players, game parameters, analyses and
records, each within a cap, so that no request can make the server think, remember or
replay without end.

A computer seat is a level (``hard``) or an agent spec (``mcts:seconds=2,c=0.5``) whose every
argument is in ``SPEC_ARGS`` below, within its range; anything else is refused (422) naming
the argument and its limit. What a worker then runs is ``run_spec``: the same player with
its time always bounded (``SEARCH_SECONDS`` at most, added where a spec gives none) and on
one process (``workers=1``): the server's pool of worker processes is the parallelism,
and one seat never takes more of it than one worker.
"""

from __future__ import annotations

from dataclasses import dataclass

from cathedral.ai import AGENTS, LEVEL_NAMES, load_agent, parse_spec
from cathedral.ai.levels import PARALLEL, level_spec
from cathedral.core.contract import Game
from cathedral.core.errors import CathedralError
from cathedral.core.registry import game_class
from cathedral.server.errors import Invalid

#: The longest any computer player or analysis thinks about one decision, in seconds.
SEARCH_SECONDS = 30.0
#: A job this long past its own time is a runaway: its worker process is killed.
GRACE_S = 10.0
#: The most plies one game may hold, played here or uploaded (a finished red game with four
#: players holds about 1,100, Allmer's with four about as many).
MAX_PLIES = 20_000
#: The levels anyone may ask to analyse a finished or uploaded game; a seated player may
#: ask any level for a hint in a game against the computer.
ANONYMOUS_LEVELS = ("random", "easy", "medium", "hard")
HUMAN = "human"


@dataclass(frozen=True)
class Arg:
    """An accepted agent argument: its kind (``int``, ``number`` or ``bool``), its range and
    whether ``none`` is accepted."""

    kind: str
    low: float = 0
    high: float = 0
    none: bool = False

    def problem(self, value: object) -> str | None:
        """Says what is wrong with ``value`` for this argument, or None."""
        if value is None:
            return None if self.none else f"takes {self.words()}"
        if self.kind == "bool":
            return None if isinstance(value, bool) else f"takes {self.words()}"
        numeric = int if self.kind == "int" else (int, float)
        if isinstance(value, bool) or not isinstance(value, numeric):
            return f"takes {self.words()}"
        if not self.low <= value <= self.high:
            return f"must be {self.words()} here"
        return None

    def words(self) -> str:
        if self.kind == "bool":
            return "true or false"
        kind = "a whole number" if self.kind == "int" else "a number"
        text = f"{kind} from {_shown(self.low)} to {_shown(self.high)}"
        return text + (" or none" if self.none else "")


def _shown(number: float) -> str:
    return f"{int(number):,}" if number == int(number) else f"{number:g}"


def _int(low: int, high: int, none: bool = False) -> Arg:
    return Arg("int", low, high, none)


def _number(low: float, high: float) -> Arg:
    return Arg("number", low, high)


BOOL = Arg("bool")
BUDGET_ARGS = {
    "seconds": _number(0.001, SEARCH_SECONDS),
    "iterations": _int(1, 1_000_000),
    "depth": _int(1, 20),
}
#: Every argument a computer seat may carry over HTTP, per agent, with its range. Sizes that
#: cost memory (``table_size``, ``max_plies``, ``candidates``, ``plans``) have caps a worker
#: process holds comfortably; ``workers`` is not here (see the module docstring).
SPEC_ARGS: dict[str, dict[str, Arg]] = {
    "random": {},
    "greedy": {"undo_margin": _number(0, 10)},
    "alphabeta": {
        **BUDGET_ARGS, "width": _int(1, 200, none=True), "root_width": _int(1, 1000, none=True),
        "extensions": _int(0, 12), "quiescence": _int(0, 8), "chance_samples": _int(1, 64),
        "table_size": _int(1, 1_000_000), "contempt": _number(-1, 1),
        "endgame": _number(0, 1), "endgame_actions": _int(1, 200),
    },
    "mcts": {
        **BUDGET_ARGS, "c": _number(0, 10), "bias": _number(0, 10), "prior_depth": _int(0, 4),
        "widen": _number(0, 10), "playout_depth": _int(0, 50), "sample": _int(1, 32),
        "solver": BOOL, "reuse": BOOL, "contempt": _number(-1, 1),
    },
    "rollout": {
        **BUDGET_ARGS, "candidates": _int(1, 64, none=True), "horizon": _int(1, 4),
        "halving": BOOL, "plans": _int(1, 16), "rivals": _int(1, 16), "paired_dice": BOOL,
        "max_plies": _int(1, 1000),
    },
}
#: Integer game parameters without a list of choices, capped over HTTP so that every game
#: played here ends: (game, parameter) -> (lowest, highest, whether none is accepted).
GAME_PARAMS: dict[tuple[str, str], tuple[int, int, bool]] = {
    ("allmer", "max_turns"): (1, 2000, True),  # none: the game's own 400 or 1000
    ("allmer", "repetition"): (0, 10, False),
    ("allmer", "quiet_turns"): (0, 1000, False),
    ("red", "turn_cap"): (1, 200, False),
}
#: Any other integer parameter without choices, should a game add one.
DEFAULT_INT_CAP = 1000
assert set(SPEC_ARGS) == set(AGENTS), "every agent needs its row of accepted arguments"


def check_params(name: str, params: dict) -> None:
    """Refuses (``Invalid``) parameter values a client may not choose here: a free-text
    parameter (a file path, such as red's ``components``) other than its default (the error
    never says whether some path exists), or an integer outside ``GAME_PARAMS``."""
    try:
        declared = game_class(name).info.parameters
    except CathedralError as exc:
        raise Invalid(str(exc)) from None
    for param in declared:
        if param.name not in params or param.choices:
            continue
        value = params[param.name]
        if param.kind is str and value != param.default:
            raise Invalid(f"parameter {param.name!r} of {name} takes only "
                          f"{param.default!r} on this server")
        if param.kind is int and isinstance(value, int) and not isinstance(value, bool):
            low, high, _ = GAME_PARAMS.get((name, param.name),
                                           (param.minimum or 0, DEFAULT_INT_CAP, True))
            if not low <= value <= high:
                raise Invalid(f"parameter {param.name!r} of {name} must be from {low} to "
                              f"{high} on this server (got {value})")


def parameter_range(name: str, param: str) -> tuple[int, int] | None:
    """The (lowest, highest) this server accepts for an integer parameter without choices."""
    for declared in game_class(name).info.parameters:
        if declared.name == param and declared.kind is int and not declared.choices:
            low, high, _ = GAME_PARAMS.get((name, param),
                                           (declared.minimum or 0, DEFAULT_INT_CAP, True))
            return low, high
    return None


def _agent_of(base: str, game: Game) -> tuple[str, dict]:
    """The agent a seat's base name means in ``game`` and the level's own arguments."""
    if base in LEVEL_NAMES:
        return level_spec(base, game.name, game.num_players)
    return base, {}


def check_seat(kind: str, game: Game) -> None:
    """Refuses (``Invalid``) a seat that is neither ``human`` nor a computer player this
    server runs: an unknown name, or an argument not in ``SPEC_ARGS`` or out of its range."""
    if kind == HUMAN:
        return
    try:
        base, args = parse_spec(kind)
        agent, _ = _agent_of(base, game)
    except CathedralError as exc:
        raise Invalid(f"seat {kind!r}: {exc}") from None
    accepted = SPEC_ARGS.get(agent)
    if accepted is None:
        names = ", ".join(sorted({*LEVEL_NAMES, *SPEC_ARGS}))
        raise Invalid(f"seat {kind!r}: unknown computer player {base!r} (levels and agents: "
                      f"{names})")
    for key, value in args.items():
        if key not in accepted:
            listing = ", ".join(f"{k} ({a.words()})" for k, a in accepted.items()) or "none"
            raise Invalid(f"seat {kind!r}: {key} is not accepted on this server for {agent} "
                          f"(accepted: {listing})")
        problem = accepted[key].problem(value)
        if problem:
            raise Invalid(f"seat {kind!r}: {key} {problem}")
    try:
        load_agent(kind, game).close()  # the agent's own checks (a level's mix, say)
    except CathedralError as exc:
        raise Invalid(f"seat {kind!r}: {exc}") from None


def _text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def seconds_of(kind: str, game: Game) -> float | None:
    """The time a checked seat (or level) thinks per decision here, or None for the instant
    players (random and greedy)."""
    base, args = parse_spec(kind)
    agent, level_args = _agent_of(base, game)
    if agent in ("random", "greedy"):
        return None
    budget = level_args.get("budget")
    seconds = args.get("seconds", budget.seconds if budget is not None else None)
    return min(float(seconds), SEARCH_SECONDS) if seconds is not None else SEARCH_SECONDS


def run_spec(kind: str, game: Game) -> str:
    """The spec a worker runs for a checked seat or level: its time bounded, one process."""
    base, args = parse_spec(kind)
    agent, _ = _agent_of(base, game)
    seconds = seconds_of(kind, game)
    if seconds is not None:
        args["seconds"] = seconds
    if agent in PARALLEL:
        args["workers"] = 1
    if not args:
        return base
    return base + ":" + ",".join(f"{key}={_text(value)}" for key, value in args.items())
