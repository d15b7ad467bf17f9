"""The search hooks of red: a position key that ignores the path and tracks the position, the
evaluation's race to the sixth completion, and ``analyse`` finding the move that wins."""

from __future__ import annotations

import random

import pytest
from red_positions import give, play, sixth_section_in_reach

import cathedral
from cathedral.ai import Budget, RolloutAgent, analyse
from cathedral.ai.testing import FakeClock
from cathedral.testing import random_action


def test_position_key_survives_copies_and_json_and_changes_with_the_position():
    game = cathedral.load("red", players=3)
    state = game.new_initial_state()
    rng = random.Random(2)
    keys = set()
    for _ in range(150):
        if state.is_terminal():
            break
        key = state.position_key()
        hash(key)
        assert state.clone().position_key() == key
        assert game.state_from_json(state.to_json()).position_key() == key
        keys.add(key)
        state.apply_action(random_action(state, rng))
    assert len(keys) > 100  # every decision changes something in the position


def test_indices_out_of_range_in_a_state_json_are_rejected():
    import json

    import pytest

    game = cathedral.load("red")
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.current_player() < 0 or state.is_chance_node():
        state.apply_action(random_action(state, rng))
    for field, value in (("mspace", 99), ("claim_slot", 99), ("trigger", 5), ("mdie", 7)):
        data = json.loads(state.to_json())
        data["state"][field] = value
        with pytest.raises(cathedral.StateError, match=field):
            game.state_from_json(json.dumps(data))
    data = json.loads(state.to_json())
    data["state"]["ws_tile"][0] = 99
    with pytest.raises(cathedral.StateError, match="ws_tile"):
        game.state_from_json(json.dumps(data))


def test_evaluate_counts_the_race_to_the_sixth_completion(red2):
    from cathedral.games.red.components import MATERIALS
    from cathedral.games.red.heuristic import CLAIM_BASE, IN_HAND, evaluate, race

    state = red2  # the known setup (red_positions.setup)
    play(state, "claim T1.1", "tile down 1")
    assert race(state) == [CLAIM_BASE, 0.0]  # a claimed card, nothing delivered yet
    cost = state.c.card_cost[state.slot_card[0]]
    give(state, 0, **{MATERIALS[m]: n for m, n in enumerate(cost) if n})
    share = CLAIM_BASE + (0.95 - CLAIM_BASE) * IN_HAND  # every material in hand
    assert race(state) == [pytest.approx(share), 0.0]
    values = evaluate(state)
    assert values[0] > 0 > values[1]
    # Completed sections count whole.
    state.completed[1] = state.c.banners
    assert race(state)[1] == state.c.banners


def test_evaluate_blends_the_prestige_lead_and_the_race_lead_by_its_constants(red2, monkeypatch):
    import math

    from cathedral.games.red import heuristic

    state = red2
    play(state, "claim T1.1", "tile down 1")  # player 0 ahead in the race, by a claimed card
    e, r = heuristic.expected_prestige(state), heuristic.race(state)
    for scale, weight, race_scale in ((10.0, 0.5, 1.5), (4.0, 0.8, 0.5)):
        monkeypatch.setattr(heuristic, "PRESTIGE_SCALE", scale)
        monkeypatch.setattr(heuristic, "RACE_WEIGHT", weight)
        monkeypatch.setattr(heuristic, "RACE_SCALE", race_scale)
        expected = [(1 - weight) * math.tanh((e[p] - e[1 - p]) / scale)
                    + weight * math.tanh((r[p] - r[1 - p]) / race_scale) for p in (0, 1)]
        assert heuristic.evaluate(state) == pytest.approx(expected)


def test_evaluate_with_more_players_is_the_mean_over_the_rivals(red4):
    import math

    from cathedral.games.red import heuristic

    state = red4
    play(state, "claim T1.1", "tile down 1")  # player 0 ahead in the race, by a claimed card
    track = state.track
    for p, prestige in enumerate((30, 20, 10, 0)):  # a clear order: Blue first, then 1, 2, 3
        state.pos[p] = track.gain_prestige(state.pos[p], prestige)
    e, r = heuristic.expected_prestige(state), heuristic.race(state)
    w, s, rs = heuristic.RACE_WEIGHT, heuristic.PRESTIGE_SCALE, heuristic.RACE_SCALE
    expected = [
        sum((1 - w) * math.tanh((e[p] - e[q]) / s) + w * math.tanh((r[p] - r[q]) / rs)
            for q in range(4) if q != p) / 3
        for p in range(4)
    ]
    values = heuristic.evaluate(state)
    assert values == pytest.approx(expected)
    # The scale of the returns (1, 1/3, -1/3, -1 by place): they add up to 0, and a clear
    # second is worth more than 0 (its lead over the best rival alone was below 0).
    assert sum(values) == pytest.approx(0.0, abs=1e-12)
    assert values[0] > values[1] > 0 > values[2] > values[3]
    assert math.tanh((e[1] - e[0]) / s) < 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_analyse_red_completes_the_sixth_section_that_wins(players):
    state = sixth_section_in_reach(cathedral.load("red", players=players))
    assert "deliver brick T1.1" in {state.action_to_string(a) for a in state.legal_actions()}
    # With 4 players hard tries only the heuristic's best 4 decisions, and this one is its
    # 7th: the 8 of hard with 2-3 players find it.
    result = analyse(state, "hard" if players < 4 else "hard:candidates=8,iterations=64")
    # The greedy player's one-decision scores prefer a claim here (more on the way); the
    # rollouts see the game end with Blue ahead.
    assert result.move == "deliver brick T1.1" and result.pv[0] == result.move
    assert result.expected[1] == 1.0 and max(result.expected[:1] + result.expected[2:]) < 1.0


def test_red_max_out_of_time_still_sees_the_sixth_completion_that_wins():
    # Blue can end the game ahead by delivering a brick, the heuristic's 7th decision of 26
    # with 4 players. Max's first halving round (a fifth of its time) once rolled out only
    # the heuristic's first few before its time ran out, and chose a claim among them.
    state = sixth_section_in_reach(cathedral.load("red", players=4))
    clock = FakeClock(step=0.4)  # out of time after the first candidate
    info = RolloutAgent(seed=0, budget=Budget(seconds=5.0), candidates=None, halving=True,
                        plans=4, clock=clock).analyse(state)
    assert len(info.scores) == len(state.legal_actions())
    assert state.action_to_string(info.action) == "deliver brick T1.1"
