"""Monte Carlo tree search over the contract: UCT with max^n backups, chance nodes, heuristic
priors with progressive widening, evaluation-cut playouts, an MCTS-Solver and tree reuse.

The tree stores, at every node, the sum of value vectors (one entry per player, the scale of
``returns()``) that passed through it; the player to move at a node picks the child best for
itself (max^n), which is plain UCT for two zero-sum players and still sound for four.

- Chance nodes are sampled by their probabilities; every outcome drawn gets its own child.
- Where a game scores actions (``action_heuristics``), nodes near the root order their
  actions by that score and open them a few at a time (progressive widening, with a
  progressive-bias term that fades with visits), so a branching factor of hundreds is
  searched best-first; deeper nodes open their actions in random order.
- Playouts run at most ``playout_depth`` plies, each choosing the best of ``sample`` random
  actions by ``evaluate()`` after it, then score the position with ``evaluate()``: games that
  rarely end by random play (Allmer's) still give a signal.
- The solver marks a node proven when a child gives its player the best result possible, or
  when every action is opened and proven (the max^n rule generalises the win/loss solver).
- Between moves the subtree of the position reached is kept (tree reuse), found by history.
"""

from __future__ import annotations

import math

from cathedral.ai.base import Agent, chance_sample, static_values
from cathedral.ai.budget import Budget, Clock, Deadline, SearchInfo
from cathedral.core.contract import CHANCE, TERMINAL, Action, State

BEST = 1.0  # the best entry a returns() vector can hold (ranked_returns)
PROGRESS_EVERY = 256  # simulations before the first progress report; then at each doubling


def play(state: State, action: Action) -> None:
    """Applies a trusted action and records it (search's fast path; no legality check)."""
    state._apply_action(action)
    state._history.append(action)


class Node:
    """One position in the tree, reached by ``action`` from its parent."""

    __slots__ = (
        "children",
        "outcomes",
        "player",
        "priors",
        "proven",
        "untried",
        "value",
        "visits",
    )

    def __init__(self, player: int, num_players: int) -> None:
        self.player = player
        self.visits = 0
        self.value = [0.0] * num_players
        self.children: dict[Action, Node] = {}
        self.untried: list[Action] | None = None  # best prior last (popped first)
        self.priors: dict[Action, float] = {}
        self.outcomes: list[tuple[Action, float]] | None = None
        self.proven: list[float] | None = None

    def mean(self, player: int) -> float:
        if self.proven is not None:
            return self.proven[player]
        return self.value[player] / self.visits if self.visits else 0.0


class MCTSAgent(Agent):
    """UCT with max^n backups (see the module docstring).

    Args:
        budget: iterations (simulations) and/or seconds per move.
        c: the exploration constant, on the [-1, 1] value scale.
        bias: the weight of the progressive-bias term (heuristic prior / (visits + 1)).
        prior_depth: nodes this close to the root get heuristic priors (0: none).
        widen: progressive widening, ``k`` children open after ``widen * visits ** 0.5``;
            0 opens every action before revisiting any.
        playout_depth: plies played after a new node before evaluating (0: evaluate at once).
        sample: a playout ply picks the best of this many random actions by ``evaluate()``
            (1: uniformly random playouts).
        solver: whether to prove wins and losses.
        reuse: whether to keep the tree between moves.
        contempt: what a draw (all returns zero) costs the player the agent moves for, shared
            out to the others (> 0 plays on for a win rather than settle for a draw).
        clock: the time source (tests pass a fake one).
    """

    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        *,
        budget: Budget | None = None,
        c: float = 0.7,
        bias: float = 1.0,
        prior_depth: int = 2,
        widen: float = 2.0,
        playout_depth: int = 4,
        sample: int = 3,
        solver: bool = True,
        reuse: bool = True,
        contempt: float = 0.0,
        clock: Clock | None = None,
    ) -> None:
        super().__init__(seed)
        self.budget = budget or Budget(iterations=1000)
        if not self.budget.is_bounded():
            raise ValueError("MCTS needs a bounded budget (seconds or iterations)")
        self.c = c
        self.bias = bias
        self.prior_depth = prior_depth
        self.widen = widen
        self.playout_depth = playout_depth
        self.sample = sample
        self.solver = solver
        self.reuse = reuse
        self.contempt = contempt
        self.clock = clock
        self.params = {
            "budget": self.budget, "c": c, "bias": bias, "prior_depth": prior_depth,
            "widen": widen, "playout_depth": playout_depth, "sample": sample,
            "solver": solver, "reuse": reuse, "contempt": contempt,
        }
        self._me = 0
        self._root: Node | None = None
        self._root_history: list[Action] = []
        self._root_game: object = None
        self.max_depth = 0

    # ----- the interface ------------------------------------------------------------------

    def reset(self) -> None:
        self._root = None
        self._root_history = []

    def analyse(self, state: State) -> SearchInfo:
        if state.is_terminal() or state.is_chance_node():
            raise ValueError("analyse needs a player to move")
        deadline = Deadline(self.budget, self.clock)
        self._me = state.current_player()
        root = self._find_root(state)
        n = state.game.num_players
        self.max_depth = 0
        report = PROGRESS_EVERY
        while not deadline.expired() and root.proven is None:
            self._simulate(root, state.clone(), n)
            deadline.iterations += 1
            if self.progress is not None and deadline.iterations >= report:
                report *= 2
                self.progress(self._info(state, root, deadline))
        return self._info(state, root, deadline)

    def _info(self, state: State, root: Node, deadline: Deadline) -> SearchInfo:
        """What the tree says now: the best action, values, principal line."""
        player = state.current_player()
        action = self._best_action(root, player)
        self._root, self._root_history = root, state.history()
        self._root_game = state.game
        values = root.proven or [v / max(1, root.visits) for v in root.value]
        scores = sorted(
            ((a, child.mean(player)) for a, child in root.children.items()),
            key=lambda item: -item[1],
        )
        return SearchInfo(
            action=action,
            values=list(values),
            pv=self._pv(root, action),
            iterations=deadline.iterations,
            seconds=deadline.elapsed(),
            depth=self.max_depth,
            proven=root.proven is not None,
            scores=scores,
        )

    def choose(self, state: State) -> Action:
        return self.analyse(state).action

    # ----- the tree -----------------------------------------------------------------------

    def _find_root(self, state: State) -> Node:
        """Returns the kept subtree for ``state`` if its history extends the last root's."""
        history = state.history()
        root = self._root
        if (
            self.reuse
            and root is not None
            and self._root_game is state.game
            and history[: len(self._root_history)] == self._root_history
        ):
            for action in history[len(self._root_history):]:
                root = root.children.get(action)
                if root is None:
                    break
            if root is not None and root.player == state.current_player():
                return root
        return Node(state.current_player(), state.game.num_players)

    def _open(self, node: Node, state: State, depth: int) -> None:
        """Lists a decision node's actions, best prior last, the first time it is visited."""
        if depth < self.prior_depth:
            try:
                scored = state.action_heuristics()
            except NotImplementedError:
                scored = None
            if scored:
                low = min(s for _, s in scored)
                span = max(s for _, s in scored) - low or 1.0
                self.rng.shuffle(scored)  # ties in random order
                scored.sort(key=lambda item: item[1])
                node.priors = {a: (s - low) / span for a, s in scored}
                node.untried = [a for a, _ in scored]
                return
        actions = list(state.legal_actions())
        self.rng.shuffle(actions)
        node.untried = actions

    def _simulate(self, root: Node, state: State, n: int) -> None:
        path = [root]
        node = root
        depth = 0
        while True:
            if node.proven is not None:
                values = node.proven
                break
            player = node.player
            if player == CHANCE:
                if node.outcomes is None:
                    node.outcomes = state.chance_outcomes()
                action = chance_sample(state, self.rng)
            else:
                if node.untried is None:
                    self._open(node, state, depth)
                action = self._select(node)
            play(state, action)
            depth += 1
            child = node.children.get(action)
            if child is None:
                child = Node(state.current_player(), n)
                node.children[action] = child
                path.append(child)
                if child.player == TERMINAL:
                    values = self._returns(state)
                    child.proven = list(values) if self.solver else None
                else:
                    values = self._playout(state)
                break
            node = child
            path.append(node)
        self.max_depth = max(self.max_depth, depth)
        for visited in path:
            visited.visits += 1
            total = visited.value
            for i in range(n):
                total[i] += values[i]
        if self.solver:
            for index in range(len(path) - 2, -1, -1):
                if not self._prove(path[index]):
                    break

    def _select(self, node: Node) -> Action:
        untried = node.untried
        if untried and (
            self.widen <= 0
            or len(node.children) < 1 + self.widen * math.sqrt(node.visits)
        ):
            return untried.pop()
        player = node.player
        log_n = math.log(node.visits + 1)
        best_action, best = None, -math.inf
        c, bias, priors = self.c, self.bias, node.priors
        for action, child in node.children.items():
            visits = child.visits
            # A proven child scores its exact value but keeps its exploration term, so its
            # siblings still get visits and can be proven too (needed to prove a draw or an
            # expectation; a proven win has already proven this node).
            proven = child.proven
            mean = proven[player] if proven is not None else child.value[player] / visits
            score = mean + c * math.sqrt(log_n / visits)
            if priors:
                score += bias * priors.get(action, 0.0) / (visits + 1)
            if score > best:
                best_action, best = action, score
        if best_action is None:  # every child is open and none exists: cannot happen
            raise RuntimeError("MCTS node without children")
        if untried and node.children[best_action].proven is not None:
            return untried.pop()  # rather open a new action than revisit a solved one
        return best_action

    def _prove(self, node: Node) -> bool:
        """Marks ``node`` proven if its children allow it; returns whether it now is."""
        if node.proven is not None:
            return True
        children = node.children
        if node.player == CHANCE:
            outcomes = node.outcomes or []
            if len(children) < len(outcomes):
                return False
            if any(children[a].proven is None for a, _ in outcomes):
                return False
            n = len(node.value)
            node.proven = [
                sum(p * children[a].proven[i] for a, p in outcomes) for i in range(n)
            ]
            return True
        player = node.player
        best = None
        complete = not node.untried
        for child in children.values():
            proven = child.proven
            if proven is None:
                complete = False
                continue
            if proven[player] >= BEST:
                node.proven = list(proven)
                return True
            if best is None or proven[player] > best[player]:
                best = proven
        if complete and best is not None and node.untried is not None:
            node.proven = list(best)
            return True
        return False

    def _playout(self, state: State) -> list[float]:
        rng = self.rng
        for _ in range(self.playout_depth):
            player = state.current_player()
            if player == TERMINAL:
                return self._returns(state)
            if player == CHANCE:
                play(state, chance_sample(state, rng))
                continue
            actions = state.legal_actions()
            if self.sample <= 1 or len(actions) == 1:
                play(state, rng.choice(actions))
                continue
            best_child, best = None, -math.inf
            for action in rng.sample(actions, min(self.sample, len(actions))):
                child = state.clone()
                play(child, action)
                value = static_values(child)[player]
                if value > best:
                    best_child, best = child, value
            state = best_child
        return static_values(state)

    def _returns(self, state: State) -> list[float]:
        returns = list(state.returns())
        if self.contempt and not any(returns):
            n = len(returns)
            share = self.contempt / (n - 1) if n > 1 else 0.0
            returns = [share] * n
            returns[self._me] = -self.contempt
        return returns

    def _best_action(self, root: Node, player: int) -> Action:
        children = root.children
        if not children:  # no simulation ran (a budget of zero time): the best prior
            if root.untried:
                return root.untried[-1]
            raise RuntimeError("no action searched")
        if root.proven is not None:
            for action, child in children.items():
                if child.proven is not None and child.proven[player] == root.proven[player]:
                    return action

        def key(item: tuple[Action, Node]) -> tuple:
            child = item[1]
            lost = child.proven is not None and child.proven[player] <= -BEST
            return (not lost, child.visits, child.mean(player))

        return max(children.items(), key=key)[0]

    def _pv(self, root: Node, first: Action) -> list[Action]:
        pv = [first]
        node = root.children.get(first)
        while node is not None and node.children and node.player >= 0 and len(pv) < 32:
            action, node = max(node.children.items(), key=lambda item: item[1].visits)
            pv.append(action)
        return pv
