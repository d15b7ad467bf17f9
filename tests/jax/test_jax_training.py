"""The training recipes: classic self-play lines replay to the game they record, the value
trainer learns a correction from them and writes weights the numpy network reads, and the
AlphaZero example runs on the batched engine."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")
pytest.importorskip("mctx")

import cathedral
from cathedral.games.classic import heuristic
from cathedral.games.classic.network import ValueNetwork
from cathedral.jax import selfplay, train_classic

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FAST = "alphabeta:depth=1,width=4,root_width=4"


@pytest.fixture(scope="module")
def lines(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("selfplay") / "games.jsonl"
    assert selfplay.main(["--games", "6", "--spec", FAST, "--out", str(path)]) == 0
    return path


def test_a_self_play_line_replays_to_the_scores_it_records(lines):
    game = cathedral.load("classic")
    for line in map(json.loads, lines.read_text().splitlines()):
        state = game.new_initial_state()
        for action in line["actions"]:
            state.apply_action(action)
        assert state.is_terminal()
        assert [int(s) for s in state.scores()] == line["scores"]
        assert len(line["values"]) == len(line["actions"])
        assert line["values"][0] is None  # the random opening is not searched
        searched = [v for v in line["values"] if v is not None]
        assert searched and all(-1.0 <= v <= 1.0 for v in searched)


def test_self_play_from_a_seed_is_the_same_game():
    assert selfplay.play(3, FAST) == selfplay.play(3, FAST)


def test_positions_are_seen_from_the_mover_with_its_final_result(lines):
    rows = [json.loads(text) for text in lines.read_text().splitlines()]
    data = train_classic.positions(rows)
    assert data["x"].shape[1] == heuristic.VALUE_INPUTS
    own = ~np.isnan(data["outcome"])
    assert set(np.unique(data["outcome"][own]).tolist()) <= {0.0, 0.5, 1.0}
    # The "me to move" flag of the observation: every position is seen by its mover.
    assert np.all(data["x"][:, heuristic.VALUE_INPUTS - 10 - 1] == 1.0)
    first = rows[0]
    light, dark = first["scores"]
    light_result = 0.5 if light == dark else float(light < dark)
    in_first = (data["game"] == 0) & own
    assert set(data["outcome"][in_first].tolist()) <= {light_result, 1.0 - light_result}


def test_siblings_are_the_searched_alternatives_with_the_search_value(lines):
    """Each searched move adds the positions after its best root actions, with no outcome
    and the search's value turned to the view of whoever moves there."""
    rows = [json.loads(text) for text in lines.read_text().splitlines()]
    data = train_classic.positions(rows)
    without = train_classic.positions(rows, siblings=False)
    sibling = np.isnan(data["outcome"])
    assert sibling.any() and not np.isnan(without["outcome"]).any()
    assert (~sibling).sum() == len(without["outcome"])
    assert np.all(np.abs(data["search"][sibling]) <= 1.0)
    target = train_classic.targets(data, search_weight=0.5)
    assert np.allclose(target[sibling], (data["search"][sibling] + 1) / 2)
    searched = ~sibling & ~np.isnan(data["search"])
    mixed = 0.5 * data["outcome"][searched] + 0.5 * (data["search"][searched] + 1) / 2
    assert np.allclose(target[searched], mixed)


def test_a_quarter_turn_turns_the_board_planes_only(lines):
    rows = [json.loads(text) for text in lines.read_text().splitlines()]
    data = train_classic.positions(rows[:1])
    turned = train_classic.rotated(data, 1)
    assert np.array_equal(turned["x"][:, 500:], data["x"][:, 500:])
    assert not np.array_equal(turned["x"][:, :500], data["x"][:, :500])
    back = train_classic.rotated(train_classic.rotated(turned, 1), 2)
    assert np.array_equal(back["x"], data["x"])
    # A piece count per plane is the same after turning.
    planes = data["x"][:, :500].reshape(-1, 5, 100).sum(axis=2)
    assert np.array_equal(turned["x"][:, :500].reshape(-1, 5, 100).sum(axis=2), planes)


def test_training_writes_weights_the_numpy_network_reads(lines, tmp_path):
    out, curve, svg = tmp_path / "value.npz", tmp_path / "curve.json", tmp_path / "curve.svg"
    code = train_classic.main(["--games", str(lines), "--epochs", "2", "--batch", "64",
                               "--match", "2", "--match-every", "2", "--match-spec", FAST,
                               "--out", str(out), "--curve", str(curve), "--svg", str(svg)])
    assert code == 0
    network = ValueNetwork.load(out)
    assert network.inputs == heuristic.VALUE_INPUTS
    assert network.meta["epochs"] == 2 and network.meta["rotations"] is True
    report = json.loads(curve.read_text())
    assert [p["epoch"] for p in report["curve"]] == [1, 2]
    assert report["curve"][-1]["match"]["wins"] + report["curve"][-1]["match"]["draws"] + \
        report["curve"][-1]["match"]["losses"] == 2
    assert svg.read_text().startswith("<svg") and "held out" in svg.read_text()


def test_the_alphazero_example_plays_searches_and_trains(capsys):
    spec = importlib.util.spec_from_file_location("alphazero_jax", EXAMPLES / "alphazero_jax.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    assert example.main(["--size", "tiny", "--batch", "4", "--simulations", "4", "--steps", "6",
                         "--iterations", "1", "--train-steps", "1", "--eval-games", "4"]) == 0
    printed = capsys.readouterr().out
    assert "policy loss" in printed and "vs random: mean return" in printed


def test_value_targets_follow_the_mover_through_skipped_turns():
    """Walking back from the end: the value flips where the turn passes and stays where the
    same player moves again (a skipped opponent); moves of an unfinished game get none."""
    example_spec = importlib.util.spec_from_file_location("az", EXAMPLES / "alphazero_jax.py")
    example = importlib.util.module_from_spec(example_spec)
    example_spec.loader.exec_module(example)
    # One game (column 0): Light, Dark, Dark (Light skipped), then Dark's winning end.
    records = {
        "mover": np.array([[0], [1], [1], [1]]),
        "next_mover": np.array([[1], [1], [1], [1]]),
        "reward": np.array([[0.0], [0.0], [0.0], [1.0]]),
        "terminated": np.array([[False], [False], [False], [True]]),
    }
    target, known = example.value_targets(records)
    assert target[:, 0].tolist() == [-1.0, 1.0, 1.0, 1.0]
    assert known.all()
    records["terminated"][3, 0] = False
    assert not example.value_targets(records)[1].any()
