"""The classic heuristic's one-ply scores: the quiet placements it scores without placing them
must score exactly as if placed (concrete positions, then every position of random games)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import cathedral
from cathedral.games.classic import heuristic, quiet
from cathedral.games.classic.pieces import (
    ACTION_BUILDING,
    DARK,
    FULL,
    LIGHT,
    PLACEMENTS,
    Building,
    dilate,
    flood,
)

CATHEDRAL = "Cathedral f6 e7 f7 g7 f8 f9"


def _scores(state) -> dict[int, float]:
    return dict(state.action_heuristics())


def _placed(state, move: str) -> tuple[int, float, int, int]:
    """Returns (action, the one-ply score, territory gained, squares captured) of ``move``
    worked out by playing it: the score is the squares placed, the territory gained, twice
    the squares captured and 0.02 per placement the opponent loses."""
    action = state.string_to_action(move)
    mover, opponent = state.current_player(), 1 - state.current_player()
    child = state.clone()
    child.apply_action(action)
    pos, child_pos = state.position, child.position
    gained = child_pos.territory[mover].bit_count() - pos.territory[mover].bit_count()
    captured = child_pos.unplaced(opponent) - pos.unplaced(opponent)
    taken = int(pos.placement_mask(opponent).sum()) - int(child_pos.placement_mask(opponent).sum())
    size = len(move.split()) - 1
    return action, size + gained + 2 * captured + 0.02 * taken, gained, captured


def test_a_placement_in_open_space_is_scored_by_its_squares_and_the_placements_it_takes(play):
    state = play(CATHEDRAL, "Tavern j10", "Tavern j1", "Tavern a10")
    action, expected, gained, captured = _placed(state, "Inn c4 c5 d5")
    assert quiet.is_quiet(state.position, [action])[0]
    assert _scores(state)[action] == expected
    assert (gained, captured) == (0, 0)
    assert expected > 3  # it takes some of Dark's placements away


def test_a_placement_that_closes_a_corner_square_is_scored_with_that_territory(play):
    state = play(CATHEDRAL, "Tavern j10", "Tavern j1", "Tavern a10")
    action, expected, gained, captured = _placed(state, "Inn a2 b1 b2")
    assert not quiet.is_quiet(state.position, [action])[0]
    assert _scores(state)[action] == expected
    assert (gained, captured) == (1, 0)  # a1


def test_a_placement_that_captures_is_scored_with_the_capture(play):
    state = play(CATHEDRAL, "Tavern a1", "Tavern j1", "Tavern j10")
    action, expected, gained, captured = _placed(state, "Inn a2 b1 b2")
    assert not quiet.is_quiet(state.position, [action])[0]
    assert _scores(state)[action] == expected
    assert (gained, captured) == (1, 1)  # a1, and Dark's Tavern back in its hand


def test_a_first_building_settles_nothing_and_is_quiet(play):
    state = play(CATHEDRAL)
    assert state.current_player() == DARK
    actions = state.legal_actions()
    assert quiet.is_quiet(state.position, actions).all()
    action, expected, _, _ = _placed(state, "Inn a2 b1 b2")
    assert _scores(state)[action] == expected


def test_the_cathedral_is_placed_to_be_scored(play):
    state = play()
    assert state.current_player() == LIGHT
    assert not quiet.is_quiet(state.position, state.legal_actions()).any()


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1),
       opening=st.sampled_from(("standard", "lehmann")))
def test_every_action_scores_as_if_placed_through_random_games(seed, opening):
    # Half greedy moves, so the games close regions and capture as real games do.
    state = cathedral.load("classic", opening=opening).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        position = state.position
        actions = state.legal_actions()
        scored = heuristic.action_scores(position, actions)
        opponent = int(position.placement_mask(1 - position.to_move).sum())
        assert scored == heuristic._placed_scores(position, actions, opponent)
        if rng.random() < 0.5:
            action = max(scored, key=lambda item: (item[1], rng.random()))[0]
        else:
            action = rng.choice(actions)
        state.apply_action(action)


def test_a_lead_in_squares_counts_for_more_as_the_city_fills(play, monkeypatch):
    """The value is read as an expected score, so its divisor was fitted to game outcomes
    (``research/fit_classic_scale.py``): four squares ahead hardly decide a game that has
    most of its buildings to place, and nearly always decide one with ten squares left."""
    state = play(CATHEDRAL)
    hands = {}

    def features(position, colour):
        unplaced = hands[colour]
        return unplaced, 0, 0, 0.0, 10

    monkeypatch.setattr(heuristic, "features", features)
    monkeypatch.setattr(heuristic, "LEARNED", [None])  # the hand-weighted margin alone
    hands.update({LIGHT: 40, DARK: 44})
    early = heuristic.evaluate(state.position)
    hands.update({LIGHT: 3, DARK: 7})
    late = heuristic.evaluate(state.position)
    assert early[0] == -early[1] and late[0] == -late[1]
    assert 0.2 < early[0] < 0.35  # Light's expected score about 0.64
    assert late[0] > 0.9  # about 0.96


def test_a_building_that_closes_a_corner_leaves_that_square_a_region_of_its_own(play):
    state = play(CATHEDRAL, "Tavern j10", "Tavern j1", "Tavern a10")
    walls = state.position.walls[state.current_player()]
    inn = state.string_to_action("Inn a2 b1 b2")
    corner, rest = sorted(quiet.parts(walls, inn), key=int.bit_count)
    assert corner == 1  # a1 alone
    assert rest == FULL & ~(walls | PLACEMENTS[inn] | corner)
    # in open space the building leaves its region whole
    (whole,) = quiet.parts(walls, state.string_to_action("Inn c4 c5 d5"))
    assert whole == FULL & ~(walls | PLACEMENTS[state.string_to_action("Inn c4 c5 d5")])


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_the_parts_a_building_leaves_are_the_regions_flooded_from_its_ring(seed):
    state = cathedral.load("classic").new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        walls = state.position.walls[state.current_player()]
        for action in rng.sample(state.legal_actions(), min(20, len(state.legal_actions()))):
            if ACTION_BUILDING[action] is Building.CATHEDRAL:
                continue
            space = FULL & ~(walls | PLACEMENTS[action])
            seeds, expected = dilate(PLACEMENTS[action]) & space, set()
            while seeds:
                region = flood(seeds & -seeds, space)
                expected.add(region)
                seeds &= ~region
            assert set(quiet.parts(walls, action)) == expected
        state.apply_action(rng.choice(state.legal_actions()))
