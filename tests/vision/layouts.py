"""Hand-built 十三水 reveals for geometry tests: cards as rotated rectangles, known seats and rows.

Produces the same per-scene JSON the dataset generator writes (docs/ARCHITECTURE.md, meta/NAME.json)
so one converter turns either into detections. Card units: a card is 63 x 88; the corner index
(rank + pip) occupies x 2..11, y 3..25 at the top-left and the mirrored spot at the bottom-right.
Orientation follows the architecture and datasets.synth: the card's "up" in the image is
(-sin t, -cos t), so 0 reads upright (seat at the bottom) and 90 has the card tops pointing left
(seat at the right of the photo).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from datasets.detections import scene_detections
from vision.classes import CLASS_NAMES
from vision.types import Detection

CARD_W, CARD_H = 63.0, 88.0
TL_INDEX = (2.0, 3.0, 11.0, 25.0)
BR_INDEX = (CARD_W - 11.0, CARD_H - 25.0, CARD_W - 2.0, CARD_H - 3.0)
TR_INDEX = (CARD_W - 11.0, 3.0, CARD_W - 2.0, 25.0)  # a four-corner deck's extra corners
BL_INDEX = (2.0, CARD_H - 25.0, 11.0, CARD_H - 3.0)
ROW_SIZES = {"head": 3, "middle": 5, "tail": 5}
DECK52 = [c for c in CLASS_NAMES if c not in ("BJ", "SJ")]


def _rot(t_deg: float) -> np.ndarray:
    """Local card/seat frame (x right, y down toward the player) to image axes."""
    t = math.radians(t_deg)
    return np.array([[math.cos(t), math.sin(t)], [-math.sin(t), math.cos(t)]])


def seat_cards(
    cards: list[str],
    *,
    spacing: float = 0.45,
    row_gap: float = 0.75,
    head_far: bool = True,
    rows: dict[str, int] | None = None,
    jitter: float = 0.0,
    rng: np.random.Generator | None = None,
) -> list[dict]:
    """One seat in its own frame: dicts with card, row, position, corners (4x2), which of the
    bottom-right, top-right and bottom-left corners show (the last two on a four-corner deck only:
    the top-right on a row's last card, the bottom-left where no nearer row covers it)."""
    rng = rng or np.random.default_rng(0)
    sizes = rows or ROW_SIZES
    order = ["head", "middle", "tail"] if head_far else ["tail", "middle", "head"]
    out, it = [], iter(cards)
    for r, row in enumerate(order):
        k = sizes[row]
        y = r * row_gap * CARD_H
        for i in range(k):
            x = (i - (k - 1) / 2) * spacing * CARD_W - CARD_W / 2
            dx, dy = rng.normal(0, jitter * CARD_W, 2) if jitter else (0.0, 0.0)
            a = math.radians(rng.normal(0, 3.0)) if jitter else 0.0
            R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
            corners = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]]) @ R.T + [x + dx, y + dy]
            bottom_shows = r == 2 or row_gap >= 0.97
            out.append({"card": next(it), "row": row, "position": i, "local": corners, "R": R,
                        "br": i == k - 1 and bottom_shows, "tr": i == k - 1, "bl": bottom_shows})
    return out


def build_table(
    n_seats: int,
    *,
    seed: int = 0,
    px_per_unit: float = 0.9,
    first_orientation: float = 0.0,
    orientations: list[float] | None = None,
    spacing: float = 0.45,
    row_gap: float = 0.75,
    head_far: bool | list[bool] = True,
    jitter: float = 0.0,
    tilt: float = 0.0,
    seat_rows: dict[int, dict[str, int]] | None = None,
    four_corners: bool = False,
) -> dict:
    """A scene in the generator's meta format, seats evenly round the table from `first_orientation`;
    with `four_corners`, of a deck that prints its index in all four corners."""
    rng = np.random.default_rng(seed)
    deck = _deal(n_seats, rng)
    if orientations is None:
        orientations = [(first_orientation + i * 360.0 / n_seats) % 360 for i in range(n_seats)]
    reach = (4 * spacing + 1) * CARD_W / 2 + 20
    depth = (2 * row_gap + 1) * CARD_H / 2 + 20
    radius = 0.0 if n_seats == 1 else max(depth + 60, math.hypot(reach, depth) / math.sin(math.pi / n_seats))
    seats, cards = [], []
    for s, t in enumerate(orientations):
        hf = head_far[s] if isinstance(head_far, list) else head_far
        rows = (seat_rows or {}).get(s)
        n = sum((rows or ROW_SIZES).values())
        local = seat_cards(deck[:n], spacing=spacing, row_gap=row_gap, head_far=hf, rows=rows,
                           jitter=jitter, rng=rng)
        deck = deck[n:]
        seat, placed = _place_seat(s, t, radius, local, four_corners)
        seats.append(seat)
        cards += placed
    return _photograph(seats, cards, seed, n_seats, tilt, px_per_unit, rng)


def _deal(n_seats: int, rng: np.random.Generator) -> list[str]:
    """A shuffled deck (65 cards, the spades twice, for five seats) whose hands hold no card twice."""
    deck = list(DECK52) if n_seats <= 4 else list(DECK52) + [c for c in DECK52 if c.endswith("s")]
    rng.shuffle(deck)
    while n_seats > 4 and any(len(set(deck[i : i + 13])) < 13 for i in range(0, 65, 13)):
        rng.shuffle(deck)  # two copies in one hand are legal but flagged; keep test tables clean
    return deck


def _place_seat(s: int, t: float, radius: float, local: list[dict], four_corners: bool = False
                ) -> tuple[dict, list[dict]]:
    """One seat's cards (`seat_cards`, in the seat's own frame) turned to face `t` degrees at `radius`
    from the table's centre: the seat's meta and its cards' quads and index quads, in table units."""
    up = np.array([-math.sin(math.radians(t)), -math.cos(math.radians(t))])
    centre = -radius * up
    ys = [c["local"][:, 1].mean() for c in local]
    mid = np.array([0.0, (min(ys) + max(ys)) / 2])
    R = _rot(t)
    cards = []
    for c in local:
        quad = (c["local"] - mid) @ R.T + centre

        def idx(box, c=c):
            x1, y1, x2, y2 = box
            pts = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]]) @ c["R"].T + c["local"][0]
            return (pts - mid) @ R.T + centre

        corners = [(idx(TL_INDEX), True), (idx(BR_INDEX), c["br"])]
        if four_corners:
            corners += [(idx(TR_INDEX), c["tr"]), (idx(BL_INDEX), c["bl"])]
        cards.append({"card": c["card"], "seat": s, "row": c["row"], "position": c["position"],
                      "quad": quad, "idx": corners})
    return {"seat": s, "orientation_deg": t, "center": centre.tolist()}, cards


def _photograph(seats: list[dict], cards: list[dict], seed: int, n_seats: int, tilt: float,
                px_per_unit: float, rng: np.random.Generator) -> dict:
    """The table seen by a camera (a random homography of up to `tilt` of the table's size per corner)
    at `px_per_unit`, with a 40-unit margin: the scene's meta."""
    pts = np.concatenate([c["quad"] for c in cards])
    lo = pts.min(0) - 40
    size = pts.max(0) + 40 - lo
    H = None
    if tilt:
        src = np.array([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]], np.float64)
        dst = src + rng.uniform(-tilt, tilt, (4, 2)) * size
        H = _homography(src, dst)

    def tf(p):
        p = (np.asarray(p) - lo) * px_per_unit / px_per_unit  # shift first, scale after warp
        if H is not None:
            q = np.c_[p, np.ones(len(p))] @ H.T
            p = q[:, :2] / q[:, 2:]
        return p * px_per_unit

    all_pts = tf(pts)
    shift = all_pts.min(0) - 40 * px_per_unit
    out_cards = []
    for c in cards:
        quad = tf(c["quad"]) - shift
        indices = []
        for pts4, vis in c["idx"]:
            q = tf(pts4) - shift
            indices.append({"box": [*q.min(0).tolist(), *q.max(0).tolist()], "visible": bool(vis)})
        out_cards.append({"card": c["card"], "seat": c["seat"], "row": c["row"], "position": c["position"],
                          "quad": quad.tolist(), "indices": indices})
    for s in seats:
        s["center"] = (tf(np.array([s["center"]]))[0] - shift).tolist()
    ext = (all_pts.max(0) - shift + 40 * px_per_unit).astype(int)
    return {"image": f"layout{seed}.jpg", "width": int(ext[0]), "height": int(ext[1]), "kind": "table",
            "deck": 52 if n_seats <= 4 else 65, "seats": seats, "cards": out_cards}


def _homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    A = []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        A.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.array(A))
    return vt[-1].reshape(3, 3) / vt[-1, -1]


def detections(
    scene: dict, *, seed: int = 0, drop: float = 0.0, misread: float = 0.0, model: str = "calibrated"
) -> list[Detection]:
    """Perfect (or damaged) detections from a scene, in a shuffled order."""
    rng = np.random.default_rng(seed)
    out = [d for _, d in scene_detections(scene, rng, drop=drop, misread=misread, model=model)]
    order = rng.permutation(len(out))
    return [out[i] for i in order]


def without_cards(scene: dict, picks: set[tuple[int, str, int]], *, seed: int = 0
                  ) -> tuple[list[dict], list[Detection]]:
    """The scene's cards at (seat, row, position) `picks`, and its detections (`detections`, `seed`)
    without any index of theirs: cards under a chip or out of the photo."""
    gone = [c for c in scene["cards"] if (c["seat"], c["row"], c["position"]) in picks]
    boxes = [tuple(ix["box"]) for c in gone for ix in c["indices"]]
    dets = [d for d in detections(scene, seed=seed) if not any(d.box == pytest.approx(b) for b in boxes)]
    return gone, dets
