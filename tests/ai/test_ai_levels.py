"""Levels, names and specs, hints, and the test doubles."""

from __future__ import annotations

import pytest

import cathedral
from cathedral.ai import LEVEL_NAMES, agent_names, hint, load_agent, parse_spec
from cathedral.ai.testing import FakeClock, ScriptedAgent
from cathedral.core.errors import AgentError, ParameterError


def test_every_name_loads_for_classic():
    game = cathedral.load("classic")
    for name in agent_names():
        agent = load_agent(name, game, seed=0)
        assert agent.label == name
    assert set(LEVEL_NAMES) <= set(agent_names())
    assert {"random", "greedy", "mcts", "alphabeta"} <= set(agent_names())


def test_levels_have_the_promised_time_limits():
    game = cathedral.load("classic")
    assert load_agent("medium", game).budget.seconds <= 2
    assert load_agent("hard", game).budget.seconds <= 10
    assert load_agent("easy", game).name == "greedy"
    assert load_agent("random", game).name == "random"


def test_specs_override_budgets_and_arguments():
    assert parse_spec("mcts:seconds=2,c=0.5,solver=false") == (
        "mcts", {"seconds": 2, "c": 0.5, "solver": False}
    )
    game = cathedral.load("classic")
    agent = load_agent("hard:seconds=0.5,width=3", game)
    assert agent.budget.seconds == 0.5 and agent.width == 3
    agent = load_agent("mcts:iterations=10", game)
    assert agent.budget.iterations == 10 and agent.budget.seconds is None


def test_bad_names_and_arguments_list_what_is_valid():
    game = cathedral.load("classic")
    with pytest.raises(ParameterError, match=r"unknown agent 'nope' \(available: .*greedy"):
        load_agent("nope", game)
    with pytest.raises(ParameterError, match=r"unknown argument 'colour' for mcts \(accepted: "):
        load_agent("mcts:colour=blue", game)
    with pytest.raises(ParameterError, match="NAME=VALUE"):
        load_agent("mcts:fast", game)


def test_hint_gives_an_action_values_and_a_line():
    state = cathedral.load("classic").new_initial_state()
    info = hint(state, "medium:seconds=0.3")
    assert info.action in state.legal_actions()
    assert len(info.values) == 2 and info.pv[0] == info.action
    assert state.history() == []


def test_scripted_agent_plays_its_script_and_complains_after():
    state = cathedral.load("classic").new_initial_state()
    agent = ScriptedAgent(["Cathedral f6 e7 f7 g7 f8 f9"])
    state.apply_action(agent.choose(state))
    with pytest.raises(AgentError, match="ran out"):
        agent.choose(state)
    with pytest.raises(AgentError, match="not legal"):
        ScriptedAgent([state.game.num_distinct_actions() - 1]).choose(state)  # a Cathedral


def test_fake_clock_steps_and_advances():
    clock = FakeClock(start=5.0, step=0.5)
    assert (clock(), clock()) == (5.0, 5.5)
    clock.advance(10)
    assert clock() == 16.0 and clock.reads == 3


@pytest.mark.parametrize("name,players", [("allmer", 2), ("allmer", 4), ("red", 2), ("red", 4)])
def test_every_level_of_every_game_is_bounded_and_loads(name, players):
    game = cathedral.load(name, players=players)
    limits = {"medium": 2.0, "hard": 10.0}
    for level in LEVEL_NAMES:
        agent = load_agent(level, game, seed=0)
        if level in ("random", "easy"):
            continue
        budget = agent.budget
        assert budget.is_bounded()
        if level in limits and budget.seconds is not None:
            assert budget.seconds <= limits[level] / 2  # half the limit: room for the machine
    assert load_agent("hard", game).name == ("alphabeta" if name == "allmer" else "rollout")


def test_classic_medium_looks_two_plies_ahead_and_hard_deepens_with_the_solver():
    game = cathedral.load("classic")
    medium, hard = load_agent("medium", game), load_agent("hard", game)
    assert medium.budget.depth == 2 and medium.budget.seconds <= 2
    assert hard.budget.depth is None and hard.endgame > 0


def test_classic_levels_search_wider_from_medium_to_max():
    # Width, not depth, buys strength past depth 4 (benchmarks/RESULTS.md, History).
    game = cathedral.load("classic")
    medium, hard, top = (load_agent(level, game) for level in ("medium", "hard", "max"))
    assert medium.width < hard.width < top.width and top.width >= 20
    assert medium.root_width < hard.root_width < top.root_width and top.root_width >= 100
    assert top.budget.seconds >= hard.budget.seconds and top.endgame == hard.endgame > 0
    top.close()


@pytest.mark.parametrize("players", [2, 3])
def test_red_hard_rolls_out_more_candidates_on_more_dice_than_medium(players):
    # With several rivals fewer candidates or fewer samples were no step over medium
    # (benchmarks/RESULTS.md, History).
    game = cathedral.load("red", players=players)
    medium, hard = load_agent("medium", game), load_agent("hard", game)
    assert (medium.candidates, medium.budget.iterations) == (3, 3)
    assert hard.candidates == 8 and hard.budget.iterations == 8 * hard.candidates
    assert hard.budget.seconds <= 5


def test_red_four_player_levels_are_spaced_lower_under_the_same_max():
    # With 4 players max stood too little above the 8-candidate hard: medium and hard are set
    # lower (2 and 4 candidates) so that each step fits under max (benchmarks/RESULTS.md).
    four, three = (cathedral.load("red", players=n) for n in (4, 3))
    medium, hard, top = (load_agent(level, four) for level in ("medium", "hard", "max"))
    assert (medium.candidates, medium.budget.iterations) == (2, 2)
    assert (hard.candidates, hard.budget.iterations) == (4, 32)
    assert top.candidates is None and top.params == load_agent("max", three).params
    assert load_agent("hard", three).candidates == 8
    top.close()


def test_allmer_four_player_max_thinks_ten_times_longer_than_hard():
    # A ply of the paranoid search costs some 16 times the one before, so max needs a tenth of
    # hard's time to be a ply deeper (benchmarks/RESULTS.md, History).
    game = cathedral.load("allmer", players=4)
    hard, top = load_agent("hard", game), load_agent("max", game)
    assert hard.name == top.name == "alphabeta"
    assert hard.budget.seconds <= 0.05 and top.budget.seconds >= 10 * hard.budget.seconds
    top.close()
