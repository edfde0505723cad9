"""Normalise every design to one array of faces at a fixed height plus measured index boxes.

Faces are stored as ``faces.npy`` (N, H, W, 4) BGRA so the generator can memory-map them: all
worker processes then share one copy in the page cache and a scene touches only the cards it
draws, which is what keeps generation fast.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from .fetch import CACHE
from .measure import corner_boxes
from .sources import Design

FACE_H = 512
JOKERS = ("BJ", "SJ")
DESIGNS_DIR = CACHE / "designs"


def normalise(design: Design, log=print) -> Path | None:
    """Render/read all faces of ``design``, resize to FACE_H, measure indices, save; None on failure."""
    out = DESIGNS_DIR / design.name
    if (out / "meta.json").is_file():
        return out
    faces = _load(design, log)
    if faces is None:
        return None
    aspect = float(np.median([f.shape[1] / f.shape[0] for f in faces.values()]))
    size = (round(FACE_H * aspect), FACE_H)
    cards, arr, boxes, missing = _measure(design, faces, size)
    missing += _drop_short_indices(cards, arr, boxes)
    _borrow_boxes(faces, size, cards, arr, boxes, missing)
    if missing:
        log(f"  {design.name}: index not isolated on {missing}; same-rank boxes used")
    _save(out, design, size, cards, arr, boxes)
    return out


def _load(design: Design, log) -> dict[str, np.ndarray] | None:
    """The design's faces by card, or None (logged) when its files fail or hold fewer than 52 cards."""
    faces: dict[str, np.ndarray] = {}
    try:
        for card, img in design.loader(FACE_H):
            faces[card] = img
    except Exception as e:  # a broken upstream file must not stop the other designs
        log(f"  {design.name}: failed to load ({type(e).__name__}: {e})")
        return None
    if len(faces) < 52:
        log(f"  {design.name}: only {len(faces)} faces, skipped")
        return None
    return faces


def _measure(design: Design, faces: dict[str, np.ndarray], size: tuple[int, int]
             ) -> tuple[list[str], list[np.ndarray], dict[str, list], list[str]]:
    """Each face resized and its two corner index boxes measured: the cards kept, their faces, their
    boxes, and the cards whose index could not be isolated (a joker the design does not deal is left
    out, measured or not)."""
    cards, arr, boxes, missing = [], [], {}, []
    for card, img in faces.items():
        img = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
        region = design.joker_region if card in JOKERS else design.region
        b = corner_boxes(img, region, design.hairline, design.four_corners)
        if b is None:
            missing.append(card)
            continue
        if card in JOKERS and card not in design.jokers:
            continue
        cards.append(card)
        arr.append(img)
        boxes[card] = [list(map(int, bb)) for bb in b]
    return cards, arr, boxes, missing


def _drop_short_indices(cards: list[str], arr: list[np.ndarray], boxes: dict[str, list]) -> list[str]:
    """Drops (in place) the cards whose index is much shorter than the design's usual one: it lost its
    rank glyph (merged with an outline). Returns them."""
    plain = [c for c in cards if c not in JOKERS]
    med = [
        float(np.median([boxes[c][k][3] - boxes[c][k][1] for c in plain])) if plain else 0.0 for k in (0, 1)
    ]
    dropped = []
    for c in plain:
        if any(boxes[c][k][3] - boxes[c][k][1] < 0.7 * med[k] for k in (0, 1)):
            i = cards.index(c)
            del cards[i], arr[i], boxes[c]
            dropped.append(c)
    return dropped


def _borrow_boxes(faces: dict[str, np.ndarray], size: tuple[int, int], cards: list[str],
                  arr: list[np.ndarray], boxes: dict[str, list], missing: list[str]) -> None:
    """A card whose index could not be isolated (court frame touching it) is added (in place) with the
    box of the same rank in another suit: designs print every index at the same place."""
    plain = [c for c in cards if c not in JOKERS]
    typical = np.median(np.array([boxes[c] for c in plain]), axis=0).astype(int).tolist() if plain else None
    for card in missing:
        if card in JOKERS or typical is None:
            continue
        donor = next((c for c in plain if c[0] == card[0] and c in boxes), None)
        cards.append(card)
        arr.append(cv2.resize(faces[card], size, interpolation=cv2.INTER_AREA))
        boxes[card] = boxes[donor] if donor else typical  # else: where this design's indices usually are


def _save(out: Path, design: Design, size: tuple[int, int], cards: list[str], arr: list[np.ndarray],
          boxes: dict[str, list]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    np.save(out / "faces.npy", np.stack(arr))
    meta = {
        "name": design.name,
        "package": design.package,
        "licence": design.licence,
        "url": design.url,
        "size": list(size),
        "cards": cards,
        "boxes": boxes,
        "note": design.note,
        "four_corners": design.four_corners,
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=1))
