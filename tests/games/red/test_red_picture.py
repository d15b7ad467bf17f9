"""The red picture: market, towers, holdings, and each choice's yield worked out by the rules."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from red_positions import give, play

from cathedral.games.red.components import MATERIALS


def _choice(picture: dict, notation: str) -> dict:
    return next(c for c in picture["decision"]["choices"] if c["notation"] == notation)


def test_market_dice_and_a_die_move_previews_its_take(red2):
    picture = red2.picture()
    market = picture["market"]
    assert [s["resource"] for s in market] == [*MATERIALS, "rubles", "recognition"]
    assert [d["colour"] for d in market[7]["dice"]] == ["white"]
    assert picture["decision"]["player"] == 0 and picture["decision"]["phase"] == "start"
    die = _choice(picture, "die red")
    # red moves one space, onto brick where blue stands: two dice take twice the yield
    yield_ = market[1]["yield"]
    assert die["kind"] == "die" and die["space"] == 1
    assert die["take"] == {"resource": "brick", "up_to": 2 * yield_}
    assert die["yields"] == {}


def test_a_take_yields_its_materials_and_done_rolls_the_dice(red2):
    play(red2, "die red")
    picture = red2.picture()
    assert picture["market"][1]["visited"] is True
    take = _choice(picture, "take 2")
    assert take["yields"] == {"brick": 2}
    influence = [c for c in picture["decision"]["choices"] if c["kind"] == "influence"]
    assert all(c["notation"].startswith("influence ") for c in influence)


def test_a_claim_takes_a_banner_and_a_paid_tile_costs_rubles(red2):
    picture = red2.picture()
    claims = [c for c in picture["decision"]["choices"] if c["kind"] == "claim"]
    assert claims and all(c["yields"] == {"banners": -1} for c in claims)
    play(red2, claims[0]["notation"])
    picture = red2.picture()
    assert picture["decision"]["phase"] == "claimed"
    ups = [c for c in picture["decision"]["choices"] if c["notation"].startswith("tile up")]
    down = _choice(picture, "tile down 1")
    assert down["yields"] == {}
    cost = picture["holdings"][0]["workshop"][0]["cost"]
    up1 = next(c for c in ups if c["notation"] == "tile up 1")
    tile = next(s for t in picture["towers"] for s in t["slots"] if s["name"] == "T1.1")["tile"]
    assert tile["text"] == "+1 wood"  # the shipped set's W01, face up gives it at once
    assert up1["yields"] == {"rubles": -cost, "wood": 1}


def test_delivering_the_last_material_completes_and_rewards(red2):
    s = red2
    target = s.slots[0]  # T1.1, Red's, one brick short of complete
    s.owner[target] = 0
    s.bin[0] -= 1
    cost = s.c.card_cost[s.slot_card[target]]
    s.need[target * 6 : target * 6 + 6] = [0, 1, 0, 0, 0, 0]
    for m, n in enumerate(cost):
        s.supply[m] -= n - (1 if m == 1 else 0)
    give(s, 0, brick=1, stone=1)
    s.game.state_from_json(s.to_json())  # a consistent position
    picture = s.picture()
    slot = picture["towers"][0]["slots"][0]
    assert slot["name"] == "T1.1" and slot["owner"] == 0 and slot["need"] == {"brick": 1}
    done = _choice(picture, "deliver brick T1.1")
    assert done["completes"] is True and done["slot"] == target
    assert done["yields"]["brick"] == -1 and done["yields"]["completed"] == 1
    assert done["yields"]["recognition"] == slot["recognition"]
    assert json.loads(json.dumps(picture)) == picture


def test_four_players_have_four_holdings_and_json(red4):
    picture = red4.picture()
    assert [h["name"] for h in picture["holdings"]] == ["Red", "Blue", "Yellow", "Green"]
    assert len(picture["influence"]) == 4 and picture["towers"]
    assert json.loads(json.dumps(picture)) == picture


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120), players=st.sampled_from([2, 4]))
def test_each_choice_yields_what_playing_it_changes(seed, plies, players):
    import random

    import cathedral

    state = cathedral.load("red", players=players).new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    picture = state.picture()
    json.dumps(picture)
    if picture["decision"] is None:
        return
    choices = picture["decision"]["choices"]
    assert [c["action"] for c in choices] == state.legal_actions()
    p = state.current_player()
    for choice in choices:
        after = state.clone()
        after.apply_action(choice["action"])
        assert after.rubles[p] - state.rubles[p] == choice["yields"].get("rubles", 0)
        assert after.pos[p] - state.pos[p] == choice["yields"].get("recognition", 0)
        for m, name in enumerate(("wood", "brick", "stone", "gold", "green", "purple")):
            assert after.inv[p * 6 + m] - state.inv[p * 6 + m] == choice["yields"].get(name, 0)
