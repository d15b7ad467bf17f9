"""Steps per second through each research interface, beside the raw engine, for every game.

    python benchmarks/bench_envs.py                    # every setting, 3 s per figure
    python benchmarks/bench_envs.py --seconds 5 allmer
    python benchmarks/bench_envs.py --profile red4     # cProfile of the PettingZoo loop
    python benchmarks/bench_envs.py --seconds 1 --repeat 5 --clock cpu   # on a busy machine

Every loop plays random legal moves, choosing the same way (a uniform pick among the legal
actions; from a mask, among ``mask.view(bool).nonzero()``, as numpy finds the nonzero entries
of an int8 array about twenty times slower than those of a bool array), and counts player
decisions (chance outcomes are not steps). The columns:

- ``engine``: ``legal_actions()`` and ``apply_action()`` through the contract, chance sampled;
- ``engine + obs + mask``: the same, plus ``observation_tensor()`` and ``legal_actions_mask()``
  of the player to move at each decision (what an RL environment must hand out);
- ``PettingZoo``: ``cathedral.envs.pettingzoo.env()`` with its default wrappers, the standard
  ``agent_iter()`` / ``last()`` / ``step()`` loop, the action picked from the observed mask
  (the dead agents' ``step(None)`` at the end are not counted);
- ``PettingZoo raw``: the same loop on ``raw_env()``, no wrappers;
- ``Gymnasium``: ``gymnasium.make(...)`` (its checker wrappers on) against ``random``
  opponents, counting the decisions of every seat (the opponents' moves happen inside
  ``step``);
- ``OpenSpiel``: the registered game, ``legal_actions()``, ``observation_tensor()`` and
  ``apply_action()`` on the pyspiel state, chance from ``chance_outcomes()``.

Copy the output, with the machine line, into benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import pstats
import random
import time
from collections.abc import Callable

import numpy as np

import cathedral
from cathedral.bench import machine
from cathedral.envs import adapter

SETTINGS = {
    "classic": ("classic", {}),
    "allmer2": ("allmer", {"players": 2}),
    "allmer4": ("allmer", {"players": 4}),
    "red2": ("red", {"players": 2}),
    "red4": ("red", {"players": 4}),
}
TARGET = 10_000


def timed(loop: Callable[[float], int], seconds: float, clock: Callable[[], float]) -> float:
    """Runs ``loop(deadline)`` (which returns the decisions it made) and returns decisions per
    second of ``clock`` (wall-clock, or this process's CPU time on a busy machine)."""
    start, cpu = time.perf_counter(), clock()
    steps = loop(start + seconds)
    return steps / (clock() - cpu)


def legal(mask: np.ndarray) -> list[int]:
    """Returns the legal actions of an int8 mask (through a bool view: see the docstring)."""
    return mask.view(np.bool_).nonzero()[0].tolist()


def engine_loop(name: str, params: dict, *, observe: bool) -> Callable[[float], int]:
    game = cathedral.load(name, **params)
    rng = random.Random(0)

    def loop(deadline: float) -> int:
        steps = 0
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while True:
                player = state.current_player()
                if player == cathedral.CHANCE:
                    state.apply_action(adapter.chance_outcome(state, rng))
                    continue
                if player == cathedral.TERMINAL:
                    break
                if observe:
                    state.observation_tensor(player)
                    state.legal_actions_mask()
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return loop


def pettingzoo_loop(name: str, params: dict, *, wrapped: bool) -> Callable[[float], int]:
    from cathedral.envs.pettingzoo import env, raw_env

    return aec_loop((env if wrapped else raw_env)(name, **params))


def aec_loop(environment) -> Callable[[float], int]:
    """The standard AEC loop over any PettingZoo environment with an action mask."""
    rng = random.Random(0)

    def loop(deadline: float) -> int:
        steps = 0
        seed = 0
        while time.perf_counter() < deadline:
            environment.reset(seed=seed)
            seed += 1
            for _agent in environment.agent_iter():
                obs, _, termination, truncation, _ = environment.last()
                if termination or truncation:
                    environment.step(None)
                    continue
                environment.step(rng.choice(legal(obs["action_mask"])))
                steps += 1
        return steps

    return loop


def gymnasium_loop(name: str, params: dict) -> Callable[[float], int]:
    import gymnasium

    from cathedral.envs.gymnasium import ENV_IDS

    environment = gymnasium.make(ENV_IDS[name], **params)
    rng = random.Random(0)

    def loop(deadline: float) -> int:
        steps = 0
        seed = 0
        while time.perf_counter() < deadline:
            obs, _ = environment.reset(seed=seed)
            seed += 1
            done = False
            while not done:
                action = rng.choice(legal(obs["action_mask"]))
                obs, _, terminated, truncated, _ = environment.step(action)
                done = terminated or truncated
            state = environment.unwrapped.game_state
            steps += sum(1 for _ in _decisions(state))
        return steps

    return loop


def _decisions(state: cathedral.State):
    """Yields the player decisions in a state's history (replaying it to tell chance apart)."""
    replay = state.game.new_initial_state()
    for action in state.history():
        if replay.current_player() >= 0:
            yield action
        replay._apply_action(action)


def openspiel_loop(name: str, params: dict) -> Callable[[float], int]:
    import pyspiel

    from cathedral.envs.openspiel import SHORT_NAMES

    game = pyspiel.load_game(SHORT_NAMES[name], params)
    rng = random.Random(0)

    def loop(deadline: float) -> int:
        steps = 0
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, weights = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(actions, weights)[0])
                    continue
                state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return loop


COLUMNS = {
    "engine": lambda n, p: engine_loop(n, p, observe=False),
    "engine + obs + mask": lambda n, p: engine_loop(n, p, observe=True),
    "PettingZoo": lambda n, p: pettingzoo_loop(n, p, wrapped=True),
    "PettingZoo raw": lambda n, p: pettingzoo_loop(n, p, wrapped=False),
    "Gymnasium": gymnasium_loop,
    "OpenSpiel": openspiel_loop,
}


def profile(setting: str, seconds: float) -> None:
    name, params = SETTINGS[setting]
    loop = pettingzoo_loop(name, params, wrapped=True)
    profiler = cProfile.Profile()
    profiler.enable()
    timed(loop, seconds, time.perf_counter)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("settings", nargs="*", default=list(SETTINGS),
                        help=f"settings to measure ({', '.join(SETTINGS)}; a game name: all "
                        "of its settings)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    parser.add_argument("--profile", metavar="SETTING", help="profile the PettingZoo loop")
    parser.add_argument("--repeat", type=int, default=1,
                        help="measure each figure this many times and keep the best (the run "
                        "least disturbed by other work on the machine)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="per second of wall-clock time, or of this process's CPU time "
                        "(steadier when other work shares the machine)")
    args = parser.parse_args()
    if args.profile:
        profile(args.profile, args.seconds)
        return
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    chosen = [s for s in SETTINGS if any(s == a or s.startswith(a) for a in args.settings)]
    print(f"{datetime.date.today()} - {machine()}, --seconds {args.seconds:g} "
          f"--repeat {args.repeat} --clock {args.clock}\n")
    print(f"decisions per second ({args.clock} clock, best of {args.repeat}):\n")
    print("| setting | " + " | ".join(COLUMNS) + " | PettingZoo / engine |")
    print("|---" * (len(COLUMNS) + 2) + "|")
    for setting in chosen:
        name, params = SETTINGS[setting]
        figures = {column: 0.0 for column in COLUMNS}
        for _ in range(args.repeat):  # interleaved, so a busy moment hits every column alike
            for column, make in COLUMNS.items():
                figures[column] = max(figures[column],
                                      timed(make(name, params), args.seconds, clock))
        cells = " | ".join(f"{figures[c]:,.0f}" for c in COLUMNS)
        ratio = figures["PettingZoo"] / figures["engine"]
        mark = " (below target)" if figures["PettingZoo"] < TARGET else ""
        print(f"| `{setting}` | {cells} | {ratio:.0%}{mark} |", flush=True)
    print(f"\nTarget: at least {TARGET:,} PettingZoo steps per second for every game.")
    try:
        from pettingzoo.classic import tictactoe_v3
    except ImportError:
        print("(pip install pygame-ce to see PettingZoo's own tictactoe_v3 for scale)")
        return
    reference = max(timed(aec_loop(tictactoe_v3.env()), args.seconds, clock)
                    for _ in range(args.repeat))
    print(f"For scale, PettingZoo's own tictactoe_v3 through the same loop: {reference:,.0f}.")


if __name__ == "__main__":
    main()
