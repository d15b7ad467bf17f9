"""Search speed per game: MCTS simulations, alpha-beta nodes and greedy rollouts (one round
each) per second.

Positions come from the middle of seeded random games (``cathedral.bench.position_suite``),
so the figures are for the busy part of a game. Each search runs on one position for a fixed
time; the figure is the total work over the total time. Usage::

    python benchmarks/bench_ai.py [--seconds 1.0] [--positions 4] [GAME ...]
    python benchmarks/bench_ai.py --depth 4 [--positions 6] [GAME ...]

With ``--depth``, each position is searched instead to that depth with the game's ``hard``
settings (no endgame solver, no variety, no time limit), and the table gives the seconds,
nodes, move and value of each search: run at two commits, a change that only makes the
search faster shows the same nodes, moves and values in fewer seconds.

A game that is not registered yet is skipped. Speeds depend on the machine and its load;
record them with the machine's description.
"""

from __future__ import annotations

import argparse
import platform
import time

import cathedral
from cathedral.ai import AlphaBetaAgent, Budget, MCTSAgent, RolloutAgent
from cathedral.ai.levels import level_spec
from cathedral.bench import position_suite

SETTINGS = {
    "classic": {},
    "allmer": {},
    "red": {},
}


def measure(game_name: str, seconds: float, positions: int) -> dict[str, float]:
    game = cathedral.load(game_name, **SETTINGS.get(game_name, {}))
    suite = position_suite(game, games=positions, seed=0)
    step = max(1, len(suite) // positions)
    chosen = suite[::step][:positions]
    budget = Budget(seconds=seconds)
    out: dict[str, float] = {}
    for label, make in (
        ("mcts_simulations_per_s", lambda: MCTSAgent(seed=0, budget=budget, reuse=False)),
        ("mcts_random_playouts_per_s", lambda: MCTSAgent(
            seed=0, budget=budget, reuse=False, prior_depth=0, sample=1, playout_depth=200)),
        ("alphabeta_nodes_per_s", lambda: AlphaBetaAgent(seed=0, budget=budget)),
        ("rollouts_per_s", lambda: RolloutAgent(seed=0, budget=budget, candidates=5)),
    ):
        work = elapsed = 0.0
        for state in chosen:
            info = make().analyse(state)
            work += info.iterations
            elapsed += info.seconds
        out[label] = work / elapsed if elapsed else 0.0
    out["positions"] = len(chosen)
    out["mean_legal_actions"] = sum(len(s.legal_actions()) for s in chosen) / len(chosen)
    return out


def fixed_depth(game_name: str, depth: int, positions: int) -> list[dict]:
    """Searches ``positions`` mid-game positions to ``depth`` with the game's hard settings."""
    game = cathedral.load(game_name, **SETTINGS.get(game_name, {}))
    suite = position_suite(game, games=positions, seed=0)
    step = max(1, len(suite) // positions)
    _, kwargs = level_spec("hard", game_name)
    kwargs = {**kwargs, "budget": Budget(depth=depth), "endgame": 0.0, "variety": 0.0}
    rows = []
    for state in suite[::step][:positions]:
        started = time.perf_counter()
        info = AlphaBetaAgent(seed=0, **kwargs).analyse(state)
        rows.append({"legal": len(state.legal_actions()), "seconds": time.perf_counter() - started,
                     "nodes": info.iterations, "move": state.action_to_string(info.action),
                     "value": info.values[state.current_player()]})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=["classic", "allmer", "red"])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--depth", type=int, help="search each position to this depth instead")
    args = parser.parse_args()
    if args.depth:
        for name in args.games:
            rows = fixed_depth(name, args.depth, args.positions)
            print(f"{name}, hard's settings to depth {args.depth}:")
            print("| legal | seconds | nodes | move | value |\n|---|---|---|---|---|")
            for r in rows:
                print(f"| {r['legal']} | {r['seconds']:.2f} | {r['nodes']:,} | {r['move']} "
                      f"| {r['value']:+.4f} |")
            print(f"total {sum(r['seconds'] for r in rows):.2f} s")
        return
    print(f"{platform.python_implementation()} {platform.python_version()} on "
          f"{platform.machine()}, {args.seconds:g} s per position")
    for name in args.games:
        try:
            figures = measure(name, args.seconds, args.positions)
        except Exception as exc:  # an engine still being written: report and go on
            print(f"{name}: skipped ({type(exc).__name__}: {exc})")
            continue
        print(f"{name}: " + ", ".join(f"{k} {v:,.0f}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
