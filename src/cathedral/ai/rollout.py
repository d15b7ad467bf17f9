"""Policy rollout over the greedy player: one step of policy improvement (Bertsekas' rollout
algorithm). Made for games where a turn is many small decisions and chance comes every turn
(the Red Cathedral), and for more than two players, where a deep search would have to assume
everybody plays against it (Allmer's game with 4).

For the player to move, the ``candidates`` actions the game's heuristic likes best are each
played on a copy, then every player (the mover included) continues greedily, chance sampled,
until ``horizon`` full rounds have passed: the mover has moved again ``horizon`` times after
everyone else had a turn (or the game ended). The end position is scored by ``evaluate()``
for the mover, and a candidate's value is the mean over its rollouts. Rollouts of different
candidates share their random numbers (the *n*-th rollout of every candidate draws from the
same seed), so candidates are compared on the same dice rather than on luck. The greedy
players' tie-breaks draw from that stream too, so the dice fall alike only until two
rollouts have made different numbers of decisions. With ``paired_dice`` chance draws from a
stream of its own (the tie-breaks from another), so the *n*-th roll of every candidate's
rollout is the same, which narrows the variance of two candidates' difference further
(``benchmarks/RESULTS.md``, History: red's 4-player max).

Rollouts go round-robin over the candidates in whole passes until the budget is spent (at
least one pass, whose candidates left get a single greedy rollout each once a time limit
has passed; no further pass that the time left cannot finish), so the answer improves with
time; with an ``iterations`` budget alone it is deterministic under a seed. A decision with
one legal action costs nothing.

With ``halving`` the candidates are rolled out by sequential halving (Karnin, Koren and
Somekh, 2013: best-arm identification on a fixed budget) rather than equally: the budget is
cut into as many equal rounds as it takes to halve the candidates down to one, every round
rolls out the candidates left in whole passes, then keeps the better half by their means over
all their passes so far. So many candidates can be tried and most of the rollouts still go
to the few that matter.

With ``plans`` above 1 the mover's own continuation of the turn is not taken greedily but
chosen: after a candidate, the ``plans`` continuations of its turn that the heuristic likes
best (best first by their summed regret against its favourite at each decision, the greedy
one first) are each rolled out on the same dice, and the candidate counts, pass by pass, the
continuation with the best mean over the passes before (so the choice never sees the dice it
is scored on, and the maximum of noisy means does not flatter candidates with many of them).

With ``rivals`` above 1 the rivals do not play their turns in a rollout decision by decision
either: at the start of each, the ``rivals`` continuations of the turn that the heuristic likes
best (found as for ``plans``) are played out to the turn's end, and the rival takes the one its
own ``evaluate()`` values best there: a rival who plans its turn, as the mover does.

A front end sees the ranking so far (``progress``) after every halving round but the last,
or after the 1st, 2nd, 4th, ... pass when another follows (on one core).

With ``workers`` above 1 (None: every core) the passes are shared out: each process
(``cathedral.ai.parallel``) rolls out every candidate on dice of its own for the time left, and
the means are taken over all their passes together.

Why it beats the greedy player it is built on: the greedy player scores a decision on its
own, while a rollout sees how the rest of the turn fits it and what the rivals' replies and
the dice do to it (a die moved where the next player wants it, a card claimed under a rival's
banner).
"""

from __future__ import annotations

import heapq
import math
import random

from cathedral.ai.base import Agent, chance_sample, pick_best, static_values
from cathedral.ai.budget import Budget, Clock, Deadline, SearchInfo
from cathedral.ai.mcts import play
from cathedral.ai.parallel import HelpersFailed, HelpersOwner, Report, Shared
from cathedral.core.contract import CHANCE, TERMINAL, Action, State


def greedy_action(state: State, rng: random.Random) -> Action:
    """Returns the action ``action_heuristics`` scores best (ties at random; any legal action
    when the game has no heuristic)."""
    try:
        return pick_best(state.action_heuristics(), rng)
    except NotImplementedError:
        return rng.choice(state.legal_actions())


class RolloutAgent(HelpersOwner, Agent):
    """Greedy rollouts of the best candidate actions (see the module docstring).

    Args:
        budget: seconds and/or rollouts (``iterations``) per decision.
        candidates: actions tried, best by heuristic first (None: all).
        horizon: rounds each rollout plays past the decision.
        halving: share the rollouts out by sequential halving (see the module docstring).
        plans: continuations of the mover's own turn compared per candidate (1: greedy).
        rivals: continuations of each rival's turn in a rollout, the rival taking the one its
            own evaluation likes best at the turn's end (1: greedy).
        paired_dice: chance in a rollout draws from a stream of its own (see the module
            docstring).
        max_plies: the most decisions one rollout plays (a safety cap).
        workers: processes sharing the rollouts (None: one per core; 1: this one alone).
        clock: the time source (tests pass a fake one).
    """

    name = "rollout"

    def __init__(
        self,
        seed: int | None = None,
        *,
        budget: Budget | None = None,
        candidates: int | None = 5,
        horizon: int = 1,
        halving: bool = False,
        plans: int = 1,
        rivals: int = 1,
        paired_dice: bool = False,
        max_plies: int = 200,
        workers: int | None = 1,
        clock: Clock | None = None,
    ) -> None:
        super().__init__(seed)
        if workers is not None and workers < 1:
            raise ValueError(f"workers must be at least 1 (or None for every core), got {workers}")
        self.workers = workers
        self._kwargs = {"budget": budget, "candidates": candidates, "horizon": horizon,
                        "halving": halving, "plans": plans, "rivals": rivals,
                        "paired_dice": paired_dice, "max_plies": max_plies}
        self._seed = seed
        self.budget = budget or Budget(iterations=20)
        if not self.budget.is_bounded():
            raise ValueError("rollout needs a bounded budget (seconds or iterations)")
        if candidates is not None and candidates < 1:
            raise ValueError(f"candidates must be at least 1, got {candidates}")
        if horizon < 1:
            raise ValueError(f"horizon must be at least 1, got {horizon}")
        if plans < 1:
            raise ValueError(f"plans must be at least 1, got {plans}")
        if rivals < 1:
            raise ValueError(f"rivals must be at least 1, got {rivals}")
        self.candidates = candidates
        self.horizon = horizon
        self.halving = halving
        self.plans = plans
        self.rivals = rivals
        self.paired_dice = paired_dice
        self.max_plies = max_plies
        self.clock = clock
        self.params = {
            "budget": self.budget, "candidates": candidates, "horizon": horizon,
            "max_plies": max_plies,
        }
        if halving:
            self.params["halving"] = True
        if plans > 1:
            self.params["plans"] = plans
        if rivals > 1:
            self.params["rivals"] = rivals
        if paired_dice:
            self.params["paired_dice"] = True
        if workers != 1:
            self.params["workers"] = workers

    def analyse(self, state: State) -> SearchInfo:
        if state.is_terminal() or state.is_chance_node():
            raise ValueError("analyse needs a player to move")
        me = state.current_player()
        deadline = Deadline(self.budget, self.clock)
        legal = state.legal_actions()
        if len(legal) == 1:
            child = state.clone()
            play(child, legal[0])
            return SearchInfo(action=legal[0], values=static_values(child), pv=[legal[0]])
        try:
            scored = state.action_heuristics()
        except NotImplementedError:
            scored = [(a, 0.0) for a in legal]
        self.rng.shuffle(scored)  # ties in random order
        scored.sort(key=lambda item: -item[1])
        tried = [a for a, _ in scored[: self.candidates]]
        report = None
        if self.progress is not None:
            def report(ranking: list[Action], means: dict, rollouts: int) -> None:
                self.progress(SearchInfo(
                    action=ranking[0], values=means[ranking[0]], pv=[ranking[0]],
                    iterations=rollouts, seconds=deadline.elapsed(), depth=self.horizon,
                    scores=[(a, means[a][me]) for a in ranking],
                ))
        if self.halving and len(tried) > 2:
            ranking, means, rollouts = self._sequential_halving(state, tried, me, deadline,
                                                                report)
        else:
            totals, runs = self._shared_passes(state, tried, me, deadline, report)
            means = {a: [v / runs for v in totals[a]] for a in tried}
            # The heuristic's order breaks ties (sort is stable).
            ranking = sorted(tried, key=lambda a: -means[a][me])
            rollouts = runs * len(tried)
        best = ranking[0]
        return SearchInfo(
            action=best, values=means[best], pv=[best], iterations=rollouts,
            seconds=deadline.elapsed(), depth=self.horizon,
            scores=[(a, means[a][me]) for a in ranking],
        )

    def _sequential_halving(self, state: State, tried: list[Action], me: int,
                            deadline: Deadline, report=None) -> tuple[list[Action], dict, int]:
        """Rolls out ``tried`` by sequential halving (see the module docstring); returns them
        ranked (the last round's best first, then each earlier round's dropped ones by mean),
        their mean values per player, and the rollouts made. ``report``, if given, gets the
        ranking so far after every round but the last."""
        budget = self.budget
        rounds = math.ceil(math.log2(len(tried)))
        totals = {a: [0.0] * state.game.num_players for a in tried}
        runs = dict.fromkeys(tried, 0)
        left, dropped, spent = list(tried), [], 0
        for done in range(rounds):
            share = rounds - done  # the rounds still to play share what is left equally
            part = Budget(
                seconds=None if budget.seconds is None
                else max(1e-3, (budget.seconds - deadline.elapsed()) / share),
                iterations=None if budget.iterations is None
                else max(len(left), (budget.iterations - spent) // share),
            )
            part_totals, part_runs = self._shared_passes(
                state, left, me, Deadline(part, self.clock))
            for action in left:
                runs[action] += part_runs
                totals[action] = [t + v for t, v in zip(totals[action], part_totals[action])]
            spent += part_runs * len(left)
            # By mean over every pass so far (the heuristic's order breaks ties).
            left = sorted(left, key=lambda a: -totals[a][me] / runs[a])
            if deadline.time_expired():
                break
            keep = math.ceil(len(left) / 2) if done < rounds - 1 else len(left)
            dropped = left[keep:] + dropped  # the latest dropped rank first
            left = left[:keep]
            if report is not None and done < rounds - 1:
                report(left + dropped, {a: [v / runs[a] for v in totals[a]]
                                        for a in left + dropped}, spent)
        ranking = left + dropped
        means = {a: [v / runs[a] for v in totals[a]] for a in ranking}
        return ranking, means, spent

    def _shared_passes(self, state: State, tried: list[Action], me: int,
                       deadline: Deadline, report=None) -> tuple[dict, int]:
        """Runs the passes here or, with workers, in every worker and sums them up;
        ``report`` as for ``_passes`` (here only)."""
        helpers = None
        if self.workers != 1 and len(tried) > 1:
            helpers = self.helpers(type(self), self._kwargs, self._seed)
        if helpers is None:
            return self._passes(state, tried, me, deadline, self.rng, report=report)
        budget = deadline.budget
        left = Budget(
            seconds=None if budget.seconds is None
            else max(1e-3, budget.seconds - deadline.elapsed()),
            iterations=None if budget.iterations is None
            else max(len(tried), budget.iterations // len(helpers)),
        )
        calls = [(state, tried, me, left, self.rng.getrandbits(64)) for _ in range(len(helpers))]
        try:
            answers = [item for _, kind, item in helpers.call("rollout_share", calls)
                       if kind == "answer"]
        except HelpersFailed:
            self.helpers_failed()
            return self._passes(state, tried, me, deadline, self.rng)
        totals = {a: [0.0] * state.game.num_players for a in tried}
        runs = 0
        for share_totals, share_runs in answers:
            runs += share_runs
            for action in tried:
                for i, v in enumerate(share_totals[action]):
                    totals[action][i] += v
        return totals, runs

    def rollout_share(self, state: State, tried: list[Action], me: int, budget: Budget,
                      seed: int, *, shared: Shared, report: Report) -> tuple:
        """A worker's part of a shared decision: its passes over ``tried`` on its own dice."""
        return self._passes(state, tried, me, Deadline(budget, self.clock), random.Random(seed),
                            shared)

    def _passes(self, state: State, tried: list[Action], me: int, deadline: Deadline,
                rng: random.Random, shared: Shared | None = None,
                report=None) -> tuple[dict, int]:
        """Rolls out every candidate in whole passes until the budget is spent; returns
        their total values per player and the passes made.
        ``report``, if given, gets the ranking so far after the 1st, 2nd, 4th, 8th ... pass
        when another pass follows."""
        totals = {a: [0.0] * state.game.num_players for a in tried}
        runs = 0
        seconds = deadline.budget.seconds
        # With plans: each candidate's continuations (found on its first pass), and each
        # one's total for the mover.
        leaves: dict | None = {} if self.plans > 1 else None
        leaf_totals: dict = {}
        short = False
        while True:
            began = deadline.elapsed()
            seed = rng.getrandbits(64)
            for done, action in enumerate(tried):
                if runs == 0 and done and not short and deadline.time_expired():
                    # Out of time in the first pass: the candidates left get one greedy
                    # rollout each on the same dice (what a plan's first pass counts too),
                    # so that a good decision the heuristic ranks low (a sixth completion
                    # that wins the game) is still seen; then no further pass.
                    short = True
                if leaves is None or short:
                    values = self._rollout(state, action, me, random.Random(seed))
                else:
                    if action not in leaves:
                        leaves[action] = self._leaves(state, action, me)
                        leaf_totals[action] = [0.0] * len(leaves[action])
                    values = self._plan_pass(leaves[action], leaf_totals[action], me, seed)
                total = totals[action]
                for i, v in enumerate(values):
                    total[i] += v
            runs += 1
            deadline.iterations = runs * len(tried)
            if short or deadline.expired() or (shared is not None and shared.stopped()):
                break
            # Passes are whole (every candidate on the same dice): stop rather than start one
            # that the time left cannot finish.
            now = deadline.elapsed()
            if seconds is not None and now + (now - began) > seconds:
                break
            if report is not None and runs & (runs - 1) == 0:
                means = {a: [v / runs for v in totals[a]] for a in tried}
                report(sorted(tried, key=lambda a: -means[a][me]), means, runs * len(tried))
        return totals, runs

    def _rollout(self, state: State, action: Action, me: int, rng: random.Random) -> list[float]:
        """Plays ``action`` on a copy, then everybody greedily for ``horizon`` rounds."""
        state = state.clone()
        play(state, action)
        return self._play_out(state, me, rng)

    def _play_out(self, state: State, me: int, rng: random.Random) -> list[float]:
        """Plays ``state`` on greedily for ``horizon`` rounds (each rival's turn planned with
        ``rivals``); returns the values at the end."""
        rounds, others_moved = 0, False
        last = me
        ties = random.Random(rng.getrandbits(64)) if self.paired_dice else rng
        for _ in range(self.max_plies):
            player = state.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                play(state, chance_sample(state, rng))
                continue
            if self.rivals > 1 and player != last and player != me:
                state = self._rival_turn(state, player)
                last = player
                others_moved = True
                continue
            last = player
            if player == me:
                if others_moved:
                    rounds += 1
                    others_moved = False
                    if rounds >= self.horizon:
                        break
            else:
                others_moved = True
            play(state, greedy_action(state, ties))
        return static_values(state)

    def _rival_turn(self, state: State, player: int) -> State:
        """Returns the end of ``player``'s turn, from its start, that it values best of its
        ``rivals`` best continuations (by ``static_values`` at the end; the greedy one on
        ties)."""
        ends = self._turn_ends(state, player, self.rivals)
        return max(ends, key=lambda end: static_values(end)[player])

    def _plan_pass(self, leaves: list[State], leaf_totals: list[float], me: int,
                   seed: int) -> list[float]:
        """Rolls out every continuation on one pass's dice; returns the values of the one with
        the best mean over the passes before (the greedy one on the first pass)."""
        chosen = max(range(len(leaves)), key=lambda i: (leaf_totals[i], -i))
        values = []
        for i, leaf in enumerate(leaves):
            out = self._play_out(leaf.clone(), me, random.Random(seed))
            leaf_totals[i] += out[me]
            if i == chosen:
                values = out
        return values

    def _leaves(self, state: State, action: Action, me: int) -> list[State]:
        """Returns up to ``plans`` ends of the mover's turn after ``action`` (see
        ``_turn_ends``)."""
        start = state.clone()
        play(start, action)
        return self._turn_ends(start, me, self.plans)

    def _turn_ends(self, start: State, player: int, count: int) -> list[State]:
        """Returns up to ``count`` ends of ``player``'s turn from ``start`` (where chance, a rival
        or the end comes next), best first by summed regret against the heuristic's favourite
        at each of ``player``'s decisions; the greedy continuation is first."""
        frontier = [(0.0, 0, start)]
        leaves: list[State] = []
        pushed = 1
        for _ in range(count * self.max_plies):  # a bound: each turn ends
            if not frontier or len(leaves) >= count:
                break
            regret, _, node = heapq.heappop(frontier)
            if node.current_player() != player:
                leaves.append(node)
                continue
            try:
                scored = node.action_heuristics()
            except NotImplementedError:
                scored = [(a, 0.0) for a in node.legal_actions()]
            scored.sort(key=lambda item: -item[1])  # stable: ties in the game's order
            best = scored[0][1]
            for option, score in scored[:count]:
                child = node.clone()
                play(child, option)
                heapq.heappush(frontier, (regret + best - score, pushed, child))
                pushed += 1
        return leaves or [start]


__all__ = ["RolloutAgent", "greedy_action"]
