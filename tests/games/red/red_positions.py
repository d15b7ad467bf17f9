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


def sixth_section_in_reach(game, player=1):
    """Returns the start of ``player``'s turn (Blue by default) after ``setup``: it has completed
    five sections and holds the one brick its claimed card T1.1 still needs, so ``deliver brick
    T1.1`` completes a sixth, which ends the game (everyone else has one more turn) with it on
    the third prestige space, ahead of everybody. (The five are not on the table: only the
    count matters to the trigger.)"""
    state = setup(game)
    state.completed[player] = 5
    target = state.slots[0]  # T1.1
    state.owner[target] = player
    state.bin[player] -= 1
    cost = state.c.card_cost[state.slot_card[target]]
    state.need[target * 6 : target * 6 + 6] = [0, 1, 0, 0, 0, 0]
    for m, n in enumerate(cost):  # delivered but the brick: out of the supply
        state.supply[m] -= n - (1 if m == 1 else 0)
    give(state, player, brick=1)
    state.cur = player
    state.pos[player] = 14  # the third prestige space
    return checked(state)


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
