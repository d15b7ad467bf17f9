"""The registry, parameters, returns and errors of the contract."""

from __future__ import annotations

import pytest

import cathedral
from cathedral import ParameterError, UnknownGameError
from cathedral.core import ranked_returns


def test_games_lists_the_three_games():
    assert cathedral.games() == ["allmer", "classic", "red"]


def test_games_package_imports_by_its_dotted_name():
    # cathedral.games is the package and the function at once: neither hides the other.
    import cathedral.games.classic as classic_package
    import cathedral.games.red.heuristic as red_heuristic

    assert classic_package.ClassicGame is cathedral.load("classic").__class__
    assert len(red_heuristic.evaluate(cathedral.load("red").new_initial_state())) == 2
    assert cathedral.games.allmer.__name__ == "cathedral.games.allmer"
    assert cathedral.games() == ["allmer", "classic", "red"]


def test_unknown_game_lists_the_available_ones():
    with pytest.raises(UnknownGameError, match=r"unknown game 'clasic' \(available: allmer, "
                       r"classic, red\)"):
        cathedral.load("clasic")


def test_unknown_parameter_lists_the_known_ones():
    with pytest.raises(ParameterError, match=r"unknown parameter 'openning' for classic "
                       r"\(known: opening\)"):
        cathedral.load("classic", openning="lehmann")


def test_bad_parameter_value_says_what_is_expected():
    with pytest.raises(ParameterError, match=r"expected one of standard, lehmann"):
        cathedral.load("classic", opening="fast")
    with pytest.raises(ValueError):  # every bad-input error is a ValueError
        cathedral.load("classic", opening=3)


def test_params_are_filled_with_defaults():
    game = cathedral.load("classic")
    assert game.params == {"opening": "standard"}
    assert repr(game) == "cathedral.load('classic', opening='standard')"


@pytest.mark.parametrize(
    ("scores", "higher", "expected"),
    [
        ([3, 1], True, [1.0, -1.0]),
        ([3, 1], False, [-1.0, 1.0]),
        ([2, 2], True, [0.0, 0.0]),
        ([4, 3, 2, 1], True, [1.0, 1 / 3, -1 / 3, -1.0]),
        ([4, 4, 2, 1], True, [2 / 3, 2 / 3, -1 / 3, -1.0]),
    ],
)
def test_ranked_returns_are_zero_sum_and_share_ties(scores, higher, expected):
    result = ranked_returns(scores, higher_is_better=higher)
    assert result == pytest.approx(expected)
    assert sum(result) == pytest.approx(0)


def test_param_validation_of_kinds():
    from cathedral.core.params import Param, resolve_params

    params = (
        Param("players", 2, int, "players", choices=(2, 4)),
        Param("withdraw", False, bool, "withdraw"),
        Param("turns", None, int, "cap", minimum=0, optional=True),
    )
    assert resolve_params("g", params, {"players": "4", "withdraw": "yes"}) == {
        "players": 4, "withdraw": True, "turns": None,
    }
    for bad in ({"players": 3}, {"withdraw": "maybe"}, {"turns": -1}, {"players": True}):
        with pytest.raises(ParameterError):
            resolve_params("g", params, bad)
