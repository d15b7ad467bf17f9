"""Rules version 2, The Red Cathedral closer to the published game: one test per rule on a concrete
position: the two-player thirds, the halving ladder, the window for selling prestige, the
score track, the influence layout as a chance outcome, and records of rules version 1.

Positions come from ``red_positions.setup`` (a known table, see its docstring).
"""

import itertools
import json
import random
import sys
from pathlib import Path

import pexpect
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from red_positions import checked, moves, play, setup

import cathedral
from cathedral import IllegalActionError, Record
from cathedral.core.errors import NotationError, RecordError, StateError
from cathedral.games.red import actions as A
from cathedral.games.red import state as S
from cathedral.games.red.components import GROUPS, load_components
from cathedral.games.red.scoring import Track, tower_points
from cathedral.games.red.view.render import prompt_hint
from cathedral.testing import random_action

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3
DATA = Path(__file__).parent / "data"


def _built(s, slot, owner, ornament=-1):
    """Marks a card complete by ``owner`` (and adorned by ``ornament``) without the ceremony."""
    s.owner[slot] = owner
    s.bin[owner] -= 1
    s.built[slot] = 1
    s.need[slot * 6 : slot * 6 + 6] = [0] * 6
    s.completed[owner] += 1
    if ornament >= 0:
        s.orn[slot] = ornament
        s.orn_placed[ornament] += 1


def _towers(s):
    return [row["towers"] for row in s.final_breakdown()]


# ----- 1. two-player tower scoring ------------------------------------------------------------


def test_two_player_default_is_the_published_thirds(red2):
    s = red2
    assert s.game.params["two_player_towers"] == "thirds"
    # T1: Red 2 banners + a door, Blue 1 banner: value 3 sections x 2 + 1 ornament = 7
    _built(s, 0, RED, ornament=RED)
    _built(s, 1, RED)
    _built(s, 2, BLUE)
    assert _towers(s) == [7, 7 // 3]  # the greater presence takes it all, the other a third
    # T2: one section each: a tie scores nothing for either
    _built(s, 8, RED)
    _built(s, 9, BLUE)
    assert _towers(s) == [7, 2]
    # T3: Red alone: Blue, absent, gets nothing (not a third)
    _built(s, 16, RED)
    assert _towers(s) == [7 + 2, 2]
    checked(s)


def test_two_player_seed_reading_kept_as_an_option():
    s = setup(cathedral.load("red", players=2, two_player_towers="seed"))
    _built(s, 0, RED, ornament=RED)
    _built(s, 1, RED)
    _built(s, 2, BLUE)
    _built(s, 8, RED)
    _built(s, 9, BLUE)
    # T1: 7 and 7 // 2; T2 (value 4) tied: (4 + 2) // 2 each
    assert _towers(s) == [7 + 3, 3 + 3]


def test_thirds_rule_by_numbers():
    assert tower_points(8, [3, 1], thirds=True) == [8, 2]
    assert tower_points(8, [1, 3], thirds=True) == [2, 8]
    assert tower_points(8, [2, 2], thirds=True) == [0, 0]
    assert tower_points(8, [2, 0], thirds=True) == [8, 0]
    assert tower_points(2, [1, 2], thirds=True) == [0, 2]  # a third of 2, rounded down


# ----- 2. third place and below with 3-4 players ----------------------------------------------


def _four_player_tower(**params):
    s = setup(cathedral.load("red", players=4, **params))
    # T1 (3 sections): banners Red, Red, Blue; ornaments Red, Blue, Yellow.
    # Presence Red 3, Blue 2, Yellow 1, Green 0; value 3 x 2 + 3 = 9.
    _built(s, 0, RED, ornament=RED)
    _built(s, 1, RED, ornament=BLUE)
    _built(s, 2, BLUE, ornament=YELLOW)
    return s


def test_four_players_seed_ladder_is_the_default():
    s = _four_player_tower()
    assert s.game.params["lower_places"] == "one"
    assert _towers(s) == [9, 4, 1, 0]  # the next player takes 1 point; Green is absent


def test_four_players_published_halving_ladder():
    s = _four_player_tower(lower_places="halving")
    assert _towers(s) == [9, 4, 2, 0]  # 9, 9 // 2, 4 // 2; no presence, no points
    checked(s)
    # the published example: a tower of 11 gives 11, 5, 2, 1
    assert tower_points(11, [4, 3, 2, 1], halving=True) == [11, 5, 2, 1]
    assert tower_points(11, [4, 3, 2, 1]) == [11, 5, 1, 0]
    # ties add up the places they fill and split them: (5 + 2) // 2, the next takes 4th's 1
    assert tower_points(11, [3, 2, 2, 1], halving=True) == [11, 3, 3, 1]


# ----- 4. selling prestige for rubles -----------------------------------------------------------


def test_sale_is_repeatable_at_one_moment(red2):
    s = red2
    s.pos[RED] = 14  # prestige spaces 5 and 10 below, 14 is the third
    play(s, "rubles", "rubles")  # twice in a row: one moment
    assert s.pos[RED] == 5 and s.rubles[RED] == 3 + 4
    play(s, "claim T1.1")
    assert "rubles" not in moves(s)


def test_sale_refused_at_a_second_moment_of_the_same_turn(red2):
    s = red2
    s.pos[RED] = 14
    play(s, "rubles", "claim T1.1")
    assert s.phase == S.CLAIMED and s.pos[RED] == 10
    assert "rubles" not in moves(s)
    with pytest.raises(IllegalActionError, match="one moment of the turn"):
        s.string_to_action("rubles")
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply_action(A.RUBLES)
    assert s.to_json() == before  # refused, state unchanged
    # the next turn opens a new window
    play(s, "tile down 1")
    assert moves(s) == {"done", "reroll 1", "reroll 2", "reroll 3", "reroll 4", "reroll 8"}
    play(s, "done")
    assert s.cur == BLUE and s.sold == S.NOT_SOLD


def test_sale_after_the_basic_action_is_one_moment_too(red2):
    s = red2
    s.pos[RED] = 19  # prestige spaces 5, 10, 14 below
    s.rubles[RED] = 0
    play(s, "claim T1.1")
    assert "tile up 4" not in moves(s)  # 3 rubles, Red has none
    play(s, "rubles", "rubles")  # sold to afford the face-up tile
    assert s.rubles[RED] == 4 and "tile up 4" in moves(s)
    play(s, "tile up 4")
    assert s.cur == RED and s.phase == S.AFTER
    assert "rubles" not in moves(s)  # over: another decision followed the sale


def test_any_moment_option_keeps_the_version_1_reading():
    s = setup(cathedral.load("red", players=2, rubles_timing="any_moment"))
    s.pos[RED] = 14
    play(s, "rubles", "claim T1.1", "rubles")
    assert s.pos[RED] == 5 and s.rubles[RED] == 7


def test_no_sale_before_the_first_prestige_space(red2):
    s = red2
    for pos in (2, 4, 5):  # the start, below and on the first prestige space (5)
        s.pos[RED] = pos
        assert "rubles" not in moves(s), pos
        with pytest.raises(IllegalActionError, match="no prestige space lies below"):
            s.string_to_action("rubles")
    s.pos[RED] = 6
    play(s, "rubles")
    assert s.pos[RED] == 5 and "rubles" not in moves(s)


def _market_visit_without_rubles(**params):
    """Red moves the red die to space 2 (quadrant 1, Clergy's K1 there: once, pay 3 rubles ->
    1 prestige) with 1 ruble, takes the brick: nothing else is left to do there."""
    s = setup(cathedral.load("red", players=2, **params))
    s.infl[:] = [9, 3, 6, 0]  # K1, C1, M1, A1: quadrant 1 holds the clergy
    s.pos[RED] = 12  # prestige spaces 5 and 10 below: two sales possible
    s.rubles[RED] = 1
    play(s, "die red", "take 2")
    return s


def test_sale_allowed_before_a_market_visit_closes_on_its_own():
    s = _market_visit_without_rubles()
    # no market action is affordable, but a sale would pay for the clergy's action:
    # the visit stays open instead of rolling the dice
    assert s.phase == S.MARKET and not s.is_chance_node()
    assert {"done", "rubles"} <= moves(s)
    assert not any(m.startswith("influence") for m in moves(s))
    assert "rubles" in prompt_hint(s)
    play(s, "rubles")
    assert s.rubles[RED] == 3 and "influence clergy 1" in moves(s)
    prestige = s.track.prestige(s.pos[RED])
    play(s, "influence clergy 1")
    assert s.track.prestige(s.pos[RED]) == prestige + 1
    assert s.is_chance_node()  # nothing left: the visit closed and the dice roll


def test_market_visit_closes_when_no_sale_can_help():
    s = setup(cathedral.load("red", players=2))
    s.infl[:] = [9, 3, 6, 0]
    s.pos[RED] = 6  # one sale possible: 0 + 2 rubles, still short of the 3 the action costs
    s.rubles[RED] = 0
    play(s, "die red", "take 2")
    assert s.is_chance_node() and s.phase == S.AFTER
    # with the version 1 option the visit never waits for a sale
    s = _market_visit_without_rubles(rubles_timing="any_moment")
    assert s.is_chance_node()


# ----- 3. the score track ------------------------------------------------------------------------


def test_track_rebuilt_from_the_published_facts():
    c = load_components("reconstructed")
    spaces = c.prestige_spaces
    assert len(spaces) == 40 and c.track_length == 80  # 40 prestige over about 80 recognition
    assert spaces[0] == 5 and c.track_start == 2  # the first prestige space after 5; start on 2
    gaps = [b - a for a, b in itertools.pairwise(spaces)]
    assert gaps == [5, 4, 5, 4] + [3] * 6 + [2] * 9 + [1] * 20  # 4-5, then 3, 2, 1
    assert spaces[-1] < c.track_length
    for source in ("meeplemountain", "spiele-akademie", "meadowparty", "Dized", "seed"):
        assert source in c.track_provenance, source


def test_track_prestige_on_concrete_positions():
    c = load_components("reconstructed")
    tr = Track(c.track_length, c.prestige_spaces)
    assert [tr.prestige(x) for x in (0, 2, 4, 5, 9, 10, 41, 42, 43, 59, 60, 79)] == [
        0, 0, 0, 1, 1, 2, 11, 11, 12, 20, 21, 40]
    assert tr.prestige(80 + 5) == 41  # a second lap: the "+40" side
    assert tr.gain_prestige(2, 1) == 5 and tr.gain_prestige(41, 2) == 45
    assert tr.prev_space(5) == -1 and tr.prev_space(6) == 5


# ----- 5. the influence layout ---------------------------------------------------------------


def _setup_random(seed, **params):
    state = cathedral.load("red", players=2, **params).new_initial_state()
    rng = random.Random(seed)
    while state.stage < S.PLAY:
        state.apply_action(random_action(state, rng))
    return state


def test_influence_layout_is_a_named_chance_outcome():
    s = cathedral.load("red", players=2).new_initial_state()
    while s.stage < S.S_INFLUENCE:
        s.apply_action(s.chance_outcomes()[0][0])
    # quadrant 1 may get any group's card: 12 outcomes, 3 per group, equally likely
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 12 and {p for _, p in outcomes} == {1 / 12}
    names = {s.action_to_string(a) for a, _ in outcomes}
    assert "setup quadrant 1 clergy K2" in names and "setup quadrant 1 artisans A1" in names
    s.apply_action(s.string_to_action("setup quadrant 1 clergy K2"))
    assert s.layout()[0] == GROUPS.index("clergy")
    # the clergy is placed: quadrant 2 chooses among the other 9 cards
    names = {s.action_to_string(a) for a, _ in s.chance_outcomes()}
    assert len(names) == 9 and not any("clergy" in n for n in names)
    with pytest.raises(IllegalActionError, match="not an outcome"):
        s.string_to_action("setup quadrant 2 clergy K1")


def test_influence_layout_in_the_record_and_the_state_json():
    s = _setup_random(5)
    layout = [GROUPS[g] for g in s.layout()]
    assert sorted(layout) == sorted(GROUPS)
    data = json.loads(s.to_json())
    assert data["state"]["layout"] == layout
    record = Record.from_state(s)
    placed = [a for a in record.actions if a.startswith("setup quadrant")]
    assert [a.split()[3] for a in placed] == layout
    assert record.final_state().layout() == s.layout()
    # a state JSON whose layout disagrees with its cards is refused
    data["state"]["layout"] = list(reversed(layout))
    with pytest.raises(StateError, match="layout"):
        s.game.state_from_json(json.dumps(data))


def test_influence_layout_reproducible_from_the_seed():
    layouts = [tuple(_setup_random(seed).layout()) for seed in range(12)]
    assert layouts == [tuple(_setup_random(seed).layout()) for seed in range(12)]
    assert len(set(layouts)) > 3  # and it does vary from game to game
    assert tuple(range(4)) not in layouts or len(set(layouts)) > 3


def test_fixed_layout_option():
    s = _setup_random(5, influence_layout="fixed")
    assert s.layout() == [0, 1, 2, 3]
    record = Record.from_state(s)
    assert not any(a.startswith("setup quadrant") for a in record.actions)
    assert "setup artisans" in " ".join(record.actions)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_layout_always_one_group_per_quadrant(seed):
    s = _setup_random(seed)
    assert sorted(s.layout()) == [0, 1, 2, 3]
    assert checked(s).layout() == s.layout()


# ----- 6. parameters, records of rules version 1 ---------------------------------------------


def test_every_option_is_a_declared_parameter_in_rules_and_records():
    game = cathedral.load("red", players=4, lower_places="halving", rubles_timing="any_moment")
    assert game.rules_version == 2
    text = game.rules_text()
    for name in ("two_player_towers", "lower_places", "rubles_timing", "influence_layout"):
        assert f"`{name}`" in text
    assert "`lower_places` = `halving`" in text
    record = Record.from_state(game.new_initial_state())
    assert record.params["lower_places"] == "halving"
    assert record.params["influence_layout"] == "random"
    with pytest.raises(cathedral.ParameterError, match="lower_places"):
        cathedral.load("red", lower_places="thirds")


@pytest.mark.parametrize("name", ["red_v1_2p.json", "red_v1_4p_unfinished.json"])
def test_version_1_records_replay_exactly_under_their_rules(name):
    text = (DATA / name).read_text()
    record = Record.from_json(text)
    assert record.rules_version == 1 and record.params["components"] == "reconstructed"
    final = record.final_state()  # checks the stored result against the replay
    params = final.game.params
    assert params["components"] == "reconstructed-1" and params["influence_layout"] == "fixed"
    assert params["rubles_timing"] == "any_moment" and params["lower_places"] == "one"
    if record.result:
        assert final.returns() == record.result["returns"]
        assert final.scores() == record.result["scores"]
        assert final.result_string() == record.result["text"]
    # written again, it is a version 2 record with the options that play it the same way
    again = Record.from_state(final, players=record.players)
    assert again.rules_version == 2 and again.actions == record.actions
    assert again.final_state().to_json() == final.to_json()
    # under today's defaults the same moves are not the same game: never replayed silently
    naive = Record.from_json(text)
    naive.rules_version = 2
    with pytest.raises(RecordError):
        naive.final_state()


def test_a_record_of_an_unknown_rules_version_is_refused_with_the_reason():
    record = Record.from_json((DATA / "red_v1_2p.json").read_text())
    record.rules_version = 7
    with pytest.raises(RecordError, match=r"rules version 7.*plays version 2.*cannot replay"):
        record.final_state()


# ----- what red tells the player: errors, prompts, the rules text -------------------------------


def test_tile_and_activate_errors_name_the_real_number_of_spaces(red2):
    s = red2
    play(s, "claim T1.1")
    spaces = len(s.game.board_cost)
    assert spaces == 6
    with pytest.raises(NotationError, match=r"a workshop space must be a number 1\.\.6, got '9'"):
        s.string_to_action("tile up 9")
    with pytest.raises(NotationError, match=r"1\.\.6, got '7'"):
        s.string_to_action("activate 7")


def test_market_prompt_offers_only_tiles_the_player_has(red2):
    s = red2
    play(s, "claim T1.1", "tile up 2")  # W01 (+1 wood) face up on the red space
    play(s, "die blue")  # Blue's turn passes
    s.cur, s.phase = RED, S.START
    play(s, "die yellow")  # no yellow tile: nothing to activate
    hint = prompt_hint(s)
    assert "activate" not in hint
    s2 = setup(cathedral.load("red", players=2))
    play(s2, "claim T1.1", "tile up 2")
    s2.cur, s2.phase = RED, S.START
    play(s2, "die red")
    hint = prompt_hint(s2)
    assert "activate 2 (+1 wood)" in hint


def test_rules_text_cites_only_what_the_package_holds():
    text = cathedral.load("red").rules_text()
    for outside in ("shared/", "spec/", "reference/", "benchmarks/", "balance_red", ".md'"):
        assert outside not in text, outside
    assert "reconstructed.json" in text
    path = text.split("installed with this package at `")[1].split("`")[0]
    assert Path(path).is_file()


def test_tile_up_error_in_the_terminal_names_the_real_number_of_spaces(tmp_path):
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cathedral", "play", "red", "--players", "2", "--seats", "human,greedy",
         "--seed", "1", "--record", str(tmp_path / "red.json"), "--color", "never"],
        encoding="utf-8",
        timeout=60,
    )
    try:
        child.expect(r"Red> ")
        child.sendline("claim T1.1")
        child.expect(r"Red> ")
        child.sendline("tile up 9")  # the basic workshop board has 6 spaces, not 8
        # (the terminal wraps long lines at word boundaries)
        child.expect(r"workshop\s+space\s+must\s+be\s+a\s+number\s+1\.\.6,\s+got\s+'9'")
        child.expect(r"Red> ")
        child.sendline("tile down 1")
        child.expect(r"Red> |Blue")
    finally:
        child.terminate(force=True)
