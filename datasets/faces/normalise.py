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
DESIGNS_DIR = CACHE / "designs"


def normalise(design: Design, log=print) -> Path | None:
    """Render/read all faces of ``design``, resize to FACE_H, measure indices, save; None on failure."""
    out = DESIGNS_DIR / design.name
    if (out / "meta.json").is_file():
        return out
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
    aspect = float(np.median([f.shape[1] / f.shape[0] for f in faces.values()]))
    size = (round(FACE_H * aspect), FACE_H)
    cards, arr, boxes, missing = [], [], {}, []
    for card, img in faces.items():
        img = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
        region = design.joker_region if card in ("BJ", "SJ") else design.region
        b = corner_boxes(img, region)
        if b is None:
            missing.append(card)
            continue
        if card in ("BJ", "SJ") and card not in design.jokers:
            continue
        cards.append(card)
        arr.append(img)
        boxes[card] = [list(map(int, bb)) for bb in b]
    # an index much shorter than the design's usual one lost its rank glyph (merged with an outline)
    plain = [c for c in cards if c not in ("BJ", "SJ")]
    med = [
        float(np.median([boxes[c][k][3] - boxes[c][k][1] for c in plain])) if plain else 0.0 for k in (0, 1)
    ]
    for c in plain:
        if any(boxes[c][k][3] - boxes[c][k][1] < 0.7 * med[k] for k in (0, 1)):
            i = cards.index(c)
            del cards[i], arr[i], boxes[c]
            missing.append(c)
    # a card whose index could not be isolated (court frame touching it) borrows the box of the
    # same rank in another suit: designs print every index at the same place
    plain = [c for c in cards if c not in ("BJ", "SJ")]
    typical = np.median(np.array([boxes[c] for c in plain]), axis=0).astype(int).tolist() if plain else None

    for card in missing:
        if card in ("BJ", "SJ") or typical is None:
            continue
        donor = next((c for c in plain if c[0] == card[0] and c in boxes), None)
        cards.append(card)
        arr.append(cv2.resize(faces[card], size, interpolation=cv2.INTER_AREA))
        boxes[card] = boxes[donor] if donor else typical  # else: where this design's indices usually are
    if missing:
        log(f"  {design.name}: index not isolated on {missing}; same-rank boxes used")
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
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=1))
    return out
