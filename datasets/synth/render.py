"""Draw a layout onto the table canvas, keeping a per-pixel record of which card is on top.

The owner map is what makes the labels honest: an index is labelled only if enough of its own
pixels still belong to its card after everything above it (later cards, occluders) was drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .layout import Layout, Occluder, Placed, apply

OCCLUDER_ID = -2
EMPTY_ID = -1


@dataclass
class Shadow:
    offset: tuple[float, float]  # canvas px
    blur: float  # sigma, canvas px
    strength: float  # 0..1 darkening under the card


def _roi(quad: np.ndarray, pad: float, w: int, h: int) -> tuple[int, int, int, int] | None:
    x1 = max(0, int(np.floor(quad[:, 0].min() - pad)))
    y1 = max(0, int(np.floor(quad[:, 1].min() - pad)))
    x2 = min(w, int(np.ceil(quad[:, 0].max() + pad)) + 1)
    y2 = min(h, int(np.ceil(quad[:, 1].max() + pad)) + 1)
    if x2 <= x1 or y2 <= y1:
        return None
    return x1, y1, x2, y2


def face_at_scale(deck, card: str, s: float) -> tuple[np.ndarray, float]:
    """The face pre-shrunk by the largest power of two that keeps it at least the drawn size.

    Warping straight from 512 px down to a 60 px card aliases thin index strokes away; area-
    averaged halvings (made once, see ``StoredDeck.mip``) keep them. Returns (image, factor
    from its pixels to the full face's pixels).
    """
    level = 0
    while s * 2 ** (level + 1) <= 1.0 and level < 3:
        level += 1
    face = deck.mip(card, level)
    if level == 0:
        return np.asarray(face), 1.0
    return np.asarray(face), deck.face(card).shape[0] / face.shape[0]


def draw_card(
    canvas: np.ndarray, owner: np.ndarray, cid: int, p: Placed, shadow: Shadow | None, shade: float
) -> None:
    """Warp one face into its place, drop its shadow first, and claim its pixels in ``owner``."""
    M = p.M.astype(np.float64)
    s = float(np.sqrt(abs(np.linalg.det(M[:, :2]))))
    face, k = face_at_scale(p.deck, p.card, s)
    if k != 1.0:
        M = M @ np.diag([k, k, 1.0])
    fh, fw = face.shape[:2]
    quad = apply(M, np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], float))
    H, W = owner.shape
    pad = 0.0
    if shadow is not None:
        pad = float(np.hypot(*shadow.offset)) + 3 * shadow.blur + 2
    roi = _roi(quad, pad, W, H)
    if roi is None:
        return
    x1, y1, x2, y2 = roi
    Mr = M.copy()
    Mr[:, 2] -= (x1, y1)
    size = (x2 - x1, y2 - y1)
    warped = cv2.warpAffine(
        np.asarray(face),
        Mr,
        size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    a = warped[..., 3].astype(np.float32) / 255.0
    region = canvas[y1:y2, x1:x2].astype(np.float32)
    if shadow is not None:
        Ms = Mr.copy()
        Ms[:, 2] += shadow.offset
        sh = cv2.warpAffine(face[..., 3], Ms, size, flags=cv2.INTER_LINEAR, borderValue=0).astype(np.float32)
        if shadow.blur > 0.3:
            sh = cv2.GaussianBlur(sh, (0, 0), shadow.blur)
        region *= (1 - shadow.strength * sh / 255.0)[..., None]
    region = region * (1 - a[..., None]) + warped[..., :3].astype(np.float32) * (a[..., None] * shade)
    canvas[y1:y2, x1:x2] = np.clip(region, 0, 255).astype(np.uint8)
    owner[y1:y2, x1:x2][a > 0.5] = cid


def draw_occluder(canvas: np.ndarray, owner: np.ndarray, occ: Occluder, rng: np.random.Generator) -> None:
    """A flat object over the cards with a soft drop shadow; a keyboard also gets its keys."""
    pts = np.round(occ.poly).astype(np.int32)
    off = np.round(rng.uniform(3, 12, 2)).astype(np.int32)
    H, W = owner.shape
    roi = _roi(np.vstack([pts, pts + off]).astype(float), 2, W, H)
    if roi is None:
        return
    x1, y1, x2, y2 = roi
    region = canvas[y1:y2, x1:x2]  # only the object's neighbourhood is touched
    dark = region.copy()
    cv2.fillPoly(dark, [pts + off - (x1, y1)], (0, 0, 0))
    cv2.addWeighted(region, 0.65, dark, 0.35, 0, dst=region)
    cv2.fillPoly(region, [pts - (x1, y1)], occ.colour, lineType=cv2.LINE_AA)
    if occ.kind == "keyboard":
        _keys(region, occ.poly - (x1, y1), rng)
    cv2.fillPoly(owner, [pts], OCCLUDER_ID)


def _keys(region: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> None:
    """Rows of lighter keys (sometimes back-lit in colour) inside a keyboard's rectangle."""
    o, ex, ey = quad[0], quad[1] - quad[0], quad[3] - quad[0]
    rows, cols = int(rng.integers(4, 7)), int(rng.integers(12, 20))
    key = tuple(int(v) for v in np.clip(np.array([60, 60, 60]) + rng.integers(-20, 60), 0, 255))
    glow = rng.random() < 0.4
    for r in range(rows):
        for c in range(cols):
            u0, u1 = (c + 0.12) / cols, (c + 0.88) / cols
            v0, v1 = (r + 0.15) / rows, (r + 0.85) / rows
            q = np.array(
                [o + ex * u0 + ey * v0, o + ex * u1 + ey * v0, o + ex * u1 + ey * v1, o + ex * u0 + ey * v1]
            )
            colour = key
            if glow:
                hue = (c * 10 + r * 25) % 180
                colour = tuple(
                    int(v) for v in cv2.cvtColor(np.uint8([[[hue, 200, 220]]]), cv2.COLOR_HSV2BGR)[0, 0]
                )
            cv2.fillConvexPoly(region, np.round(q).astype(np.int32), colour, lineType=cv2.LINE_AA)


def draw_layout(
    canvas: np.ndarray, layout: Layout, rng: np.random.Generator, shadow: Shadow | None
) -> np.ndarray:
    """Draw cards in order then occluders; return the owner map (card index, -1 empty, -2 occluder)."""
    owner = np.full(canvas.shape[:2], EMPTY_ID, np.int16)
    for cid, p in enumerate(layout.cards):
        draw_card(canvas, owner, cid, p, shadow, shade=float(rng.uniform(0.86, 1.04)))
    for occ in layout.occluders:
        draw_occluder(canvas, owner, occ, rng)
    return owner


def coverage(owner: np.ndarray, cid: int, quad: np.ndarray) -> float:
    """Fraction of the index quad (canvas px) not showing card ``cid`` (covered or off the canvas)."""
    H, W = owner.shape
    roi = _roi(quad, 1, W, H)
    if roi is None:
        return 1.0
    x1, y1, x2, y2 = roi
    mask = np.zeros((y2 - y1, x2 - x1), np.uint8)
    cv2.fillConvexPoly(
        mask, np.round((quad - (x1, y1)) * 4).astype(np.int32), 1, lineType=cv2.LINE_8, shift=2
    )
    total_area = float(cv2.contourArea(quad.astype(np.float32)))
    inside = mask.astype(bool)
    n = int(inside.sum())
    if n == 0 or total_area <= 0:
        return 1.0
    mine = int((owner[y1:y2, x1:x2][inside] == cid).sum())
    # parts of the quad outside the canvas count as not showing
    return float(1.0 - mine / max(n, total_area))
