"""The component data set: the shipped reconstruction respects every known fact, and the loader
rejects broken files with messages naming the entry and the field."""

import json
from importlib import resources

import pytest

import cathedral
from cathedral import ParameterError
from cathedral.games.red.components import (
    GROUPS,
    ComponentError,
    load_components,
    parse_components,
)


def shipped() -> dict:
    path = resources.files("cathedral.games.red").joinpath("data", "reconstructed.json")
    return json.loads(path.read_text("utf-8"))


def test_shipped_set_is_a_documented_reconstruction():
    c = load_components()
    assert "RECONSTRUCTION" in c.provenance
    assert "reconstruction" in cathedral.load("red").rules_text().lower()


def test_shipped_set_respects_the_known_facts():
    # red.md, "Known facts the reconstruction must respect"
    c = load_components()
    assert [c.card_level.count(lv) for lv in range(3)] == [10, 20, 10]
    assert all(3 <= sum(cost) <= 4 for cost in c.card_cost)
    assert any(c.card_level[i] == 1 and c.card_recognition[i] == 4 and c.card_rubles[i] == 2
               for i in range(40))
    mean = [
        sum(r for r, lv in zip(c.card_recognition, c.card_level, strict=True) if lv == level)
        / c.card_level.count(level)
        for level in range(3)
    ]
    assert mean[0] < mean[1] < mean[2]  # rewards grow with height
    assert sorted(c.plan_players) == [2, 2, 2, 3, 3, 3, 4, 4, 4]
    for plan, players in enumerate(c.plan_players):
        assert sum(c.plan_towers[plan]) == 6 * players
    assert c.tile_yield[c.tile_ids.index("wood")] == 2
    assert [c.influence_group.count(g) for g in range(4)] == [3, 3, 3, 3]
    merchants = [c.influence_actions[i] for i in range(12) if GROUPS[c.influence_group[i]]
                 == "merchants"]
    assert any(a.choice == "pay" and a.choice_n == 2 and a.gain[4] == 1
               for card in merchants for a in card)  # 2 materials for 1 green gem
    assert len(c.workshop_ids) == 28 and any(c.workshop_three_plus)
    assert any(copy >= 0 for copy in c.workshop_copy)
    assert c.supply == (20, 20, 20, 15, 10, 10)
    assert c.starting_rubles == (3, 4, 4, 5) and c.track_start == 2
    assert c.board_die["basic"].count(0) == 2  # two white workshop spaces
    assert set(c.board_cost["advanced"]) == {3}


def broken(change) -> str:
    data = shipped()
    change(data)
    with pytest.raises(ComponentError) as info:
        parse_components(data, "test.json")
    return str(info.value)


def test_broken_file_names_the_entry_and_the_field():
    def marble(d):
        d["cathedral_cards"][3]["cost"] = {"marble": 2}

    msg = broken(marble)
    assert "cathedral_cards[3] (F04)" in msg and "field 'cost'" in msg and "marble" in msg

    def no_recognition(d):
        del d["cathedral_cards"][12]["recognition"]

    msg = broken(no_recognition)
    assert "cathedral_cards[12] (M03)" in msg and "'recognition'" in msg

    def bad_yield(d):
        d["resource_tiles"][0]["yield"] = "two"

    msg = broken(bad_yield)
    assert "resource_tiles[0] (wood)" in msg and "field 'yield'" in msg

    def bad_mode(d):
        d["influence_cards"][6]["actions"][1]["mode"] = "thunder"

    msg = broken(bad_mode)
    assert "influence_cards[6] (M1)" in msg and "actions[1]" in msg and "thunder" in msg

    def bad_plan(d):
        d["building_plans"][0]["towers"] = [3, 3, 3, 4]

    msg = broken(bad_plan)
    assert "building_plans[0] (2A)" in msg and "field 'towers'" in msg

    def infinite_points(d):
        d["influence_cards"][9]["actions"][1] = {
            "mode": "infinity", "pay": {"rubles": 1}, "gain": {"recognition": 2}}

    assert "paid in rubles may gain only materials" in broken(infinite_points)

    def two_copies(d):
        d["workshop_tiles"][0]["copy"] = "red"

    assert "workshop_tiles[0] (W01)" in broken(two_copies)

    def no_provenance(d):
        d["provenance"] = ""

    assert "provenance" in broken(no_provenance)


def test_components_path_loads_an_owners_file(tmp_path):
    data = shipped()
    data["name"] = "printed"
    data["cathedral_cards"][0]["recognition"] = 9
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    game = cathedral.load("red", components=str(path))
    assert game.components.name == "printed" and game.components.card_recognition[0] == 9
    state = game.new_initial_state()
    assert game.state_from_json(state.to_json()) == state


def test_components_param_rejects_a_broken_or_missing_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(ParameterError, match="not JSON"):
        cathedral.load("red", components=str(path))
    with pytest.raises(ParameterError, match="cannot read"):
        cathedral.load("red", components=str(tmp_path / "missing.json"))
    data = shipped()
    data["supply"]["gold"] = -1
    path.write_text(json.dumps(data))
    with pytest.raises(ParameterError, match=r"supply\.gold"):
        cathedral.load("red", components=str(path))
