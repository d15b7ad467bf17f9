"""The shared contract checker on allmer: 2 and 4 players, both fields, withdrawal on."""

from __future__ import annotations

import pytest

import cathedral
from cathedral.testing import check_game


@pytest.mark.parametrize(
    ("params", "games", "every"),
    [
        ({}, 3, 1),
        ({"field": "middle8", "max_turns": 120}, 2, 1),
        ({"players": 4, "max_turns": 150}, 2, 2),
        ({"withdraw": True}, 3, 1),
        ({"players": 4, "withdraw": True, "field": "middle8", "max_turns": 100}, 2, 1),
    ],
    ids=["2p", "2p-middle8", "4p", "2p-withdraw", "4p-withdraw-middle8"],
)
def test_check_game(params, games, every):
    check_game(cathedral.load("allmer", **params), games=games, seed=3, check_every=every)


def test_game_facts():
    game = cathedral.load("allmer")
    assert game.num_players == 2
    assert game.player_names() == ["White", "Black"]
    four = cathedral.load("allmer", players=4)
    assert four.player_names() == ["White", "Blue", "Black", "Red"]
    assert game.num_distinct_actions() == four.num_distinct_actions() == 28_009
    assert game.observation_shape() == (9, 15, 15)
    assert four.observation_shape() == (13, 15, 15)
    assert len(four.observation_planes()) == 13
    assert game.params == {
        "players": 2,
        "field": "middle4",
        "withdraw": False,
        "repetition": 3,
        "quiet_turns": 100,
        "max_turns": None,
    }
    # 400 turns of at most 26 converting steps and a stop
    assert game.max_game_length() == 400 * 27


def test_bad_parameters_are_rejected():
    with pytest.raises(cathedral.ParameterError, match="players"):
        cathedral.load("allmer", players=3)
    with pytest.raises(cathedral.ParameterError, match="field"):
        cathedral.load("allmer", field="middle6")
    with pytest.raises(cathedral.ParameterError, match="quiet_turns"):
        cathedral.load("allmer", quiet_turns=-1)


def test_rules_text_is_the_rules_file():
    text = cathedral.load("allmer").rules_text()
    assert "Reach" in text and "STOP" in text and "28,009" in text
