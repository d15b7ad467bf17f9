"""How much a level varies its play: one opening played again and again against a
deterministic opponent, only the level's seed changing from game to game.

A deterministic level replays the same game against a deterministic opponent, so a weakness
found once wins every time; with ``variety`` (``alphabeta``'s near-best moves picked by the
seed) the games part. Usage::

    python research/variety.py --level "hard:iterations=4000,seconds=1000" \\
        --opponent medium --games 6 --jobs 2
    python research/variety.py --level "hard:variety=0,iterations=4000,seconds=1000" ...

Prints a table: per game the level's seed, its colour, the first ply (counted from the
start) where the game leaves game 0 of that colour, and the result; then how many distinct
games each colour played and the level's score. Node budgets keep the search itself
deterministic, so only the seed can part the games. Strength is measured apart, with the
arena (``cathedral arena classic "hard" "hard:variety=0" --opening 2``).
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

import cathedral
from cathedral.ai import load_agent


def play(args: tuple[str, str, str, int, int]) -> tuple[int, int, list[int], list[float]]:
    """Plays one game; returns the seed, the level's colour, the history and the scores."""
    game_name, level, opponent, seed, colour = args
    game = cathedral.load(game_name)
    agents = [None, None]
    agents[colour] = load_agent(level, game, seed=seed)
    agents[1 - colour] = load_agent(opponent, game, seed=0)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].choose(state))
    for agent in agents:
        agent.close()
    return seed, colour, list(state.history()), list(state.scores())


def parted(history: list[int], first: list[int]) -> int | None:
    """Returns the first ply (1-based) where ``history`` leaves ``first``, or None."""
    for ply, (a, b) in enumerate(zip(history, first), start=1):
        if a != b:
            return ply
    return None if len(history) == len(first) else min(len(history), len(first)) + 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="classic")
    parser.add_argument("--level", default="hard:iterations=4000,seconds=1000")
    parser.add_argument("--opponent", default="medium")
    parser.add_argument("--games", type=int, default=6, help="games per colour")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    tasks = [(args.game, args.level, args.opponent, seed, colour)
             for colour in (0, 1) for seed in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play, tasks))
    print(f"{args.level} against {args.opponent}, {args.games} seeds a colour")
    print("| colour | seed | leaves game 0 at ply | level's margin |")
    print("|---|---|---|---|")
    points = 0.0
    for colour in (0, 1):
        games = [r for r in results if r[1] == colour]
        first = games[0][2]
        for seed, _, history, scores in games:
            margin = scores[1 - colour] - scores[colour]
            points += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            ply = parted(history, first)
            print(f"| {'Light' if colour == 0 else 'Dark'} | {seed} | "
                  f"{'-' if ply is None else ply} | {margin:+g} |")
    for colour in (0, 1):
        distinct = len({tuple(r[2]) for r in results if r[1] == colour})
        print(f"{'Light' if colour == 0 else 'Dark'}: {distinct} distinct games of {args.games}")
    print(f"level's score: {points / len(results):.0%} of {len(results)} games")


if __name__ == "__main__":
    main()
