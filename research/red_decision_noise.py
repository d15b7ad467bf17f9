"""How much of a red rollout player's decision is noise: each setting's choice on positions
its level meets, scored by a long reference search, as regret.

The positions are the ``max`` seat's decisions (three legal ones or more) in the games of a
ladder or arena report. The reference rolls out every legal decision equally (``passes``
each, the mover's turn planned as max plans it, paired dice), and a setting's regret is the
reference's value of its best decision less that of the setting's choice, in ``evaluate()``
units for the mover (an expected score is (value + 1) / 2). A setting that chooses well on
few rollouts has little to gain from more; one whose regret falls as its rollouts grow is
limited by their noise. Usage::

    python research/red_decision_noise.py benchmarks/reports/ladder_red4_100.json \\
        --positions 12 --passes 200
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import cathedral
from cathedral.ai import RolloutAgent, load_agent
from cathedral.ai.budget import Budget
from report_games import report_with_records

SETTINGS = {
    "hard": "hard",
    "max 256": "max:iterations=256,seconds=600,workers=1",
    "max 256 paired": "max:iterations=256,seconds=600,workers=1,paired_dice=true",
    "max 512": "max:iterations=512,seconds=600,workers=1",
    "max 512 paired": "max:iterations=512,seconds=600,workers=1,paired_dice=true",
}


def positions(report: dict, count: int, seed: int) -> list:
    """Returns ``count`` positions, drawn with ``seed``, where a ``max`` seat is to decide
    among three or more actions in the report's games."""
    found = []
    for game in report["games"]:
        seats = [i for i, name in enumerate(game["seats"]) if name.startswith("max")]
        if not seats:
            continue
        record = game["record"]
        text = record if isinstance(record, str) else json.dumps(record)
        for state in cathedral.Record.from_json(text).replay():
            if state.current_player() in seats and len(state.legal_actions()) >= 3:
                found.append(state.clone())
    return random.Random(seed).sample(found, min(count, len(found)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", help="an arena or ladder report (JSON) with max's games")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--passes", type=int, default=200,
                        help="the reference's rollouts of each legal decision")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    report = report_with_records(args.report)
    chosen = positions(report, args.positions, args.seed)
    regrets: dict[str, list[float]] = {name: [] for name in SETTINGS}
    agree = dict.fromkeys(SETTINGS, 0)
    seconds = dict.fromkeys(SETTINGS, 0.0)
    for k, state in enumerate(chosen):
        legal = state.legal_actions()
        reference = RolloutAgent(seed=args.seed, candidates=None, plans=4, paired_dice=True,
                                 budget=Budget(iterations=args.passes * len(legal)))
        value = dict(reference.analyse(state).scores)
        best = max(value.values())
        line = []
        for name, spec in SETTINGS.items():
            agent = load_agent(spec, state.game, seed=args.seed + k)
            began = time.process_time()
            action = agent.analyse(state).action
            seconds[name] += time.process_time() - began
            regrets[name].append(best - value[action])
            agree[name] += value[action] == best
            line.append(f"{name} {best - value[action]:.4f}")
        print(f"position {k + 1}/{len(chosen)} ({len(legal)} legal): " + ", ".join(line),
              flush=True)
    print(f"\n{len(chosen)} positions of {args.report}, reference {args.passes} passes a "
          f"decision\n")
    print("| setting | mean regret | its standard error | chose the reference's best | "
          "CPU s a decision |")
    print("|---|---|---|---|---|")
    for name, values in regrets.items():
        error = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
        print(f"| {name} | {statistics.mean(values):.4f} | {error:.4f} | "
              f"{agree[name]}/{len(values)} | {seconds[name] / len(values):.2f} |")


if __name__ == "__main__":
    main()
