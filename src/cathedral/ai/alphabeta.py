"""Alpha-beta search over the contract: iterative deepening, a transposition table, move
ordering by the game's heuristic, selective width, repeat-turn extensions and quiescence.

Values are kept from the point of view of the player to move at the root: nodes where that
player moves maximise, every other node minimises. With two zero-sum players this is negamax
written without the sign flips, which is what makes it right when a player moves twice in a
row (Allmer's chains, classic's skipped turns): the side is read from ``current_player()``,
never assumed to alternate. With more players it is the paranoid search (everybody else
against the root player). Chance nodes take the expectation of their outcomes (sampled when
there are many).

- Move ordering: the transposition table's best action first, then ``action_heuristics``
  (best first). ``width`` keeps only that many actions at inner nodes (forward pruning: the
  branching factor of Cathedral is in the hundreds), ``root_width`` at the root.
- With ``threats`` set, a game that lists ``threat_actions(player, limit)`` (set-ups: moves
  whose worth shows only one move later, such as classic's wall that the next building
  closes) has each player's best ``threats`` of them found once at the root; in the first
  ``SETUP_PLIES`` plies they take the places of the last actions the width keeps wherever
  that player moves and they are legal, so a node searches as many actions as without. A
  one-ply heuristic cannot rank a set-up, so forward pruning alone never searches one, for
  either side: the search then sees neither its own plans nor the opponent's, however deep
  it goes. Finding them takes time from the budget, not nodes.
- A player moving again does not use up depth (up to ``extensions`` per line) while the
  repeated turn is narrow (at most ``EXTEND_WIDTH`` actions), so a chain is searched to its
  end. A wide repeated turn (classic's rival shut out of the city, the mover placing on
  alone) uses depth like any other: extending it searched the rest of the game exhaustively,
  width to the power of ``extensions``, and ``alphabeta:depth=2`` never answered.
- At the horizon, a game that lists ``quiescence_actions()`` (captures, conversions: the
  actions that change the material balance) has them searched until the position is quiet,
  standing pat on ``evaluate()``.
- The table is keyed by ``state.position_key()`` when a game provides that hook (a cheap
  hash such as Zobrist's); otherwise by the canonical JSON of the position without its
  history.
- With ``contempt`` set, a position the root player has already faced in this game counts as
  a draw wherever the search meets it again (chess engines' "two-fold repetition"): a rule
  like "three times the same position draws" is otherwise seen only when it is too late, and
  two cautious players shuffle into it.
- An iteration that never cut a line short (neither by depth nor by width) has solved the
  position: the search stops and says its values are proven.
- With ``variety`` set, the root's window is kept that much below the best value found so
  far (until ``VARIETY_MOVES`` moves are known to lie within it), so those moves get exact
  values, and the move played is one of them picked by the agent's seed and the position
  (the same seed in the same position always picks the same): a deterministic search
  otherwise replays the same game against a deterministic opponent, and one weakness found
  wins every time. Classic's values come in steps of half a square, so a margin below a
  step picks among moves the search values alike. Not in a root split over workers, which
  plays its best.
- With ``endgame`` set (two players, no chance), once a position has at most
  ``endgame_actions`` legal actions the exact solver (``cathedral.ai.endgame``) gets that share
  of the time first: if it finishes, the move is the best by final score margin, not merely a
  winning one, and the margin is reported; if it proves a win but runs out before the
  exact margin, the move is a proven one and the margin a bound. Otherwise (unsolved, or
  lost by a margin not yet known) the search goes on in the time left.
- With ``workers`` above 1 (None: every core) the root is split: its actions are dealt
  round-robin, best first, to that many processes (``cathedral.ai.parallel``), each deepening
  on its share with its own table and cutting against the best value any of them has proven
  at the same depth. The answer is the best action at the deepest depth all of them
  completed (a forced win found by any of them at once). Each depth is reported as soon as
  all have completed it. Where the endgame solver may be tried, one worker runs it for the
  whole time while the others search (a race, rather than the solver first and the search
  after): the solver's answer is taken where it settles the game, the search's otherwise.
"""

from __future__ import annotations

import contextlib
import math
import random
from operator import itemgetter
from typing import NamedTuple

from cathedral.ai.base import Agent, position_key, static_values
from cathedral.ai.budget import Budget, Clock, Deadline, SearchInfo
from cathedral.ai.endgame import EndgameSolver, Solution
from cathedral.ai.mcts import play
from cathedral.ai.parallel import Helpers, HelpersFailed, HelpersOwner, Report, Shared
from cathedral.core.contract import CHANCE, TERMINAL, Action, State

EXACT, LOWER, UPPER = 0, 1, 2
EVAL_SCALE = 0.95  # heuristic values stay below a proven result
WIN = 1.0
# A repeated turn with at most this many actions is extended: Allmer's chains offer 2 to 5
# (random games), classic's shut-out runs up to the whole city's placements.
EXTEND_WIDTH = 8
# Set-ups found at the root are searched in the first plies only (the root's move, the reply
# and the move after): deeper, the city has changed under them, and they would only crowd
# out the heuristic's own choices.
SETUP_PLIES = 3
# With variety, the root's window stays below the best until this many moves are known to
# lie within the margin, then closes on the best as without: an exact value costs a full
# search of the move, and an opening where twenty moves tie would otherwise cost a ply.
VARIETY_MOVES = 4


class _OutOfBudget(Exception):
    """Raised inside the search when the budget runs out mid-iteration."""


class _Stoppable(Deadline):
    """A worker's deadline that also ends when the agent sets the team's stop flag."""

    def __init__(self, budget: Budget, shared: Shared, clock: Clock | None) -> None:
        super().__init__(budget, clock)
        self._shared = shared

    def expired(self) -> bool:
        return super().expired() or self._shared.stopped()


class ShareDepth(NamedTuple):
    """One completed depth of a worker's share of a split root."""

    depth: int
    action: Action  # the share's best
    value: float
    searched: list[tuple[Action, float, bool]]  # each action, its value, and whether exact
    cut: bool  # some line was cut short (by depth or width)
    exact: bool  # the value is exact, not a bound under a value another worker proved
    pv: list[Action]
    settled: bool  # deepening the share further cannot change its value


class AlphaBetaAgent(HelpersOwner, Agent):
    """Iterative-deepening alpha-beta (see the module docstring).

    Args:
        budget: seconds, nodes (``iterations``) and/or maximum depth per move.
        width: actions searched at inner nodes, best by heuristic first (None: all).
        root_width: actions searched at the root (None: all).
        extensions: the most repeat-turn extensions on one line.
        quiescence: the most quiescence plies past the horizon (0: none).
        chance_samples: outcomes searched at a chance node with more outcomes than this.
        table_size: entries kept in the transposition table before it is cleared.
        contempt: what a draw costs the root player (> 0 makes it play on for a win where a
            repetition or a quiet-move rule would end the game level).
        endgame: the share of the budget the exact endgame solver may spend first (0: never).
        endgame_actions: the solver is tried only where at most this many actions are legal.
        threats: each player's set-ups (``threat_actions``) searched in the first plies, in
            place of the last actions the width keeps (0: none).
        variety: moves valued within this of the best may be played instead, by the seed.
        workers: processes to split the root among (None: one per core; 1: this one alone).
        clock: the time source (tests pass a fake one).
    """

    name = "alphabeta"

    def __init__(
        self,
        seed: int | None = None,
        *,
        budget: Budget | None = None,
        width: int | None = 12,
        root_width: int | None = 40,
        extensions: int = 6,
        quiescence: int = 4,
        chance_samples: int = 8,
        table_size: int = 500_000,
        contempt: float = 0.0,
        endgame: float = 0.0,
        endgame_actions: int = 40,
        threats: int = 0,
        variety: float = 0.0,
        workers: int | None = 1,
        clock: Clock | None = None,
    ) -> None:
        super().__init__(seed)
        self._kwargs = {
            "budget": budget, "width": width, "root_width": root_width,
            "extensions": extensions, "quiescence": quiescence,
            "chance_samples": chance_samples, "table_size": table_size, "contempt": contempt,
            "endgame": endgame, "endgame_actions": endgame_actions, "threats": threats,
        }
        self._seed = seed
        if workers is not None and workers < 1:
            raise ValueError(f"workers must be at least 1 (or None for every core), got {workers}")
        self.workers = workers
        self.budget = budget or Budget(depth=2)
        if not self.budget.is_bounded():
            raise ValueError("alpha-beta needs a bounded budget (seconds, iterations or depth)")
        self.width = width
        self.root_width = root_width
        self.extensions = extensions
        self.quiescence = quiescence
        self.chance_samples = chance_samples
        self.table_size = table_size
        self.contempt = contempt
        self.clock = clock
        self.params = {
            "budget": self.budget, "width": width, "root_width": root_width,
            "extensions": extensions, "quiescence": quiescence,
            "chance_samples": chance_samples, "contempt": contempt,
        }
        if endgame:
            self.params |= {"endgame": endgame, "endgame_actions": endgame_actions}
        if threats:
            self.params["threats"] = threats
        if threats < 0:
            raise ValueError(f"threats is a number of actions, 0 or more, got {threats}")
        self.threats = threats
        self._threats: dict[int, list[Action]] = {}
        if variety:
            self.params["variety"] = variety
        if not 0.0 <= variety < 1.0:
            raise ValueError(f"variety is a margin of value, 0 to 1, got {variety!r}")
        self.variety = variety
        if workers != 1:
            self.params["workers"] = workers
        if not 0.0 <= endgame <= 1.0:
            raise ValueError(f"endgame is a share of the budget, 0 to 1, got {endgame!r}")
        self.endgame = endgame
        self.endgame_actions = endgame_actions
        self.solver = EndgameSolver() if endgame else None
        self.table: dict[object, tuple[int, float, int, Action | None]] = {}
        self._order_cache: dict[object, list[Action]] = {}
        self.nodes = 0
        self._seen: set[object] = set()
        self._game_history: list[Action] = []
        self._partial: tuple[Action, float, list[tuple[Action, float]]] | None = None
        self._shared: Shared | None = None
        self._searched: list[tuple[Action, float, bool]] = []  # this iteration's root actions
        self._iteration = 0  # the depth of the iteration under way

    def reset(self) -> None:
        if self.solver is not None:
            self.solver.table.clear()
        self.table.clear()
        self._order_cache.clear()
        self._seen.clear()
        self._game_history = []

    def choose(self, state: State) -> Action:
        return self.analyse(state).action

    # ----- iterative deepening ------------------------------------------------------------

    def analyse(self, state: State) -> SearchInfo:
        if state.is_terminal() or state.is_chance_node():
            raise ValueError("analyse needs a player to move")
        self._start(state, self.budget)
        endgame = self._endgame_eligible(state)
        helpers = None
        if self.workers != 1:
            helpers = self.helpers(type(self), self._kwargs, self._seed)
        if helpers is not None:
            try:
                split = self._split(state, helpers, race=endgame)
            except HelpersFailed:
                self.helpers_failed()  # search alone in the time left
                helpers = None
            else:
                if split is not None:
                    return split
        if endgame and helpers is None:
            solved = self._solve_endgame(state)
            if solved is not None:
                return solved
        max_depth = self.budget.depth or 64
        best: tuple[Action, float, list[tuple[Action, float]]] | None = None
        completed = 0
        proven = False
        for depth in range(1, max_depth + 1):
            self._cut = False
            self._partial = None
            try:
                result = self._root_search(state, depth, None if best is None else best[0])
            except _OutOfBudget:
                # An unfinished iteration searched the last best move first: any move it found
                # better than that one is better at the new depth too, so it is kept.
                partial = self._partial
                if partial is not None and best is not None and partial[0] != best[0]:
                    best = partial
                break
            best, completed = result, depth
            proven = not self._cut or abs(result[1]) >= WIN  # solved, or a forced result
            if self.progress is not None:
                self.progress(self._info(state, best, completed, proven))
            if proven or self._deadline.time_expired():
                break
        if best is None:  # not even depth 1 finished: the best action by heuristic
            action = self._ordered(state, self.root_width)[0]
            best = (action, 0.0, [(action, 0.0)])
        return self._info(state, best, completed, proven)

    def _start(self, state: State, budget: Budget) -> None:
        """Starts a search of ``state``: the clock, the root player, the tables kept within
        their size, the node count."""
        self._deadline = Deadline(budget, self.clock)
        self._root = state.current_player()
        if len(self.table) > self.table_size:
            self.table.clear()
        if len(self._order_cache) > self.table_size // 10:
            self._order_cache.clear()
        self.nodes = 0
        self._remember(state)
        self._threats = {}
        hook = getattr(state, "threat_actions", None) if self.threats else None
        if hook is not None:
            self._threats = {p: hook(p, self.threats) for p in range(state.game.num_players)}

    def _info(self, state: State, best: tuple[Action, float, list[tuple[Action, float]]],
              depth: int, proven: bool, pv: list[Action] | None = None) -> SearchInfo:
        action, value, scores = best
        return SearchInfo(
            action=action,
            values=self._values(state, value, proven),
            pv=pv or self._pv(state, action),
            iterations=self.nodes,
            seconds=self._deadline.elapsed(),
            depth=depth,
            proven=proven,
            scores=scores,
        )

    # ----- the root split over processes ---------------------------------------------------

    def _split(self, state: State, helpers: Helpers, race: bool = False) -> SearchInfo | None:
        """Deals the root's actions out to the workers and merges their depths (see the
        module docstring); None when there is nothing to split (one action). With ``race``
        the last worker runs the endgame solver for the whole time instead, and its answer
        wins where it settles the game (a proven win or draw, an exact loss)."""
        actions = self._ordered(state, self.root_width)
        searchers = len(helpers) - race
        shares = [actions[i::searchers] for i in range(searchers)]
        shares = [share for share in shares if share]
        if len(shares) < 2 - race:
            return None
        budget = self._left(len(shares) + race)
        depths: list[dict[int, ShareDepth]] = [{} for _ in shares]
        merged: tuple[ShareDepth, bool] | None = None
        completed, nodes = 0, 0
        unfinished: list[list[tuple[Action, float, bool]]] = [[] for _ in shares]
        methods = ["search_share"] * len(shares) + ["solve_share"] * race
        calls = [(state, share, budget) for share in shares] + [(state, budget)] * race
        solved: SearchInfo | None = None
        solving = race  # a search that proves who wins still waits for the solver's margin
        # Closed however the loop ends (an interrupt in ``progress``): the team ends with it.
        with contextlib.closing(helpers.call(methods, calls)) as replies:
            for worker, kind, item in replies:
                if worker == len(shares):  # the solver's answer
                    solving = False
                    nodes += item.nodes if item is not None else 0
                    solved = self._solution_info(item)
                    if solved is not None or (merged is not None and merged[1]):
                        helpers.shared.stop()  # settled: the searchers may stop
                    continue
                if kind == "answer":
                    nodes += item[0]
                    unfinished[worker] = item[1]
                    continue
                depths[worker][item.depth] = item
                if item.value >= WIN and item.exact:  # a forced win: nothing does better
                    merged, completed = (item, True), item.depth
                    if not solving:
                        helpers.shared.stop()
                    continue
                while merged is None or not merged[1]:
                    found = self._merge(depths, completed + 1)
                    if found is None:
                        break
                    merged, completed = found, completed + 1
                    if self.progress is not None:
                        self.progress(self._split_info(state, found, completed))
                    if found[1] and not solving:
                        helpers.shared.stop()  # proven: the workers may stop
        self.nodes += nodes
        if solved is not None:  # proven too, and with the margin
            return solved
        if merged is None:  # not even depth 1 finished: the best action by heuristic
            return self._info(state, (actions[0], 0.0, [(actions[0], 0.0)]), 0, False)
        if not merged[1]:
            merged = self._deeper(merged, depths, unfinished)
        return self._split_info(state, merged, completed)

    def _left(self, shares: int) -> Budget:
        """Returns what each worker may spend: the time left, the nodes left shared out."""
        budget, deadline = self.budget, self._deadline
        seconds = None
        if budget.seconds is not None:
            seconds = max(1e-3, budget.seconds - deadline.elapsed())
        iterations = None
        if budget.iterations is not None:
            iterations = max(1, (budget.iterations - self.nodes) // shares)
        return Budget(seconds=seconds, iterations=iterations, depth=budget.depth)

    @staticmethod
    def _merge(depths: list[dict[int, ShareDepth]], depth: int) -> tuple[ShareDepth, bool] | None:
        """Returns the best of every worker's result at ``depth`` and whether it is proven,
        or None while some worker has not completed that depth (a settled share counts at
        every depth past the one it settled at)."""
        results = []
        for reported in depths:
            result = reported.get(depth)
            if result is None:
                last = reported[max(reported)] if reported else None
                if last is None or last[0] > depth or not last[7]:
                    return None
                result = last
            results.append(result)
        # Exact values first on a tie: a bound below another worker's value only equals it.
        best = max(results, key=lambda r: (r.value, r.exact))
        searched = [s for r in results for s in r.searched]
        # Every share settled: deepening changes nothing any more (without this a search
        # whose shares settled for different reasons, one lost, one solved, would merge
        # depth after depth for ever).
        proven = (not any(r.cut for r in results) or abs(best.value) >= WIN
                  or all(r.settled for r in results))
        return best._replace(depth=depth, searched=searched), proven

    @staticmethod
    def _deeper(merged: tuple[ShareDepth, bool], depths: list[dict[int, ShareDepth]],
                unfinished: list[list[tuple[Action, float, bool]]]) -> tuple[ShareDepth, bool]:
        """Returns the merged depth's best, or an action the next, unfinished depth proved
        better than it there (as the search alone keeps a better move found by an iteration
        the clock cut short)."""
        found = merged[0]
        nxt: dict[Action, tuple[float, bool]] = {}
        for reported, partial in zip(depths, unfinished, strict=True):
            result = reported.get(found.depth + 1)
            for action, value, exact in (result.searched if result else partial):
                nxt[action] = (value, exact)
        if found.action not in nxt:
            return merged
        value, action = max(((v, a) for a, (v, exact) in nxt.items() if exact),
                            default=(-math.inf, found.action))
        if action == found.action or value <= nxt[found.action][0]:
            return merged
        return found._replace(action=action, value=value, pv=[action], exact=True), False

    def _split_info(self, state: State, merged: tuple[ShareDepth, bool], depth: int) -> SearchInfo:
        found, proven = merged
        scores = sorted(((a, v) for a, v, _ in found.searched), key=lambda item: -item[1])
        return self._info(state, (found.action, found.value, scores), depth, proven, pv=found.pv)

    def search_share(self, state: State, actions: list[Action], budget: Budget, *,
                     shared: Shared, report: Report) -> int:
        """A worker's part of a split root (see ``_split``): deepens over ``actions`` alone,
        reporting each completed depth; returns the nodes searched and what the unfinished
        depth searched (each action, its value and whether exact)."""
        self._start(state, budget)
        self._shared = shared
        previous = None
        try:
            for depth in range(1, (budget.depth or 64) + 1):
                self._cut = False
                try:
                    action, value, _, exact = self._root_search(
                        state, depth, previous, actions=actions, exact=True)
                except _OutOfBudget:
                    return self.nodes, self._searched
                # Settled: searched to the end, or every action lost (a loss is exact even
                # as a bound), or won (the merge stops everyone).
                settled = not self._cut or value <= -WIN or (value >= WIN and exact)
                report(ShareDepth(depth, action, value, self._searched, self._cut, exact,
                                  self._pv(state, action), settled))
                previous = action
                if settled or self._deadline.time_expired():
                    break
        finally:
            self._shared = None
        return self.nodes, []

    def solve_share(self, state: State, budget: Budget, *, shared: Shared,
                    report: Report) -> Solution | None:
        """A worker's part of a race (see ``_split``): the endgame solver on ``state`` until
        ``budget`` is spent or ``shared`` says stop; returns its solution, if any."""
        del report  # the solver has nothing to say before it is done
        try:
            return self.solver.solve(state, _Stoppable(budget, shared, self.clock))
        except ValueError:  # a chance node ahead: not for the solver
            return None

    def _endgame_eligible(self, state: State) -> bool:
        """Whether the exact solver is tried on ``state``: a small two-player position, and
        a budget of time or nodes (under a depth alone the solver's cost has no bound)."""
        budget = self.budget
        return (self.solver is not None and state.game.num_players == 2
                and (budget.seconds is not None or budget.iterations is not None)
                and len(state.legal_actions()) <= self.endgame_actions)

    def _solve_endgame(self, state: State) -> SearchInfo | None:
        """Returns the exact solver's answer when it finishes within its share of the
        budget, else None."""
        budget = self.budget
        share = Budget(
            seconds=None if budget.seconds is None else budget.seconds * self.endgame,
            iterations=None if budget.iterations is None
            else max(1, int(budget.iterations * self.endgame)),
        )
        try:
            solution = self.solver.solve(state, Deadline(share, self.clock))
        except ValueError:  # a chance node ahead: not for the solver
            return None
        self.nodes = self.solver.nodes
        return self._solution_info(solution)

    def _solution_info(self, solution: Solution | None) -> SearchInfo | None:
        """The solver's solution as the answer, or None where the search should go on:
        unsolved, or lost by an unknown margin (the search plays for the opponent's
        mistakes)."""
        if solution is None or (solution.margin < 0 and not solution.exact):
            return None
        root = self._root
        sign = (solution.margin > 0) - (solution.margin < 0)
        values = [float(sign) if p == root else float(-sign) for p in range(2)]
        return SearchInfo(
            action=solution.action, values=values, pv=solution.pv, iterations=solution.nodes,
            seconds=self._deadline.elapsed(), depth=len(solution.pv), proven=True,
            scores=[(solution.action, float(sign))], margin=solution.margin,
            margin_exact=solution.exact,
        )

    def _remember(self, state: State) -> None:
        """Adds the root to the positions faced in this game (forgotten when ``state`` does
        not continue the game the earlier roots came from)."""
        history = state.history()
        known = self._game_history
        if len(history) < len(known) or history[: len(known)] != known:
            self._seen.clear()
        self._game_history = list(history)
        self._seen.add(position_key(state))

    def _values(self, state: State, value: float, exact: bool) -> list[float]:
        """Turns the root player's value into a value per player (zero-sum, shared evenly)."""
        n = state.game.num_players
        if not exact and abs(value) < WIN:
            value /= EVAL_SCALE  # back to the scale of evaluate()
        value = max(-1.0, min(1.0, value))
        others = -value / (n - 1) if n > 1 else 0.0
        return [value if p == self._root else others for p in range(n)]

    def _root_search(
        self, state: State, depth: int, previous: Action | None = None, *,
        actions: list[Action] | None = None, exact: bool = False,
    ) -> tuple:
        """Searches the root to ``depth``: returns the best action, its value and every
        action's score (and, with ``exact``, whether the best value is exact rather than a
        bound under a value another worker proved)."""
        shared = self._shared
        self._searched = []
        self._iteration = depth
        actions = self._ordered(state, self.root_width) if actions is None else list(actions)
        if previous is not None and previous in actions:
            # The last iteration's best first: its value bounds the rest from the start, so
            # most alternatives are refuted by a cut rather than searched in full.
            actions.remove(previous)
            actions.insert(0, previous)
        alpha, beta = -math.inf, math.inf
        scores: list[tuple[Action, float]] = []
        best_action, best, best_exact = actions[0], -math.inf, False
        for action in actions:
            if shared is not None:
                alpha = max(alpha, shared.bound(depth))
            child = state.clone()
            play(child, action)
            value = self._search(child, depth - 1, alpha, beta, 0)
            scores.append((action, value))
            self._searched.append((action, value, value > alpha))
            if value > best:
                best_action, best, best_exact = action, value, value > alpha
                if shared is not None and best_exact:
                    shared.raise_bound(depth, value)
                if len(scores) > 1:
                    self._partial = (best_action, best, sorted(scores, key=lambda x: -x[1]))
            if self.variety:  # how many moves are known exactly within the margin
                near = sum(1 for _, v, exact in self._searched
                           if exact and v >= best - self.variety)
                alpha = max(alpha, best - (self.variety if near < VARIETY_MOVES else 0.0))
            else:
                alpha = max(alpha, best)
        if self.variety and shared is None:
            best_action, best = self._varied(state, best_action, best)
        if shared is None:
            self.table[(position_key(state), self._root)] = (depth, best, EXACT, best_action)
        # Earlier-searched alternatives hold exact values only up to alpha; order by them.
        scores.sort(key=lambda item: -item[1])
        if exact:
            return best_action, best, scores, best_exact
        return best_action, best, scores

    def _varied(self, state: State, best_action: Action, best: float) -> tuple[Action, float]:
        """Returns the root move to play and its value: one of those this iteration valued
        exactly within ``variety`` of ``best``, picked by the seed and the position."""
        near = sorted((a, v) for a, v, exact in self._searched
                      if v >= best - self.variety and (exact or a == best_action))
        if len(near) < 2:
            return best_action, best
        # Seeded by text (hashed with SHA-512), not by hash(), which PYTHONHASHSEED changes.
        pick = random.Random(f"{self._seed or 0} {position_key(state)!r}")
        return near[pick.randrange(len(near))]

    # ----- the search ---------------------------------------------------------------------

    def _tick(self) -> None:
        self.nodes += 1
        deadline = self._deadline
        deadline.iterations = self.nodes
        # Reading the clock costs far less than one node (a clone and a move), so every node
        # checks: a time budget is kept to within one node's work.
        if deadline.expired() or (self._shared is not None and self._shared.stopped()):
            raise _OutOfBudget

    def _search(self, state: State, depth: int, alpha: float, beta: float, ext: int) -> float:
        self._tick()
        player = state.current_player()
        if player == TERMINAL:
            return self._terminal(state)
        if player == CHANCE:
            return self._chance(state, depth, alpha, beta, ext)
        position = position_key(state) if self.contempt or depth > 0 else None
        if self.contempt and position in self._seen:
            self._cut = True  # a repetition, not yet the rule's draw: nothing is proven
            return -self.contempt
        if depth <= 0:
            return self._quiesce(state, alpha, beta, self.quiescence)
        key = (position, self._root)
        entry = self.table.get(key)
        tt_action = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_action = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER and e_value >= beta:
                    return e_value
                if e_flag == UPPER and e_value <= alpha:
                    return e_value
        maximising = player == self._root
        actions = self._ordered(state, self.width, key[0],
                                setups=self._iteration - depth < SETUP_PLIES)
        if tt_action is not None and tt_action in actions and actions[0] != tt_action:
            actions.remove(tt_action)
            actions.insert(0, tt_action)
        a0, b0 = alpha, beta
        best_action = actions[0]
        best = -math.inf if maximising else math.inf
        for action in actions:
            child = state.clone()
            play(child, action)
            again = (child.current_player() == player and ext < self.extensions
                     and len(child.legal_actions()) <= EXTEND_WIDTH)
            value = self._search(
                child, depth if again else depth - 1, alpha, beta, ext + 1 if again else ext
            )
            if maximising:
                if value > best:
                    best, best_action = value, action
                alpha = max(alpha, value)
            else:
                if value < best:
                    best, best_action = value, action
                beta = min(beta, value)
            if alpha >= beta:
                break
        flag = EXACT
        if best <= a0:
            flag = UPPER
        elif best >= b0:
            flag = LOWER
        self.table[key] = (depth, best, flag, best_action)
        return best

    def _chance(self, state: State, depth: int, alpha: float, beta: float, ext: int) -> float:
        outcomes = state.chance_outcomes()
        if len(outcomes) > self.chance_samples:
            self._cut = True
            drawn = self.rng.choices(
                [a for a, _ in outcomes], weights=[p for _, p in outcomes],
                k=self.chance_samples,
            )
            outcomes = [(a, 1.0 / len(drawn)) for a in drawn]
        total = 0.0
        for action, probability in outcomes:
            child = state.clone()
            play(child, action)
            total += probability * self._search(child, depth, -math.inf, math.inf, ext)
        return total

    def _quiesce(self, state: State, alpha: float, beta: float, plies: int) -> float:
        stand = self._static(state)
        hook = getattr(state, "quiescence_actions", None)
        if plies <= 0 or hook is None:
            self._cut = True
            return stand
        noisy = hook()
        if not noisy:
            self._cut = True
            return stand
        player = state.current_player()
        maximising = player == self._root
        # Standing pat: the side to move may decline the noisy actions.
        best = stand
        if maximising:
            if best >= beta:
                return best
            alpha = max(alpha, best)
        else:
            if best <= alpha:
                return best
            beta = min(beta, best)
        for action in noisy:
            self._tick()
            child = state.clone()
            play(child, action)
            if child.current_player() == TERMINAL:
                value = self._terminal(child)
            elif child.current_player() == CHANCE:
                value = self._static(child)
            else:
                value = self._quiesce(child, alpha, beta, plies - 1)
            if maximising:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        self._cut = True
        return best

    def _terminal(self, state: State) -> float:
        returns = state.returns()
        if self.contempt and not any(returns):
            return -self.contempt
        return returns[self._root]

    def _static(self, state: State) -> float:
        if state.is_terminal():
            return self._terminal(state)
        return EVAL_SCALE * static_values(state)[self._root]

    def _ordered(self, state: State, width: int | None, key: object = None,
                 setups: bool = True) -> list[Action]:
        """Returns the legal actions best first by heuristic, the first ``width`` of them
        (with ``setups``, the mover's set-ups found at the root in place of the last)."""
        if key is None:
            key = position_key(state)
        order = self._order_cache.get(key)
        if order is None:
            try:
                scored = state.action_heuristics()
            except NotImplementedError:
                scored = [(a, 0.0) for a in state.legal_actions()]
                self.rng.shuffle(scored)
            scored.sort(key=itemgetter(1), reverse=True)  # stable: ties keep their order
            order = [a for a, _ in scored]
            self._order_cache[key] = order
        if width is not None and len(order) > width:
            self._cut = True
            found = self._threats.get(state.current_player()) if setups else None
            if found:
                rest = order[width:]
                found = [a for a in found if a in rest]
                # In place of the last by heuristic: as many actions as without set-ups.
                return order[:width - len(found)] + found if found else order[:width]
            return order[:width]
        return list(order)

    def _pv(self, state: State, first: Action) -> list[Action]:
        pv = [first]
        state = state.clone()
        play(state, first)
        while len(pv) < 32 and state.current_player() >= 0:
            entry = self.table.get((position_key(state), self._root))
            if entry is None or entry[3] is None:
                break
            pv.append(entry[3])
            play(state, entry[3])
        return pv
