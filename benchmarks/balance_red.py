"""Balance check of The Red Cathedral's component set by self-play of the greedy player.

Usage: ``python benchmarks/balance_red.py [--games N] [--components PATH] [--workers K]``
(or ``python benchmarks/run.py balance ...``)

Plays N seeded games per table size (2, 3, 4 players; chance sampled with the seed) with the
greedy player in every seat and reports what "no seat, die colour or card type dominates"
needs: win rate by seat (95% interval), the share of market visits and the mean take by die
colour, completions and recognition per material by card level, how often each influence
card's actions are used when it is in play, and the mean final rank of players by the kind
of workshop tile they put face up. The reconstruction's values were changed until nothing
stood out; ``benchmarks/RESULTS.md`` has the last run and how the values were reached.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import cathedral
from cathedral.ai.base import GreedyAgent
from cathedral.games.red import actions as A
from cathedral.games.red.components import DICE, LEVELS, RESOURCES
from cathedral.testing import random_action


def tile_kind(c, tile: int) -> str:
    if c.workshop_copy[tile] >= 0:
        return "copy die"
    gains = [RESOURCES[i] for i, n in enumerate(c.workshop_gain[tile]) if n]
    if gains[0] in ("rubles", "recognition"):
        return gains[0]
    return "material"


def play(job: tuple[int, int, str]) -> dict:
    players, seed, components = job
    game = cathedral.load("red", players=players, components=components)
    c = game.components
    rng = random.Random(seed)
    agents = [GreedyAgent(seed=seed * 10 + p) for p in range(players)]
    state = game.new_initial_state()
    stats: dict = {
        "die": Counter(), "take": Counter(), "influence": Counter(), "in_play": Counter(),
        "tiles": defaultdict(set),
    }
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_action(state, rng))
            continue
        p = state.current_player()
        action = agents[p].choose(state)
        if A.DIE <= action < A.TAKE:
            stats["die"][DICE[(action - A.DIE) // 8]] += 1
        elif A.TAKE <= action < A.INFLUENCE:
            stats["take"][DICE[state.mdie]] += action - A.TAKE + 1
        elif A.INFLUENCE <= action < A.ACTIVATE:
            stats["influence"][c.influence_ids[state.infl[state.mspace >> 1]]] += 1
        elif A.TILE <= action < A.DELIVER and (action - A.TILE) % 2:
            stats["tiles"][p].add(tile_kind(c, state.slot_tile[state.claim_slot]))
        state.apply_action(action)
    for card in state.infl:
        stats["in_play"][c.influence_ids[card]] += 1
    built = Counter()
    rec = Counter()
    mats = Counter()
    for s in state.slots:
        card = state.slot_card[s]
        level = LEVELS[c.card_level[card]]
        built[(level, "offered")] += 1
        if state.built[s]:
            built[(level, "built")] += 1
            rec[level] += c.card_recognition[card]
            mats[level] += sum(c.card_cost[card])
    returns = state.returns()
    ranks = [sorted(returns, reverse=True).index(r) + 1 for r in returns]
    return {
        "players": players, "returns": returns, "ranks": ranks, "ended": state.trigger >= 0,
        "rounds": state.turns / players, "scores": state.final, "built": built, "rec": rec,
        "mats": mats, "die": stats["die"], "take": stats["take"],
        "influence": stats["influence"], "in_play": stats["in_play"],
        "tiles": {p: sorted(k) for p, k in stats["tiles"].items()},
    }


def interval(wins: float, n: int) -> str:
    rate = wins / n
    half = 1.96 * math.sqrt(max(rate * (1 - rate), 1e-9) / n)
    return f"{100 * rate:5.1f}% ± {100 * half:4.1f}"


def report(results: list[dict], players: int) -> None:
    rs = [r for r in results if r["players"] == players]
    n = len(rs)
    print(f"\n== {players} players, {n} greedy self-play games ==")
    print(f"ended by a sixth completion: {sum(r['ended'] for r in rs)}/{n}; mean rounds "
          f"{sum(r['rounds'] for r in rs) / n:.1f}; mean winning score "
          f"{sum(max(r['scores']) for r in rs) / n:.1f}")
    names = ["Red", "Blue", "Yellow", "Green"][:players]
    wins = [0.0] * players
    for r in rs:
        best = max(r["returns"])
        tied = [p for p in range(players) if r["returns"][p] == best]
        for p in tied:
            wins[p] += 1 / len(tied)
    print("win rate by seat (fair: " + f"{100 / players:.0f}%): "
          + "; ".join(f"{names[p]} {interval(wins[p], n)}" for p in range(players)))
    die, take = Counter(), Counter()
    for r in rs:
        die.update(r["die"])
        take.update(r["take"])
    total = sum(die.values())
    print("market visits by die: " + "; ".join(
        f"{d} {100 * die[d] / total:.0f}% (mean take {take[d] / max(die[d], 1):.1f})"
        for d in DICE))
    built, rec, mats = Counter(), Counter(), Counter()
    for r in rs:
        built.update(r["built"])
        rec.update(r["rec"])
        mats.update(r["mats"])
    print("cards by level: " + "; ".join(
        f"{lv} built {100 * built[(lv, 'built')] / max(built[(lv, 'offered')], 1):.0f}% "
        f"({rec[lv] / max(mats[lv], 1):.2f} recognition per material)" for lv in LEVELS))
    used, in_play = Counter(), Counter()
    for r in rs:
        used.update(r["influence"])
        in_play.update(r["in_play"])
    print("influence uses per game in play: " + ", ".join(
        f"{k} {used[k] / in_play[k]:.1f}" for k in sorted(in_play)))
    by_kind: dict[str, list[int]] = defaultdict(list)
    for r in rs:
        for p in range(players):
            for kind in r["tiles"].get(p, []):
                by_kind[kind].append(r["ranks"][p])
    print(f"mean rank of players with a face-up tile of a kind (fair {(players + 1) / 2:.2f}): "
          + "; ".join(f"{k} {sum(v) / len(v):.2f} (n={len(v)})" for k, v in sorted(
              by_kind.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per table size")
    parser.add_argument("--components", default="reconstructed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--players", default="2,3,4")
    args = parser.parse_args()
    tables = [int(x) for x in args.players.split(",")]
    jobs = [(p, seed, args.components) for p in tables for seed in range(args.games)]
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(play, jobs, chunksize=4))
    for p in tables:
        report(results, p)


if __name__ == "__main__":
    main()
