"""Makes the shipped puzzles: ``python -m cathedral.learn.generate --game classic --count 500
--seed 1`` writes ``cathedral/learn/data/puzzles/classic.json``.

Reproducible: every source game, every search and every sample is seeded, and every budget is
counted in positions or rollouts, never in seconds, so the same seed and count give the same
file on any machine and with any number of ``--workers`` (the source games are dealt out to
the workers and their puzzles taken back in order). Only ``--minutes``, a safety stop, can
make a run end earlier, with fewer puzzles.

Source games are played between the project's own levels (their time limits replaced by
fixed node or rollout budgets of about the same size), from a few random first moves so that
no two games are alike; their positions are scanned and a position becomes a puzzle when its
proof (``cathedral.learn.puzzles``) shows one set of answers clearly best:

- ``classic``: positions from the end of a game back while the exact solver, sharing its
  table along the game, decides every legal move within ``CLASSIC_NODES``; kept when the
  best margin beats every other move's by 2 squares or more, or changes the result (a win
  against a draw, a draw against a loss), and the answers are at most two thirds of the
  legal moves. The proof is then re-run from scratch for its node count.
- ``allmer``: every position where a turn starts, searched ``ALLMER_TURNS`` turns deep; kept
  when the best gains 2 stones more than any other move (or wins, or alone survives), at
  most ``ALLMER_PER_GAME`` a game, spread over it. Two players in two source games of
  three, four in the third.
- ``red``: positions of 3 to 8 legal decisions, a few per game, screened on
  ``RED_PRESCREEN`` samples of one round and ``RED_SCREEN`` of ``RED_ROUNDS`` (other dice
  than the proof's), then proved on ``RED_SAMPLES``: kept when the best decision leads
  every other by ``RED_MARGIN`` expected score or more and the 99% interval of each lead is
  above 0, unless the answer is only not to spend (``done`` against selling prestige or
  rerolling). Two, three and four players in turn.

A puzzle's difficulty comes from which levels find its answer (``puzzles.difficulty``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import cathedral
from cathedral.ai.agents import AGENTS
from cathedral.ai.base import Agent, chance_sample
from cathedral.ai.budget import Budget
from cathedral.ai.endgame import EndgameSolver
from cathedral.ai.levels import level_spec
from cathedral.ai.mcts import play
from cathedral.ai.rollout import greedy_action
from cathedral.core.contract import State
from cathedral.learn import puzzles as P

CLASSIC_NODES = 25_000  # the solver's budget for one position (its table shared along a game)
CLASSIC_VERIFY_NODES = 150_000  # the most the proof from scratch may need
CLASSIC_MAX_ACTIONS = 32
CLASSIC_GAP = 2  # squares the best must lead the next move by (unless the result changes)
ALLMER_TURNS = 2  # the mover's turn and the next player's
ALLMER_NODES = 200_000
ALLMER_GAP = 2  # stones
ALLMER_PER_GAME = 12
RED_PRESCREEN = 4  # samples of one round: a cheap first look
RED_SCREEN = 16
RED_SAMPLES = 64
RED_ROUNDS = 2  # the rest of the turn, then until the mover's turn has come round twice
RED_MARGIN = 0.015  # expected score (about 0.6 prestige points)
RED_PER_GAME = 4
RED_MIN_ACTIONS, RED_MAX_ACTIONS = 3, 8
ANSWER_SHARE = 2 / 3  # answers may be at most this share of the legal moves

# The levels with fixed budgets in place of their time limits (``None``: the level's own
# budget without its seconds). Alpha-beta nodes: what the level searches in its time on the
# reference machine (classic's hard: 5 s at some 25,000 positions a second; Allmer's
# alpha-beta some 4,500 a second).
NODE_BUDGETS: dict[tuple[str, int], dict[str, Budget | None]] = {
    ("classic", 2): {"medium": Budget(depth=2), "hard": Budget(iterations=125_000)},
    ("allmer", 2): {"medium": Budget(iterations=450), "hard": Budget(iterations=1_100)},
    ("allmer", 4): {"medium": None, "hard": Budget(iterations=200)},
}
SEEDS = {"easy": 8, "medium": 2, "hard": 1}  # seeds each level is tried with


def level_agent(level: str, game: cathedral.Game, seed: int) -> Agent:
    """Returns ``level`` for ``game`` with a fixed budget in place of its time limit."""
    name, kwargs = level_spec(level, game.name, game.num_players)
    budget = kwargs.get("budget")
    if budget is not None:
        fixed = NODE_BUDGETS.get((game.name, game.num_players), {}).get(level)
        if fixed is None:
            fixed = Budget(iterations=budget.iterations, depth=budget.depth)
        kwargs["budget"] = fixed
    if "workers" in kwargs:
        kwargs["workers"] = 1
    return AGENTS[name](seed=seed, **kwargs)


def found_by(state: State, answers: set[int], seed: int) -> dict[str, float]:
    """Returns the share of tries in which each level (random, easy, medium, hard) plays an
    answer in ``state``."""
    found = {"random": len(answers) / len(state.legal_actions())}
    for level in ("easy", "medium", "hard"):
        tries = [level_agent(level, state.game, seed + i).choose(state.clone())
                 for i in range(SEEDS[level])]
        found[level] = sum(a in answers for a in tries) / len(tries)
    return found


def notation_line(state: State, actions: list[int]) -> list[str]:
    state = state.clone()
    out = []
    for action in actions:
        if state.is_terminal() or state.is_chance_node() or action not in state.legal_actions():
            break
        out.append(state.action_to_string(action))
        state.apply_action(action)
    return out


def history_text(state: State) -> list[str]:
    """The moves of ``state`` in notation from the initial state (chance outcomes too)."""
    replay = state.game.new_initial_state()
    out = []
    for action in state.history():
        out.append(replay.action_to_string(action))
        replay.apply_action(action)
    return out


def base_puzzle(state: State, proof: P.Proof, goal: str, theme: str, line: list[str],
                details: dict, found: dict[str, float]) -> dict:
    names = {a: state.action_to_string(a) for a in proof.values}
    return {
        "id": "", "game": state.game.name, "params": own_params(state.game),
        "start": history_text(state), "player": state.current_player(), "goal": goal,
        "theme": theme,
        "difficulty": P.difficulty(found, P.setting(state.game.name, state.game.params)),
        "answers": sorted(names[a] for a in proof.answers), "line": line,
        "proof": {**details, "found": found, "moves": {names[a]: v for a, v in sorted(
            proof.values.items(), key=lambda item: (-item[1], names[item[0]]))}},
    }


def own_params(game: cathedral.Game) -> dict:
    """The game's parameters that differ from the defaults (what ``cathedral.load`` needs)."""
    defaults = cathedral.load(game.name).params
    return {k: v for k, v in game.params.items() if defaults.get(k) != v}


def _decision(proof: P.Proof, legal: int) -> bool:
    return 1 <= len(proof.answers) <= ANSWER_SHARE * legal


# ----- classic ---------------------------------------------------------------------------

CLASSIC_PAIRS = (("easy", "medium"), ("medium", "medium"), ("medium", "easy"), ("easy", "easy"))


def play_game(game: cathedral.Game, levels: list[str], rng: random.Random, seed: int,
              opening: int, max_plies: int = 2000) -> list[State]:
    """Plays a seeded game between ``levels`` (one per seat), the first ``opening`` decisions
    at random; returns every state where a player was to move, in order."""
    agents = [level_agent(level, game, seed + i) for i, level in enumerate(levels)]
    state = game.new_initial_state()
    seen: list[State] = []
    decisions = 0
    for _ in range(max_plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(chance_sample(state, rng))
            continue
        seen.append(state.clone())
        if decisions < opening:
            action = rng.choice(state.legal_actions())
        else:
            action = agents[state.current_player()].choose(state)
        decisions += 1
        state.apply_action(action)
    return seen


def classic_task(seed: int, k: int) -> tuple[list[dict], int]:
    game = cathedral.load("classic")
    rng = random.Random(f"classic source {seed} {k}")
    levels = list(CLASSIC_PAIRS[k % len(CLASSIC_PAIRS)])
    line = play_game(game, levels, rng, seed * 1000 + k, rng.randint(1, 6))
    solver = EndgameSolver()
    out, scanned = [], 0
    for state in reversed(line):
        legal = len(state.legal_actions())
        if legal > CLASSIC_MAX_ACTIONS:
            break
        if legal < 3:
            continue
        scanned += 1
        try:
            proof = P.prove_classic(state, CLASSIC_NODES, solver)
        except P.OutOfBudget:
            break
        second = proof.second()
        if second is not None and _decision(proof, legal) and (
                proof.best - second >= CLASSIC_GAP or _sign(second) < _sign(proof.best)):
            item = classic_puzzle(state, seed * 1000 + k)
            if item is not None:
                out.append(item)
        if proof.cost > CLASSIC_NODES // 4:
            break  # the position before is likely out of reach
    return out, scanned


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def classic_puzzle(state: State, seed: int) -> dict | None:
    """The puzzle of a classic position the scan kept, or None where the proof from scratch
    (what ``verify`` re-runs) needs more than ``CLASSIC_VERIFY_NODES``."""
    try:
        proof = P.prove_classic(state, CLASSIC_VERIFY_NODES)
    except P.OutOfBudget:
        return None
    names = state.game.player_names()
    me = state.current_player()
    best, second = proof.best, proof.second()
    if best > 0:
        goal = f"{names[me]} to play and win by {best:g}"
    elif best == 0:
        goal = f"{names[me]} to play and draw"
    else:
        goal = f"{names[me]} to play and lose by no more than {-best:g}"
    said = state.describe_action(proof.answers[0])
    if _sign(second) < _sign(best):
        theme = "endgame: win" if best > 0 else "endgame: save the draw"
    elif "captures" in said:
        theme = "endgame: capture"
    elif "claims" in said:
        theme = "endgame: claim territory"
    elif "skipped" in said:
        theme = "endgame: shut out"
    else:
        theme = "endgame: best margin" if best >= 0 else "endgame: lose least"
    found = found_by(state, set(proof.answers), seed)
    details = {"method": "exact solver", "value": best, "second": second,
               "nodes": proof.cost}
    return base_puzzle(state, proof, goal, theme, notation_line(state, proof.line), details,
                       found)


# ----- allmer ------------------------------------------------------------------------------

ALLMER_PAIRS = (("medium", "hard"), ("hard", "medium"))


def allmer_task(seed: int, k: int) -> tuple[list[dict], int]:
    players = 4 if k % 3 == 2 else 2
    game = cathedral.load("allmer", players=players)
    rng = random.Random(f"allmer source {seed} {k}")
    pair = ALLMER_PAIRS[k % 2]
    levels = [pair[i % 2] for i in range(players)]
    line = play_game(game, levels, rng, seed * 1000 + k, rng.randint(2, 8), max_plies=600)
    candidates, scanned = [], 0
    for state in line:
        if not state.turn_starts() or len(state.legal_actions()) < 3:
            continue
        scanned += 1
        try:
            proof = P.prove_allmer(state, ALLMER_TURNS, ALLMER_NODES)
        except P.OutOfBudget:
            continue
        second = proof.second()
        if second is None or not _decision(proof, len(state.legal_actions())):
            continue
        best = proof.best
        if best - second >= ALLMER_GAP and (best > 0 or second < 0):
            candidates.append((state, proof))
    if len(candidates) > ALLMER_PER_GAME:  # spread over the game
        step = len(candidates) / ALLMER_PER_GAME
        candidates = [candidates[int(i * step)] for i in range(ALLMER_PER_GAME)]
    return [allmer_puzzle(s, p, seed * 1000 + k) for s, p in candidates], scanned


def allmer_puzzle(state: State, proof: P.Proof, seed: int) -> dict:
    names = state.game.player_names()
    me = state.current_player()
    best, second = proof.best, proof.second()
    after = state.clone()
    converting = 0  # steps of the mover's first turn that convert
    for action in proof.line:
        if after.is_terminal() or after.current_player() != me:
            break
        before = after.scores()[me]
        play(after, action)
        converting += after.scores()[me] > before
    reply = None if after.is_terminal() else names[after.current_player()]
    counting = f", counting {reply}'s best reply" if reply else ""
    if best >= P.WIN:
        goal, theme = f"{names[me]} to play and win", "eliminate a colour"
    elif second <= -P.WIN:
        goal, theme = f"{names[me]} to play and survive{counting}", "avoid elimination"
    elif best > 0:
        goal = f"{names[me]} to play and gain {best:g} stone{'s' if best != 1 else ''}{counting}"
        theme = "conversion chain" if converting >= 2 else "conversion"
    else:
        lost = -best
        goal = (f"{names[me]} to play and lose no stones{counting}" if lost == 0 else
                f"{names[me]} to play and lose only {lost:g} stone{'s' if lost != 1 else ''}"
                f"{counting}")
        theme = "defence"
    found = found_by(state, set(proof.answers), seed)
    details = {"method": "alpha-beta", "depth": ALLMER_TURNS, "unit": "turns",
               "value": best, "second": second, "margin": best - second,
               "nodes": proof.cost}
    return base_puzzle(state, proof, goal, theme, notation_line(state, proof.line), details,
                       found)


# ----- red -----------------------------------------------------------------------------------

KIND_THEMES = {"done": "decision: end it here", "die": "decision: which die",
               "tile": "decision: workshop tile", "take": "decision: take materials"}


def red_task(seed: int, k: int) -> tuple[list[dict], int]:
    players = (2, 3, 4)[k % 3]
    game = cathedral.load("red", players=players)
    rng = random.Random(f"red source {seed} {k}")
    levels = [("medium", "easy", "medium", "easy")[(i + k) % 4] for i in range(players)]
    line = play_game(game, levels, rng, seed * 1000 + k, rng.randint(0, 4))
    eligible = [s for s in line if RED_MIN_ACTIONS <= len(s.legal_actions()) <= RED_MAX_ACTIONS]
    rng.shuffle(eligible)
    out, scanned = [], 0
    for state in eligible:
        if len(out) >= RED_PER_GAME or scanned >= 15 * RED_PER_GAME:
            break
        scanned += 1
        puzzle_seed = seed * 100_000 + k * 100 + scanned
        # Screens on other dice than the proof's, so that the proof is not chosen by its luck.
        if not _clear(P.prove_red(state, RED_PRESCREEN, -puzzle_seed, rounds=1)) \
                or not _clear(P.prove_red(state, RED_SCREEN, -puzzle_seed, rounds=RED_ROUNDS)):
            continue
        proof = P.prove_red(state, RED_SAMPLES, puzzle_seed, rounds=RED_ROUNDS)
        if not _clear(proof) or not _decision(proof, len(state.legal_actions())):
            continue
        if _only_spending(state, proof):
            continue
        out.append(red_puzzle(state, proof, puzzle_seed))
    out.sort(key=lambda d: len(d["start"]))
    return out, scanned


def _clear(proof: P.Proof) -> bool:
    """Whether the best decision leads every other by the margin, its interval above 0."""
    low, margin = proof.extra["low"], proof.extra["margin"]
    return low is not None and low > 0 and margin >= RED_MARGIN


def _only_spending(state: State, proof: P.Proof) -> bool:
    """Whether the answer is to end the turn (``done``) where the others only sell prestige
    or reroll: a choice not to spend, too plain for a puzzle."""
    texts = {state.action_to_string(a) for a in state.legal_actions()}
    answers = {state.action_to_string(a) for a in proof.answers}
    return answers == {"done"} and all(t.split()[0] in ("rubles", "reroll")
                                       for t in texts - answers)


def red_puzzle(state: State, proof: P.Proof, seed: int) -> dict:
    names = state.game.player_names()
    me = state.current_player()
    answer = proof.answers[0]
    text = state.action_to_string(answer)
    kind = text.split()[0]
    theme = KIND_THEMES.get(kind, f"decision: {kind}")
    goal = f"{names[me]} to play: find the clearly best decision"
    after = state.clone()
    after.apply_action(answer)
    line = [answer]
    ties = random.Random(f"red line {seed}")
    while after.current_player() == me and len(line) < 12:
        action = greedy_action(after, ties)
        line.append(action)
        after.apply_action(action)
    found = found_by(state, set(proof.answers), seed)
    details = {"method": "rollouts", "samples": RED_SAMPLES, "seed": seed,
               "rounds": RED_ROUNDS,
               "horizon": f"the rest of the turn and {RED_ROUNDS} rounds, every player greedy",
               "scale": "expected score", "z": P.RED_Z, "confidence": 0.99,
               "value": proof.best, "margin": proof.extra["margin"],
               "interval": proof.extra["interval"], "rollouts": proof.cost}
    return base_puzzle(state, proof, goal, theme, notation_line(state, line), details, found)


# ----- the run ---------------------------------------------------------------------------------

TASKS = {"classic": classic_task, "allmer": allmer_task, "red": red_task}


def _run(args: tuple[str, int, int]) -> tuple[int, list[dict], int, float]:
    game, seed, k = args
    began = time.perf_counter()
    found, scanned = TASKS[game](seed, k)
    return k, found, scanned, time.perf_counter() - began


def _results(game: str, seed: int, workers: int) -> Iterator[tuple[int, list[dict], int, float]]:
    tasks = ((game, seed, k) for k in range(10**6))
    if workers <= 1:
        yield from map(_run, tasks)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(_run, tasks, chunksize=1)


def generate(game: str, count: int, seed: int, *, workers: int = 1,
             minutes: float | None = None, progress: bool = True) -> dict:
    """Returns the puzzle file of ``game`` (its ``puzzles`` and the run's figures): ``count``
    puzzles, or fewer if ``minutes`` ran out."""
    began = time.perf_counter()
    kept: list[dict] = []
    seen: set[str] = set()
    games = scanned = 0
    for _k, found, looked, _seconds in _results(game, seed, workers):
        games += 1
        scanned += looked
        for item in found:
            state = P.replay(item["game"], item["params"], item["start"])
            key = P.position_hash(state)
            if key in seen:
                continue
            seen.add(key)
            kept.append(item)
            if len(kept) >= count:
                break
        elapsed = time.perf_counter() - began
        if progress:
            print(f"\r{game}: {games} games, {scanned} positions, {len(kept)} puzzles, "
                  f"{elapsed:.0f} s", end="", file=sys.stderr, flush=True)
        if len(kept) >= count or (minutes is not None and elapsed > 60 * minutes):
            break
    if progress:
        print(file=sys.stderr)
    for i, item in enumerate(kept, 1):
        item["id"] = f"{game}-{i:04d}"
    return {"game": game, "format": 1, "seed": seed, "count": len(kept), "games": games,
            "scanned": scanned, "seconds": round(time.perf_counter() - began, 1),
            "puzzles": kept}


KEYS = ("id", "game", "params", "start", "player", "goal", "theme", "difficulty", "answers",
        "line", "proof")


def dump(data: dict) -> str:
    """The file's text: the figures of the run, then one puzzle a line."""
    head = {k: data[k] for k in ("game", "format", "seed", "count", "games", "scanned")}
    lines = [json.dumps({k: item[k] for k in KEYS}, separators=(",", ":"))
             for item in data["puzzles"]]
    body = ",\n".join(lines)
    return json.dumps(head, separators=(",", ":"))[:-1] + ',"puzzles":[\n' + body + "\n]}\n"


def default_path(game: str) -> Path:
    return Path(P.__file__).resolve().parent / "data" / "puzzles" / f"{game}.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m cathedral.learn.generate",
        description="Generate proved puzzles from games between the computer levels.")
    parser.add_argument("--game", required=True, choices=sorted(TASKS))
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after this long with what is found (a safety stop)")
    parser.add_argument("--out", type=Path, default=None,
                        help="where to write (default: the package's puzzle file)")
    args = parser.parse_args(argv)
    data = generate(args.game, args.count, args.seed, workers=args.workers,
                    minutes=args.minutes)
    path = args.out or default_path(args.game)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump(data), encoding="utf-8")
    themes = Counter(item["theme"] for item in data["puzzles"])
    print(f"{args.game}: {data['count']} puzzles from {data['games']} games "
          f"({data['scanned']} positions scanned) in {data['seconds']} s -> {path}")
    for theme, n in themes.most_common():
        print(f"  {theme}: {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
