"""Properties of random and greedy Red Cathedral games: they end, materials and banners are
conserved, no inventory overflows, JSON and records replay exactly, illegal actions change
nothing, every notation (chance outcomes included) parses back."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cathedral
from cathedral import IllegalActionError, Record, StateError
from cathedral.ai.base import GreedyAgent
from cathedral.games.red import actions as A
from cathedral.testing import random_action

SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def invariants(state):
    c, n = state.c, state.n
    if state.stage < 6:
        return
    for m in range(6):
        held = sum(state.inv[p * 6 + m] for p in range(n))
        placed = sum(c.card_cost[state.slot_card[s]][m] - state.need[s * 6 + m]
                     for s in state.slots if not state.built[s])
        assert state.supply[m] + held + placed == c.supply[m], m
        assert state.supply[m] >= 0
    for p in range(n):
        assert state.free_slots(p) >= 0, "an inventory holds more than its free slots"
        on_cards = sum(1 for s in state.slots if state.owner[s] == p)
        assert state.bin[p] + state.bout[p] + on_cards == c.banners
        assert state.rubles[p] >= 0 and state.pos[p] >= 0


def play_random(game, seed, *, check=True, steps=None):
    rng = random.Random(seed)
    state = game.new_initial_state()
    count = 0
    while not state.is_terminal() and (steps is None or count < steps):
        state.apply_action(random_action(state, rng))
        count += 1
        if check:
            invariants(state)
    return state


@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]),
       side=st.sampled_from(["basic", "advanced"]))
def test_random_games_end_and_conserve_everything(seed, players, side):
    game = cathedral.load("red", players=players, workshop=side, turn_cap=25)
    state = play_random(game, seed)
    assert state.is_terminal()
    assert len(state.history()) <= game.max_game_length()
    assert abs(sum(state.returns())) < 1e-9


@pytest.mark.parametrize("players,seed", [(2, 0), (3, 1), (4, 2)])
def test_greedy_games_end_by_a_sixth_completion(players, seed):
    game = cathedral.load("red", players=players)
    rng = random.Random(seed)
    agent = GreedyAgent(seed=seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        action = random_action(state, rng) if state.is_chance_node() else agent.choose(state)
        state.apply_action(action)
        invariants(state)
    assert state.trigger >= 0, state.result_string()


@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 400))
def test_json_round_trip_and_record_replay_are_exact(seed, steps):
    game = cathedral.load("red", players=3, turn_cap=20)
    state = play_random(game, seed, check=False, steps=steps)
    text = state.to_json()
    again = game.state_from_json(text)
    assert again.to_json() == text
    record = Record.from_json(Record.from_state(state).to_json())
    assert record.final_state().to_json() == text
    # the copy plays on identically
    rng1, rng2 = random.Random(seed), random.Random(seed)
    for _ in range(30):
        if state.is_terminal():
            break
        a = random_action(state, rng1)
        assert random_action(again, rng2) == a
        state.apply_action(a)
        again.apply_action(a)
    assert again.to_json() == state.to_json()


@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(40, 600))
def test_illegal_actions_leave_the_state_unchanged(seed, steps):
    game = cathedral.load("red", players=2, turn_cap=20)
    state = play_random(game, seed, check=False, steps=steps)
    if state.is_terminal():
        return
    before = state.to_json()
    legal = set(state.legal_actions()) | {a for a, _ in state.chance_outcomes()}
    rng = random.Random(seed)
    for action in rng.sample(range(A.NUM_ACTIONS), 60):
        if action in legal:
            continue
        with pytest.raises(IllegalActionError):
            state.apply_action(action)
        assert state.to_json() == before


@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 300))
def test_every_notation_parses_back(seed, steps):
    game = cathedral.load("red", players=4, turn_cap=20)
    state = play_random(game, seed, check=False, steps=steps)
    actions = [a for a, _ in state.chance_outcomes()] or state.legal_actions()
    for action in actions:
        text = state.action_to_string(action)
        assert state.string_to_action(text) == action, text
        assert state.string_to_action("  " + text.upper() + " ") == action


def test_illegal_notation_says_why(red2):
    with pytest.raises(cathedral.NotationError, match="unknown word"):
        red2.string_to_action("build T1.1")
    with pytest.raises(cathedral.NotationError, match="unknown material"):
        red2.string_to_action("deliver marble T1.1")
    with pytest.raises(IllegalActionError, match="does not carry Red's banner"):
        red2.string_to_action("deliver wood T1.1")


def test_corrupt_state_json_is_rejected(red2):
    import json

    data = json.loads(red2.to_json())
    data["state"]["supply"][0] = 3
    with pytest.raises(StateError, match="corrupt state: wood"):
        red2.game.state_from_json(json.dumps(data))
    data = json.loads(red2.to_json())
    data["state"]["inv"] = [0, 1]
    with pytest.raises(StateError, match="field 'inv' has 2 entries"):
        red2.game.state_from_json(json.dumps(data))
    data = json.loads(red2.to_json())
    data["state"]["history"] = [99999]
    with pytest.raises(StateError, match="history"):
        red2.game.state_from_json(json.dumps(data))


def test_observation_and_rendering(red2):
    obs = red2.observation_tensor(1)
    assert obs.shape == red2.game.observation_shape() and obs.dtype.name == "float32"
    text = str(red2)
    assert "MARKET" in text and "CATHEDRAL" in text and "PLAYERS" in text
    assert "T1.1*" in text  # claimable cards are marked
    assert "\033[" in red2.render(color=True)
    assert red2.prompt_hint().startswith("Red: one basic action")


def test_evaluate_and_heuristics(red2):
    values = red2.evaluate()
    assert len(values) == 2 and all(-1 < v < 1 for v in values)
    scored = dict(red2.action_heuristics())
    assert set(scored) == set(red2.legal_actions())
