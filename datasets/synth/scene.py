"""One synthetic photo: choose a scene, lay it out, draw it, photograph it, and label it.

Each image is seeded only by (seed, index), so a dataset is the same whatever the number of
worker processes, and any single image can be regenerated on its own for debugging.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.classes import CLASS_INDEX

from . import background, effects
from .backs import BackDeck
from .camera import Camera, random_camera
from .decks import choose_deck
from .holdout import Split
from .layout import Layout, Placed, apply, backs, occluders, pile_layout, seat_layout, table_layout, up_vector
from .render import Shadow, coverage, draw_layout

KINDS = ("table", "seat", "pile", "negative")
KIND_P = (0.5, 0.2, 0.22, 0.08)
ASPECTS = ((4, 3), (3, 4), (1, 1), (16, 9), (9, 16))
ASPECT_P = (0.35, 0.3, 0.15, 0.1, 0.1)
MAX_COVERED = 0.4  # an index more covered than this is not labelled
MIN_IN_FRAME = 0.6  # nor one whose box is mostly outside the photo

Label = tuple[int, float, float, float, float]  # a YOLO row: class, cx, cy, w, h (normalised)


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8
    quality: int  # JPEG quality to save with
    labels: list[Label]
    meta: dict


def rng_for(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng([int(seed), int(index)])


def _orientation(cam: Camera, centre: np.ndarray, deg: float) -> float:
    """A seat's orientation as seen in the photo (camera roll and tilt included)."""
    a, b = cam.project(np.array([centre, centre + up_vector(deg) * 50.0]))
    u = b - a
    return float(np.degrees(np.arctan2(-u[0], -u[1])) % 360)


def generate(
    seed: int,
    index: int,
    size: int = 1280,
    kind: str | None = None,
    designs: tuple[str, ...] | None = None,
    p_procedural: float = 0.4,
    exotic: bool = True,
    split: Split = Split.TRAIN,
    n_seats: int | None = None,
    four_corners: bool = False,
) -> Scene:
    """Render image ``index`` of the dataset with ``seed``; ``size`` is the long side in pixels.

    Faces come from ``split`` (`datasets.synth.holdout`): training sets never see a held-out deck.
    ``n_seats`` fixes a table's seat count (default: drawn, 1 to 5). ``four_corners``: a procedural
    deck that prints its index in all four corners (`datasets.synth.decks.choose_deck`).
    """
    rng = rng_for(seed, index)
    if kind is None:
        kind = str(rng.choice(KINDS, p=KIND_P))
    aw, ah = ASPECTS[int(rng.choice(len(ASPECTS), p=ASPECT_P))]
    W, H = (size, round(size * ah / aw)) if aw >= ah else (round(size * aw / ah), size)
    scale = size / 1280
    # close-ups are often webcam shots looking obliquely at a few cards
    tilt = rng.uniform(0, 1.0) if kind == "table" else rng.uniform(0, 1.1)

    roll = (
        rng.normal(0, 6)
        if kind in ("table", "seat")
        else (rng.uniform(0, 360) if rng.random() < 0.3 else rng.normal(0, 10))
    )
    cam = random_camera(rng, (W, H), tilt=tilt, roll=roll)
    cw, ch = cam.canvas
    canvas = background.table(rng, cw, ch)
    deck = choose_deck(rng, designs, p_procedural, exotic, split, four_corners)
    if kind == "table":
        layout = table_layout(rng, deck, cam.visible, scale, n_seats)
    elif kind == "seat":
        layout = seat_layout(rng, deck, cam.visible, scale)
    elif kind == "pile":
        layout = pile_layout(rng, deck, cam.visible, scale)
    else:
        layout = Layout("negative", [])
    _add_backs(rng, layout, deck, cam, scale, kind)
    n_occ = (
        int(rng.integers(1, 4))
        if kind == "negative"
        else (int(rng.integers(1, 3)) if rng.random() < 0.25 else 0)
    )
    layout.occluders = occluders(rng, cam.visible, scale, n_occ)
    shadow = None
    if rng.random() < 0.8:
        d = rng.uniform(0, 2 * np.pi)
        r = rng.uniform(1, 8) * scale
        shadow = Shadow((r * np.cos(d), r * np.sin(d)), rng.uniform(1, 6) * scale, rng.uniform(0.15, 0.5))
    owner = draw_layout(canvas, layout, rng, shadow)
    img = cv2.warpPerspective(canvas, cam.H, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    img, quality, blurred = effects.photo(img, rng, scale)
    labels, meta = _annotate(layout, owner, cam, (W, H))
    meta["kind"] = kind
    meta["blur"] = {"kind": blurred.kind, "px": round(blurred.px, 2)}
    return Scene(img, quality, labels, meta)


def _add_backs(rng: np.random.Generator, layout: Layout, deck, cam: Camera, scale: float, kind: str) -> None:
    """Face-down cards: the undealt deck in the middle of a table, a few among loose cards."""
    p = {"table": 0.3, "seat": 0.1, "pile": 0.3, "negative": 0.6}[kind]
    if rng.random() >= p:
        return
    if layout.cards:
        h = (
            float(np.sqrt(abs(np.linalg.det(layout.cards[0].M[:, :2]))))
            * deck.face(layout.cards[0].card).shape[0]
        )
    else:
        h = rng.uniform(100, 400) * scale
    aspect = rng.uniform(0.63, 0.72)
    bd = BackDeck(rng, aspect)
    n = int(rng.integers(1, 6))
    if kind == "table" and layout.seats:
        centre = np.mean([s["center"] for s in layout.seats], axis=0) if len(layout.seats) > 1 else None
        layout.cards[:0] = backs(rng, bd, cam.visible, h, n, centre)  # under everything
    else:
        layout.cards.extend(backs(rng, bd, cam.visible, h, n, None))


def _rounded(pts: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 2), round(float(y), 2)] for x, y in pts]


def _index_label(
    p: Placed, cid: int, box: tuple, owner: np.ndarray, cam: Camera, size: tuple[int, int]
) -> tuple[Label | None, dict]:
    """One printed index of card ``cid``: its YOLO row when it shows (covered at most `MAX_COVERED`,
    at least `MIN_IN_FRAME` in the photo), and its meta entry either way (the box clipped to the photo
    when it shows, whole when not)."""
    W, H = size
    x1, y1, x2, y2 = box
    q_canvas = apply(p.M, np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], float))
    covered = coverage(owner, cid, q_canvas)
    q_img = cam.project(q_canvas)
    bx1, by1 = q_img.min(axis=0)
    bx2, by2 = q_img.max(axis=0)
    full = max(1e-6, (bx2 - bx1) * (by2 - by1))
    cx1, cy1, cx2, cy2 = max(bx1, 0), max(by1, 0), min(bx2, W), min(by2, H)
    inside = max(0.0, cx2 - cx1) * max(0.0, cy2 - cy1) / full
    visible = covered <= MAX_COVERED and inside >= MIN_IN_FRAME and (cx2 - cx1) >= 2 and (cy2 - cy1) >= 2
    label = None
    if visible:
        cx, cy = (cx1 + cx2) / 2 / W, (cy1 + cy2) / 2 / H
        label = (CLASS_INDEX[p.card], cx, cy, (cx2 - cx1) / W, (cy2 - cy1) / H)
    out_box = [cx1, cy1, cx2, cy2] if visible else [bx1, by1, bx2, by2]
    entry = {"box": [round(float(v), 2) for v in out_box], "visible": bool(visible),
             "covered": round(covered, 3)}
    return label, entry


def _card_meta(p: Placed, cam: Camera, indices: list[dict]) -> dict:
    return {
        "card": p.card,
        "seat": p.seat,
        "row": p.row,
        "position": p.position,
        "quad": _rounded(cam.project(p.corners())),
        "indices": indices,
        "design": p.deck.name,
    }


def _seat_meta(s: dict, cam: Camera) -> dict:
    c = np.array(s["center"], float)
    return {
        "seat": s["seat"],
        "orientation_deg": round(_orientation(cam, c, s["orientation_deg"]), 2),
        "center": [round(float(v), 2) for v in cam.project(c[None])[0]],
        "head_far": s["head_far"],
    }


def _annotate(
    layout: Layout, owner: np.ndarray, cam: Camera, size: tuple[int, int]
) -> tuple[list[Label], dict]:
    """YOLO rows of every index that shows, and the scene's meta: every face-up card with its indices
    (shown or not), face-down cards, occluders and seats, all in photo pixels."""
    labels: list[Label] = []
    cards = []
    back_quads = []
    for cid, p in enumerate(layout.cards):
        if p.back:
            back_quads.append(_rounded(cam.project(p.corners())))
            continue
        indices = []
        for box in p.deck.boxes(p.card):
            label, entry = _index_label(p, cid, box, owner, cam, size)
            if label is not None:
                labels.append(label)
            indices.append(entry)
        cards.append(_card_meta(p, cam, indices))
    meta = {
        "backs": len(back_quads),
        "back_quads": back_quads,  # face-down cards and objects on the table: never an index
        "occluders": [{"kind": o.kind, "poly": _rounded(cam.project(o.poly))} for o in layout.occluders],
        "width": size[0],
        "height": size[1],
        "deck": layout.deck_size,
        "decks": layout.decks,
        "seats": [_seat_meta(s, cam) for s in layout.seats],
        "cards": cards,
    }
    return labels, meta


def jpeg_bytes(img: np.ndarray, quality: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()
