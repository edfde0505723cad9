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
from .layout import Layout, apply, backs, occluders, pile_layout, seat_layout, table_layout, up_vector
from .render import Shadow, coverage, draw_layout

KINDS = ("table", "seat", "pile", "negative")
KIND_P = (0.5, 0.2, 0.22, 0.08)
ASPECTS = ((4, 3), (3, 4), (1, 1), (16, 9), (9, 16))
ASPECT_P = (0.35, 0.3, 0.15, 0.1, 0.1)
MAX_COVERED = 0.4  # an index more covered than this is not labelled
MIN_IN_FRAME = 0.6  # nor one whose box is mostly outside the photo


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8
    quality: int  # JPEG quality to save with
    labels: list[tuple[int, float, float, float, float]]  # YOLO rows, normalised
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
) -> Scene:
    """Render image ``index`` of the dataset with ``seed``; ``size`` is the long side in pixels.

    Faces come from ``split`` (`datasets.synth.holdout`): training sets never see a held-out deck.
    ``n_seats`` fixes a table's seat count (default: drawn, 1 to 5).
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
    deck = choose_deck(rng, designs, p_procedural, exotic, split)
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
    img, quality = effects.photo(img, rng, scale)
    labels, meta = _annotate(layout, owner, cam, (W, H))
    meta["kind"] = kind
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


def _annotate(
    layout: Layout, owner: np.ndarray, cam: Camera, size: tuple[int, int]
) -> tuple[list[tuple[int, float, float, float, float]], dict]:
    W, H = size
    labels = []
    cards = []
    n_backs = 0
    back_quads = []
    for cid, p in enumerate(layout.cards):
        if p.back:
            n_backs += 1
            back_quads.append([[round(float(x), 2), round(float(y), 2)] for x, y in cam.project(p.corners())])
            continue
        indices = []
        for box in p.deck.boxes(p.card):
            x1, y1, x2, y2 = box
            q_face = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], float)
            q_canvas = apply(p.M, q_face)
            covered = coverage(owner, cid, q_canvas)
            q_img = cam.project(q_canvas)
            bx1, by1 = q_img.min(axis=0)
            bx2, by2 = q_img.max(axis=0)
            full = max(1e-6, (bx2 - bx1) * (by2 - by1))
            cx1, cy1, cx2, cy2 = max(bx1, 0), max(by1, 0), min(bx2, W), min(by2, H)
            inside = max(0.0, cx2 - cx1) * max(0.0, cy2 - cy1) / full
            visible = (
                covered <= MAX_COVERED and inside >= MIN_IN_FRAME and (cx2 - cx1) >= 2 and (cy2 - cy1) >= 2
            )
            if visible:
                labels.append(
                    (
                        CLASS_INDEX[p.card],
                        (cx1 + cx2) / 2 / W,
                        (cy1 + cy2) / 2 / H,
                        (cx2 - cx1) / W,
                        (cy2 - cy1) / H,
                    )
                )
                out_box = [cx1, cy1, cx2, cy2]
            else:
                out_box = [bx1, by1, bx2, by2]
            indices.append(
                {
                    "box": [round(float(v), 2) for v in out_box],
                    "visible": bool(visible),
                    "covered": round(covered, 3),
                }
            )
        quad = cam.project(p.corners())
        cards.append(
            {
                "card": p.card,
                "seat": p.seat,
                "row": p.row,
                "position": p.position,
                "quad": [[round(float(x), 2), round(float(y), 2)] for x, y in quad],
                "indices": indices,
                "design": p.deck.name,
            }
        )
    seats = []
    for s in layout.seats:
        c = np.array(s["center"], float)
        seats.append(
            {
                "seat": s["seat"],
                "orientation_deg": round(_orientation(cam, c, s["orientation_deg"]), 2),
                "center": [round(float(v), 2) for v in cam.project(c[None])[0]],
                "head_far": s["head_far"],
            }
        )
    occ = [
        {"kind": o.kind, "poly": [[round(float(x), 2), round(float(y), 2)] for x, y in cam.project(o.poly)]}
        for o in layout.occluders
    ]
    meta = {
        "backs": n_backs,
        "back_quads": back_quads,  # face-down cards and objects on the table: never an index
        "occluders": occ,
        "width": W,
        "height": H,
        "deck": layout.deck_size,
        "decks": layout.decks,
        "seats": seats,
        "cards": cards,
    }
    return labels, meta


def jpeg_bytes(img: np.ndarray, quality: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()
