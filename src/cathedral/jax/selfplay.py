"""Classic self-play games for the learned value: played by a search, saved as JSON lines.

Each game opens with a few random placements (so that games differ) and is then played by
one alpha-beta spec for both colours. Each line of the output holds one game: its actions,
the search's value for the mover after every searched move, the best root actions with
their searched values (``siblings``: the positions a search compares, which the evaluation
must rank as the deeper search does), and the final scores. The
trainer (``cathedral.jax.train_classic``) replays the actions through the reference engine
to rebuild each position; nothing here needs JAX.

    python -m cathedral.jax.selfplay --games 400 --out benchmarks/cache/classic_selfplay.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from cathedral.ai import load_agent
from cathedral.core.registry import load

SEARCH = "alphabeta:depth=2,width=8,root_width=24"
"""Depth-limited (so the games do not depend on the machine's load): medium's search."""
SIBLINGS = 12
"""The best root actions kept per searched move, with their searched values: what the
trainer's sibling targets are made of."""


def play(seed: int, spec: str = SEARCH, opening: tuple[int, int] = (1, 6)) -> dict:
    """Plays one self-play game from ``seed`` and returns its line (see the module)."""
    game = load("classic")
    rng = random.Random(seed)
    agents = [load_agent(spec, game, seed=seed * 2 + colour) for colour in (0, 1)]
    state = game.new_initial_state()
    values: list[float | None] = []
    siblings: list[list[list[float]]] = []
    for _ in range(rng.randint(*opening)):
        state.apply_action(rng.choice(state.legal_actions()))
        values.append(None)
        siblings.append([])
    while not state.is_terminal():
        player = state.current_player()
        info = agents[player].analyse(state)
        values.append(round(float(info.values[player]), 4))
        siblings.append([[int(a), round(float(v), 4)] for a, v in info.scores[:SIBLINGS]])
        state.apply_action(info.action)
    return {"seed": seed, "spec": spec, "actions": list(state.history()),
            "values": values, "siblings": siblings,
            "scores": [int(s) for s in state.scores()]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--spec", default=SEARCH, help="the agent spec that plays both colours")
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, appended to")
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    with args.out.open("a", encoding="utf-8") as out:
        for seed in range(args.first_seed, args.first_seed + args.games):
            out.write(json.dumps(play(seed, args.spec)) + "\n")
            out.flush()
            done = seed - args.first_seed + 1
            print(f"\r{done}/{args.games} games, {time.perf_counter() - began:.0f} s",
                  end="", file=sys.stderr)
    print(file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
