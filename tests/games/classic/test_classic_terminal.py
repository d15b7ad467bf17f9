"""Classic's terminal layout: the shapes of the buildings in hand beside the board (Light's and
Dark's Abbey and Academy mirrored), the last placement marked, the plain board unchanged."""

from __future__ import annotations

import cathedral
from cathedral.games.classic.pieces import LIGHT, Building
from cathedral.games.classic.view.render import hand_shapes


def play(*moves: str):
    state = cathedral.load("classic").new_initial_state()
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def test_the_last_placement_is_marked_with_stars_without_colour():
    state = play("Cathedral e4 d5 e5 f5 e6 e7", "Inn a1 a2 b1")
    lines = state.render(width=80).splitlines()
    assert lines[9].startswith(" 2 *i .") and lines[10].startswith(" 1 *i*i .")
    assert "*" not in str(state)  # the plain board (records, logs) stays as it was


def test_the_hands_are_drawn_as_shapes_beside_the_board():
    state = play("Cathedral e4 d5 e5 f5 e6 e7")
    text = state.render(width=80)
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert "Light in hand, 47 squares:" in lines[0] and "Dark in hand, 47 squares:" in text
    assert "Light hand:" not in text  # the shapes replace the list
    assert "Light hand:" in str(state)


def test_abbey_and_academy_differ_between_the_colours():
    position = play().position
    light = "\n".join(hand_shapes(position, LIGHT))
    dark = "\n".join(hand_shapes(position, 1 - LIGHT))
    assert "#" in light  # the Cathedral is Light's to place first
    # Light's Abbey rises to the right, Dark's to the left (classic.md, Pieces).
    light_rows = [row for row in light.splitlines() if "A" in row]
    dark_rows = [row for row in dark.splitlines() if "a" in row]
    assert light_rows[0].index("A") > light_rows[1].index("A")
    assert dark_rows[0].index("a") < dark_rows[1].index("a")
    assert Building.ABBEY.title == "Abbey"


def test_a_narrow_terminal_gets_the_hands_below_the_board():
    lines = play("Cathedral e4 d5 e5 f5 e6 e7").render(width=60).splitlines()
    assert lines[12].startswith("Light in hand")
    assert all(len(line) <= 60 for line in lines)
