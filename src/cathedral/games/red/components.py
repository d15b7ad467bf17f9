"""The Red Cathedral's component data: the JSON schema, its loader and its validation.

Every per-component number (card costs and rewards, influence actions, workshop tiles, board
spaces, plans, the score track) lives in one JSON file, because the printed values were found
nowhere and the shipped set is a reconstruction (see its ``provenance``). The rules modules
read only the frozen ``Components`` built here, so an owner's file with the real values plays
without a code change. Errors name the file, the entry (by index and id) and the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from cathedral.core.errors import ParameterError

MATERIALS = ("wood", "brick", "stone", "gold", "green", "purple")
"""The six materials, in the order every per-material list uses."""
DICE = ("white", "red", "blue", "yellow", "green")
"""Die colours; die ``p + 1`` is seat ``p``'s own die."""
LEVELS = ("foundation", "middle", "dome")
ORNAMENTS = ("door", "arch", "cross")
"""Ornament kinds, indexed like ``LEVELS`` (a door on a foundation, ...)."""
ORNAMENT_MATERIAL = (0, 2, 3)
"""The material each ornament kind costs: door wood, arch stone, cross gold (red.md)."""
GROUPS = ("artisans", "carriers", "merchants", "clergy")
"""Influence groups; group ``q`` sits on market quadrant ``q`` (spaces 2q and 2q+1)."""
RESOURCES = (*MATERIALS, "rubles", "recognition")
"""What a resource tile or a workshop tile can give: materials, rubles, recognition."""
GAINS = (*RESOURCES, "prestige")
RUBLES, RECOGNITION, PRESTIGE = 6, 7, 8
MODES = ("lightning", "infinity")
MAX_TOWERS = 10
MAX_HEIGHT = 8
MAX_WORKSHOP_SPACES = 8
MAX_TAKE = 12
"""The largest market take the action space allows: yield (at most 4) x 3 dice."""

SHIPPED = "reconstructed"
LEGACY_SETS = {1: "reconstructed-1"}
"""The shipped set of each older rules version, kept so that version's records replay."""
SHIPPED_FILES = {SHIPPED: "reconstructed.json", LEGACY_SETS[1]: "reconstructed-1.json"}


class ComponentError(ParameterError):
    """A component file that is missing, not JSON, or breaks the schema."""


@dataclass(frozen=True)
class Influence:
    """One action of an influence card.

    Attributes:
        lightning: once per turn (else infinity: repeatable while paid for).
        pay: amount per entry of ``GAINS`` (only materials and rubles are ever paid).
        gain: amount per entry of ``GAINS``.
        choice: ``"pay"`` (``choice_n`` identical materials of the player's choice),
            ``"gain"`` (``choice_n`` of one material of the player's choice) or ``""``.
    """

    lightning: bool
    pay: tuple[int, ...]
    gain: tuple[int, ...]
    choice: str
    choice_n: int

    def describe(self) -> str:
        def part(amounts: tuple[int, ...], side: str) -> str:
            items = [f"{n} {GAINS[i]}" for i, n in enumerate(amounts) if n]
            if self.choice == side:
                what = "same material" if side == "pay" else "any material"
                items.append(f"{self.choice_n} {what}")
            return " + ".join(items) or "nothing"

        mark = "once" if self.lightning else "repeatable"
        pay = part(self.pay, "pay")
        price = "" if pay == "nothing" else f"pay {pay} -> "
        return f"[{mark}] {price}{part(self.gain, 'gain')}"


@dataclass(frozen=True)
class Components:
    """Every component of one data set, validated, as tuples indexed by number."""

    name: str
    provenance: str
    supply: tuple[int, ...]
    starting_rubles: tuple[int, ...]
    track_length: int
    track_start: int
    prestige_spaces: tuple[int, ...]
    track_provenance: str
    """Where each fact about the track comes from ("" when the file does not say)."""
    inventory_slots: int
    banners: int
    banners_in_inventory: int
    ornaments: tuple[int, ...]
    tile_resource: tuple[int, ...]
    tile_yield: tuple[int, ...]
    tile_ids: tuple[str, ...]
    influence_ids: tuple[str, ...]
    influence_group: tuple[int, ...]
    influence_actions: tuple[tuple[Influence, Influence], ...]
    workshop_ids: tuple[str, ...]
    workshop_gain: tuple[tuple[int, ...], ...]
    workshop_copy: tuple[int, ...]
    """Die index whose space yield the tile copies, or -1 for a fixed gain."""
    workshop_three_plus: tuple[bool, ...]
    board_die: dict[str, tuple[int, ...]]
    board_cost: dict[str, tuple[int, ...]]
    board_ornament: dict[str, tuple[int, ...]]
    card_ids: tuple[str, ...]
    card_level: tuple[int, ...]
    card_cost: tuple[tuple[int, ...], ...]
    card_recognition: tuple[int, ...]
    card_rubles: tuple[int, ...]
    plan_ids: tuple[str, ...]
    plan_players: tuple[int, ...]
    plan_towers: tuple[tuple[int, ...], ...]

    @cached_property
    def card_total(self) -> tuple[int, ...]:
        """Materials each card costs in all."""
        return tuple(sum(cost) for cost in self.card_cost)

    def plans_for(self, players: int) -> list[int]:
        return [i for i, n in enumerate(self.plan_players) if n == players]

    def workshop_tiles_for(self, players: int) -> list[int]:
        return [i for i, plus in enumerate(self.workshop_three_plus) if players >= 3 or not plus]


class _Checker:
    """Collects the location of a value so every error names the entry and the field."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> ComponentError:
        return ComponentError(f"components {self.source}: {where}: {message}")

    def obj(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected an object, got {type(value).__name__}")
        return value

    def lst(self, value: Any, where: str, length: int | None = None) -> list:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list, got {type(value).__name__}")
        if length is not None and len(value) != length:
            raise self.fail(where, f"expected {length} entries, got {len(value)}")
        return value

    def field(self, entry: dict, key: str, where: str) -> Any:
        if key not in entry:
            raise self.fail(where, f"missing field {key!r}")
        return entry[key]

    def integer(self, value: Any, where: str, lo: int = 0, hi: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where, f"expected an integer, got {value!r}")
        if value < lo or (hi is not None and value > hi):
            bound = f"{lo}..{hi}" if hi is not None else f">= {lo}"
            raise self.fail(where, f"value {value} out of range (expected {bound})")
        return value

    def name(self, value: Any, names: tuple[str, ...], where: str, what: str) -> int:
        if value not in names:
            raise self.fail(where, f"unknown {what} {value!r} (expected one of {', '.join(names)})")
        return names.index(value)

    def amounts(self, value: Any, names: tuple[str, ...], where: str, extra: tuple = ()) -> dict:
        """Returns ``{index: n}`` for a ``{"name": n}`` object; ``extra`` keys pass through."""
        value = self.obj(value, where)
        out: dict[Any, int] = {}
        for key, n in value.items():
            if key in extra:
                out[key] = self.integer(n, f"{where}.{key}", 1, 9)
                continue
            index = self.name(key, names, f"{where}.{key}", "resource")
            out[index] = self.integer(n, f"{where}.{key}", 1, 20)
        return out


def _entry(where: str, index: int, entry: Any) -> str:
    ident = entry.get("id") if isinstance(entry, dict) else None
    return f"{where}[{index}]" + (f" ({ident})" if ident is not None else "")


def parse_components(data: Any, source: str = "<data>") -> Components:
    """Validates component data (the parsed JSON) and returns it as ``Components``.

    Raises:
        ComponentError: naming the entry and the field of the first problem found.
    """
    ck = _Checker(source)
    data = ck.obj(data, "top level")
    if ck.field(data, "schema", "top level") != 1:
        raise ck.fail("schema", f"unsupported schema {data['schema']!r} (expected 1)")
    name = ck.field(data, "name", "top level")
    provenance = ck.field(data, "provenance", "top level")
    if not isinstance(provenance, str) or not provenance.strip():
        raise ck.fail("provenance", "must be a non-empty text saying where the values come from")
    if ck.field(data, "materials", "top level") != list(MATERIALS):
        raise ck.fail("materials", f"must be {list(MATERIALS)} (the rules name them)")

    supply_obj = ck.obj(ck.field(data, "supply", "top level"), "supply")
    supply = tuple(
        ck.integer(ck.field(supply_obj, m, "supply"), f"supply.{m}", 1, 99) for m in MATERIALS
    )
    rubles = ck.lst(ck.field(data, "starting_rubles", "top level"), "starting_rubles", 4)
    starting_rubles = tuple(
        ck.integer(r, f"starting_rubles[{i}]", 0, 99) for i, r in enumerate(rubles)
    )

    track = ck.obj(ck.field(data, "track", "top level"), "track")
    length = ck.integer(ck.field(track, "length", "track"), "track.length", 10, 1000)
    start = ck.integer(ck.field(track, "start", "track"), "track.start", 0, length - 1)
    spaces = ck.lst(ck.field(track, "prestige_spaces", "track"), "track.prestige_spaces")
    prestige = tuple(
        ck.integer(p, f"track.prestige_spaces[{i}]", 1, length - 1) for i, p in enumerate(spaces)
    )
    if not prestige or list(prestige) != sorted(set(prestige)):
        raise ck.fail("track.prestige_spaces", "must be a non-empty, increasing list")
    track_provenance = track.get("provenance", "")
    if not isinstance(track_provenance, str):
        raise ck.fail("track.provenance", "must be a text")

    inv = ck.obj(ck.field(data, "inventory", "top level"), "inventory")
    slots = ck.integer(ck.field(inv, "slots", "inventory"), "inventory.slots", 1, 30)
    banners = ck.integer(ck.field(inv, "banners", "inventory"), "inventory.banners", 1, 8)
    in_inv = ck.integer(
        ck.field(inv, "banners_in_inventory", "inventory"), "inventory.banners_in_inventory",
        0, min(banners, slots),
    )
    orn = ck.obj(ck.field(data, "ornaments", "top level"), "ornaments")
    ornaments = tuple(
        ck.integer(ck.field(orn, k, "ornaments"), f"ornaments.{k}", 0, 9) for k in ORNAMENTS
    )

    # resource tiles: exactly 8, one per market space
    tiles = ck.lst(ck.field(data, "resource_tiles", "top level"), "resource_tiles", 8)
    tile_resource, tile_yield, tile_ids = [], [], []
    for i, t in enumerate(tiles):
        where = _entry("resource_tiles", i, t)
        t = ck.obj(t, where)
        tile_ids.append(str(ck.field(t, "id", where)))
        tile_resource.append(
            ck.name(ck.field(t, "resource", where), RESOURCES, f"{where}: field 'resource'",
                    "resource")
        )
        tile_yield.append(
            ck.integer(ck.field(t, "yield", where), f"{where}: field 'yield'", 1, MAX_TAKE // 3)
        )
    if sorted(tile_resource) != list(range(8)):
        raise ck.fail("resource_tiles", "must hold one tile of each resource: "
                      + ", ".join(RESOURCES))

    # influence cards: 3 per group, two actions each
    cards = ck.lst(ck.field(data, "influence_cards", "top level"), "influence_cards", 12)
    influence_ids, influence_group, influence_actions = [], [], []
    for i, c in enumerate(cards):
        where = _entry("influence_cards", i, c)
        c = ck.obj(c, where)
        influence_ids.append(str(ck.field(c, "id", where)))
        influence_group.append(
            ck.name(ck.field(c, "group", where), GROUPS, f"{where}: field 'group'", "group")
        )
        acts = ck.lst(ck.field(c, "actions", where), f"{where}: field 'actions'", 2)
        influence_actions.append(
            tuple(_influence(ck, a, f"{where}: field 'actions[{k}]'") for k, a in enumerate(acts))
        )
    for g, group in enumerate(GROUPS):
        if influence_group.count(g) != 3:
            raise ck.fail("influence_cards", f"expected 3 cards of group {group!r}, "
                                             f"got {influence_group.count(g)}")

    # workshop tiles
    wtiles = ck.lst(ck.field(data, "workshop_tiles", "top level"), "workshop_tiles", 28)
    workshop_ids, workshop_gain, workshop_copy, workshop_plus = [], [], [], []
    for i, t in enumerate(wtiles):
        where = _entry("workshop_tiles", i, t)
        t = ck.obj(t, where)
        workshop_ids.append(str(ck.field(t, "id", where)))
        has_gain, has_copy = "gain" in t, "copy" in t
        if has_gain == has_copy:
            raise ck.fail(where, "needs exactly one of the fields 'gain' and 'copy'")
        gain = [0] * len(GAINS)
        copy = -1
        if has_gain:
            for k, n in ck.amounts(t["gain"], RESOURCES, f"{where}: field 'gain'").items():
                gain[k] = n
        else:
            copy = ck.name(t["copy"], DICE, f"{where}: field 'copy'", "die")
        workshop_gain.append(tuple(gain))
        workshop_copy.append(copy)
        plus = ck.field(t, "three_plus", where)
        if not isinstance(plus, bool):
            raise ck.fail(f"{where}: field 'three_plus'", f"expected true or false, got {plus!r}")
        workshop_plus.append(plus)

    # workshop boards
    boards = ck.obj(ck.field(data, "workshop_boards", "top level"), "workshop_boards")
    board_die, board_cost, board_orn = {}, {}, {}
    for side in ("basic", "advanced"):
        spaces_ = ck.lst(ck.field(boards, side, "workshop_boards"), f"workshop_boards.{side}")
        if not banners <= len(spaces_) <= MAX_WORKSHOP_SPACES:
            raise ck.fail(f"workshop_boards.{side}",
                          f"expected {banners}..{MAX_WORKSHOP_SPACES} spaces (one per banner at "
                          f"least), got {len(spaces_)}")
        dice, costs, orns = [], [], []
        for k, sp in enumerate(spaces_):
            where = f"workshop_boards.{side}[{k}]"
            sp = ck.obj(sp, where)
            dice.append(ck.name(ck.field(sp, "die", where), DICE, f"{where}: field 'die'", "die"))
            costs.append(ck.integer(ck.field(sp, "cost", where), f"{where}: field 'cost'", 0, 20))
            o = sp.get("ornament")
            orns.append(-1 if o is None else ck.name(o, ORNAMENTS, f"{where}: field 'ornament'",
                                                     "ornament"))
        board_die[side], board_cost[side], board_orn[side] = tuple(dice), tuple(costs), tuple(orns)

    # cathedral cards
    ccards = ck.lst(ck.field(data, "cathedral_cards", "top level"), "cathedral_cards", 40)
    card_ids, card_level, card_cost, card_rec, card_rub = [], [], [], [], []
    for i, c in enumerate(ccards):
        where = _entry("cathedral_cards", i, c)
        c = ck.obj(c, where)
        card_ids.append(str(ck.field(c, "id", where)))
        card_level.append(
            ck.name(ck.field(c, "level", where), LEVELS, f"{where}: field 'level'", "level")
        )
        cost = [0] * len(MATERIALS)
        for k, n in ck.amounts(ck.field(c, "cost", where), MATERIALS,
                               f"{where}: field 'cost'").items():
            cost[k] = n
        if not 1 <= sum(cost) <= 6:
            raise ck.fail(f"{where}: field 'cost'", f"expected 1..6 materials, got {sum(cost)}")
        card_cost.append(tuple(cost))
        card_rec.append(ck.integer(ck.field(c, "recognition", where),
                                   f"{where}: field 'recognition'", 0, 40))
        card_rub.append(ck.integer(c.get("rubles", 0), f"{where}: field 'rubles'", 0, 20))
    for ids, what in ((card_ids, "cathedral_cards"), (workshop_ids, "workshop_tiles"),
                      (influence_ids, "influence_cards")):
        dup = sorted({x for x in ids if ids.count(x) > 1})
        if dup:
            raise ck.fail(what, f"duplicate id {dup[0]!r}")
    level_counts = [card_level.count(lv) for lv in range(3)]

    # building plans
    plans = ck.lst(ck.field(data, "building_plans", "top level"), "building_plans")
    plan_ids, plan_players, plan_towers = [], [], []
    for i, p in enumerate(plans):
        where = _entry("building_plans", i, p)
        p = ck.obj(p, where)
        plan_ids.append(str(ck.field(p, "id", where)))
        players = ck.integer(ck.field(p, "players", where), f"{where}: field 'players'", 2, 4)
        towers = ck.lst(ck.field(p, "towers", where), f"{where}: field 'towers'")
        if not 1 <= len(towers) <= MAX_TOWERS:
            raise ck.fail(f"{where}: field 'towers'", f"expected 1..{MAX_TOWERS} towers")
        heights = tuple(
            ck.integer(h, f"{where}: field 'towers[{k}]'", 2, MAX_HEIGHT)
            for k, h in enumerate(towers)
        )
        need = (len(heights), sum(heights) - 2 * len(heights), len(heights))
        for lv in range(3):
            if need[lv] > level_counts[lv]:
                raise ck.fail(f"{where}: field 'towers'",
                              f"needs {need[lv]} {LEVELS[lv]} cards, the set has "
                              f"{level_counts[lv]}")
        if sum(heights) > banners * players:
            raise ck.fail(f"{where}: field 'towers'",
                          f"{sum(heights)} sections exceed {banners} banners x {players} players")
        pool = sum(1 for plus in workshop_plus if players >= 3 or not plus)
        if sum(heights) > pool:
            raise ck.fail(f"{where}: field 'towers'",
                          f"{sum(heights)} sections but only {pool} workshop tiles for "
                          f"{players} players")
        plan_players.append(players)
        plan_towers.append(heights)
    for n in (2, 3, 4):
        if n not in plan_players:
            raise ck.fail("building_plans", f"no plan for {n} players")

    return Components(
        name=str(name), provenance=provenance, supply=supply, starting_rubles=starting_rubles,
        track_length=length, track_start=start, prestige_spaces=prestige,
        track_provenance=track_provenance,
        inventory_slots=slots, banners=banners, banners_in_inventory=in_inv,
        ornaments=ornaments, tile_resource=tuple(tile_resource), tile_yield=tuple(tile_yield),
        tile_ids=tuple(tile_ids), influence_ids=tuple(influence_ids),
        influence_group=tuple(influence_group), influence_actions=tuple(influence_actions),
        workshop_ids=tuple(workshop_ids), workshop_gain=tuple(workshop_gain),
        workshop_copy=tuple(workshop_copy), workshop_three_plus=tuple(workshop_plus),
        board_die=board_die, board_cost=board_cost, board_ornament=board_orn,
        card_ids=tuple(card_ids), card_level=tuple(card_level), card_cost=tuple(card_cost),
        card_recognition=tuple(card_rec), card_rubles=tuple(card_rub),
        plan_ids=tuple(plan_ids), plan_players=tuple(plan_players),
        plan_towers=tuple(plan_towers),
    )


def _influence(ck: _Checker, value: Any, where: str) -> Influence:
    value = ck.obj(value, where)
    mode = ck.name(ck.field(value, "mode", where), MODES, f"{where}.mode", "mode")
    pay_d = ck.amounts(ck.field(value, "pay", where), (*MATERIALS, "rubles"), f"{where}.pay",
                       extra=("choice",))
    gain_d = ck.amounts(ck.field(value, "gain", where), GAINS, f"{where}.gain", extra=("choice",))
    if "choice" in pay_d and "choice" in gain_d:
        raise ck.fail(where, "only one of 'pay' and 'gain' may hold a 'choice'")
    choice = "pay" if "choice" in pay_d else "gain" if "choice" in gain_d else ""
    choice_n = pay_d.pop("choice", 0) or gain_d.pop("choice", 0)
    pay = [0] * len(GAINS)
    gain = [0] * len(GAINS)
    for k, n in pay_d.items():
        pay[k] = n
    for k, n in gain_d.items():
        gain[k] = n
    if not any(gain) and choice != "gain":
        raise ck.fail(f"{where}.gain", "an action must gain something")
    if mode == 1:
        # Bounded by the inventory: an infinity action spends or buys only materials.
        pays_material = choice == "pay" or any(pay[:6])
        gain_materials = sum(gain[:6]) + (choice_n if choice == "gain" else 0)
        paid_materials = sum(pay[:6]) + (choice_n if choice == "pay" else 0)
        if pays_material:
            if gain_materials >= paid_materials:
                raise ck.fail(where, "a repeatable action that pays materials must gain fewer "
                                     "materials than it pays")
        elif any(gain[6:]):
            raise ck.fail(where, "a repeatable action paid in rubles may gain only materials")
    return Influence(mode == 0, tuple(pay), tuple(gain), choice, choice_n)


def check_components_param(value: Any) -> str | None:
    """The ``components`` parameter check: a shipped name or a loadable file path."""
    if value in SHIPPED_FILES:
        return None
    try:
        load_components(value)
    except ComponentError as exc:
        return str(exc)
    return None


@lru_cache(maxsize=16)
def load_components(source: str = SHIPPED) -> Components:
    """Returns the component set named ``source``: a shipped name (``"reconstructed"``,
    ``"reconstructed-1"``) or a JSON file path.

    Raises:
        ComponentError: the file cannot be read, is not JSON, or breaks the schema.
    """
    if source in SHIPPED_FILES:
        text = resources.files("cathedral.games.red").joinpath("data", SHIPPED_FILES[source])
        raw = text.read_text(encoding="utf-8")
        label = source
    else:
        path = Path(source)
        try:
            raw = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ComponentError(f"components {source!r}: cannot read the file ({exc.strerror})") \
                from None
        label = repr(source)
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ComponentError(f"components {label}: not JSON ({exc})") from None
    return parse_components(data, label)
