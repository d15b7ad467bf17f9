"""One test per rule of allmer.md, each on a concrete position.

Points are named as in the notation: files a-o run west to east, ranks 1-15 south to north;
h8 is the centre of the crossing (weak under middle4, strong under middle8).
"""

from __future__ import annotations

import pytest
from allmer_testlib import load, play, position, steps

import cathedral
from cathedral import IllegalActionError
from cathedral.games.allmer import STOP, AllmerState, Termination
from cathedral.games.allmer.geometry import parse_point

WHITE, BLACK = 0, 1
# Stones far from the action that keep a colour alive (4 or more stones).
B_FILLER = "o6 o7 o8 o9"
W_FILLER = "a6 a7 a8 a9"


def colour(state: AllmerState, point: str) -> str:
    return state.game.colour_letters()[state.board[parse_point(point)]]


def steps_from(state: AllmerState, point: str) -> list[str]:
    return [s for s in steps(state) if s.startswith(point + "-")]


# ----- reach ----------------------------------------------------------------------------


def test_reach_middle_stone_of_line_of_five_is_2():
    state = position({"W": "f8 g8 h8 i8 j8", "B": B_FILLER})
    assert state.reach(parse_point("h8")) == 2
    assert {"h8-h9", "h8-h10", "h8-h7", "h8-h6"} == set(steps_from(state, "h8"))


def test_reach_end_stone_of_line_of_five_is_4():
    state = position({"W": "f8 g8 h8 i8 j8", "B": B_FILLER})
    assert state.reach(parse_point("f8")) == 4
    west = [s for s in steps_from(state, "f8") if s[-2:] in ("e8", "d8", "c8", "b8", "a8")]
    assert sorted(west) == ["f8-b8", "f8-c8", "f8-d8", "f8-e8"]


def test_reach_weak_point_ignores_diagonal_friends():
    stones = {"W": "h8 g9 f10", "B": B_FILLER}
    weak = position(stones)  # middle4: h8 is weak, no diagonal passes through it
    assert weak.reach(parse_point("h8")) == 1
    strong = position(stones, field="middle8")
    assert strong.reach(parse_point("h8")) == 2


def test_reach_lone_stone_is_1():
    state = position({"W": "h8", "B": B_FILLER})
    assert state.reach(parse_point("h8")) == 1
    assert sorted(steps_from(state, "h8")) == ["h8-g8", "h8-h7", "h8-h9", "h8-i8"]


def test_reach_does_not_add_the_two_halves_of_a_line():
    state = position({"W": "g8 h8 i8", "B": B_FILLER})
    assert state.reach(parse_point("h8")) == 1


def test_no_jumping():
    state = position({"W": "f8 g8 h8 i8 j8", "B": "d8 " + B_FILLER})
    assert [s for s in steps_from(state, "f8") if s[3] in "abcde"] == ["f8-e8A"]
    with pytest.raises(IllegalActionError, match="blocked: d8 is occupied"):
        state.string_to_action("f8-c8")


# ----- approach -------------------------------------------------------------------------


def test_approach_run_stops_at_empty_point():
    state = play(position({"W": "h6 " + W_FILLER, "B": "h8 h9 h11 " + B_FILLER}), "h6-h7A")
    assert [colour(state, p) for p in ("h8", "h9", "h10", "h11")] == ["W", "W", ".", "B"]


def test_approach_run_stops_at_own_stone():
    state = play(position({"W": "h6 h10 " + W_FILLER, "B": "h8 h9 h11 " + B_FILLER}), "h6-h7A")
    assert [colour(state, p) for p in ("h8", "h9", "h10", "h11")] == ["W", "W", "W", "B"]


def test_approach_run_stops_at_another_colour():
    stones = {
        "W": "h6 f1 g1 i1 j1",
        "U": "a6 a7 a8 a9",
        "B": "h8 h9 h11 f15 g15 i15",
        "R": "h10 o6 o7 o8 o9",
    }
    state = play(position(stones, players=4), "h6-h7A")
    assert [colour(state, p) for p in ("h8", "h9", "h10", "h11")] == ["W", "W", "R", "B"]


def test_approach_run_stops_at_the_edge():
    state = play(position({"W": "h10 " + W_FILLER, "B": "h12 h13 h14 h15 " + B_FILLER}), "h10-h11A")
    assert [colour(state, p) for p in ("h12", "h13", "h14", "h15")] == ["W"] * 4
    assert state.counts == [9, 4]


def test_multicolour_run_in_four_players_converts_only_its_first_colour():
    stones = {
        "W": "h6 f1 g1 i1 j1",
        "U": "h10 a6 a7 a8 a9",
        "B": "h8 h9 f15 g15 i15",
        "R": "h11 o6 o7 o8 o9",
    }
    state = play(position(stones, players=4), "h6-h7A")
    assert [colour(state, p) for p in ("h8", "h9", "h10", "h11")] == ["W", "W", "U", "R"]
    assert state.counts == [7, 5, 3, 5]


def test_landing_in_front_of_an_enemy_always_converts():
    state = position({"W": "h6 " + W_FILLER, "B": "h8 " + B_FILLER})
    assert "h6-h7A" in steps(state)
    assert "h6-h7" not in steps(state)
    assert state.action_to_string(state.string_to_action("h6-h7")) == "h6-h7A"


# ----- withdrawal -----------------------------------------------------------------------


def test_withdrawal_only_when_enabled():
    stones = {"W": "h7 " + W_FILLER, "B": "h6 h5 " + B_FILLER}
    off = position(stones)
    assert "h7-h8" in steps(off) and not any(s.endswith("W") for s in steps(off))
    with pytest.raises(IllegalActionError, match="withdrawal is switched off"):
        off.string_to_action("h7-h8W")
    play(off, "h7-h8")
    assert colour(off, "h6") == "B"

    on = position(stones, withdraw=True)
    assert "h7-h8W" in steps(on) and "h7-h8" not in steps(on)
    play(on, "h7-h8W")
    assert [colour(on, p) for p in ("h6", "h5")] == ["W", "W"]


def test_withdrawal_converts_whatever_the_slide_distance():
    state = position({"W": "h7 h6 h5 " + W_FILLER, "B": "i7 " + B_FILLER}, withdraw=True)
    assert [s for s in steps_from(state, "h7") if s[3:5] in ("g7", "f7")] == ["h7-f7W", "h7-g7W"]
    play(state, "h7-f7W")
    assert colour(state, "i7") == "W"


def test_landing_both_approach_and_withdrawal_offers_both():
    from cathedral import AmbiguousActionError

    stones = {"W": "h7 " + W_FILLER, "B": "h6 h9 " + B_FILLER}
    state = position(stones, withdraw=True)
    assert {"h7-h8A", "h7-h8W"} <= set(steps(state))
    with pytest.raises(AmbiguousActionError):
        state.string_to_action("h7-h8")
    approach = play(position(stones, withdraw=True), "h7-h8A")
    assert [colour(approach, p) for p in ("h9", "h6")] == ["W", "B"]
    withdraw = play(position(stones, withdraw=True), "h7-h8W")
    assert [colour(withdraw, p) for p in ("h9", "h6")] == ["B", "W"]


# ----- chains ---------------------------------------------------------------------------


def test_chain_may_not_land_on_a_touched_point():
    stones = {"W": "h6 " + W_FILLER, "B": "h8 h5 j7 " + B_FILLER}
    state = play(position(stones), "h6-h7A")
    assert state.chain == parse_point("h7")
    assert steps(state) == ["h7-i7A", "stop"]
    with pytest.raises(IllegalActionError, match="touched point: h6"):
        state.string_to_action("h7-h6A")


def test_chain_may_not_pass_through_a_touched_point():
    stones = {"W": "h6 " + W_FILLER, "B": "h8 h9 h4 j7 " + B_FILLER}
    state = play(position(stones), "h6-h7A")
    assert state.reach(parse_point("h7")) == 2
    assert "h7-h5A" not in steps(state)
    with pytest.raises(IllegalActionError, match="touched point: h6"):
        state.string_to_action("h7-h5A")


def test_chain_steps_must_convert():
    stones = {"W": "h6 " + W_FILLER, "B": "h8 j7 " + B_FILLER}
    state = play(position(stones), "h6-h7A")
    with pytest.raises(IllegalActionError, match="not converting"):
        state.string_to_action("h7-g7")
    with pytest.raises(IllegalActionError, match="only the stone on h7"):
        state.string_to_action("a6-b6")


def test_chain_continues_with_the_same_stone_and_touched_points_reset_after_the_turn():
    stones = {"W": "h6 " + W_FILLER, "B": "h8 j7 k7 " + B_FILLER}
    state = play(position(stones), "h6-h7A", "h7-i7A")
    assert [colour(state, p) for p in ("h8", "j7", "k7")] == ["W", "W", "W"]
    assert state.current_player() == BLACK
    assert state.chain == -1 and state.touched == 0


def test_stop_only_during_a_chain():
    state = load().new_initial_state()
    assert STOP not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="only ends a chain"):
        state.string_to_action("stop")
    chain = play(position({"W": "h6 " + W_FILLER, "B": "h8 j7 " + B_FILLER}), "h6-h7A")
    assert STOP in chain.legal_actions()
    play(chain, "stop")
    assert chain.current_player() == BLACK and colour(chain, "j7") == "B"


def test_turn_ends_by_itself_when_no_conversion_remains():
    state = play(position({"W": "h6 " + W_FILLER, "B": "h8 " + B_FILLER}), "h6-h7A")
    assert state.chain == -1
    assert state.current_player() == BLACK
    assert state.quiet == 0


# ----- passages -------------------------------------------------------------------------


def test_passage_never_converts():
    state = position({"W": "f3 " + W_FILLER, "B": "b6 c7 d6 b7 " + B_FILLER})
    assert "f3-c6" in steps(state)
    play(state, "f3-c6")
    assert colour(state, "c6") == "W"
    assert state.counts == [5, 8]
    assert state.current_player() == BLACK


def test_passage_is_not_part_of_a_chain():
    stones = {"W": "f4 " + W_FILLER, "B": "f2 h3 " + B_FILLER}
    state = play(position(stones), "f4-f3A")
    assert state.chain == parse_point("f3")
    assert steps(state) == ["f3-g3A", "stop"]
    with pytest.raises(IllegalActionError, match="never part of a chain"):
        state.string_to_action("f3-c6")


def test_passage_is_not_a_line_for_reach_or_runs():
    state = position({"W": "f3 c6 c7 c8 " + W_FILLER, "B": B_FILLER})
    assert state.reach(parse_point("f3")) == 1
    runs = play(position({"W": "f5 " + W_FILLER, "B": "f3 c6 c7 " + B_FILLER}), "f5-f4A")
    assert [colour(runs, p) for p in ("f3", "c6", "c7")] == ["W", "B", "B"]


def test_passage_needs_the_far_mouth_empty():
    state = position({"W": "f3 " + W_FILLER, "B": "c6 " + B_FILLER})
    with pytest.raises(IllegalActionError, match="far mouth c6 is occupied"):
        state.string_to_action("f3-c6")


# ----- elimination, winning, skipping ---------------------------------------------------

FOUR = {
    "W": "h6 f1 g1 i1 j1",
    "U": "h8 h9 a6 a7 a8",
    "B": "c7 h15 g15 i15 f15",
    "R": "o6 o7 o8 o9",
}


def test_elimination_below_four_stones_leaves_the_remnant_on_the_board():
    state = play(position(FOUR, players=4), "h6-h7A")
    assert state.counts[1] == 3
    assert state.eliminated == (1,)
    assert not state.is_terminal()
    assert [colour(state, p) for p in ("a6", "a7", "a8")] == ["U", "U", "U"]
    assert state.current_player() == 2, "Blue is out and never moves again"


def test_remnant_of_an_eliminated_colour_can_still_be_converted():
    state = play(position(FOUR, players=4), "h6-h7A", "c7-b7A")
    assert colour(state, "a7") == "B"
    assert state.counts == [7, 2, 6, 4]


def test_win_in_the_middle_of_a_chain():
    stones = {"W": "h6 " + W_FILLER, "B": "h8 j7 k7 f7 o6 o7"}
    state = play(position(stones), "h6-h7A")
    assert state.chain >= 0 and "h7-g7A" in steps(state), "the chain could go on"
    play(state, "h7-i7A")
    assert state.is_terminal()
    assert state.termination is Termination.ONE_LEFT
    assert state.returns() == [1.0, -1.0]
    assert state.result_string().startswith("White wins")


def test_immobile_player_is_skipped():
    stones = {"W": "h15 h14 h13 g13 f13 h8", "B": "f15 g15 f14 g14"}
    state = position(stones)
    play(state, "h8-h7")
    assert state.current_player() == WHITE
    assert state.turns == 1
    assert not state.is_terminal()


def test_no_player_can_move_the_largest_congregation_wins():
    # The stone that moved can always step back, so this cannot arise in play; the rule
    # is checked on a packed board by ending the turn directly.
    game = load()
    every = [f"{f}{r}" for f in "abcdefghijklmno" for r in range(1, 16)]
    from cathedral.games.allmer.geometry import BOX_TO_POINT, FILES

    names = [n for n in every if (FILES.index(n[0]), 15 - int(n[1:])) in BOX_TO_POINT]
    white, black = names[:70], names[70:]
    state = AllmerState.from_position(game, {"W": " ".join(white), "B": " ".join(black)})
    state._end_turn(False)
    assert state.termination is Termination.NO_MOVES
    assert state.returns() == [1.0, -1.0]


# ----- draw rules -----------------------------------------------------------------------

SHUFFLE = ["h3-h4", "h13-h12", "h4-h3", "h12-h13"]


def test_repetition_is_a_draw_with_two_players():
    state = play(load().new_initial_state(), *SHUFFLE)
    assert not state.is_terminal()
    play(state, *SHUFFLE)
    assert state.termination is Termination.REPETITION
    assert state.returns() == [0.0, 0.0]
    assert state.result_string().startswith("Draw")


def test_quiet_turns_are_a_draw_with_two_players():
    state = play(load(quiet_turns=4).new_initial_state(), "h3-h4", "h13-h12", "g3-g4")
    assert not state.is_terminal()
    play(state, "g13-g12")
    assert state.termination is Termination.QUIET_TURNS
    assert state.returns() == [0.0, 0.0]


def test_turn_limit_is_a_draw_with_two_players():
    state = play(load(max_turns=3).new_initial_state(), "h3-h4", "h13-h12")
    assert not state.is_terminal()
    play(state, "g3-g4")
    assert state.termination is Termination.TURN_LIMIT
    assert state.returns() == [0.0, 0.0]


def test_default_turn_limits():
    assert load().turn_limit == 400
    assert load(players=4).turn_limit == 1000
    assert load(max_turns=0).max_game_length() > 10**9


def test_draw_rules_can_be_switched_off():
    state = play(load(repetition=0).new_initial_state(), *SHUFFLE, *SHUFFLE, *SHUFFLE)
    assert not state.is_terminal()


RANKED = {
    "W": "h3 a6 a7 a8 a9 f1 g1 i1 j1 f2 g2 i2",
    "U": "c8 b8 a10",
    "B": "h13 f15 g15 i15 j15 f14 g14 i14 j14 f13 g13 i13 j13 k6 k7 l6 l7 m6 m7",
    "R": "o8 o7 n8",
}
RULES = [
    ({"repetition": 2}, Termination.REPETITION),
    ({"quiet_turns": 4}, Termination.QUIET_TURNS),
    ({"max_turns": 4}, Termination.TURN_LIMIT),
]


@pytest.mark.parametrize(("params", "termination"), RULES, ids=lambda x: str(x))
def test_draw_rules_rank_four_players_by_stones_then_latest_eliminated(params, termination):
    game = load(players=4, **params)
    state = AllmerState.from_position(game, RANKED, eliminated=(3, 1))
    play(state, "h3-h4", "h13-h12", "h4-h3", "h12-h13")
    assert state.termination is termination
    # Black has most stones, then White; Blue fell after Red, so ranks above it.
    assert state.returns() == pytest.approx([1 / 3, -1 / 3, 1.0, -1.0])
    assert "1. Black, 2. White, 3. Blue, 4. Red" in state.result_string()


def test_draw_rules_share_places_on_equal_stones_with_four_players():
    stones = dict(RANKED, B="h13 f15 g15 i15 j15 f14 g14 i14 j14 f13 g13 i13")
    state = AllmerState.from_position(load(players=4, max_turns=2), stones, eliminated=(3, 1))
    play(state, "h3-h4", "h13-h12")
    assert state.returns() == pytest.approx([2 / 3, -1 / 3, 2 / 3, -1.0])


def test_undoes_names_a_step_that_walks_the_same_stone_straight_back():
    import json

    game = cathedral.load("allmer")
    state = game.new_initial_state()
    white = state.string_to_action("f3-f4")
    assert not state.undoes(white)  # nothing to take back yet
    state.apply_action(white)
    state.apply_action(state.string_to_action("f13-f12"))
    back = state.string_to_action("f4-f3")
    assert [a for a in state.legal_actions() if state.undoes(a)] == [back]
    # the memory of each player's last step survives a JSON round trip, and older JSON
    # without it reads as "no step known"
    again = game.state_from_json(state.to_json())
    assert again.undoes(back) and again.to_json() == state.to_json()
    data = json.loads(state.to_json())
    del data["state"]["last_steps"]
    assert not game.state_from_json(json.dumps(data)).undoes(back)
