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
# the sale of prestige for rubles in this turn: none yet, selling now (the last decision was a
# sale), over (a sale was followed by another decision: with rubles_timing=one_moment no more)
NOT_SOLD, SELLING, SOLD = range(3)
W = MAX_WORKSHOP_SPACES
"""Workshop spaces per player: the width of the per-player workshop lists."""
