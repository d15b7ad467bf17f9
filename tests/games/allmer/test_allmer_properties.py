"""Property tests: the 8 symmetries of the board, JSON round trips, replay, illegal input
leaving the state alone, and greedy games ending under the draw rules."""

from __future__ import annotations

import random

from allmer_testlib import load
from hypothesis import given, settings
from hypothesis import strategies as st

import cathedral
from cathedral.ai import load_agent
from cathedral.games.allmer import AllmerState
from cathedral.games.allmer.geometry import (
    NUM_POINTS,
    SYMMETRIES,
    parse_point,
    point_name,
    transform_point,
)

SETTINGS = st.fixed_dictionaries(
    {
        "players": st.sampled_from([2, 4]),
        "field": st.sampled_from(["middle4", "middle8"]),
        "withdraw": st.booleans(),
    }
)


def random_state(params: dict, seed: int, steps: int, *, convert_bias: float = 0.7):
    """Plays ``steps`` random actions (leaning towards conversions, so that chains and
    eliminations come up) and returns the state."""
    rng = random.Random(seed)
    state = load(**params).new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        converting = [a for a in legal if state.action_to_string(a)[-1] in "AW"]
        pool = converting if converting and rng.random() < convert_bias else legal
        state.apply_action(rng.choice(pool))
    return state


states = st.builds(random_state, SETTINGS, st.integers(0, 10**6), st.integers(0, 160))


def transformed(state: AllmerState, sym: int) -> AllmerState:
    """Returns the image of ``state`` under symmetry ``sym`` (same colours, same turn order)."""
    letters = state.game.colour_letters()
    stones: dict[str, list[str]] = {letter: [] for letter in letters[1:]}
    for p in range(NUM_POINTS):
        if state.board[p]:
            stones[letters[state.board[p]]].append(point_name(transform_point(sym, p)))
    chain = point_name(transform_point(sym, state.chain)) if state.chain >= 0 else None
    touched = " ".join(point_name(transform_point(sym, p)) for p in state.touched_points())
    return AllmerState.from_position(
        state.game,
        {k: " ".join(v) for k, v in stones.items()},
        to_move=state.player,
        chain=chain,
        touched=touched,
        eliminated=state.eliminated,
    )


def image(sym: int, step: str) -> str:
    if step == "stop":
        return step
    origin, rest = step.split("-")
    suffix = rest[-1] if rest[-1] in "AW" else ""
    landing = rest[: len(rest) - len(suffix)]
    return (
        point_name(transform_point(sym, parse_point(origin)))
        + "-"
        + point_name(transform_point(sym, parse_point(landing)))
        + suffix
    )


@settings(max_examples=40, deadline=None)
@given(states)
def test_every_symmetry_keeps_the_number_of_legal_steps(state):
    if state.is_terminal():
        return
    steps = [state.action_to_string(a) for a in state.legal_actions()]
    for sym in range(len(SYMMETRIES)):
        other = transformed(state, sym)
        other_steps = [other.action_to_string(a) for a in other.legal_actions()]
        assert len(other_steps) == len(steps)
        assert sorted(other_steps) == sorted(image(sym, s) for s in steps)


@settings(max_examples=40, deadline=None)
@given(states)
def test_json_round_trip(state):
    text = state.to_json()
    again = state.game.state_from_json(text)
    assert again.to_json() == text
    assert again == state
    assert again.legal_actions() == state.legal_actions()
    assert again.position_key() == state.position_key()
    assert again.returns() == state.returns()


@settings(max_examples=30, deadline=None)
@given(states)
def test_replaying_the_history_reproduces_the_state(state):
    replay = state.game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert replay.to_json() == state.to_json()
    assert replay.position_key() == state.position_key()


@settings(max_examples=40, deadline=None)
@given(states, st.lists(st.integers(0, 28_008), min_size=1, max_size=20))
def test_illegal_actions_leave_the_state_unchanged(state, actions):
    before = state.to_json()
    legal = set(state.legal_actions())
    for action in actions:
        if action in legal:
            continue
        try:
            state.apply_action(action)
        except cathedral.IllegalActionError:
            pass
        else:
            raise AssertionError(f"illegal action {action} accepted")
        assert state.to_json() == before


@settings(max_examples=60, deadline=None)
@given(states, st.text(alphabet="abcdefghijklmnopAWSTOP0123456789- x", max_size=10))
def test_any_text_either_parses_to_a_legal_step_or_raises_a_value_error(state, text):
    before = state.to_json()
    try:
        action = state.string_to_action(text)
    except ValueError:
        pass
    else:
        assert action in state.legal_actions()
    assert state.to_json() == before


@settings(max_examples=6, deadline=None)
@given(
    st.fixed_dictionaries(
        {"field": st.sampled_from(["middle4", "middle8"]), "withdraw": st.booleans()}
    ),
    st.integers(0, 10**6),
)
def test_greedy_games_always_end_under_the_draw_rules(params, seed):
    game = load(**params)
    agents = [load_agent("greedy", game, seed=seed + i) for i in range(game.num_players)]
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].choose(state))
        steps += 1
        assert steps <= game.max_game_length()
    assert state.termination is not None
    assert state.turns <= game.turn_limit
    assert sum(state.returns()) == 0
