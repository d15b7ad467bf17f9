"""Puzzles: positions from games between the project's own computer levels, each with a proof
that its answers are best (``docs/learning.md``, "Puzzles").

A puzzle is a position (``start``: the moves from the initial state, in notation, chance
outcomes too), the player to move, a goal in words, its ``answers`` (every first move the
proof accepts), the ``line`` shown once it is solved, a ``difficulty`` on the Glicko scale and
the ``proof``. Every legal move's value is in ``proof["moves"]``, so ``check`` can say what a
wrong move does against the best. The proofs, which ``verify`` re-runs:

- ``classic``: the exact endgame solver (``cathedral.ai.endgame``) on every legal move: the
  final margin of unplaced squares for the mover with best play by both sides.
- ``allmer``: a full-width alpha-beta on stones to a stated number of turns (the mover's turn,
  its chains followed to their end, then the next player's, who plays against the mover):
  the mover's stones gained (a win or a loss is worth ``WIN``).
- ``red``: every legal decision rolled out over the same sampled dice (the rest of the turn
  and a round of every player greedily, then the game's evaluation), compared in pairs with
  a stated confidence.

The data ships in ``cathedral/learn/data/puzzles/<game>.json`` (``cathedral.learn.generate``
writes it); it is read once and cached.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import math
import random
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import cathedral
from cathedral.ai.base import chance_sample, static_values
from cathedral.ai.budget import Budget, Deadline
from cathedral.ai.endgame import EndgameSolver, final_margin
from cathedral.ai.mcts import play
from cathedral.ai.rollout import greedy_action
from cathedral.core.contract import CHANCE, TERMINAL, Action, State
from cathedral.core.errors import IllegalActionError, NotationError, UnknownGameError

GAMES = ("classic", "allmer", "red")
LEVELS = ("random", "easy", "medium", "hard")
WIN = 100
"""An Allmer proof's value for a won game (``-WIN`` lost): beyond any count of stones."""

# The computer levels' fixed ratings (their ladder Elo + 1500), as in
# ``cathedral.server.glicko.COMPUTER_RATINGS``, which this layer may not import (a test keeps
# the two equal). Keyed by setting: the game, with the number of players where it matters.
LEVEL_RATINGS: dict[str, dict[str, float]] = {
    "classic": {"random": 442.0, "easy": 1363.0, "medium": 1673.0, "hard": 1881.0},
    "allmer2": {"random": 499.0, "easy": 1248.0, "medium": 1647.0, "hard": 1915.0},
    "allmer4": {"random": -290.0, "easy": 821.0, "medium": 1930.0, "hard": 2269.0},
    "red2": {"random": 353.0, "easy": 1274.0, "medium": 1806.0, "hard": 1969.0},
    "red3": {"random": 345.0, "easy": 1390.0, "medium": 1781.0, "hard": 1941.0},
    "red4": {"random": 334.0, "easy": 1446.0, "medium": 1689.0, "hard": 1929.0},
}


@dataclass(frozen=True)
class Verdict:
    """What ``check`` says of a move: whether it solves the puzzle, and why (or why not)."""

    ok: bool
    text: str


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (the fields of its JSON; see the module docstring)."""

    id: str
    game: str
    params: dict
    start: tuple[str, ...]
    player: int
    goal: str
    theme: str
    difficulty: int
    answers: tuple[str, ...]
    line: tuple[str, ...]
    proof: dict = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict) -> Puzzle:
        return cls(
            id=data["id"], game=data["game"], params=dict(data.get("params") or {}),
            start=tuple(data["start"]), player=int(data["player"]), goal=data["goal"],
            theme=data["theme"], difficulty=int(data["difficulty"]),
            answers=tuple(data["answers"]), line=tuple(data["line"]),
            proof=dict(data.get("proof") or {}),
        )

    def to_dict(self) -> dict:
        data = asdict(self)
        for key in ("start", "answers", "line"):
            data[key] = list(data[key])
        return data

    def __hash__(self) -> int:  # the dict fields cannot be hashed; the id names a puzzle
        return hash(self.id)

    @property
    def setting(self) -> str:
        """The rated setting: ``classic``, ``allmer2``, ``red3``, ..."""
        return setting(self.game, self.params)


def setting(game: str, params: dict) -> str:
    """Returns the key of ``LEVEL_RATINGS`` for a game and its parameters."""
    if game == "classic":
        return "classic"
    default = 2
    return f"{game}{int(params.get('players', default))}"


# ----- the data --------------------------------------------------------------------------


def data_text(game: str) -> str | None:
    """Returns the shipped puzzle file of ``game`` as text, or None if there is none."""
    path = resources.files("cathedral") / "learn" / "data" / "puzzles" / f"{game}.json"
    try:
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return None


@cache
def _load(game: str) -> tuple[Puzzle, ...]:
    text = data_text(game)
    if text is None:
        return ()
    data = json.loads(text)
    return tuple(Puzzle.from_dict(item) for item in data["puzzles"])


def puzzles(game: str | None = None) -> list[Puzzle]:
    """Returns the shipped puzzles of ``game`` (all games when None), in id order.

    Raises:
        UnknownGameError: ``game`` is not a game with puzzles.
    """
    if game is None:
        return [p for g in GAMES for p in _load(g)]
    if game not in GAMES:
        raise UnknownGameError(f"no puzzles for game {game!r} (games: {', '.join(GAMES)})")
    return list(_load(game))


@cache
def _index() -> dict[str, Puzzle]:
    return {p.id: p for p in puzzles()}


def puzzle(puzzle_id: str) -> Puzzle:
    """Returns the puzzle with this id.

    Raises:
        KeyError: no such puzzle.
    """
    try:
        return _index()[puzzle_id]
    except KeyError:
        raise KeyError(f"no puzzle {puzzle_id!r}") from None


def daily(date: _dt.date | str | None = None) -> Puzzle:
    """Returns the puzzle of the day ``date`` (today when None; a date or ``YYYY-MM-DD``),
    the same on every machine: the games take turns day by day, and a hash of the date picks
    one of that game's puzzles.

    Raises:
        LookupError: no puzzles are shipped.
    """
    if date is None:
        date = _dt.date.today()
    elif isinstance(date, str):
        date = _dt.date.fromisoformat(date)
    elif isinstance(date, _dt.datetime):
        date = date.date()
    shipped = [g for g in GAMES if _load(g)]
    if not shipped:
        raise LookupError("no puzzles are shipped")
    choice = _load(shipped[date.toordinal() % len(shipped)])
    digest = hashlib.sha256(f"cathedral puzzle {date.isoformat()}".encode()).digest()
    return choice[int.from_bytes(digest[:8], "big") % len(choice)]


# ----- positions and moves ---------------------------------------------------------------


def replay(game: str, params: dict, moves: list[str] | tuple[str, ...]) -> State:
    """Returns the state after ``moves`` (notation, chance outcomes included) from the
    initial state of ``game`` with ``params``.

    Raises:
        NotationError, IllegalActionError: a move does not parse or is not legal there.
    """
    state = cathedral.load(game, **params).new_initial_state()
    for text in moves:
        state.apply_action(_parse(state, text))
    return state


def _parse(state: State, text: str) -> Action:
    if state.is_chance_node():
        for action, _ in state.chance_outcomes():
            if state.action_to_string(action) == text:
                return action
    return state.string_to_action(text)


def position_hash(state: State) -> str:
    """Returns a short hash of the position of ``state`` (not the path to it: the game's
    ``position_key``, with the game and its parameters); two puzzles never share one."""
    text = f"{state.game.name} {sorted(state.game.params.items())!r} {state.position_key()!r}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def start_state(p: Puzzle) -> State:
    """Returns the puzzle's position (a fresh state each call)."""
    return replay(p.game, p.params, p.start)


def answer_actions(p: Puzzle, state: State | None = None) -> set[Action]:
    """Returns the puzzle's answers as actions of its position."""
    state = start_state(p) if state is None else state
    return {state.string_to_action(text) for text in p.answers}


def check(p: Puzzle, move: str) -> Verdict:
    """Judges ``move`` (notation) as the answer to ``p``: an answer is right; a legal move
    that is not says what it does against the best, where the proof knows; an illegal one
    gets the engine's reason."""
    state = start_state(p)
    try:
        action = state.string_to_action(move)
    except (NotationError, IllegalActionError) as exc:
        return Verdict(False, str(exc))
    text = state.action_to_string(action)
    if action in answer_actions(p, state):
        said = f"Right: {state.describe_action(action)}."
        if p.line and p.line[0] == text and len(p.line) > 1:
            return Verdict(True, f"{said} Best play goes on: {', '.join(p.line[1:])}.")
        if p.line and p.line[0] != text:
            return Verdict(True, f"{said} The proof's line: {', '.join(p.line)}.")
        return Verdict(True, said)
    return Verdict(False, _why_not(p, text))


def _why_not(p: Puzzle, text: str) -> str:
    """Why a legal move that is not an answer falls short, from the proof's value of it."""
    proof = p.proof
    value = proof.get("moves", {}).get(text)
    best = proof.get("value")
    if value is None or best is None:
        return f"{text} is not the answer. The goal: {p.goal}."
    if p.game == "classic":
        return f"{text} {_margin_words(value)}; the best {_margin_words(best)}."
    if p.game == "allmer":
        return (f"{text} {_stones_words(value)} after the best reply; the best "
                f"{_stones_words(best)}.")
    return (f"{text} is worth {best - value:.3f} less expected score than the best decision "
            f"(over {proof.get('samples')} samples of the dice).")


def _margin_words(margin: float) -> str:
    m = abs(int(margin)) if float(margin).is_integer() else abs(margin)
    if margin > 0:
        return f"wins by {m}"
    if margin < 0:
        return f"loses by {m}"
    return "draws"


def _stones_words(value: float) -> str:
    value = int(value)
    if value >= WIN:
        return "wins"
    if value <= -WIN:
        return "loses"
    if value > 0:
        return f"gains {value} stone{'s' if value != 1 else ''}"
    if value < 0:
        return f"loses {-value} stone{'s' if value != -1 else ''}"
    return "gains no stones"


# ----- the proofs --------------------------------------------------------------------------


class OutOfBudget(Exception):
    """A proof that did not finish within its budget."""


@dataclass
class Proof:
    """A proof's findings: every legal move's value (action -> value, more is better for
    the mover), the best value, the answers (the actions of the best value), a line from the
    first of them and what it cost (positions, or rollouts)."""

    values: dict[Action, float]
    best: float
    answers: list[Action]
    line: list[Action]
    cost: int
    extra: dict[str, Any] = field(default_factory=dict)

    def second(self) -> float | None:
        rest = [v for a, v in self.values.items() if a not in self.answers]
        return max(rest) if rest else None


def prove_classic(state: State, nodes: int, solver: EndgameSolver | None = None) -> Proof:
    """Solves every legal move of a classic position exactly (the final margin of unplaced
    squares for the mover); the answers are the moves of the best margin, the line the
    solver's after the first of them, in the heuristic's order. A ``solver`` kept along a
    game (its table holds the later positions) makes it cheaper; ``cost`` counts what this
    proof searched.

    Raises:
        OutOfBudget: the solver needed more than ``nodes`` positions in all (or proved a
            result without its exact margin).
    """
    me = state.current_player()
    solver = solver or EndgameSolver()
    deadline = Deadline(Budget(iterations=nodes))
    values: dict[Action, float] = {}
    lines: dict[Action, list[Action]] = {}
    spent = 0
    for action in _heuristic_order(state):
        child = state.clone()
        play(child, action)
        if child.current_player() == TERMINAL:
            values[action], lines[action] = final_margin(child, me) + 0.0, []
            continue
        solution = solver.solve(child, deadline)
        spent += solver.nodes
        if solution is None or not solution.exact:
            raise OutOfBudget(f"the solver needed more than {nodes} positions")
        sign = 1 if child.current_player() == me else -1
        values[action] = sign * solution.margin + 0.0  # no -0.0
        lines[action] = solution.pv
    best = max(values.values())
    answers = [a for a in values if values[a] == best]
    return Proof(values, best, answers, [answers[0], *lines[answers[0]]], spent)


def _heuristic_order(state: State) -> list[Action]:
    try:
        scored = state.action_heuristics()
    except NotImplementedError:
        return state.legal_actions()
    scored.sort(key=lambda item: -item[1])
    return [a for a, _ in scored]


class _Counter:
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.nodes = 0

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfBudget(f"the search needed more than {self.limit} positions")


def _allmer_value(state: State, me: int, stones: int) -> int:
    if state.scores()[me] < 4:  # out (with four players the game goes on without it)
        return -WIN
    if state.is_terminal():
        result = state.returns()[me]
        if result >= 1.0:
            return WIN
        if result <= -1.0:
            return -WIN
    return int(state.scores()[me]) - stones


def prove_allmer(state: State, turns: int, nodes: int) -> Proof:
    """Searches every first step of an Allmer position to ``turns`` turns (the mover's, its
    chains followed to their end, then each next player's), full width, with alpha-beta on
    the mover's stones gained; the others play against the mover. A won game is worth
    ``WIN``, a lost one (or the mover out) ``-WIN``.

    Raises:
        OutOfBudget: more than ``nodes`` positions.
    """
    me = state.current_player()
    stones = int(state.scores()[me])
    counter = _Counter(nodes)
    values: dict[Action, float] = {}
    lines: dict[Action, list[Action]] = {}
    for action in _allmer_order(state):
        child = state.clone()
        play(child, action)
        counter.tick()
        left = turns if _same_turn(child) else turns - 1
        value, line = _allmer_search(child, me, stones, left, -math.inf, math.inf, counter)
        values[action], lines[action] = value, line
    best = max(values.values())
    answers = [a for a in values if values[a] == best]
    return Proof(values, best, answers, [answers[0], *lines[answers[0]]], counter.nodes)


def _same_turn(state: State) -> bool:
    return not state.is_terminal() and not state.turn_starts()


def _allmer_order(state: State) -> list[Action]:
    converting = state.quiescence_actions()
    first = set(converting)
    return list(converting) + [a for a in state.legal_actions() if a not in first]


def _allmer_search(state: State, me: int, stones: int, turns: int, alpha: float,
                   beta: float, counter: _Counter) -> tuple[float, list[Action]]:
    if state.is_terminal() or turns <= 0 or state.scores()[me] < 4:
        return _allmer_value(state, me, stones), []
    player = state.current_player()
    maximising = player == me
    best = -math.inf if maximising else math.inf
    best_line: list[Action] = []
    for action in _allmer_order(state):
        child = state.clone()
        play(child, action)
        counter.tick()
        left = turns if _same_turn(child) else turns - 1
        value, line = _allmer_search(child, me, stones, left, alpha, beta, counter)
        if (value > best) if maximising else (value < best):
            best, best_line = value, [action, *line]
        if maximising:
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best, best_line


def red_samples(state: State, samples: int, seed: int, *, rounds: int = 2,
                limit: int | None = None, max_plies: int = 600) -> dict[Action, list[float]]:
    """Rolls every legal decision of a Red position out ``samples`` times: the decision,
    then every player greedily (the mover finishing its turn) until the mover's turn has come
    round ``rounds`` times, chance drawn from a stream per sample shared by every decision;
    returns each decision's expected score (0 to 1, from ``evaluate()``) per sample.

    Raises:
        OutOfBudget: more than ``limit`` rollouts would be needed.
    """
    me = state.current_player()
    legal = state.legal_actions()
    if limit is not None and len(legal) * samples > limit:
        raise OutOfBudget(f"{len(legal) * samples} rollouts are more than {limit}")
    out: dict[Action, list[float]] = {a: [] for a in legal}
    for i in range(samples):
        for action in legal:
            dice = random.Random(f"red puzzle {seed} {i} dice")
            ties = random.Random(f"red puzzle {seed} {i} ties")
            child = state.clone()
            play(child, action)
            value = _play_rounds(child, me, rounds, dice, ties, max_plies)
            out[action].append(round((value + 1.0) / 2.0, 6))
    return out


def _play_rounds(state: State, me: int, rounds: int, dice: random.Random,
                 ties: random.Random, max_plies: int) -> float:
    others_moved, done = False, 0
    for _ in range(max_plies):
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            play(state, chance_sample(state, dice))
            continue
        if player == me:
            if others_moved:
                done += 1
                others_moved = False
                if done >= rounds:
                    break
        else:
            others_moved = True
        play(state, greedy_action(state, ties))
    return static_values(state)[me]


def paired_interval(a: list[float], b: list[float], z: float) -> tuple[float, float, float]:
    """Returns the mean of ``a - b`` over paired samples and its interval at ``z`` standard
    errors (normal approximation)."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


RED_Z = 2.576  # a 99% interval for each comparison


def prove_red(state: State, samples: int, seed: int, *, rounds: int = 2,
              limit: int | None = None, z: float = RED_Z) -> Proof:
    """Compares every legal decision of a Red position over ``samples`` paired rollouts
    (``red_samples``): the answers are the best by mean and every decision that matched it
    on every sample (the same value on the same dice); ``extra`` holds the best's margin over
    the next and the lowest interval bound of its lead over any other decision."""
    runs = red_samples(state, samples, seed, rounds=rounds, limit=limit)
    means = {a: sum(v) / len(v) for a, v in runs.items()}
    top = max(runs, key=lambda a: (means[a], -a))
    answers = [a for a in runs if runs[a] == runs[top]]
    lows, margins, interval = [], [], None
    for a in runs:
        if a in answers:
            continue
        mean, low, high = paired_interval(runs[top], runs[a], z)
        margins.append(mean)
        lows.append(low)
        if interval is None or mean < interval[0]:
            interval = (mean, low, high)
    proof = Proof({a: round(m, 4) for a, m in means.items()}, round(means[top], 4),
                  sorted(answers), [top], samples * len(runs))
    proof.extra = {"margin": round(min(margins), 4) if margins else None,
                   "interval": [round(interval[1], 4), round(interval[2], 4)]
                   if interval else None,
                   "low": min(lows) if lows else None}
    return proof


# ----- verification ------------------------------------------------------------------------


def verify(p: Puzzle, budget: int | None = None) -> bool:
    """Re-runs the puzzle's proof and returns whether it still holds: the same best value,
    the same answers, every legal move's stored value, and the stated margin. ``budget``
    bounds the work (solver or search positions, or rollouts; default: a little over what
    the proof says it took); a proof that does not finish within it does not hold."""
    try:
        state = start_state(p)
    except (NotationError, IllegalActionError):
        return False
    if state.current_player() != p.player:
        return False
    proof = p.proof
    try:
        if p.game == "classic":
            limit = budget or int(proof["nodes"] * 1.5) + 1000
            found = prove_classic(state, limit)
        elif p.game == "allmer":
            limit = budget or int(proof["nodes"] * 1.5) + 1000
            found = prove_allmer(state, int(proof["depth"]), limit)
        elif p.game == "red":
            found = prove_red(state, int(proof["samples"]), int(proof["seed"]),
                              rounds=int(proof.get("rounds", 2)), limit=budget,
                              z=float(proof.get("z", RED_Z)))
        else:
            return False
    except OutOfBudget:
        return False
    names = {a: state.action_to_string(a) for a in found.values}
    if {names[a] for a in found.answers} != set(p.answers):
        return False
    if found.best != proof["value"]:
        return False
    stored = proof.get("moves", {})
    if {names[a]: v for a, v in found.values.items()} != stored:
        return False
    if p.game == "red":
        low = found.extra["low"]
        return low is not None and low > 0 and found.extra["margin"] == proof["margin"]
    second = found.second()
    if second is None:
        return False
    return p.game != "allmer" or found.best - second >= proof.get("margin", 0)


# ----- difficulty --------------------------------------------------------------------------


def expected_score(rating: float, other: float) -> float:
    """The Elo expectation of ``rating`` against ``other``."""
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0))


def difficulty(found: dict[str, float], setting_key: str) -> int:
    """Returns a puzzle's rating on the Glicko scale from the chance each level finds its
    answer (``found``: level -> 0..1): the rating at which the puzzle's expected score
    against the levels' fixed ratings matches what it scored (a level that misses it loses
    to it), with one draw against 1500 as a prior; rounded to 10."""
    ratings = LEVEL_RATINGS[setting_key]
    games = [(ratings[level], 1.0 - p) for level, p in found.items()]
    games.append((1500.0, 0.5))

    def excess(r: float) -> float:
        return sum(score - expected_score(r, other) for other, score in games)

    low, high = -1000.0, 4000.0
    for _ in range(60):
        mid = (low + high) / 2
        if excess(mid) > 0:
            low = mid
        else:
            high = mid
    return int(round((low + high) / 20.0) * 10)


__all__ = [
    "GAMES",
    "LEVELS",
    "LEVEL_RATINGS",
    "WIN",
    "OutOfBudget",
    "Proof",
    "Puzzle",
    "Verdict",
    "answer_actions",
    "check",
    "daily",
    "difficulty",
    "paired_interval",
    "position_hash",
    "prove_allmer",
    "prove_classic",
    "prove_red",
    "puzzle",
    "puzzles",
    "replay",
    "setting",
    "start_state",
    "verify",
]
