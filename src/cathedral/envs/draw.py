"""Pictures of the boards for ``render_mode="rgb_array"``: an RGB uint8 array per state.

Drawn with Pillow from the engine state, in one visual language for the three games: a
parchment board, thin grid or line work, pieces filled with their player's colour and outlined
in dark ink, the last move or the chain in progress marked in gold, coordinates on the edge.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from cathedral.core.contract import State

PAPER = (236, 226, 200)
EDGE = (250, 245, 232)
GRID = (150, 132, 100)
INK = (50, 38, 28)
MARK = (232, 180, 40)

SEAT_COLOURS = {
    "Light": (245, 232, 196),
    "Dark": (122, 74, 42),
    "White": (248, 248, 244),
    "Black": (36, 36, 36),
    "Blue": (47, 95, 179),
    "Red": (192, 57, 43),
    "Yellow": (224, 176, 32),
    "Green": (58, 143, 58),
}
"""Each seat name's colour; the same name is the same colour in every game."""

_FONT = ImageFont.load_default()


def board_image(state: State) -> np.ndarray:
    """Returns the picture of ``state`` as an ``(height, width, 3)`` uint8 array."""
    painter = {"classic": _classic, "allmer": _allmer, "red": _red}[state.game.name]
    image = painter(state)
    return np.asarray(image.convert("RGB"), dtype=np.uint8).copy()


def _tint(colour: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    """Returns ``colour`` mixed with the paper (``amount`` 0: paper, 1: the colour)."""
    return tuple(round(p + (c - p) * amount) for p, c in zip(PAPER, colour))  # type: ignore


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fill=INK) -> None:
    draw.text(xy, text, fill=fill, font=_FONT, anchor="mm")


# ----- classic ------------------------------------------------------------------------------

_CELL = 40
_MARGIN = 24


def _classic(state: State) -> Image.Image:
    from cathedral.games.classic.pieces import ACTION_SQUARES, FILES, SIZE, squares_of

    position = state.position
    side = SIZE * _CELL
    image = Image.new("RGB", (side + 2 * _MARGIN, side + 2 * _MARGIN), EDGE)
    draw = ImageDraw.Draw(image)
    owner: dict[int, object] = {}  # square -> the piece standing on it
    fill: dict[int, tuple[int, int, int]] = {}
    light, dark = SEAT_COLOURS["Light"], SEAT_COLOURS["Dark"]
    for square in range(SIZE * SIZE):
        if position.territory[0] >> square & 1:
            fill[square] = _tint(light, 0.6)
        elif position.territory[1] >> square & 1:
            fill[square] = _tint(dark, 0.35)
    for colour, paint in ((0, light), (1, dark)):
        for action in position.pieces[colour]:
            for square in ACTION_SQUARES[action]:
                owner[square] = (colour, action)
                fill[square] = paint
    for square in squares_of(position.cathedral):
        owner[square] = "cathedral"
        fill[square] = SEAT_COLOURS["Red"]

    def box(square: int) -> tuple[int, int, int, int]:
        file, rank = square % SIZE, square // SIZE
        x = _MARGIN + file * _CELL
        y = _MARGIN + (SIZE - 1 - rank) * _CELL
        return x, y, x + _CELL, y + _CELL

    for square in range(SIZE * SIZE):
        draw.rectangle(box(square), fill=fill.get(square, PAPER), outline=GRID)
    history = state.history()
    if history:
        for square in ACTION_SQUARES[history[-1]]:
            x0, y0, x1, y1 = box(square)
            draw.rectangle((x0 + 4, y0 + 4, x1 - 4, y1 - 4), outline=MARK, width=3)
    # A building's outline: a thick ink edge wherever a piece meets anything else.
    for square, piece in owner.items():
        x0, y0, x1, y1 = box(square)
        file, rank = square % SIZE, square // SIZE
        sides = (
            (file == 0 or owner.get(square - 1) != piece, (x0, y0, x0, y1)),
            (file == SIZE - 1 or owner.get(square + 1) != piece, (x1, y0, x1, y1)),
            (rank == 0 or owner.get(square - SIZE) != piece, (x0, y1, x1, y1)),
            (rank == SIZE - 1 or owner.get(square + SIZE) != piece, (x0, y0, x1, y0)),
        )
        for edge, line in sides:
            if edge:
                draw.line(line, fill=INK, width=3)
    draw.rectangle((_MARGIN, _MARGIN, _MARGIN + side, _MARGIN + side), outline=INK, width=3)
    for i in range(SIZE):
        middle = _MARGIN + i * _CELL + _CELL / 2
        _text(draw, (middle, _MARGIN + side + _MARGIN / 2), FILES[i])
        _text(draw, (_MARGIN / 2, _MARGIN + (SIZE - 1 - i) * _CELL + _CELL / 2), str(i + 1))
    return image


# ----- allmer -------------------------------------------------------------------------------

_STEP = 32


def _allmer(state: State) -> Image.Image:
    from cathedral.games.allmer.geometry import COORDS, FILES, PARTNER, SIZE

    geo = state._cfg.geo
    names = state.game.player_names()
    side = (SIZE - 1) * _STEP
    image = Image.new("RGB", (side + 4 * _MARGIN, side + 4 * _MARGIN), EDGE)
    draw = ImageDraw.Draw(image)
    origin = 2 * _MARGIN

    def at(point: int) -> tuple[float, float]:
        x, y = COORDS[point]
        return origin + x * _STEP, origin + y * _STEP

    half = _STEP / 2
    for x0, y0, x1, y1 in ((5, 0, 9, 14), (0, 5, 14, 9)):  # the cross: two arms of the box
        draw.rectangle((origin + x0 * _STEP - half, origin + y0 * _STEP - half,
                        origin + x1 * _STEP + half, origin + y1 * _STEP + half), fill=PAPER)
    for point, neighbours in enumerate(geo.neighbours):
        for other in neighbours:
            if other > point:
                draw.line((*at(point), *at(other)), fill=GRID, width=2)
    for mouth, partner in PARTNER.items():
        if partner > mouth:
            draw.line((*at(mouth), *at(partner)), fill=MARK, width=3)
    marked = _allmer_last_step(state)
    radius = _STEP * 0.38
    for point in range(len(COORDS)):
        x, y = at(point)
        colour = state.board[point]
        if colour:
            paint = SEAT_COLOURS[names[colour - 1]]
            ring = MARK if point == state.chain else INK
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=paint,
                         outline=ring, width=4 if point == state.chain else 2)
        elif state.touched >> point & 1:
            draw.line((x - 5, y - 5, x + 5, y + 5), fill=INK, width=2)
            draw.line((x - 5, y + 5, x + 5, y - 5), fill=INK, width=2)
        else:
            r = 3 if geo.strong[point] else 2
            draw.ellipse((x - r, y - r, x + r, y + r), fill=GRID)
        if marked and point in marked:
            draw.rectangle((x - half + 2, y - half + 2, x + half - 2, y + half - 2),
                           outline=MARK, width=2)
    for i in range(SIZE):
        _text(draw, (origin + i * _STEP, origin + side + _MARGIN * 1.4), FILES[i])
        _text(draw, (_MARGIN * 0.6, origin + i * _STEP), str(SIZE - i))
    return image


def _allmer_last_step(state: State) -> tuple[int, int] | None:
    from cathedral.games.allmer.view.render import last_step

    return last_step(state)


# ----- red ----------------------------------------------------------------------------------

_DIE_COLOURS = ("White", "Red", "Blue", "Yellow", "Green")
_RESOURCE_COLOURS = (
    (160, 110, 60), (178, 80, 60), (150, 150, 150), (222, 184, 60),
    (58, 143, 58), (120, 60, 150), (200, 170, 120), (90, 90, 160),
)
"""wood, brick, stone, gold, green, purple, rubles, recognition."""
_SLOT_W, _SLOT_H = 44, 28


def _red(state: State) -> Image.Image:
    from cathedral.games.red.actions import slot_name
    from cathedral.games.red.components import MAX_HEIGHT

    c = state.c
    names = state.game.player_names()
    width = 10 * (_SLOT_W + 8) + 2 * _MARGIN
    market_top = _MARGIN
    towers_top = market_top + 60
    towers_bottom = towers_top + MAX_HEIGHT * _SLOT_H
    players_top = towers_bottom + 30
    height = players_top + 26 * state.n + _MARGIN
    image = Image.new("RGB", (width, height), EDGE)
    draw = ImageDraw.Draw(image)

    # The market: eight spaces with their resource, and the dice standing on them.
    space_w = (width - 2 * _MARGIN) / 8
    for sp in range(8):
        x0 = _MARGIN + sp * space_w
        tile = state.market[sp]
        paint = _RESOURCE_COLOURS[c.tile_resource[tile]] if tile >= 0 else PAPER
        draw.rectangle((x0 + 2, market_top, x0 + space_w - 2, market_top + 44),
                       fill=_tint(paint, 0.45), outline=GRID)
        _text(draw, (x0 + space_w / 2, market_top + 10), str(sp + 1))
        dice = [d for d in range(5) if state.dice_space[d] == sp]
        for k, d in enumerate(dice):
            dx = x0 + 8 + k * 22
            die = SEAT_COLOURS[_DIE_COLOURS[d]]
            draw.rectangle((dx, market_top + 20, dx + 18, market_top + 38), fill=die,
                           outline=INK, width=2)
            pips = INK if _DIE_COLOURS[d] in ("White", "Yellow") else EDGE
            _text(draw, (dx + 9, market_top + 29), str(state.dice_pips[d]), fill=pips)

    # The cathedral: one column per tower of the plan, foundation at the bottom.
    for slot in state.slots:
        tower, level = divmod(slot, MAX_HEIGHT)
        x0 = _MARGIN + tower * (_SLOT_W + 8)
        y1 = towers_bottom - level * _SLOT_H
        box = (x0, y1 - _SLOT_H + 2, x0 + _SLOT_W, y1)
        owner = state.owner[slot]
        if owner < 0:
            paint = PAPER
        elif state.built[slot]:
            paint = SEAT_COLOURS[names[owner]]
        else:
            paint = _tint(SEAT_COLOURS[names[owner]], 0.4)
        draw.rectangle(box, fill=paint, outline=INK, width=2)
        label = INK if owner < 0 or not state.built[slot] or names[owner] == "Yellow" else EDGE
        _text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), slot_name(slot), fill=label)
        if state.orn[slot] >= 0:
            ox, oy = box[2] - 7, box[1] + 7
            draw.ellipse((ox - 5, oy - 5, ox + 5, oy + 5),
                         fill=SEAT_COLOURS[names[state.orn[slot]]], outline=INK)
    draw.line((_MARGIN, towers_bottom + 2, width - _MARGIN, towers_bottom + 2), fill=INK, width=3)

    # The players: a bar of each one's prestige marker, rubles and completions beside it.
    track = max(1, c.track_length)
    to_move = state.current_player()
    for p in range(state.n):
        y0 = players_top + 26 * p
        paint = SEAT_COLOURS[names[p]]
        bar = (width - 2 * _MARGIN - 160) * min(1.0, state.pos[p] / track)
        draw.rectangle((_MARGIN, y0, _MARGIN + 14, y0 + 18), fill=paint, outline=INK)
        draw.rectangle((_MARGIN + 20, y0 + 3, _MARGIN + 20 + bar, y0 + 15), fill=paint)
        draw.rectangle((_MARGIN + 20, y0 + 3, width - _MARGIN - 140, y0 + 15), outline=GRID)
        text = f"{state.rubles[p]} rub  {state.completed[p]} done"
        draw.text((width - _MARGIN - 132, y0 + 3), text, fill=INK, font=_FONT)
        if p == to_move:
            draw.rectangle((_MARGIN - 4, y0 - 3, _MARGIN + 18, y0 + 21), outline=MARK, width=3)
    return image
