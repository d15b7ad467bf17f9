"""The shared contract checker on The Red Cathedral, for every table size and both sides."""

import pytest

import cathedral
from cathedral.testing import check_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_red_conformance(players):
    check_game(cathedral.load("red", players=players), games=3, seed=players)


def test_red_conformance_advanced_short_games():
    game = cathedral.load("red", players=3, workshop="advanced", turn_cap=15)
    check_game(game, games=3, seed=7)
