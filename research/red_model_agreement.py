"""Whether a change to red's rollout model changes the decisions: two reference searches, the
model ``max`` uses and one changed by rollout arguments, on positions ``max`` met.

``red_decision_noise.py`` shows that ``max``'s rollouts have converged on what their model
prefers, so a stronger ``max`` needs another model. This script tells, before any games are
played, whether a candidate model is another one in practice: on the ``max`` seat's decisions
of a report's games (as ``red_decision_noise.positions`` draws them), each model rolls out
every legal decision ``passes`` times (the mover's turn planned as ``max`` plans it, paired
dice) and picks its best. It prints, per position, whether the two picks differ and what each
model thinks the other's pick costs (in ``evaluate()`` units for the mover), then how often
they differed. A change that picks the same decision nearly everywhere cannot make ``max``
much stronger, however it plays out. Usage::

    python research/red_model_agreement.py benchmarks/reports/ladder_red4_100.json \\
        --positions 10 --passes 60 --change '{"horizon": 2}'
    python research/red_model_agreement.py benchmarks/reports/ladder_red4_100.json \\
        --positions 12 --passes 40 --change '{}' --evaluation pairs

``--evaluation pairs`` gives the changed model the pair model of ``fit_red_evaluation.py`` in
place of ``evaluate`` at the rollouts' ends.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from cathedral.ai import RolloutAgent
from cathedral.ai.budget import Budget
from cathedral.games.red import heuristic
from fit_red_evaluation import pair_values
from red_decision_noise import positions
from report_games import report_with_records


def reference(state, passes: int, seed: int, change: dict,
              evaluation=None) -> tuple[dict, float]:
    """Returns each legal decision's mean value for the mover under the model with
    ``change`` (and ``evaluation`` in place of red's ``evaluate``, if given), and the CPU
    seconds it took."""
    began = time.process_time()
    model = {"candidates": None, "plans": 4, "paired_dice": True, **change}
    agent = RolloutAgent(seed=seed, budget=Budget(iterations=passes * len(state.legal_actions())),
                         **model)
    usual = heuristic.evaluate
    heuristic.evaluate = evaluation or usual  # the state's evaluate() looks it up each call
    try:
        values = dict(agent.analyse(state).scores)
    finally:
        heuristic.evaluate = usual
    return values, time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", help="an arena or ladder report (JSON) with max's games")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--passes", type=int, default=60,
                        help="each model's rollouts of each legal decision")
    parser.add_argument("--change", required=True,
                        help='the changed model\'s RolloutAgent arguments, as JSON: {"rivals": 2}')
    parser.add_argument("--evaluation", choices=["pairs"], default=None,
                        help="the changed model's evaluation at the rollouts' ends "
                             "(default: red's evaluate)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    evaluation = pair_values if args.evaluation == "pairs" else None
    try:
        change = json.loads(args.change)
        RolloutAgent(budget=Budget(iterations=1), **change)
    except (ValueError, TypeError) as error:
        parser.error(f"--change wants RolloutAgent arguments as a JSON object, "
                     f'like {{"rivals": 2}}: {error}')
    report = report_with_records(args.report)
    chosen = positions(report, args.positions, args.seed)
    differ = 0
    costs: tuple[list[float], list[float]] = ([], [])
    seconds = [0.0, 0.0]
    for k, state in enumerate(chosen):
        old, t_old = reference(state, args.passes, args.seed, {})
        new, t_new = reference(state, args.passes, args.seed, change, evaluation)
        seconds[0] += t_old
        seconds[1] += t_new
        a, b = max(old, key=old.get), max(new, key=new.get)
        differ += a != b
        costs[0].append(old[a] - old[b])
        costs[1].append(new[b] - new[a])
        print(f"position {k + 1}/{len(chosen)} ({len(old)} legal): "
              f"{'differ' if a != b else 'same'}: {state.action_to_string(a)} / "
              f"{state.action_to_string(b)}; the changed pick costs {costs[0][-1]:.4f} by "
              f"max's model, max's pick {costs[1][-1]:.4f} by the changed one", flush=True)
    print(f"\n{len(chosen)} positions of {args.report}, {args.passes} passes a decision, "
          f"change {change}{' with the pair model' * bool(evaluation)}: the picks differ in "
          f"{differ}; mean cost of the changed pick by "
          f"max's model {statistics.mean(costs[0]):.4f}, of max's by the changed model "
          f"{statistics.mean(costs[1]):.4f}; CPU {seconds[0]:.0f} s and {seconds[1]:.0f} s")


if __name__ == "__main__":
    main()
