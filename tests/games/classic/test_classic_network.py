"""Classic's learned value: the shipped network runs on numpy alone, corrects the hand
evaluation from the mover's side, and a network that learned nothing changes nothing."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from cathedral.games.classic import heuristic
from cathedral.games.classic.network import ValueNetwork, shipped
from cathedral.games.classic.pieces import DARK, LIGHT

CATHEDRAL = "Cathedral f6 e7 f7 g7 f8 f9"


def _network(inputs: int, last: float, bias: float = 0.0) -> ValueNetwork:
    rng = np.random.default_rng(0)
    return ValueNetwork({
        "w0": rng.normal(size=(inputs, 8)), "b0": np.zeros(8),
        "w1": rng.normal(size=(8, 4)), "b1": np.zeros(4),
        "w2": np.full((4, 1), last), "b2": np.array([bias]),
    })


def test_a_network_that_learned_nothing_leaves_the_evaluation_as_it_was(play, monkeypatch):
    state = play(CATHEDRAL, "Tavern a1", "Inn c3 c4 d4")
    monkeypatch.setattr(heuristic, "LEARNED", [None])
    hand = heuristic.evaluate(state.position)
    heuristic.use_network(_network(heuristic.VALUE_INPUTS, 0.0))
    assert heuristic.evaluate(state.position) == hand


def test_the_correction_is_in_squares_for_the_player_to_move(play, monkeypatch):
    """A network that always says "two squares better for the mover" moves the margin two
    squares towards whoever is to move, Light or Dark."""
    monkeypatch.setattr(heuristic, "LEARNED", [None])
    w = heuristic.WEIGHTS
    for moves, mover in (((CATHEDRAL, "Tavern a1"), LIGHT),
                         ((CATHEDRAL, "Tavern a1", "Tavern j10"), DARK)):
        state = play(*moves)
        assert state.current_player() == mover
        heuristic.use_network(None)
        lead, left = heuristic.margin(state.position)
        heuristic.use_network(_network(heuristic.VALUE_INPUTS, 0.0, bias=2.0))
        value = heuristic.evaluate(state.position)[LIGHT]
        shifted = lead + (2.0 if mover == LIGHT else -2.0)
        assert value == pytest.approx(np.tanh(shifted / (w["scale"] + w["per_square"] * left)))


def test_the_input_is_the_observation_then_both_colours_features(play):
    state = play(CATHEDRAL, "Tavern a1")
    position = state.position
    both = (heuristic.features(position, LIGHT), heuristic.features(position, DARK))
    for mover in (LIGHT, DARK):
        x = heuristic.value_input(position, both, mover)
        assert x.shape == (heuristic.VALUE_INPUTS,) and x.dtype == np.float32
        observation = state.observation_tensor(mover)
        assert np.array_equal(x[: observation.size], observation)
        own_unplaced = both[mover][0] / 10
        assert x[observation.size] == pytest.approx(own_unplaced)


def test_weights_round_trip_through_their_file(tmp_path):
    network = _network(heuristic.VALUE_INPUTS, 0.5, bias=1.0)
    network.meta = {"epochs": 3}
    network.save(tmp_path / "value.npz")
    again = ValueNetwork.load(tmp_path / "value.npz")
    assert again.meta == {"epochs": 3}
    x = np.linspace(0, 1, heuristic.VALUE_INPUTS, dtype=np.float32)
    assert again.correction(x) == pytest.approx(network.correction(x))
    assert again.corrections(np.stack([x, x])) == pytest.approx([network.correction(x)] * 2)


def test_weights_missing_a_layer_are_refused():
    with pytest.raises(ValueError, match="lack w2, b2"):
        ValueNetwork({"w0": np.zeros((3, 2)), "b0": np.zeros(2), "w1": np.zeros((2, 2)),
                      "b1": np.zeros(2)})


def test_the_shipped_network_is_small_fits_the_input_and_is_off_until_asked_for(monkeypatch):
    network = shipped()
    assert network is not None, "the package ships data/value.npz"
    assert network.inputs == heuristic.VALUE_INPUTS
    size = sum(getattr(network, name).nbytes for name in ("w0", "b0", "w1", "b1", "w2", "b2"))
    assert size < 4_000_000
    assert network.meta["val_outcome_loss"] < network.meta["hand_val_outcome_loss"]
    assert heuristic.LEARNED[0] is None
    monkeypatch.setattr(heuristic, "LEARNED", [None])
    heuristic.use_network()
    assert heuristic.LEARNED[0] is network
    heuristic.use_network(None)
    assert heuristic.LEARNED[0] is None


def test_playing_with_the_network_needs_no_jax():
    """The evaluation runs in a Python where importing jax fails."""
    code = (
        "import sys; sys.modules['jax'] = None; sys.modules['optax'] = None\n"
        "import cathedral\n"
        "from cathedral.ai import load_agent\n"
        "from cathedral.games.classic import heuristic\n"
        "heuristic.use_network()\n"
        "game = cathedral.load('classic'); state = game.new_initial_state()\n"
        "agent = load_agent('alphabeta:depth=2,width=4,root_width=4', game, seed=1)\n"
        "for _ in range(4): state.apply_action(agent.choose(state))\n"
        "assert heuristic.LEARNED[0] is not None\n"
        "print('ok', heuristic.evaluate(state.position))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("ok")
