"""One test per rule of classic.md, each on a concrete position played through the API."""

from __future__ import annotations

import random

import pytest

import cathedral
from cathedral import IllegalActionError, NotationError
from cathedral.games.classic.pieces import BLOCKS, Building

LIGHT, DARK = 0, 1
# The Cathedral upside down in the upper middle, far from the corners the tests use.
CATHEDRAL = "Cathedral f6 e7 f7 g7 f8 f9"


def test_placement_counts_per_building_on_an_empty_board():
    # classic.md / reference 1.3: placements of each building on an empty 10x10 board.
    expected = {
        "Tavern": 100, "Stable": 180, "Inn": 324, "Bridge": 160, "Square": 81, "Manor": 288,
        "Abbey": 144, "Academy": 256, "Infirmary": 64, "Castle": 288, "Tower": 256,
    }
    # Lehmann: Dark builds first, on an empty board.
    state = cathedral.load("classic", opening="lehmann").new_initial_state()
    counts: dict[str, int] = {}
    for action in state.legal_actions():
        name = state.action_to_string(action).split()[0]
        counts[name] = counts.get(name, 0) + 1
    assert counts == expected
    # Standard: Light's first action is the Cathedral, on an empty board.
    first = cathedral.load("classic").new_initial_state().legal_actions()
    assert len(first) == 224
    assert all(cathedral.load("classic").new_initial_state().action_to_string(a)
               .startswith("Cathedral") for a in first)


def test_light_and_dark_abbey_and_academy_placements_differ():
    light = {(b, c) for b, c in BLOCKS if c == LIGHT}
    assert light == {(Building.ABBEY, LIGHT), (Building.ACADEMY, LIGHT)}
    game = cathedral.load("classic")
    state = game.new_initial_state()
    squares = [
        set(state.action_to_string(a).split()[1:])
        for key in ((Building.ABBEY, LIGHT), (Building.ABBEY, DARK))
        for a in BLOCKS[key]
    ]
    light_abbeys = {frozenset(s) for s in squares[:144]}
    dark_abbeys = {frozenset(s) for s in squares[144:]}
    assert not light_abbeys & dark_abbeys
    academies = [
        {frozenset(state.action_to_string(a).split()[1:]) for a in BLOCKS[(Building.ACADEMY, c)]}
        for c in (LIGHT, DARK)
    ]
    assert not academies[0] & academies[1]


def test_rotation_without_reflection(play):
    # Dark's Abbey is `##.` / `.##`: a2 b2 b1 c1. Light's mirror image is refused for Dark.
    state = play(CATHEDRAL)
    assert state.string_to_action("Abbey a2 b2 b1 c1") in state.legal_actions()
    with pytest.raises(NotationError, match="mirror image"):
        state.string_to_action("Abbey a1 b1 b2 c2")


def test_standard_opening_light_places_the_cathedral_then_dark_builds(play):
    state = cathedral.load("classic").new_initial_state()
    assert state.current_player() == LIGHT
    with pytest.raises(IllegalActionError, match="Light must place the Cathedral first"):
        state.string_to_action("Tavern a1")
    state = play(CATHEDRAL)
    assert state.current_player() == DARK
    with pytest.raises(IllegalActionError, match="already placed"):
        state.string_to_action("Cathedral a1 a2 b2 c2 a3 a4".replace("a1 a2 b2 c2 a3 a4",
                                                                    "b1 b2 a3 b3 c3 b4"))


def test_lehmann_order(play):
    state = play(opening="lehmann")
    assert state.current_player() == DARK
    state = play("Tavern a1", opening="lehmann")
    assert state.current_player() == LIGHT
    assert {state.action_to_string(a).split()[0] for a in state.legal_actions()} == {"Cathedral"}
    state = play("Tavern a1", CATHEDRAL, opening="lehmann")
    assert state.current_player() == LIGHT  # Light's first building follows at once
    state = play("Tavern a1", CATHEDRAL, "Tavern j1", opening="lehmann")
    assert state.current_player() == DARK


def test_no_claim_on_a_first_building_move(play, territory):
    # Dark's first building closes the pocket a1 against the corner: it claims nothing.
    state = play(CATHEDRAL, "Inn a2 b1 b2")
    assert territory(state, DARK) == set()
    # Light may even build in that closed but unclaimed pocket.
    state.apply_action(state.string_to_action("Tavern a1"))
    assert "a1" not in territory(state, DARK)


def test_corner_to_corner_gap_leaks(play, territory):
    moves = [CATHEDRAL, "Tavern j10", "Stable a3 b3", "Tavern j8", "Stable c1 c2", "Stable h10 i10"]
    state = play(*moves)
    # b3 and c2 meet only at a corner: the corner region leaks through c3.
    assert territory(state, LIGHT) == set()
    state.apply_action(state.string_to_action("Tavern c3"))
    assert territory(state, LIGHT) == {"a1", "a2", "b1", "b2"}


def test_cathedral_is_no_wall(play, territory):
    # c1 c2 lie between the Cathedral (b1 b2 b3 c3) and Light's Bridge d1 d2 d3. Were the
    # Cathedral a wall, the Bridge would close and claim them; it is not, so the region runs
    # through the Cathedral's squares to the rest of the board and holds Dark's pieces.
    state = play("Cathedral b1 b2 a3 b3 c3 b4", "Tavern j10", "Tavern j1", "Tavern j8",
                 "Bridge d1 d2 d3")
    assert territory(state, LIGHT) == set()
    assert state.string_to_action("Stable c1 c2") in state.legal_actions()  # open to Dark


def test_cathedral_enclosed_alone_leaves_the_game_for_good(play, territory):
    state = play("Cathedral b1 b2 a3 b3 c3 b4", "Tavern j10", "Bridge d1 d2 d3", "Tavern j8",
                 "Stable a5 b5", "Stable h10 i10", "Inn c5 d4 d5")
    assert "captured and is out of the game" in str(state)
    assert "#" not in str(state)
    assert territory(state, LIGHT) == {
        f"{f}{r}" for f in "abc" for r in "1234"
    }
    with pytest.raises(IllegalActionError, match="captured"):
        state.string_to_action("Cathedral b1 b2 a3 b3 c3 b4")


def test_one_enclosed_building_is_removed_and_returns_to_its_owners_hand(play, territory, hand):
    state = play(CATHEDRAL, "Tavern a1", "Tavern j1", "Tavern j10")
    assert hand(state, DARK).startswith("Stable x2")  # both Taverns are on the board
    state.apply_action(state.string_to_action("Inn a2 b1 b2"))
    assert hand(state, DARK).startswith("Tavern, Stable x2")
    assert territory(state, LIGHT) == {"a1"}
    # The captured Tavern may be placed again later, but not in Light's territory.
    with pytest.raises(IllegalActionError, match="a1 is in Light's territory"):
        state.string_to_action("Tavern a1")
    assert state.string_to_action("Tavern c5") in state.legal_actions()


def test_two_pieces_enclosed_remove_nothing_and_stay_open(play, territory, hand):
    state = play(CATHEDRAL, "Tavern a1", "Tavern j10", "Tavern c1", "Bridge a3 b3 c3",
                 "Stable j7 j8", "Manor d1 d2 d3 e2")
    assert territory(state, LIGHT) == set()
    assert "Tavern" not in hand(state, DARK)
    # The pocket stays open to Dark.
    assert state.string_to_action("Stable a2 b2") in state.legal_actions()


def test_cathedral_and_one_building_enclosed_remove_nothing(play, territory):
    state = play("Cathedral b1 b2 a3 b3 c3 b4", "Tavern a1", "Tavern j10", "Tavern j8",
                 "Bridge d1 d2 d3", "Stable h10 i10", "Stable a5 b5", "Square h7 i7 h8 i8",
                 "Inn c5 d4 d5")
    assert territory(state, LIGHT) == set()
    assert "captured" not in str(state)
    assert state.string_to_action("Stable c1 c2") in state.legal_actions()  # Dark may build there


def test_no_placement_into_opponent_territory_own_allowed(play, territory):
    moves = [CATHEDRAL, "Tavern j10", "Stable a3 b3", "Tavern j8", "Stable c1 c2", "Stable h10 i10",
             "Tavern c3"]
    state = play(*moves)
    assert territory(state, LIGHT) == {"a1", "a2", "b1", "b2"}
    with pytest.raises(IllegalActionError, match="in Light's territory"):
        state.string_to_action("Stable a1 a2")  # Dark to move
    state.apply_action(state.string_to_action("Stable j5 j6"))
    assert state.string_to_action("Square a1 a2 b1 b2") in state.legal_actions()  # Light


def test_capture_overwrites_the_losers_territory(play, territory):
    state = play(CATHEDRAL, "Tavern j10", "Tavern j1", "Inn a2 b1 b2")
    assert territory(state, DARK) == {"a1"}
    state.apply_action(state.string_to_action("Bridge a3 b3 c3"))
    state.apply_action(state.string_to_action("Tavern j8"))
    state.apply_action(state.string_to_action("Stable c1 c2"))
    assert territory(state, DARK) == set()
    assert territory(state, LIGHT) == {"a1", "a2", "b1", "b2"}


def test_piece_in_an_unclaimed_closed_pocket_is_not_captured_by_a_move_elsewhere(
    play, hand, territory
):
    # Dark's first building closes the pocket a1 without claiming it; Light builds there.
    state = play(CATHEDRAL, "Inn a2 b1 b2", "Tavern j10", "Stable j1 j2", "Tavern a1",
                 "Bridge h1 h2 h3", "Stable e1 e2", "Tavern c5")
    assert hand(state, LIGHT).startswith("Stable,")  # both Light Taverns still on the board
    assert "a1" not in territory(state, DARK)


def test_no_size_limit_a_region_holding_only_the_cathedral_is_claimed_whole(play, territory):
    # Light's only building sits in a closed pocket, so the open board holds one piece that is
    # not Dark's: the Cathedral. Dark's second building touches that region and claims it all.
    state = play(CATHEDRAL, "Inn a2 b1 b2", "Tavern a1", "Stable j1 j2")
    assert "captured and is out of the game" in str(state)
    assert len(territory(state, DARK)) == 100 - 3 - 2 - 1
    assert state.current_player() == DARK  # Light cannot place anywhere and is skipped


def test_a_stuck_player_is_skipped_and_the_other_keeps_placing():
    game = cathedral.load("classic")
    rng = random.Random(7)
    skipped = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            mover = state.current_player()
            state.apply_action(rng.choice(state.legal_actions()))
            if state.current_player() == mover and len(state.history()) > 1:
                skipped += 1
                # The opponent really has no placement: a state claiming it to move is refused.
                data = state.to_json().replace(f'"to_move":{mover}', f'"to_move":{1 - mover}')
                with pytest.raises(cathedral.StateError, match="cannot place"):
                    game.state_from_json(data)
    assert skipped > 0


def test_the_game_ends_when_neither_can_place_and_scores_count_unplaced_squares():
    game = cathedral.load("classic")
    rng = random.Random(3)
    seen_draw = seen_win = False
    for _ in range(60):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        light, dark = state.scores()
        for colour, score in enumerate((light, dark)):
            data = state.to_json().replace('"to_move":-4', f'"to_move":{colour}')
            with pytest.raises(cathedral.StateError, match="cannot place"):
                game.state_from_json(data)
            assert 0 <= score <= 47
        if light == dark:
            seen_draw = True
            assert state.returns() == [0.0, 0.0]
            assert state.result_string().startswith("Draw")
        else:
            seen_win = True
            winner = 0 if light < dark else 1
            assert state.returns()[winner] == 1.0 and state.returns()[1 - winner] == -1.0
    assert seen_draw and seen_win


def test_scores_are_unplaced_squares_of_each_hand(play):
    state = play(CATHEDRAL, "Castle a1 a2 b1 c1 c2", "Tower h1 i1 i2 j2 j3")
    assert state.scores() == [42.0, 42.0]
    state.apply_action(state.string_to_action("Tavern a10"))
    assert state.scores() == [42.0, 41.0]
