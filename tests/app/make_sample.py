"""Render the placeholder `assets/sample.jpg` from `assets/sample.json` (run by hand, not a test).

A plain synthetic 4-seat table: each card a white rectangle with its rank and suit in the corners,
rows head (nearest the centre), middle, tail, seats rotated 0/90/180/270 degrees clockwise from the
bottom. The team lead replaces it with a real photo; keep sample.json in step with it.

    python3 -m tests.app.make_sample
"""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[2]
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
SYM = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
CW, CH = 90, 126


def card_image(card: str) -> Image.Image:
    img = Image.new("RGBA", (CW, CH), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, CW - 1, CH - 1), radius=8, fill=(250, 250, 246), outline=(60, 60, 60), width=2)
    rank, suit = ("10" if card[0] == "T" else card[0]), card[1]
    color = (200, 20, 30) if suit in "hd" else (15, 15, 15)
    small, big = ImageFont.truetype(FONT, 22), ImageFont.truetype(FONT, 48)
    d.text((6, 3), rank, font=small, fill=color)
    d.text((7, 27), SYM[suit], font=small, fill=color)
    d.text((CW / 2, CH / 2 + 6), SYM[suit], font=big, fill=color, anchor="mm")
    flipped = Image.new("RGBA", (CW, CH), (0, 0, 0, 0))
    fd = ImageDraw.Draw(flipped)
    fd.text((6, 3), rank, font=small, fill=color)
    fd.text((7, 27), SYM[suit], font=small, fill=color)
    img.alpha_composite(flipped.rotate(180))
    return img


def seat_image(player: dict) -> Image.Image:
    """Upright seat: head on top (towards the centre), tail at the bottom (near the player)."""
    gap, step = 14, CW * 0.62
    width = int(step * 4 + CW + 20)
    img = Image.new("RGBA", (width, CH * 3 + gap * 2 + 10), (0, 0, 0, 0))
    for r, row in enumerate(("head", "middle", "tail")):
        cards = player[row].split()
        x0 = (width - (step * (len(cards) - 1) + CW)) / 2
        for i, c in enumerate(cards):
            img.alpha_composite(card_image(c), (int(x0 + i * step), r * (CH + gap)))
    return img


def main() -> None:
    data = json.loads((ROOT / "assets" / "sample.json").read_text(encoding="utf-8"))
    W, H = 1600, 1200
    felt = Image.new("RGBA", (W, H), (22, 100, 55, 255))
    d = ImageDraw.Draw(felt)
    for k in range(0, W, 8):  # a little texture so it does not look flat
        d.line([(k, 0), (k - 300, H)], fill=(24, 104, 58, 255))
    centers = [(W / 2, H - 225), (250, H / 2), (W / 2, 225), (W - 250, H / 2)]
    for player, angle, (cx, cy) in zip(data["players"], (0, 270, 180, 90), centers, strict=True):
        seat = seat_image(player).rotate(angle, expand=True, resample=Image.BICUBIC)
        felt.alpha_composite(seat, (int(cx - seat.width / 2), int(cy - seat.height / 2)))
    out = ROOT / "assets" / "sample.jpg"
    felt.convert("RGB").save(out, quality=88)
    print(out)


if __name__ == "__main__":
    main()
