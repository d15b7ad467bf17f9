"""Perft for Allmer's Cathedral: counting complete turns, the check ``allmer.md`` tabulates.

A turn is every step of one player until the turn passes: a walk or passage alone, or a chain
expanded step by step, where each way of ending it (``stop``, or no conversion left) is one
turn. Counting turns rather than steps makes the numbers independent of how a chain is cut
into actions.
"""

from __future__ import annotations

from cathedral.games.allmer.state import AllmerState


def turn_ends(state: AllmerState) -> list[AllmerState]:
    """Returns the state after each distinct complete turn from ``state`` (a chain in
    progress is finished in every possible way)."""
    out: list[AllmerState] = []
    stack = [state]
    while stack:
        node = stack.pop()
        mover, turns = node.player, node.turns
        for action in node.legal_actions():
            child = node.clone()
            child._apply_action(action)
            if child.termination is None and child.player == mover and child.turns == turns:
                stack.append(child)
            else:
                out.append(child)
    return out


def perft(state: AllmerState, depth: int) -> int:
    """Returns the number of sequences of ``depth`` complete turns from ``state`` (a finished
    game counts as one leaf)."""
    if depth == 0 or state.termination is not None:
        return 1
    ends = turn_ends(state)
    if depth == 1:
        return len(ends)
    return sum(perft(child, depth - 1) for child in ends)
