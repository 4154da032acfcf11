"""The table as a picture, for ``render_mode="rgb_array"``: a ``(H, W, 3)`` uint8 NumPy array.

Drawn with Pillow from the game's public view of one seat (None: a spectator's view), so it
shows what that seat may see and nothing more. Harmonies: the central board's spaces and their
tokens, the animal card row, then every personal board as hexagons whose colours are the tokens
stacked there, bottom to top (a black square: an animal cube), with its score. Living Forest: the
round and phase, the Sacred Circle with the spirits' stones, the three display rows, then every
spirit's forest (3 x 5 spaces), its fires and its progress toward 12 as three bars.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from glade.core import Game

WIDTH = 960
BACKGROUND = (246, 241, 228)
INK = (40, 40, 40)
TOKEN = {
    "blue": (66, 133, 214),
    "gray": (140, 140, 150),
    "brown": (132, 86, 50),
    "green": (64, 160, 72),
    "yellow": (234, 200, 60),
    "red": (200, 64, 52),
}
SEAT = [(200, 64, 52), (66, 133, 214), (64, 160, 72), (160, 90, 190)]


def picture(game: Game, seat: int | None) -> np.ndarray:
    """The table of ``game`` as ``seat`` sees it, as an RGB uint8 array."""
    view = game.view(seat)
    image = _harmonies(game, view) if game.game_name == "harmonies" else _living_forest(view)
    return np.asarray(image.convert("RGB"), dtype=np.uint8)


def _font() -> Any:
    return ImageFont.load_default()


# ---------------------------------------------------------------------- Harmonies
HEX = 17  # hexagon radius in pixels


def _hexagon(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [
        (cx + r * math.cos(math.pi / 3 * k), cy + r * math.sin(math.pi / 3 * k)) for k in range(6)
    ]


def _harmonies(game: Game, view: dict[str, Any]) -> Image.Image:
    cells: tuple[tuple[int, int], ...] = game.space.layout.cells  # type: ignore[attr-defined]
    xs = [1.5 * HEX * q for q, _ in cells]
    ys = [math.sqrt(3) * HEX * (r + q / 2) for q, r in cells]
    board_w = int(max(xs) - min(xs) + 3 * HEX)
    board_h = int(max(ys) - min(ys) + 3 * HEX) + 24
    per_row = max(1, min(view["players"], WIDTH // (board_w + 20)))
    rows = math.ceil(view["players"] / per_row)
    top = 110
    image = Image.new("RGB", (WIDTH, top + rows * (board_h + 16) + 10), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = _font()
    status = "game over" if view["over"] else f"seat {view['current']} to play"
    draw.text(
        (10, 8),
        f"Harmonies  side {view['options']['side']}  turn {view['turn']}  {status}",
        fill=INK,
        font=font,
    )
    # the central board: five spaces with their tokens
    for i, tokens in enumerate(view["central"]):
        cx, cy = 40 + i * 70, 55
        draw.ellipse((cx - 28, cy - 28, cx + 28, cy + 28), outline=INK, fill=(225, 215, 190))
        for k, colour in enumerate(tokens):
            tx = cx - 14 + 14 * k
            draw.ellipse((tx - 7, cy - 7, tx + 7, cy + 7), fill=TOKEN[colour], outline=INK)
    draw.text((10, 88), "cards: " + ", ".join(c or "-" for c in view["row"]), fill=INK, font=font)
    for s, board in enumerate(view["boards"]):
        ox = 10 + (s % per_row) * (board_w + 20)
        oy = top + (s // per_row) * (board_h + 16)
        mark = " (you)" if s == view["seat"] else ""
        draw.rectangle((ox, oy, ox + board_w, oy + board_h), outline=SEAT[s % 4], width=2)
        draw.text(
            (ox + 6, oy + 4),
            f"seat {s}{mark}: {board['score']['total']} points",
            fill=INK,
            font=font,
        )
        cubes = {c if isinstance(c, str) else ",".join(map(str, c)) for c in board["cubes"]}
        for (q, r), x, y in zip(cells, xs, ys, strict=True):
            cx = ox + x - min(xs) + 1.5 * HEX
            cy = oy + 24 + y - min(ys) + 1.5 * HEX
            key = f"{q},{r}"
            stack = board["stacks"].get(key, [])
            draw.polygon(_hexagon(cx, cy, HEX - 1), outline=INK, fill=(232, 226, 208))
            for level, colour in enumerate(stack):  # bottom token largest, the top one smallest
                draw.polygon(_hexagon(cx, cy, HEX - 3 - 4 * level), fill=TOKEN[colour])
            if key in cubes:
                draw.rectangle((cx - 3, cy - 3, cx + 3, cy + 3), fill=INK)
    return image


# ---------------------------------------------------------------------- Living Forest
def _living_forest(view: dict[str, Any]) -> Image.Image:
    spirits = view["spirits"]
    panel_w, panel_h = 460, 170
    top = 200
    rows = math.ceil(len(spirits) / 2)
    image = Image.new("RGB", (WIDTH, top + rows * (panel_h + 10) + 10), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = _font()
    draw.text(
        (10, 8), f"Living Forest  round {view['round']}  phase {view['phase']}", fill=INK, font=font
    )
    # the Sacred Circle: twelve stones, a spirit's colour where it stands
    cx, cy, radius = 90, 110, 65
    for stone in view["circle"]:
        angle = 2 * math.pi * stone["rock"] / 12 - math.pi / 2
        x, y = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
        who = stone["spirit"]
        fill = SEAT[who % 4] if who is not None else (200, 195, 180)
        draw.ellipse((x - 10, y - 10, x + 10, y + 10), fill=fill, outline=INK)
    for r, row in enumerate(view["display"]):
        for c, card in enumerate(row):
            x, y = 200 + c * 185, 30 + r * 56
            draw.rectangle((x, y, x + 175, y + 48), outline=INK, fill=(228, 236, 214))
            if card:
                draw.text((x + 4, y + 4), str(card["name"]), fill=INK, font=font)
                draw.text((x + 4, y + 24), f"cost {card.get('cost', '-')}", fill=INK, font=font)
    for i, spirit in enumerate(spirits):
        ox = 10 + (i % 2) * (panel_w + 20)
        oy = top + (i // 2) * (panel_h + 10)
        draw.rectangle((ox, oy, ox + panel_w, oy + panel_h), outline=SEAT[i % 4], width=2)
        mark = " (you)" if i == view["seat"] else ""
        draw.text((ox + 6, oy + 4), f"spirit {i}{mark}", fill=INK, font=font)
        for r, line in enumerate(spirit["forest"]):  # the forest: 3 rows of 5 spaces
            for c, tree in enumerate(line):
                x, y = ox + 8 + c * 44, oy + 24 + r * 44
                fill = (200, 195, 180) if tree is None else (64, 160, 72)
                if tree == "start":
                    fill = (150, 110, 60)
                draw.rectangle((x, y, x + 40, y + 40), fill=fill, outline=INK)
                if tree not in (None, "start"):
                    draw.text((x + 3, y + 14), str(tree), fill=(255, 255, 255), font=font)
        fires = spirit["fires"]
        for k in range(len(fires)):  # each extinguished fire a red dot
            x, y = ox + 240 + (k % 12) * 17, oy + 28 + (k // 12) * 17
            draw.ellipse((x, y, x + 13, y + 13), fill=(200, 64, 52), outline=INK)
        for k, (name, value) in enumerate(spirit["progress"].items()):  # progress toward 12
            y = oy + 90 + k * 24
            draw.text((ox + 240, y), name, fill=INK, font=font)
            draw.rectangle((ox + 300, y, ox + 300 + 144, y + 14), outline=INK)
            filled = int(144 * min(value, 12) / 12)
            draw.rectangle((ox + 300, y, ox + 300 + filled, y + 14), fill=SEAT[i % 4])
            draw.text((ox + 450 - 4, y), str(value), fill=INK, font=font)
    return image


__all__ = ["picture"]
