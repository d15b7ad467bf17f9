"""The Red Cathedral's integer action space: one fixed block per kind of decision.

Every decision of a turn, and every chance outcome, is one integer below ``NUM_ACTIONS``. A
cathedral card is addressed by its *slot*, ``tower * MAX_HEIGHT + height`` (both from 0), so
the space does not depend on which building plan was drawn:

=============  =====  ==========================================================
block          size   meaning of the offset
=============  =====  ==========================================================
DONE              1   end the market visit (then the dice roll) or end the turn
RUBLES            1   lose a prestige space, take 2 rubles
REROLL            8   market space (0-7): roll every die standing there
CLAIM            80   slot of the card to put a banner on
TILE             16   workshop space * 2 + face (0 down, 1 up)
DELIVER         480   slot * 6 + material
ORNAMENT        480   slot * 6 + gem set (none, g, p, gg, gp, pp)
DIE              40   die * 8 + paid extra steps (0-7)
TAKE             12   amount - 1
INFLUENCE        14   card action (0, 1) * 7 + chosen material + 1 (0: no choice)
ACTIVATE          8   workshop space
CHANCE           40   outcome value (an item index, or the pips of a roll)
=============  =====  ==========================================================
"""

from __future__ import annotations

from cathedral.games.red.components import MAX_HEIGHT, MAX_TAKE, MAX_TOWERS, MAX_WORKSHOP_SPACES

SLOTS = MAX_TOWERS * MAX_HEIGHT
GEM_SETS = ((0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2))
"""(green, purple) gems of each ornament gem set, in the order of the ORNAMENT block."""
GEM_PRESTIGE = (0, 1, 1, 2, 3, 2)
"""Prestige a gem set gives at once: 1 per gem, 3 for two different colours (red.md)."""

DONE = 0
RUBLES = 1
REROLL = 2
CLAIM = REROLL + 8
TILE = CLAIM + SLOTS
DELIVER = TILE + 2 * MAX_WORKSHOP_SPACES
ORNAMENT = DELIVER + SLOTS * 6
DIE = ORNAMENT + SLOTS * 6
TAKE = DIE + 5 * 8
INFLUENCE = TAKE + MAX_TAKE
ACTIVATE = INFLUENCE + 14
CHANCE = ACTIVATE + MAX_WORKSHOP_SPACES
CHANCE_VALUES = 40
NUM_ACTIONS = CHANCE + CHANCE_VALUES

BLOCKS = (
    ("done", DONE, 1), ("rubles", RUBLES, 1), ("reroll", REROLL, 8), ("claim", CLAIM, SLOTS),
    ("tile", TILE, 2 * MAX_WORKSHOP_SPACES), ("deliver", DELIVER, SLOTS * 6),
    ("ornament", ORNAMENT, SLOTS * 6), ("die", DIE, 40), ("take", TAKE, MAX_TAKE),
    ("influence", INFLUENCE, 14), ("activate", ACTIVATE, MAX_WORKSHOP_SPACES),
    ("chance", CHANCE, CHANCE_VALUES),
)

BLOCK_MEANINGS = {
    "done": "end the market visit (then the dice roll) or end the turn",
    "rubles": "lose a prestige space, take 2 rubles",
    "reroll": "the market space (0-7) whose dice are all rolled again",
    "claim": f"the slot (tower * {MAX_HEIGHT} + height) of the card to put a banner on",
    "tile": "workshop space * 2 + face (0 down, 1 up)",
    "deliver": "slot * 6 + material",
    "ornament": "slot * 6 + gem set (none, g, p, gg, gp, pp)",
    "die": "die * 8 + paid extra steps (0-7)",
    "take": "the amount taken - 1",
    "influence": "card action (0, 1) * 7 + chosen material + 1 (0: no choice)",
    "activate": "the workshop space",
    "chance": "a chance outcome: an item index, or the pips of a roll",
}
"""What the offset inside each block of ``BLOCKS`` means."""


def block_of(action: int) -> tuple[str, int]:
    """Returns the block name of ``action`` and its offset inside the block."""
    for name, start, size in reversed(BLOCKS):
        if action >= start:
            if action - start >= size:
                break
            return name, action - start
    raise ValueError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")


def slot_name(slot: int) -> str:
    """Returns ``T2.3`` for tower 2 (from 1), height 3 (from 1, the foundation is 1)."""
    return f"T{slot // MAX_HEIGHT + 1}.{slot % MAX_HEIGHT + 1}"


def parse_slot(text: str) -> int | None:
    """Returns the slot of ``T2.3`` (any case), or None when it does not parse."""
    text = text.lower()
    if not text.startswith("t") or "." not in text:
        return None
    tower, _, height = text[1:].partition(".")
    if not (tower.isdigit() and height.isdigit()):
        return None
    t, h = int(tower) - 1, int(height) - 1
    if not (0 <= t < MAX_TOWERS and 0 <= h < MAX_HEIGHT):
        return None
    return t * MAX_HEIGHT + h
