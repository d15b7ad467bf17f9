"""Analysis of a position for front ends: the best move, the principal line in notation and
an evaluation on one scale for every game, reported as the search deepens.

The scale is the **expected score** of each player, 0 to 1: a player's share of the points
against every other player, a win counting 1, a draw 0.5 and a loss 0 (with more than two
players, the fraction of the others it finishes ahead of, ties halved). It is the search's
value in the scale of ``returns()`` ([-1, 1]) mapped linearly, so 0.5 is level for two players
and the expected scores of two players add up to 1. A position the search has solved says so
(``proven``); where the exact endgame solver decided, ``solved`` says by how much, in words:
``"solved: Light wins by 3"``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass

from cathedral.ai.agents import load_agent
from cathedral.ai.budget import SearchInfo
from cathedral.core.contract import State


@dataclass
class Analysis:
    """What a search thinks of a position (see the module docstring).

    Attributes:
        level: the level or agent spec that searched.
        action: the best action found, and ``move`` its notation.
        pv: the principal line in notation, starting with ``move``.
        expected: each player's expected score, 0 to 1.
        proven: whether ``expected`` is exact (a solved position).
        solved: the solved final margin in words, or None.
        depth: the deepest completed iteration (or tree depth); ``nodes`` and ``seconds``
            what it cost.
        final: False for a report made while the search goes on.
    """

    level: str
    action: int
    move: str
    pv: list[str]
    expected: list[float]
    proven: bool
    solved: str | None
    depth: int
    nodes: int
    seconds: float
    final: bool = True

    def to_dict(self) -> dict:
        return asdict(self)


def expected_scores(values: list[float]) -> list[float]:
    """Maps values in the scale of ``returns()`` ([-1, 1]) to expected scores (0 to 1)."""
    return [round(min(1.0, max(0.0, (v + 1.0) / 2.0)), 4) for v in values]


def pv_notation(state: State, pv: list[int]) -> list[str]:
    """Returns the legal prefix of a principal line in notation (chance outcomes included)."""
    state = state.clone()
    line = []
    for action in pv:
        if state.is_terminal():
            break
        legal = (a for a, _ in state.chance_outcomes()) if state.is_chance_node() \
            else state.legal_actions()
        if action not in legal:
            break
        line.append(state.action_to_string(action))
        state.apply_action(action)
    return line


def solved_words(state: State, margin: float, exact: bool = True) -> str:
    """``"solved: Light wins by 3"`` for the final margin of the player to move
    (``"by at least 3"`` where only the winner is proven and the margin a bound)."""
    names = state.game.player_names()
    mover = state.current_player()
    if margin == 0:
        return "solved: a draw"
    winner = names[mover] if margin > 0 else names[1 - mover]
    return f"solved: {winner} wins by {'' if exact else 'at least '}{abs(margin):g}"


def to_analysis(state: State, info: SearchInfo, level: str, *, final: bool) -> Analysis:
    """Turns one search result into an ``Analysis`` of ``state``."""
    return Analysis(
        level=level,
        action=info.action,
        move=state.action_to_string(info.action),
        pv=pv_notation(state, info.pv) or [state.action_to_string(info.action)],
        expected=expected_scores(info.values),
        proven=info.proven,
        solved=None if info.margin is None
        else solved_words(state, info.margin, info.margin_exact),
        depth=info.depth,
        nodes=info.iterations,
        seconds=round(info.seconds, 3),
        final=final,
    )


def analyse(
    state: State,
    level: str = "hard",
    *,
    seed: int | None = 0,
    progress: Callable[[Analysis], None] | None = None,
    clock: Callable[[], float] | None = None,
) -> Analysis:
    """Returns the analysis of ``state`` by the search of ``level`` (any name ``load_agent``
    accepts); ``progress``, if given, receives an ``Analysis`` with ``final=False`` each
    time the search knows more (after each completed depth of alpha-beta, at doubling
    simulation counts of MCTS, after each round of the rollouts' sequential halving or at
    doubling passes), before the final one is returned. ``clock`` replaces the search's
    time source.

    Raises:
        ValueError: nobody is to move (a chance node or the end), or an unknown level.
    """
    if state.is_terminal() or state.is_chance_node():
        raise ValueError("an analysis needs a player to move")
    agent = load_agent(level, state.game, seed=seed, clock=clock)
    if progress is not None:
        agent.progress = lambda info: progress(to_analysis(state, info, level, final=False))
    try:
        return to_analysis(state, agent.analyse(state), level, final=True)
    finally:
        agent.close()
