"""Searches on several cores: the root split of alpha-beta finds what the search alone finds,
reports each depth, and survives a dead worker; rollouts share their passes; ``max`` uses
every core."""

from __future__ import annotations

import random

import pytest

import cathedral
from cathedral.ai import AlphaBetaAgent, Budget, RolloutAgent, load_agent
from cathedral.ai.levels import level_spec


def _midgame(game_name: str = "classic", seed: int = 0, plies: int = 6, **params):
    game = cathedral.load(game_name, **params)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while plies > 0 or state.is_chance_node():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        plies -= 1
    return state


@pytest.fixture
def agents():
    made = []

    def make(**kwargs):
        agent = AlphaBetaAgent(seed=0, **kwargs)
        made.append(agent)
        return agent

    yield make
    for agent in made:
        agent.close()


@pytest.mark.parametrize("seed", [1, 2])
def test_the_split_root_finds_the_value_of_the_search_alone(agents, seed):
    state = _midgame(seed=seed)
    search = {"budget": Budget(depth=2), "width": 5, "root_width": 12}
    alone = agents(**search).analyse(state)
    split = agents(**search, workers=2).analyse(state)
    assert split.depth == alone.depth == 2
    assert split.values == alone.values
    assert dict(split.scores)[split.action] == dict(alone.scores)[alone.action]
    assert split.pv[0] == split.action and split.iterations > 0
    replay = state.clone()
    for action in split.pv:
        replay.apply_action(action)  # a line of legal moves


def test_the_split_root_solves_nim_like_the_search_alone(nim, agents):
    for pile in range(1, 13):
        state = nim(pile=pile).new_initial_state()
        alone = agents(budget=Budget(depth=20), width=None, root_width=None).analyse(state)
        split = agents(budget=Budget(depth=20), width=None, root_width=None,
                       workers=3).analyse(state)
        assert split.proven and alone.proven
        assert split.values == alone.values  # the player to move wins unless pile % 4 == 0
        if pile % 4:
            assert split.action == alone.action == (pile % 4) - 1


def test_the_split_root_reports_every_depth_in_order(agents):
    state = _midgame(seed=3)
    agent = agents(budget=Budget(depth=3), width=4, root_width=8, workers=2)
    seen = []
    agent.progress = seen.append
    info = agent.analyse(state)
    assert [s.depth for s in seen] == [1, 2, 3]
    assert seen[-1].action == info.action and info.depth == 3


def test_the_workers_are_kept_between_moves_and_ended_by_close(agents):
    state = _midgame(seed=4)
    agent = agents(budget=Budget(depth=1), width=4, root_width=8, workers=2)
    agent.analyse(state)
    processes = list(agent._helpers._procs)
    agent.analyse(state)
    assert agent._helpers._procs == processes and all(p.is_alive() for p in processes)
    agent.close()
    assert not any(p.is_alive() for p in processes)
    agent.analyse(state)  # starts them again
    assert agent._helpers is not None and len(agent._helpers) == 2


def test_a_dead_worker_leaves_the_search_alone_to_answer(agents):
    state = _midgame(seed=5)
    agent = agents(budget=Budget(depth=2), width=4, root_width=8, workers=2)
    agent.analyse(state)
    for process in agent._helpers._procs:
        process.kill()
        process.join()
    info = agent.analyse(state)
    assert info.action in state.legal_actions() and info.depth == 2
    assert agent._helpers is None  # forgotten: from now on it searches alone
    assert agent.analyse(state).action == info.action


def test_workers_is_checked():
    with pytest.raises(ValueError, match="workers must be at least 1"):
        AlphaBetaAgent(workers=0)
    with pytest.raises(cathedral.ParameterError, match="workers"):
        load_agent("alphabeta:workers=two", cathedral.load("classic"))


@pytest.mark.parametrize("game_name,players", [("red", 2), ("allmer", 4)])
def test_rollouts_share_their_passes_among_workers(game_name, players):
    params = {"players": players} if players > 2 else {}
    state = _midgame(game_name, seed=6, plies=8, **params)
    while len(state.legal_actions()) < 3 or state.is_chance_node():
        state = _midgame(game_name, seed=random.randrange(1000), plies=8, **params)
    before = state.to_json()
    agent = RolloutAgent(seed=1, budget=Budget(iterations=12), candidates=3, workers=2)
    try:
        info = agent.analyse(state)
        # Each of the two workers made 6 rollouts (two passes over the 3 candidates).
        assert info.iterations == 12 and len(info.scores) == 3
        assert info.action in state.legal_actions() and state.to_json() == before
        assert agent.analyse(state).iterations == 12
    finally:
        agent.close()


def test_rollout_halving_shares_every_round_among_workers():
    state = _midgame("red", seed=6, plies=8)
    seed = 6
    while len(state.legal_actions()) < 4 or state.is_chance_node():
        seed += 1
        state = _midgame("red", seed=seed, plies=8)
    agent = RolloutAgent(seed=1, budget=Budget(iterations=32), candidates=4, halving=True,
                         workers=2)
    try:
        info = agent.analyse(state)
        # Two rounds of 16 rollouts: each worker rolls out the 4 candidates twice, then the
        # better 2 four times.
        assert info.iterations == 32 and len(info.scores) == 4
        assert info.action == info.scores[0][0] and info.action in state.legal_actions()
    finally:
        agent.close()


@pytest.mark.parametrize("game_name,players", [("classic", 2), ("allmer", 2), ("allmer", 4),
                                               ("red", 2), ("red", 4)])
def test_max_uses_every_core(game_name, players):
    assert level_spec("max", game_name, players)[1]["workers"] is None
    game = cathedral.load(game_name, **({"players": players} if players > 2 else {}))
    assert load_agent("max", game).workers is None
    for level in ("medium", "hard"):
        assert level_spec(level, game_name, players)[1].get("workers", 1) == 1


def test_an_interrupted_split_ends_its_workers_and_the_next_move_starts_afresh(agents):
    state = _midgame(seed=7)
    agent = agents(budget=Budget(depth=3), width=4, root_width=8, workers=2)
    agent.analyse(state)
    first = agent._helpers
    processes = list(first._procs)

    def interrupt(info):
        raise KeyboardInterrupt  # Ctrl-C while the search deepens

    agent.progress = interrupt
    with pytest.raises(KeyboardInterrupt):
        agent.analyse(state)
    assert first.closed and not any(p.is_alive() for p in processes)
    agent.progress = None
    alone = agents(budget=Budget(depth=3), width=4, root_width=8).analyse(state)
    info = agent.analyse(state)  # fresh workers, no stale answers from the interrupted call
    assert agent._helpers is not first and info.values == alone.values and info.depth == 3


def test_the_split_keeps_a_move_the_unfinished_depth_proved_better():
    from cathedral.ai.alphabeta import ShareDepth

    a, b, c = 10, 11, 12
    depth2 = [ShareDepth(2, a, 0.2, [(a, 0.2, True)], True, True, [a], False),
              ShareDepth(2, b, 0.1, [(b, 0.1, True), (c, 0.0, False)], True, True, [b], False)]
    merged = AlphaBetaAgent._merge([{2: depth2[0]}, {2: depth2[1]}], 2)
    assert merged[0].action == a and not merged[1]
    depths = [{2: depth2[0]}, {2: depth2[1]}]
    # Depth 3, cut short: a fell to -0.1; b, searched in full, holds 0.05; c only a bound.
    deeper = AlphaBetaAgent._deeper(merged, depths, [[(a, -0.1, True)], [(b, 0.05, True),
                                                                        (c, 0.3, False)]])
    assert deeper[0].action == b and deeper[0].value == 0.05
    # Without a's own value at depth 3 nothing is known to be better than it.
    assert AlphaBetaAgent._deeper(merged, depths, [[], [(b, 0.05, True)]]) == merged


def test_the_split_ends_once_every_share_has_settled():
    # One share lost every action (a bound, its lines cut), the other was searched to the
    # end: nothing changes past this depth, so the merge is proven and the split stops.
    from cathedral.ai.alphabeta import WIN, ShareDepth

    a, b = 10, 11
    lost = ShareDepth(3, a, -WIN, [(a, -WIN, False)], True, False, [a], True)
    solved = ShareDepth(2, b, 0.25, [(b, 0.25, True)], False, True, [b], True)
    merged = AlphaBetaAgent._merge([{3: lost}, {2: solved}], 3)
    assert merged[1] and merged[0].action == b and merged[0].value == 0.25
    # Before both have settled, the depth is not proven.
    open_share = solved._replace(settled=False, cut=True)
    assert not AlphaBetaAgent._merge([{3: lost}, {3: open_share}], 3)[1]
