"""Self-play matches that compare evaluation variants of one game under the same search.

Each seat gets its own evaluation, swapped in just before that seat's agent thinks: a variant
of the game's heuristic constants (classic: the keys of ``heuristic.WEIGHTS``; red: the
module's constants such as ``RACE_WEIGHT``), or for classic the first version of the
evaluation (``baseline``: unplaced squares and free territory only), or for red the pair model
of ``fit_red_evaluation.py`` (``pairs``). Games are played in groups of one per seat, variant A
in each seat in turn (alone against a full table of B with more than two players) on the same
seed (the same dice where the game has chance), in parallel processes; classic pairs open with
two random moves. Usage::

    python research/arena_tune.py --game classic --games 20 --jobs 2 \\
        --agent "alphabeta:seconds=0.5,width=8,root_width=24" --a risk=0.3 --b baseline
    python research/arena_tune.py --game red --params players=2 --games 200 --jobs 2 \\
        --agent hard --a RACE_WEIGHT=0.7,RACE_SCALE=0.6
    python research/arena_tune.py --game red --params players=4 --games 400 --jobs 2 \\
        --agent medium --a pairs

Prints wins/draws/losses of variant A (a win: first place alone) with a 95% interval and A's
mean return (1 first, -1 last; 0 is even) with its standard error. This is how classic's
``heuristic.WEIGHTS`` were chosen.
"""

from __future__ import annotations

import argparse
import importlib
import math
import multiprocessing
import random
import statistics

import cathedral
from cathedral.ai import load_agent
from cathedral.ai.arena import wilson_interval
from cathedral.ai.base import chance_sample
from cathedral.core.contract import CHANCE
from cathedral.games.classic.pieces import DARK, LIGHT
from fit_red_evaluation import pair_values


def baseline(position) -> list[float]:
    """Classic's first evaluation: unplaced squares and free territory."""
    light = position.unplaced(DARK) - position.unplaced(LIGHT)
    free = ~(position.walls[0] | position.walls[1] | position.cathedral)
    light += 0.5 * (
        (position.territory[LIGHT] & free).bit_count()
        - (position.territory[DARK] & free).bit_count()
    )
    value = math.tanh(light / 12)
    return [value, -value]


class Variants:
    """Swaps a game's heuristic constants (and, for classic, its evaluation) in and out."""

    def __init__(self, game: str):
        self.module = importlib.import_module(f"cathedral.games.{game}.heuristic")
        self.evaluate = self.module.evaluate
        self.weights = dict(getattr(self.module, "WEIGHTS", {}))
        self.constants = {k: v for k, v in vars(self.module).items()
                          if k.isupper() and isinstance(v, (int, float))}

    def install(self, variant: str) -> None:
        module = self.module
        special = {"baseline": baseline, "pairs": pair_values}
        module.evaluate = special.get(variant, self.evaluate)
        if variant in special:
            return
        if self.weights:
            module.WEIGHTS.clear()
            module.WEIGHTS.update(self.weights)
        for key, value in self.constants.items():
            setattr(module, key, value)
        for item in filter(None, variant.split(",")):
            key, _, value = item.partition("=")
            if key in self.weights:
                module.WEIGHTS[key] = float(value)
            elif key in self.constants:
                setattr(module, key, float(value))
            else:
                raise SystemExit(f"unknown constant {key!r}; expected one of "
                                 f"{sorted(self.weights) + sorted(self.constants)}")
        for cached in vars(module).values():  # caches computed under other constants
            if callable(getattr(cached, "cache_clear", None)):
                cached.cache_clear()


def play(task: tuple[int, str, dict, str, str, str, str]) -> tuple[float, float]:
    """Plays one game; returns variant A's score (1 first alone, 0.5 first level, 0) and its
    return."""
    index, name, params, agent_a, agent_b, a, b = task
    game = cathedral.load(name, **params)
    n = game.num_players
    variants = Variants(name)
    variants.install(a)
    variants.install(b)  # both variants parse before the game starts
    mine = index % n  # A's seat: each in turn over a group of n games on one seed
    seats = [(agent_a, a) if p == mine else (agent_b, b) for p in range(n)]
    agents = [load_agent(spec, game, seed=index * 7 + i) for i, (spec, _) in enumerate(seats)]
    state = game.new_initial_state()
    rng = random.Random(index // n)
    if name == "classic":  # two random opening moves per pair make the pairs differ
        for _ in range(2):
            state.apply_action(rng.choice(state.legal_actions()))
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(chance_sample(state, rng))
            continue
        variants.install(seats[player][1])
        state.apply_action(agents[player].choose(state))
    for agent in agents:
        agent.close()
    returns = state.returns()
    rival = max(r for p, r in enumerate(returns) if p != mine)
    score = 1.0 if returns[mine] > rival else 0.5 if returns[mine] == rival else 0.0
    return score, returns[mine]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="classic")
    parser.add_argument("--params", nargs="*", default=[], help="game parameters key=value")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--agent", default="alphabeta:seconds=0.5,width=8,root_width=24")
    parser.add_argument("--agent-b", default=None, help="B's agent (default: the same)")
    parser.add_argument("--a", default="", help="variant A: key=value,... (classic: or baseline)")
    parser.add_argument("--b", default="", help="variant B (default: the current constants)")
    args = parser.parse_args()
    params = {}
    for item in args.params:
        key, _, value = item.partition("=")
        params[key] = int(value) if value.isdigit() else value
    tasks = [(i, args.game, params, args.agent, args.agent_b or args.agent, args.a, args.b)
             for i in range(args.games)]
    scores, returns = [], []
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for score, value in pool.imap_unordered(play, tasks):
            scores.append(score)
            returns.append(value)
            if len(scores) % 10 == 0 and len(scores) < len(tasks):  # long runs show progress
                print(f"{len(scores)} games: A scored {sum(scores) / len(scores):.1%}, "
                      f"mean return {statistics.mean(returns):+.3f}", flush=True)
    wins = sum(1 for s in scores if s == 1)
    draws = sum(1 for s in scores if s == 0.5)
    n = len(scores)
    low, high = wilson_interval(wins + draws / 2, n)
    line = (f"A={args.a or 'default'} vs B={args.b or 'default'}: "
            f"{wins}-{draws}-{n - wins - draws} score {(wins + draws / 2) / n:.1%} "
            f"[{low:.1%}, {high:.1%}]")
    if n > 1:
        error = statistics.stdev(returns) / math.sqrt(n)
        line += f", mean return {statistics.mean(returns):+.3f} ± {error:.3f}"
    print(line)


if __name__ == "__main__":
    main()
