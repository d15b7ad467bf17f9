"""Set-ups (``threats``): a placement's claim worked out without placing it, and the
placements whose worth shows only one placement later."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import cathedral
from cathedral.games.classic import threats
from cathedral.games.classic.pieces import DARK, LIGHT

OPENING = ("Cathedral c4 d3 d4 d5 e4 f4", "Infirmary f8 g7 g8 g9 h8")


def _gained(state, action: int) -> int:
    """The free squares that become the mover's territory when ``action`` is placed."""
    mover = state.current_player()
    child = state.clone()
    child.apply_action(action)
    before, after = state.position, child.position
    occupied = after.walls[LIGHT] | after.walls[DARK] | after.cathedral
    return (after.territory[mover] & ~before.territory[mover] & ~occupied).bit_count()


def test_a_claim_is_counted_without_placing_as_placing_counts_it(play):
    state = play(*OPENING, "Castle g3 g5 h3 h4 h5", "Tower c9 c10 d8 d9 e8",
                 "Infirmary a2 b1 b2 b3 c2")
    academy = state.string_to_action("Academy h6 h7 i5 i6 j6")
    position = state.position
    assert threats.claimed(position, DARK, position.walls[DARK], academy) == 16
    assert _gained(state, academy) == 16


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_claimed_matches_placing_on_random_games(seed):
    rng = random.Random(seed)
    state = cathedral.load("classic").new_initial_state()
    while not state.is_terminal():
        position = state.position
        mover = state.current_player()
        if position.built[mover] and position.built[1 - mover]:
            for action in rng.sample(state.legal_actions(), min(30, len(state.legal_actions()))):
                assert threats.claimed(position, mover, position.walls[mover], action) == (
                    _gained(state, action)), state.action_to_string(action)
        state.apply_action(rng.choice(state.legal_actions()))


def test_set_ups_are_the_walls_the_next_building_closes(play):
    """After Light's Castle g3, Dark's Tower c9 (or its Academy h6) claims nothing, but with
    the other one closes the top rows: 16 squares. The one-ply score that orders the search
    ranks such a Tower about 90th of Dark's thousand placements, far beyond any width."""
    state = play(*OPENING, "Castle g3 g5 h3 h4 h5")
    found = threats.threat_actions(state.position, DARK, 3)
    named = {state.action_to_string(action): squares for action, squares in found}
    assert named["Tower c9 c10 d8 d9 e8"] == 16
    assert named["Academy h6 h7 i5 i6 j6"] == 16
    assert all(squares <= 16 for _, squares in found)
    tower = state.string_to_action("Tower c9 c10 d8 d9 e8")
    ranked = [a for a, _ in sorted(state.action_heuristics(), key=lambda item: -item[1])]
    assert ranked.index(tower) > 40
    # The hook search reads gives the same placements, for either colour to move.
    assert state.threat_actions(DARK, 3) == [action for action, _ in found]


def test_a_placement_that_claims_at_once_is_no_set_up(play):
    state = play(*OPENING, "Castle g3 g5 h3 h4 h5", "Tower c9 c10 d8 d9 e8",
                 "Infirmary a2 b1 b2 b3 c2")
    academy = state.string_to_action("Academy h6 h7 i5 i6 j6")
    assert academy not in state.threat_actions(DARK, 50)


def test_no_set_ups_before_a_colours_first_building(play):
    state = play(*OPENING)
    assert state.threat_actions(LIGHT, 3) == []
    assert cathedral.load("classic").new_initial_state().threat_actions(LIGHT, 3) == []


def test_before_the_opponents_first_building_a_region_round_the_cathedral_is_no_claim(play):
    """Light has only the Cathedral down: walling it in would capture it and claim the whole
    city, but Light's first building will stand somewhere first. Dark's set-ups there are the
    pockets that would hold nothing at all, the top rows again."""
    state = play(*OPENING)
    found = dict(threats.threat_actions(state.position, DARK, 3))
    assert found and max(found.values()) == 16
