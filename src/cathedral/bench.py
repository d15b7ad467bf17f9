"""Engine speed measurements through the public contract, for any registered game.

What ``cathedral bench GAME`` prints and ``benchmarks/run.py`` records:

- random complete games per second and decisions per second (``legal_actions()`` plus
  ``apply_action()`` with its checks, chance outcomes sampled like a front end does);
- ``legal_actions()`` generations per second over a fixed suite of positions taken from
  seeded random games (middle thirds of the games, where the engines work hardest);
- the cost of ``clone()`` and of ``clone()`` + ``apply_action()``;
- greedy self-play games per second, when the game has a heuristic;
- the average number of legal actions per decision.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from cathedral.ai import load_agent
from cathedral.ai.arena import machine
from cathedral.core.contract import Game, State
from cathedral.core.registry import load
from cathedral.testing import random_action


def _timed(seconds: float, step: Callable[[], int]) -> tuple[float, int]:
    """Calls ``step`` until ``seconds`` pass; returns (elapsed, total units it reported)."""
    start = time.perf_counter()
    units = 0
    while True:
        units += step()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed, units


def position_suite(game: Game, *, games: int = 20, seed: int = 0) -> list[State]:
    """Returns positions (players to move) from the middle third of seeded random games."""
    rng = random.Random(seed)
    suite = []
    for _ in range(games):
        state = game.new_initial_state()
        states = []
        while not state.is_terminal():
            if not state.is_chance_node():
                states.append(state.clone())
            state.apply_action(random_action(state, rng))
        third = len(states) // 3
        suite.extend(states[third : 2 * third : max(1, third // 5)])
    return suite


def measure(game: Game, *, seconds: float = 3.0, seed: int = 0) -> dict[str, float]:
    """Returns the figures listed in the module docstring."""
    rng = random.Random(seed)
    results: dict[str, float] = {}
    counts = {"decisions": 0, "choices": 0}

    def random_game() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(random_action(state, rng))
            else:
                legal = state.legal_actions()
                counts["choices"] += len(legal)
                counts["decisions"] += 1
                state.apply_action(rng.choice(legal))
        return 1

    elapsed, played = _timed(seconds, random_game)
    results["random games/s"] = played / elapsed
    results["random decisions/s"] = counts["decisions"] / elapsed
    results["legal actions per decision"] = counts["choices"] / max(1, counts["decisions"])

    suite = position_suite(game, seed=seed)

    def generate() -> int:
        for state in suite:
            copy = state.clone()
            copy._forget_caches()  # time the generation itself, not a memoised answer
            copy.legal_actions()
        return len(suite)

    def clone_only() -> int:
        for state in suite:
            state.clone()
        return len(suite)

    elapsed, done = _timed(seconds, clone_only)
    clone_cost = elapsed / done
    elapsed, done = _timed(seconds, generate)
    results["legal_actions() generations/s"] = done / max(elapsed - done * clone_cost, 1e-9)
    results["clone() µs"] = clone_cost * 1e6
    moves = [(state, rng.choice(state.legal_actions())) for state in suite]

    def clone_apply() -> int:
        for state, action in moves:
            state.clone().apply_action(action)
        return len(moves)

    elapsed, done = _timed(seconds, clone_apply)
    results["clone() + apply_action() µs"] = elapsed / done * 1e6

    try:
        game.new_initial_state().evaluate()
        has_heuristic = True
    except NotImplementedError:
        has_heuristic = False
    except Exception:
        has_heuristic = True
    if has_heuristic:
        agents = [load_agent("greedy", game, seed=seed + i) for i in range(game.num_players)]

        def greedy_game() -> int:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(random_action(state, rng))
                else:
                    state.apply_action(agents[state.current_player()].choose(state))
            return 1

        elapsed, played = _timed(seconds, greedy_game)
        results["greedy games/s"] = played / elapsed
    return results


def run_bench(name: str, *, seconds: float = 3.0, params: dict | None = None) -> dict:
    """Measures one game and prints a table; returns the figures."""
    game = load(name, **(params or {}))
    results = measure(game, seconds=seconds)
    print(f"{game!r} on {machine()}")
    width = max(len(k) for k in results)
    for key, value in results.items():
        print(f"  {key:<{width}}  {value:>12,.1f}")
    return results
