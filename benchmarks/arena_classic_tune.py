"""Self-play matches that compare classic evaluation variants under the same search.

Each seat gets its own evaluation (a variant of ``cathedral.games.classic.heuristic``'s
weights, or the first version of the evaluation: unplaced squares and free territory only),
swapped in just before that seat's agent thinks. Games are played in pairs with colours
swapped, in parallel processes. Usage::

    python benchmarks/arena_classic_tune.py --games 20 --jobs 2 \
        --agent "alphabeta:seconds=0.5,width=8,root_width=24" \
        --a risk=0.3 --b baseline

Prints wins/draws/losses of variant A with a 95% interval. This is how the weights in
``heuristic.WEIGHTS`` were chosen (see the report of the final session for the runs).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random

import cathedral
from cathedral.ai import load_agent
from cathedral.ai.arena import wilson_interval
from cathedral.games.classic import heuristic
from cathedral.games.classic.pieces import DARK, LIGHT

BASE_WEIGHTS = dict(heuristic.WEIGHTS)
ORIGINAL_EVALUATE = heuristic.evaluate


def baseline(position) -> list[float]:
    """The first evaluation: unplaced squares and free territory."""
    light = position.unplaced(DARK) - position.unplaced(LIGHT)
    free = ~(position.walls[0] | position.walls[1] | position.cathedral)
    light += 0.5 * (
        (position.territory[LIGHT] & free).bit_count()
        - (position.territory[DARK] & free).bit_count()
    )
    value = math.tanh(light / 12)
    return [value, -value]


def install(variant: str) -> None:
    if variant == "baseline":
        heuristic.evaluate = baseline
        return
    heuristic.evaluate = ORIGINAL_EVALUATE
    heuristic.WEIGHTS.clear()
    heuristic.WEIGHTS.update(BASE_WEIGHTS)
    for item in filter(None, variant.split(",")):
        key, _, value = item.partition("=")
        heuristic.WEIGHTS[key] = float(value)


def play(task: tuple[int, str, str, str, str]) -> float:
    """Plays one game; returns variant A's score (1, 0.5, 0)."""
    index, agent_a, agent_b, a, b = task
    game = cathedral.load("classic")
    seats = [(agent_a, a), (agent_b, b)] if index % 2 == 0 else [(agent_b, b), (agent_a, a)]
    agents = [load_agent(spec, game, seed=index * 7 + i) for i, (spec, _) in enumerate(seats)]
    state = game.new_initial_state()
    rng = random.Random(index // 2)
    # Two random opening moves per pair of games make the pairs differ from each other.
    for _ in range(2):
        state.apply_action(rng.choice(state.legal_actions()))
    while not state.is_terminal():
        player = state.current_player()
        install(seats[player][1])
        state.apply_action(agents[player].choose(state))
    mine = 0 if index % 2 == 0 else 1
    r = state.returns()[mine]
    return 1.0 if r > 0 else 0.5 if r == 0 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--agent", default="alphabeta:seconds=0.5,width=8,root_width=24")
    parser.add_argument("--agent-b", default=None, help="B's agent (default: the same)")
    parser.add_argument("--a", default="", help="variant A: key=value,... or baseline")
    parser.add_argument("--b", default="baseline", help="variant B")
    args = parser.parse_args()
    tasks = [(i, args.agent, args.agent_b or args.agent, args.a, args.b)
             for i in range(args.games)]
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        scores = pool.map(play, tasks)
    wins = sum(1 for s in scores if s == 1)
    draws = sum(1 for s in scores if s == 0.5)
    n = len(scores)
    low, high = wilson_interval(wins + draws / 2, n)
    print(f"A={args.a or 'default'} vs B={args.b}: {wins}-{draws}-{n - wins - draws} "
          f"score {(wins + draws / 2) / n:.1%} [{low:.1%}, {high:.1%}]")


if __name__ == "__main__":
    main()
