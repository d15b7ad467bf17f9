"""The stages of a game of The Red Cathedral and the phases of a turn: plain numbers that the
state, its notation, its views and its heuristics all read (a leaf: it imports nothing of the
package but the components' sizes)."""

from __future__ import annotations

from cathedral.games.red.components import MAX_WORKSHOP_SPACES

# stages
S_TILES, S_INFLUENCE, S_PLAN, S_CARDS, S_WTILES, S_DICE, PLAY, OVER = range(8)
STAGE_NAMES = ("tiles", "influence", "plan", "cards", "workshop", "dice", "play", "over")
# phases of a turn
START, CLAIMED, BUILD, MARKET, AFTER = range(5)
PHASE_NAMES = ("start", "claimed", "build", "market", "after")
NOT_SOLD, SELLING, SOLD = range(3)
"""This turn's sale of prestige: none yet, selling now (the last decision was a sale), over
(another decision followed a sale: with rubles_timing=one_moment, no more)."""
W = MAX_WORKSHOP_SPACES
"""Workshop spaces per player: the width of the per-player workshop lists."""
