"""Builders of concrete Red Cathedral positions for the rule tests (imported by them).

``setup(game)`` plays the setup always taking the first chance outcome, which gives a known
table: market spaces 1-8 hold wood, brick, stone, gold, green, purple, rubles, recognition;
influence cards A1, C1, M1, K1; the first plan for the player count; cards F01.., M01..,
D01.. in fill order; workshop tiles W01.. in fill order; dice white on space 8, then red,
blue, yellow, green on spaces 1-4, every die showing 1.
"""

from cathedral.games.red import actions as A
from cathedral.games.red import state as S
from cathedral.games.red.components import MATERIALS


def setup(game):
    state = game.new_initial_state()
    while state.stage < S.PLAY:
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def give(state, player, **materials):
    """Moves materials from the supply into a player's inventory (keeps conservation)."""
    for name, n in materials.items():
        m = MATERIALS.index(name)
        state.supply[m] -= n
        state.inv[player * 6 + m] += n


def play(state, *moves):
    for move in moves:
        state.apply_action(state.string_to_action(move))


def roll(state, *pips):
    """Resolves pending dice rolls with the given pips, in order."""
    for v in pips:
        assert state.is_chance_node()
        state.apply_action(A.CHANCE + v)


def moves(state):
    return {state.action_to_string(a) for a in state.legal_actions()}


def checked(state):
    """Round-trips the position through JSON (which checks conservation and banners)."""
    return state.game.state_from_json(state.to_json())
