"""One test per rule of The Red Cathedral (``cathedral rules red``), on concrete positions.

Positions come from ``conftest.setup`` (a known table, see its docstring) adjusted through the
state's fields; ``checked`` round-trips them through JSON, which re-validates conservation.
"""

import pytest
from red_positions import checked, give, moves, play, roll, setup, sixth_section_in_reach

import cathedral
from cathedral import IllegalActionError
from cathedral.games.red import state as S
from cathedral.games.red.scoring import tower_points

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3


def test_claim_availability_above_a_bannered_card(red2):
    s = red2
    assert {"claim T1.1", "claim T2.1", "claim T3.1", "claim T4.1"} <= moves(s)
    assert "claim T1.2" not in moves(s)
    with pytest.raises(IllegalActionError, match="carries no banner"):
        s.string_to_action("claim T1.2")
    play(s, "claim T1.1", "tile down 1")
    # Blue may claim the card right above Red's unfinished, bannered foundation
    assert s.current_player() == BLUE
    assert "claim T1.2" in moves(s) and "claim T1.1" not in moves(s)
    with pytest.raises(IllegalActionError, match="already carries a banner"):
        s.string_to_action("claim T1.1")
    play(s, "claim T1.2")
    assert s.owner[1] == BLUE and s.bin[BLUE] == 3 and s.free_slots(BLUE) == 7


def test_claim_takes_banners_from_the_inventory_first(red2):
    s = red2
    s.bin[RED], s.bout[RED] = 1, 5
    play(s, "claim T1.1", "tile down 1")
    assert (s.bin[RED], s.bout[RED]) == (0, 5)
    play(s, "die blue")  # Blue passes the turn with a market visit
    s.phase = S.START
    s.cur = RED
    play(s, "claim T2.1")
    assert (s.bin[RED], s.bout[RED]) == (0, 4)


def test_face_down_tiles_never_activate(red2):
    s = red2
    rubles = s.rubles[RED]
    play(s, "claim T1.1", "tile down 2")  # W01 (+1 wood) face down on the red space
    assert s.rubles[RED] == rubles and s.inv[RED * 6] == 0  # no cost, no bonus
    s.cur, s.phase = RED, S.START
    play(s, "die red")  # the red die: space 1 -> 2
    assert not any(m.startswith("activate") for m in moves(s))
    with pytest.raises(IllegalActionError, match="no face-up tile"):
        s.string_to_action("activate 2")


def test_face_up_tile_pays_its_cost_and_bonus_at_once(red2):
    s = red2
    s.rubles[RED] = 2
    play(s, "claim T1.1")
    assert "tile up 2" in moves(s) and "tile up 4" not in moves(s)  # space 4 costs 3
    with pytest.raises(IllegalActionError, match="costs 3 rubles, Red has 2"):
        s.string_to_action("tile up 4")
    play(s, "tile up 2")
    assert s.rubles[RED] == 0 and s.inv[RED * 6] == 1  # paid 2, gained W01's wood


def test_advanced_side_fixed_cost_and_ornament_unlock():
    s = setup(cathedral.load("red", players=2, workshop="advanced"))
    assert s.orn_avail[:3] == [0, 0, 0]  # ornaments locked at the start
    s.rubles[RED] = 2
    play(s, "claim T1.1")
    assert not any(m.startswith("tile up") for m in moves(s))  # 3 rubles for every space
    s.rubles[RED] = 3
    assert {f"tile up {k}" for k in range(1, 7)} <= moves(s)
    play(s, "tile up 1")  # the white space carrying the door
    assert s.rubles[RED] == 0 and s.orn_avail[:3] == [1, 0, 0]
    # a face-down tile unlocks nothing
    s.cur, s.phase, s.rubles[RED] = RED, S.START, 10
    play(s, "claim T2.1", "tile down 2")
    assert s.orn_avail[:3] == [1, 0, 0]


def _built(s, slot, owner):
    """Marks a claimed card complete without the ceremony (materials never left the supply)."""
    s.owner[slot] = owner
    s.bin[owner] -= 1
    s.built[slot] = 1
    s.need[slot * 6 : slot * 6 + 6] = [0] * 6
    s.completed[owner] += 1


def test_three_deliveries_at_most_split_between_cards_and_an_ornament(red2):
    s = red2
    _built(s, 0, BLUE)  # T1.1 complete, by Blue: Red may still adorn it
    s.owner[8], s.bin[RED] = RED, 3  # T2.1 (wood 1 brick 2) claimed by Red
    give(s, RED, wood=2, brick=2, green=1)
    play(s, "deliver brick T2.1")
    assert s.phase == S.BUILD and s.dleft == 2
    assert "ornament door T1.1 green" in moves(s)
    with pytest.raises(IllegalActionError, match="needs 3 deliveries, 2 left"):
        s.string_to_action("ornament door T1.1 green purple")
    play(s, "ornament door T1.1 green")
    assert s.dleft == 0 and s.orn[0] == RED
    # all three used: the build is over, only optional actions or done remain
    assert not any(m.startswith(("deliver", "ornament")) for m in moves(s)) or s.cur != RED
    checked(s)


def test_gem_prestige_one_each_three_for_two_colours():
    for gems, prestige in (("", 0), ("green", 1), ("green green", 2), ("green purple", 3)):
        s = setup(cathedral.load("red", players=2))
        _built(s, 0, BLUE)
        give(s, RED, wood=1, green=2, purple=1)
        s.pos[RED] = 14  # on a prestige space (the 3rd)
        before = s.track.prestige(s.pos[RED])
        play(s, f"ornament door T1.1 {gems}".strip())
        assert s.track.prestige(s.pos[RED]) - before == prestige, gems
        assert s.orn_gems[0] == ("", "green", "purple", "green green", "green purple").index(gems)


def test_die_moves_exactly_its_pips_or_further_for_rubles(red2):
    s = red2
    s.dice_pips[1] = 3  # red on space 1 shows 3
    legal = moves(s)
    assert "die red" in legal and "die red +3" in legal and "die red +4" not in legal  # 3 rubles
    play(s, "die red +2")
    assert s.dice_space[1] == 5 and s.rubles[RED] == 1  # 1 + 3 + 2 = space 6


def test_only_white_or_own_die_may_be_extended(red2):
    s = red2
    legal = moves(s)
    assert "die white +1" in legal and "die red +1" in legal
    assert "die blue +1" not in legal and "die yellow +1" not in legal
    with pytest.raises(IllegalActionError, match="only the white die or Red's own die"):
        s.string_to_action("die blue +1")


def test_three_dice_limit(red2):
    s = red2
    s.dice_space[:] = [0, 0, 0, 7, 6]  # white, red, blue on space 1; yellow 8; green 7
    s.dice_pips[3], s.dice_pips[4] = 1, 2  # yellow and green would both land on space 1
    legal = moves(s)
    assert "die yellow" not in legal and "die green" not in legal
    with pytest.raises(IllegalActionError, match="already holds 3 dice"):
        s.string_to_action("die yellow")
    # a die inside the full space leaves it, so it is never stuck
    assert "die white" in legal


def test_yield_times_dice_capped_by_supply_and_inventory(red2):
    s = red2
    s.dice_space[:] = [7, 0, 0, 2, 3]  # red and blue on space 1 (wood x2)
    play(s, "die white")  # white 8 -> 1: three dice there
    assert max(int(m.split()[1]) for m in moves(s) if m.startswith("take")) == 6
    s2 = setup(cathedral.load("red", players=2))
    s2.dice_space[:] = [7, 0, 0, 2, 3]
    give(s2, RED, stone=4)  # 2 free slots
    play(s2, "die white")
    assert "take 2" in moves(s2) and "take 3" not in moves(s2)
    s3 = setup(cathedral.load("red", players=2))
    s3.dice_space[:] = [7, 0, 0, 2, 3]
    s3.supply[0] = 1  # the supply runs short: a take gets what is left
    play(s3, "die white")
    assert "take 1" in moves(s3) and "take 2" not in moves(s3)
    play(s3, "take 1")
    assert s3.inv[RED * 6] == 1 and s3.supply[0] == 0


def test_overflow_is_lost_and_nothing_is_discarded(red2):
    s = red2
    give(s, RED, stone=5)  # 1 free slot
    s.ws_tile[0], s.ws_up[0] = 1, 1  # W02: +2 wood, face up on a white space
    s.dice_space[:] = [6, 4, 4, 4, 3]  # white on 7 (rubles) moves 1 to 8
    play(s, "die white", "activate 1")
    assert s.inv[RED * 6] == 1 and s.supply[0] == 19  # one fits, one is lost
    assert s.free_slots(RED) == 0
    checked(s)


def test_lightning_versus_infinity_influence(red2):
    s = red2
    # space 5 is merchants' (M1): 1) repeatable 2 same -> 1 green, 2) once 1 same -> 3 rubles
    s.dice_space[:] = [3, 0, 1, 2, 2]
    give(s, RED, brick=5)
    play(s, "die white")  # white on 4 moves 1 to space 5
    assert {"influence merchants 1 brick", "influence merchants 2 brick"} <= moves(s)
    play(s, "influence merchants 1 brick", "influence merchants 1 brick")
    assert s.inv[RED * 6 + 1] == 1 and s.inv[RED * 6 + 4] == 2
    assert "influence merchants 2 brick" not in moves(s)  # only one of the two actions
    with pytest.raises(IllegalActionError, match="only one of the card's two actions"):
        s.string_to_action("influence merchants 2 brick")
    # a lightning action is used once
    s2 = setup(cathedral.load("red", players=2))
    s2.dice_space[:] = [3, 0, 1, 2, 2]
    give(s2, RED, brick=5)
    play(s2, "die white", "influence merchants 2 brick")
    assert s2.rubles[RED] == 6
    assert not any(m.startswith("influence") for m in moves(s2))
    with pytest.raises(IllegalActionError, match="once per turn"):
        s2.string_to_action("influence merchants 2 stone")


def test_influence_card_of_the_quadrant_where_the_die_stops(red2):
    s = red2
    play(s, "die white")  # 8 -> 1: artisans
    assert all(m.split()[1] == "artisans" for m in moves(s) if m.startswith("influence"))
    with pytest.raises(IllegalActionError, match="artisans quadrant"):
        s.string_to_action("influence clergy 1")


def test_workshop_activation_by_die_colour(red2):
    s = red2
    s.ws_tile[1], s.ws_up[1] = 0, 1  # W01 (+1 wood) face up on the red space (2)
    s.ws_tile[2], s.ws_up[2] = 2, 1  # W03 (+1 brick) face up on the blue space (3)
    play(s, "die red")
    assert "activate 2" in moves(s) and "activate 3" not in moves(s)
    with pytest.raises(IllegalActionError, match="not of the red die's colour"):
        s.string_to_action("activate 3")
    play(s, "activate 2")
    assert s.inv[RED * 6] == 1 and "activate 2" not in moves(s)


def test_copy_tile_takes_the_yield_under_the_named_die(red2):
    s = red2
    s.ws_tile[1], s.ws_up[1] = 17, 1  # W18: copy the blue die; blue stands on space 2 (brick x2)
    play(s, "die red")
    play(s, "activate 2")
    assert s.inv[RED * 6 + 1] == 2  # once, whatever the number of dice


def test_reroll_once_per_turn(red2):
    s = red2
    s.pos[RED] = 14  # prestige spaces 5 and 10 lie below
    assert "reroll 1" in moves(s) and "reroll 5" not in moves(s)  # only spaces with dice
    play(s, "reroll 1")
    assert s.pos[RED] == 10 and s.is_chance_node()
    roll(s, 6)
    assert s.dice_pips[1] == 6 and s.current_player() == RED
    assert not any(m.startswith("reroll") for m in moves(s))
    with pytest.raises(IllegalActionError, match="once per turn"):
        s.string_to_action("reroll 2")


def test_rubles_for_prestige_and_its_floor(red2):
    s = red2
    assert "rubles" not in moves(s)  # marker on 2: no prestige space below
    with pytest.raises(IllegalActionError, match="no prestige space lies below"):
        s.string_to_action("rubles")
    s.pos[RED] = 12  # between the prestige spaces 10 and 14
    play(s, "rubles")
    assert s.pos[RED] == 10 and s.rubles[RED] == 5
    play(s, "rubles")
    assert s.pos[RED] == 5 and s.rubles[RED] == 7
    assert "rubles" not in moves(s)  # 5 is the first prestige space: the floor


def test_penalty_worked_example():
    # red.md: tower Blue, Red, Blue, Yellow (bottom to top)
    s = setup(cathedral.load("red", players=4))
    tower = [0, 1, 2, 3]  # T1: foundation, two middles, dome
    for slot, owner in zip(tower, (BLUE, RED, BLUE, YELLOW), strict=True):
        s.owner[slot] = owner
        s.bin[owner] -= 1
    s.pos[BLUE] = 20  # well above the floor of 0
    start = list(s.pos)
    s.need[6:12] = [0, 1, 0, 0, 0, 0]  # Red's middle needs one brick
    give(s, RED, brick=1)
    # the cost minus the need is on the card: take it from the supply for conservation
    cost = s.c.card_cost[s.slot_card[1]]
    for m, n in enumerate(cost):
        s.supply[m] -= n - (1 if m == 1 else 0)
    play(s, "deliver brick T1.2")
    assert s.built[1]
    assert s.pos[BLUE] == start[BLUE] - 1  # Blue1: Red above
    # later Yellow completes the dome: Blue loses 1 (Blue2) + 2 (Blue1: Red and Yellow)
    checked(s)
    s.cur, s.phase = YELLOW, S.START
    s.need[18:24] = [0, 0, 0, 1, 0, 0]
    cost = s.c.card_cost[s.slot_card[3]]
    for m, n in enumerate(cost):
        s.supply[m] -= n - (1 if m == 3 else 0)
    give(s, YELLOW, gold=1)
    checked(s)
    play(s, "deliver gold T1.4")
    assert s.pos[BLUE] == start[BLUE] - 1 - 3
    assert s.pos[RED] == start[RED] + s.c.card_recognition[s.slot_card[1]]  # nothing unfinished


def test_penalty_hits_the_completer_but_not_for_its_own_sections():
    s = setup(cathedral.load("red", players=4))
    for slot, owner in zip((0, 1, 2), (BLUE, RED, BLUE), strict=True):
        s.owner[slot] = owner
        s.bin[owner] -= 1
    s.built[1] = 1
    s.need[6:12] = [0] * 6
    s.completed[RED] = 1
    assert s.penalties(2) == [0, 1, 0, 0]  # Blue completing Blue2 costs Blue 1 (Red above)


def test_sixth_completion_gives_three_and_one_more_turn_each():
    s = sixth_section_in_reach(cathedral.load("red", players=3), BLUE)
    play(s, "deliver brick T1.1")
    assert s.trigger == BLUE
    assert s.track.prestige(s.pos[BLUE]) >= 3 + 3
    play(s, "done")
    # Yellow, then Red, one turn each; then the game is over
    order = []
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.chance_outcomes()[0][0])
            continue
        if s.phase == S.START:
            order.append(s.cur)
            play(s, "die white")
        else:
            play(s, "done" if "done" in moves(s) else sorted(moves(s))[0])
    assert order == [YELLOW, RED]


def test_tower_points_seed_rule_and_ties():
    # value 11: first 11, second 5, third 1
    assert tower_points(11, [3, 2, 1, 0]) == [11, 5, 1, 0]
    # two tied first: (11 + 5) // 2 each, the next takes the third place's 1
    assert tower_points(11, [2, 2, 1, 0]) == [8, 8, 1, 0]
    # tied second and third: (5 + 1) // 2
    assert tower_points(11, [3, 1, 1, 0]) == [11, 3, 3, 0]
    # no presence, no points
    assert tower_points(7, [2, 0]) == [7, 0]
    assert tower_points(7, [1, 1]) == [5, 5]  # (7 + 3) // 2
    # the published two-player variant
    assert tower_points(7, [2, 1], thirds=True) == [7, 2]
    assert tower_points(7, [1, 1], thirds=True) == [0, 0]


def _final(s, completed, ornaments, pos):
    s.completed[:] = completed
    s.orn_placed[:] = ornaments
    s.pos[:] = pos
    s._finish()
    return s.returns()


def test_final_scoring_with_tied_towers_and_both_tie_breaks():
    s = setup(cathedral.load("red", players=2, two_player_towers="seed"))
    # T1: Red's built foundation with Blue's door, Blue's built middle: presence 1 : 2
    _built(s, 0, RED)
    _built(s, 1, BLUE)
    s.orn[0] = BLUE
    # T2: a tie, one section each: value 4, split (4 + 2) // 2 = 3 each
    _built(s, 8, RED)
    _built(s, 9, BLUE)
    rows = s.final_breakdown()
    assert [r["towers"] for r in rows] == [2 + 3, 5 + 3]
    # equal prestige: the tie goes to the most completed sections ...
    s1 = checked(s)
    s1.rubles[:] = [0, 0]
    s1.pos[:] = [2, 2]
    s1.orn[0] = -1
    s1.completed[:] = [3, 2]
    s1._finish()
    assert s1.final[0] == s1.final[1] and s1.returns() == [1.0, -1.0]
    # ... then to the most ornaments, else the victory is shared
    s2 = checked(s)
    s2.rubles[:] = [0, 0]
    s2.orn[0] = -1
    s2.completed[:] = [2, 2]
    s2.orn_placed[:] = [0, 1]
    s2._finish()
    assert s2.returns() == [-1.0, 1.0]
    s2.orn_placed[:] = [1, 1]
    assert s2.returns() == [0.0, 0.0]
    assert "share the victory" in s2.result_string()


def test_leftovers_one_prestige_per_five(red2):
    s = red2
    give(s, RED, wood=2)
    s.rubles[RED] = 3
    assert s.final_breakdown()[RED]["leftovers"] == 1  # 3 rubles + 2 materials
    s.rubles[BLUE] = 9
    assert s.final_breakdown()[BLUE]["leftovers"] == 1


def test_final_marker_moves_back_to_the_prestige_space_below(red2):
    s = red2
    s.pos[RED] = 13  # between 10 (2nd) and 14 (3rd)
    assert s.final_breakdown()[RED]["track"] == 2


def test_turn_cap_ends_and_scores_the_game():
    s = setup(cathedral.load("red", players=2, turn_cap=1))
    play(s, "claim T1.1", "tile down 1")
    play(s, "claim T2.1", "tile down 1")
    assert s.is_terminal() and "safety cap of 1 rounds" in s.result_string()
