"""Glicko-2 ratings (``cathedral.server.glicko``), against docs/accounts.md ("Ratings") and
Glickman's "Example of the Glicko-2 system" (2013)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cathedral.server.glicko import (
    COMPUTER_RATINGS,
    COMPUTER_RD,
    SETTINGS,
    TAU,
    Rating,
    computer_rating,
    expected,
    pairwise,
    provisional,
    rate,
    rate_game,
    setting_of,
)

REPORTS = Path(__file__).resolve().parents[2] / "benchmarks" / "reports"


def test_the_papers_worked_example_gives_the_papers_numbers():
    player = Rating(1500.0, 200.0, 0.06)
    results = [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0),
               (Rating(1700.0, 300.0), 0.0)]
    after = rate(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_new_player_is_1500_rd_350_volatility_006_and_tau_is_05():
    assert Rating() == Rating(1500.0, 350.0, 0.06)
    assert TAU == 0.5


def test_an_empty_period_grows_rd_only():
    before = Rating(1600.0, 100.0, 0.06)
    after = rate(before, [])
    assert after.rating == 1600.0
    assert after.volatility == 0.06
    # sqrt(phi^2 + sigma^2) on the Glicko scale: sqrt(100^2 + (0.06 * 173.7178)^2)
    assert after.rd == pytest.approx(math.hypot(100.0, 0.06 * 173.7178), abs=1e-3)
    assert after.rd == pytest.approx(100.54, abs=0.01)


def test_an_empty_period_never_grows_rd_past_350():
    assert rate(Rating(1500.0, 349.9, 0.06), []).rd == 350.0
    assert rate(Rating(), []).rd == 350.0


def test_a_win_raises_and_a_loss_lowers_the_rating():
    player, opponent = Rating(1500.0, 200.0), Rating(1500.0, 200.0)
    assert rate(player, [(opponent, 1.0)]).rating > 1500.0
    assert rate(player, [(opponent, 0.0)]).rating < 1500.0
    assert rate(player, [(Rating(1900.0, 50.0), 1.0)]).rating > 1600.0  # an upset gains more


def test_a_draw_between_equals_leaves_the_rating_and_narrows_rd():
    after = rate(Rating(1700.0, 80.0), [(Rating(1700.0, 80.0), 0.5)])
    assert after.rating == pytest.approx(1700.0, abs=1e-9)
    assert after.rd < 80.0


def test_volatility_stays_positive_after_surprising_results():
    player = Rating(1500.0, 50.0, 0.06)
    after = rate(player, [(Rating(2500.0, 30.0), 1.0)] * 5)
    assert after.volatility > 0.0
    assert after.volatility > 0.06  # a surprise raises volatility
    assert rate(player, [(Rating(1500.0, 30.0), 0.5)] * 20).volatility > 0.0


def test_a_score_outside_0_to_1_is_refused():
    with pytest.raises(ValueError, match="score"):
        rate(Rating(), [(Rating(), 2.0)])


def test_expected_is_half_between_equals_and_sums_to_one():
    assert expected(Rating(1500.0, 100.0), Rating(1500.0, 300.0)) == pytest.approx(0.5)
    a, b = Rating(1880.0, 60.0), Rating(1500.0, 30.0)
    assert expected(a, b) + expected(b, a) == pytest.approx(1.0)
    # 400 points are 10 to 1 odds when neither deviation widens the prediction
    assert expected(Rating(1900.0, 0.0), Rating(1500.0, 0.0)) == pytest.approx(10 / 11)
    assert expected(Rating(1900.0, 300.0), Rating(1500.0, 0.0)) < 10 / 11


def test_pairwise_of_two_players_is_just_the_games_result():
    assert pairwise([1.0, -1.0]) == [[(1, 1.0)], [(0, 0.0)]]
    assert pairwise([0.0, 0.0]) == [[(1, 0.5)], [(0, 0.5)]]


def test_pairwise_of_four_players_with_a_tie_goes_by_finishing_place():
    # seats 0 and 2 share first place, seat 1 is third, seat 3 last
    assert pairwise([1.0, 0.0, 1.0, -1.0]) == [
        [(1, 1.0), (2, 0.5), (3, 1.0)],
        [(0, 0.0), (2, 0.0), (3, 1.0)],
        [(0, 0.5), (1, 1.0), (3, 1.0)],
        [(0, 0.0), (1, 0.0), (2, 0.0)],
    ]


def test_rate_game_keeps_fixed_seats_unchanged():
    hard = computer_rating("red3", "hard")
    ratings = [Rating(1500.0, 200.0), hard, Rating(1800.0, 90.0)]
    after = rate_game(ratings, [1.0, -1.0, 0.0], [False, True, False])
    assert after[1] is hard
    assert after[0].rating > 1500.0
    assert after[2] != ratings[2]


def test_rate_game_rates_every_seat_as_one_period_against_the_ratings_before():
    ratings = [Rating(1500.0, 200.0), Rating(1600.0, 100.0), Rating(1400.0, 300.0)]
    after = rate_game(ratings, [0.5, 1.0, -1.0], [False, False, False])
    assert after[0] == rate(ratings[0], [(ratings[1], 0.0), (ratings[2], 1.0)])
    assert after[1] == rate(ratings[1], [(ratings[0], 1.0), (ratings[2], 1.0)])
    assert after[2] == rate(ratings[2], [(ratings[0], 0.0), (ratings[1], 0.0)])


def test_rate_game_refuses_lists_of_different_lengths():
    with pytest.raises(ValueError, match="per seat"):
        rate_game([Rating(), Rating()], [1.0, -1.0], [False])


def test_setting_of_standard_parameters_is_the_setting():
    assert setting_of("classic", {}) == "classic"
    assert setting_of("classic", {"opening": "standard"}) == "classic"
    assert setting_of("allmer", {}) == "allmer2"
    assert setting_of("allmer", {"players": 4, "field": "middle4"}) == "allmer4"
    assert setting_of("red", {"players": 3}) == "red3"
    assert setting_of("red", {"players": 4, "turn_cap": 100}) == "red4"
    assert setting_of("red", {"players": 2}) == "red2"


def test_setting_of_other_parameters_or_an_unknown_game_is_unrated():
    assert setting_of("classic", {"opening": "free"}) is None
    assert setting_of("allmer", {"players": 3}) is None  # no allmer3 setting
    assert setting_of("allmer", {"players": 2, "withdraw": True}) is None
    assert setting_of("red", {"players": 3, "turn_cap": 50}) is None
    assert setting_of("red", {"colour": "red"}) is None  # not a parameter
    assert setting_of("classic", {"players": 3}) is None
    assert setting_of("chess", {}) is None


def test_computer_ratings_are_1500_plus_the_ladders_elo():
    ladders = sorted(REPORTS.glob("ladder_*.json"))
    assert ladders
    seen = set()
    for path in ladders:
        report = json.loads(path.read_text())
        setting = path.stem.split("_")[1]
        assert report["setting"] == setting
        levels = {key.split(":")[0]: 1500.0 + elo for key, elo in report["elo"].items()}
        assert set(levels) == {"random", "easy", "medium", "hard", "max"}
        for level, rating in levels.items():
            assert COMPUTER_RATINGS[setting][level] == pytest.approx(rating, abs=0.5)
        seen.add(setting)
    assert seen == set(SETTINGS) == set(COMPUTER_RATINGS)


def test_computer_rating_takes_the_level_before_the_colon():
    assert computer_rating("classic", "hard") == Rating(1881.0, COMPUTER_RD, 0.06)
    assert computer_rating("classic", "hard:seed=3") == computer_rating("classic", "hard")
    assert computer_rating("allmer2", "max:seconds=0.5").rating == 2192.0
    assert COMPUTER_RD == 30.0
    assert computer_rating("classic", "human") is None
    assert computer_rating("allmer3", "hard") is None


def test_provisional_is_rd_110_or_more():
    assert provisional(Rating())
    assert provisional(Rating(1500.0, 110.0))
    assert not provisional(Rating(1500.0, 109.99))


def test_a_rating_round_trips_through_a_dict():
    r = Rating(1612.5, 87.25, 0.0601)
    assert r.to_dict() == {"rating": 1612.5, "rd": 87.25, "volatility": 0.0601}
    assert Rating.from_dict(r.to_dict()) == r
    assert Rating.from_dict({}) == Rating()


ratings = st.builds(Rating, st.floats(-1000.0, 4000.0), st.floats(0.0, 350.0),
                    st.floats(0.001, 0.5))
scores = st.sampled_from([0.0, 0.5, 1.0])


@settings(max_examples=300, deadline=None)
@given(ratings, st.lists(st.tuples(ratings, scores), max_size=8))
def test_rd_never_exceeds_350_and_every_output_is_finite(player, results):
    after = rate(player, results)
    assert after.rd <= 350.0
    assert all(math.isfinite(x) for x in (after.rating, after.rd, after.volatility))
    assert after.rd > 0.0 and after.volatility > 0.0


@settings(max_examples=200, deadline=None)
@given(st.floats(0.0, 3000.0), st.floats(0.0, 3000.0), st.floats(30.0, 350.0),
       st.floats(0.01, 0.2), st.sampled_from([[1.0, -1.0], [0.0, 0.0], [-1.0, 1.0]]))
def test_a_two_player_game_between_equal_rd_players_is_zero_sum(a, b, rd, sigma, returns):
    before = [Rating(a, rd, sigma), Rating(b, rd, sigma)]
    after = rate_game(before, returns, [False, False])
    change = sum(x.rating - y.rating for x, y in zip(after, before))
    assert change == pytest.approx(0.0, abs=1e-6)
