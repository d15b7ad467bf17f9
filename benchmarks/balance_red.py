"""Balance check of The Red Cathedral's component set by self-play of the greedy player.

Usage: ``python benchmarks/balance_red.py [--games N] [--components PATH] [--workers K]``

Plays N seeded games per table size (2, 3, 4 players; chance sampled with the seed) with the
greedy player in every seat and reports what "no seat, die colour or card type dominates"
needs: win rate by seat (95% interval), the share of market visits and the mean take by die
colour, completions and recognition per material by card level, how often each influence
card's actions are used when it is in play, and the mean final rank of players by the kind
of workshop tile they put face up. The reconstruction's values were changed until nothing
stood out; the last run is recorded at the bottom of this docstring.

How the set was balanced (issue 4): first runs showed the greedy player farming the
recognition market space (2 per die; late on the track a recognition point is a prestige
point) and hoarding rubles (3 per die, +3 workshop tiles), with games running to the safety
cap. The recognition tile went to 1 per die, the rubles tile to 2, recognition and ruble
workshop tiles to 1-2; repeatable influence actions were restricted so that rubles can never
become points in a loop. With those values greedy games end by a sixth completion. A second
run showed players with a face-up recognition tile ranking well above fair and the merchants'
M3 (1 material -> 2 rubles, repeatable) used 25-50 times a game: the 3+ recognition tile went
to 1 and M3 to "2 same material -> 3 rubles".

Last run (``--games 60``, reconstructed set, greedy in every seat):

- 2 players: 53/60 games ended by a sixth completion (the rest at the cap), seats 48/52%
  (± 13), white die 38% of market visits, own dice 23-24%, the neutral yellow and green 7-8%
  (only white and one's own die can be pushed further: a rule, not a data effect); foundations
  / middles / domes completed 78 / 69 / 71%, 1.0 / 1.4 / 2.0 recognition per material.
- 3 players: 59/60 ended, seats 25 / 38 / 37% (± 12, fair 33), visits white 33%, red, blue,
  yellow 19% each, green (nobody's) 10%; completed 77 / 67 / 66%; mean rank by face-up tile
  kind 1.90-2.06 (fair 2.00).
- 4 players: 60/60 ended, seats 22-28% (± 11, fair 25), white 35%, colours 15-17%;
  completed 70 / 62 / 62%; mean rank by tile kind 2.25-2.61 (fair 2.50; recognition n=16).

Rules version 2 (issue 13: the published two-player thirds, the sale of prestige at one moment
of the turn, influence groups placed at random, the 80-space track with 40 prestige spaces),
``--games 40 --workers 1``, 2026-12-01; no card value changed:

- 2 players: 36/40 ended by a sixth completion, 54 rounds on average, winning score 70; seats
  47.5 / 52.5% (± 15.5); white die 37% of market visits, own dice 23% each, yellow and green
  8-9%; foundations / middles / domes completed 77 / 70 / 64%, 1.02 / 1.46 / 1.99 recognition
  per material; mean rank by face-up tile kind 1.46-1.61 (fair 1.50; recognition n=2).
- 3 players: 39/40 ended, 36 rounds, winning score 48.5; seats 47.5 / 20.0 / 32.5% (± 12-16,
  fair 33: no seat outside its interval, the first seat's lead is the largest figure to watch);
  white 37%, red, blue, yellow 17-19%, green 9%; completed 71 / 59 / 59%; rank by tile kind
  1.98-2.12 (fair 2.00).
- 4 players: 40/40 ended, 34 rounds, winning score 49; seats 17.5-30% (± 12-14, fair 25);
  white 34%, colours 16-17%; completed 68 / 61 / 59%; rank by tile kind 2.51-2.60 (fair 2.50).

The denser top of the track raised the winning scores (recognition past space 60 is a
prestige point each). Dice and levels are where version 1 had them (domes completed 64-59%
against 71-62%); the 3-player seats moved (version 1: 25 / 38 / 37%), within the intervals of
40 games.
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
