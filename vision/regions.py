"""Where in a photo cards can be: the parts worth running the detector on.

A photo of a four-seat table from above is mostly table: on the benchmark's 4000x3000 photo the four
seats' cards cover ~15% of it, yet the whole-photo detector spends the same time on every pixel
(its convolutions cost ~41.5 ms per 100 kpx on the 2-core machine, whatever is in them). A corner
index is printed ink on a card: high local contrast. The table is cloth, wood or plastic whose
texture is softer, and slowly lit. So the photo is cut into 32-pixel cells (the detector's largest
stride, so a window's anchor grid is the whole photo's), and a cell with a few strongly contrasted
pixels holds detail. The cells near detail are covered by disjoint rectangles, the cores, cut
guillotine-wise only through empty bands and only while that makes the passes cheaper; each core
is read in a window three cells wider than its detail (the network's context), and a pass keeps the
boxes centred in its core, so an index is read once, whole. When the windows would cover most of
the photo (a close-up, a busy tablecloth) the whole photo is read: nothing is gained by cutting.

Plain numpy and opencv; no model. `python -m benchmarks.regions` measures, on 154 generated and
182 real photos, that every labelled index is kept by a window holding it whole, and what
fraction of each photo is read; `python -m benchmarks.detector --regions on|off` the reads.

>>> import numpy as np
>>> img = np.full((960, 1280, 3), 90, np.uint8)           # an empty table
>>> detail_regions(img)
[]
>>> img[400:440, 600:630] = 255; img[410:430, 610:620] = 0  # one card corner: ink on paper
>>> detail_regions(img)
[Region(window=(480, 288, 736, 544), core=(544, 352, 672, 480))]
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 in image pixels, x1/y1 exclusive


@dataclass(frozen=True)
class RegionConfig:
    """How detail is told from table, and how much of the photo a region keeps around it.

    - `enabled`: False runs the detector on the whole photo, always.
    - `cell`: the grid in image pixels; the detector's largest stride keeps its anchor grid aligned.
    - `margin_cells`: cells kept around detail: the context the network sees (96 px at 1280
      working pixels; the tallest index is ~40 px). With 2, the reads moved more against the whole
      photo's (held-out tables exact 4/30 against 6/30; 3: 8/30, 4: 6/30).
    - `min_detail`: strongly contrasted pixels (counted at half scale) that make a cell detail.
    - `detail_k`, `detail_floor`, `detail_cap`: a pixel is strongly contrasted when its 3x3
      morphological gradient (strongest colour channel) exceeds `detail_k` times the photo's median
      gradient, clipped to [floor, cap]. The median follows the table's texture; the cap keeps a
      busy cloth from raising the bar above faint ink (a busy cloth then counts as detail: whole
      photo, slower, never blind). Floor and cap are for a photo whose brightness spans
      `full_range` grey levels (0.5th to 99.5th percentile) or more, and shrink with a dimmer one's.
    - `whole_above`: when the windows would cover more than this fraction of the photo, read it whole.
    - `pass_cells`: what one more detector pass costs, in cells read (a cut that saves less is not made).
    """

    enabled: bool = True
    cell: int = 32
    margin_cells: int = 3
    min_detail: int = 3
    detail_k: float = 3.0
    detail_floor: float = 24.0
    detail_cap: float = 64.0
    whole_above: float = 0.85
    pass_cells: int = 8
    full_range: float = 200.0


def _channel_max(a: np.ndarray) -> np.ndarray:
    """The largest of a colour image's three channels per pixel (a grey image as it is)."""
    return a if a.ndim == 2 else np.maximum(np.maximum(a[:, :, 0], a[:, :, 1]), a[:, :, 2])


def _quantiles(a: np.ndarray, *q: float) -> list[int]:
    """Quantiles of a uint8 array from its histogram (np.quantile sorts: ~10x slower here)."""
    hist = np.cumsum(np.bincount(a.ravel(), minlength=256))
    return [int(np.searchsorted(hist, f * hist[-1])) for f in q]


def detail_cells(image: np.ndarray, cfg: RegionConfig = RegionConfig()) -> np.ndarray:
    """Boolean grid (rows x cols of `cfg.cell`-pixel cells): cells holding detail, before the margin."""
    H, W = image.shape[:2]
    half = cv2.resize(image, (max(1, W // 2), max(1, H // 2)), interpolation=cv2.INTER_AREA)
    ker = np.ones((3, 3), np.uint8)
    # the strongest channel: red ink on white is faint in one channel only
    grad = _channel_max(cv2.subtract(cv2.dilate(half, ker), cv2.erode(half, ker)))
    median = _quantiles(grad, 0.5)[0]
    # a dim or foggy photo has less contrast everywhere, ink included: the floor and cap shrink with
    # its brightness range (the generated tables' ~220 grey levels leave them as they are)
    lo, hi = _quantiles(_channel_max(half), 0.005, 0.995)
    scale = float(np.clip((hi - lo) / cfg.full_range, 0.1, 1.0))
    t = float(np.clip(cfg.detail_k * median, cfg.detail_floor * scale, cfg.detail_cap * scale))
    c = max(1, cfg.cell // 2)
    rows, cols = -(-H // cfg.cell), -(-W // cfg.cell)
    strong = np.zeros((rows * c, cols * c), np.float32)
    h, w = min(grad.shape[0], rows * c), min(grad.shape[1], cols * c)
    strong[:h, :w] = grad[:h, :w] > t
    # mean over each c x c cell (an exact integer shrink), back to a count
    counts = cv2.resize(strong, (cols, rows), interpolation=cv2.INTER_AREA) * (c * c)
    return counts >= cfg.min_detail - 0.5


@dataclass(frozen=True)
class Region:
    """One detector pass: it reads `window` and keeps the boxes centred in `core` (image pixels).

    Cores never overlap and together hold every cell near detail; a window is its core plus the
    margin, so windows may overlap, and an index near a core's edge is seen whole by the window of
    the core holding its centre (the one that keeps it) and cut, or whole, by its neighbour's (which
    drops it). Nothing is read twice into the result, nothing is cut.
    """

    window: Rect
    core: Rect

    @property
    def area(self) -> int:
        """Pixels the pass reads."""
        x0, y0, x1, y1 = self.window
        return (x1 - x0) * (y1 - y0)


def region_keeps(region: Region, boxes: np.ndarray, width: int, height: int) -> np.ndarray:
    """Which of the boxes (xyxy, photo pixels) a region's pass keeps: those centred in its core.

    Cores are end-exclusive, except at the photo's right and bottom edges, which belong to them.
    """
    x0, y0, x1, y1 = region.core
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    return ((cx >= x0) & ((cx < x1) | ((x1 >= width) & (cx <= x1)))
            & (cy >= y0) & ((cy < y1) | ((y1 >= height) & (cy <= y1))))


CellRect = tuple[int, int, int, int]  # x0, y0, x1, y1 in cells, end-exclusive


def _tight(mask: np.ndarray, r: CellRect) -> CellRect | None:
    """The bounding box of `mask`'s cells inside `r`, or None when it has none."""
    x0, y0, x1, y1 = r
    sub = mask[y0:y1, x0:x1]
    rows, cols = np.flatnonzero(sub.any(axis=1)), np.flatnonzero(sub.any(axis=0))
    if not len(rows):
        return None
    return x0 + int(cols[0]), y0 + int(rows[0]), x0 + int(cols[-1]) + 1, y0 + int(rows[-1]) + 1


def _cover(near: np.ndarray, detail: np.ndarray, margin: int, overhead: int) -> list[CellRect]:
    """Disjoint cores covering `near`, cut (guillotine, best cut first) while the windows get cheaper.

    A window costs its cells (the core grown by `margin`, inside the grid) plus `overhead` cells for
    the pass itself. A cut runs only through two empty columns (rows) of `detail`, so no index lies
    within a cell of it and each window keeps the full margin around all its detail. Seats in an
    L or a ring around an empty table centre make one bounding box but several cheap windows; two
    seats close together stay one window when cutting would read the margin between them twice.
    """
    rows, cols = near.shape

    def cost(r: CellRect) -> int:
        x0, y0, x1, y1 = r
        w = min(cols, x1 + margin) - max(0, x0 - margin)
        h = min(rows, y1 + margin) - max(0, y0 - margin)
        return w * h + overhead

    out: list[CellRect] = []
    todo = [t] if (t := _tight(near, (0, 0, cols, rows))) else []
    while todo:
        r = todo.pop()
        best, parts = cost(r), None
        x0, y0, x1, y1 = r
        colfree = ~detail[y0:y1, x0:x1].any(axis=0)
        rowfree = ~detail[y0:y1, x0:x1].any(axis=1)
        cuts = [((x0, y0, x0 + i, y1), (x0 + i, y0, x1, y1)) for i in range(1, x1 - x0)
                if colfree[i - 1] and colfree[i]]
        cuts += [((x0, y0, x1, y0 + i), (x0, y0 + i, x1, y1)) for i in range(1, y1 - y0)
                 if rowfree[i - 1] and rowfree[i]]
        for a, b in cuts:
            ta, tb = _tight(near, a), _tight(near, b)
            c = (cost(ta) if ta else 0) + (cost(tb) if tb else 0)
            if c < best:
                best, parts = c, [p for p in (ta, tb) if p]
        if parts is None:
            out.append(r)
        else:
            todo += parts
    return out


def detail_regions(image: np.ndarray, cfg: RegionConfig = RegionConfig()) -> list[Region]:
    """The detector passes that read every piece of detail with its margin, cheapest first found.

    `[]` for a photo without any detail (nothing to read); one region of the whole photo when the
    windows would cover more than `cfg.whole_above` of it, or when regions are disabled.
    """
    H, W = image.shape[:2]
    whole = [Region((0, 0, W, H), (0, 0, W, H))]
    if not cfg.enabled:
        return whole
    cells = detail_cells(image, cfg).astype(np.uint8)
    if not cells.any():
        return []
    # a cell beside detail may hold an index's centre (its glyph is in the neighbour): cores cover it
    near = cv2.dilate(cells, np.ones((3, 3), np.uint8)).astype(bool)
    m = max(0, cfg.margin_cells - 1)  # beyond `near`: margin_cells beyond detail
    c = cfg.cell

    def px(x0: int, y0: int, x1: int, y1: int) -> Rect:
        return x0 * c, y0 * c, min(W, x1 * c), min(H, y1 * c)

    rows, cols = cells.shape
    cores = _cover(near, cells.astype(bool), m, cfg.pass_cells)
    out = [Region(window=px(max(0, x0 - m), max(0, y0 - m), min(cols, x1 + m), min(rows, y1 + m)),
                  core=px(x0, y0, x1, y1)) for x0, y0, x1, y1 in cores]
    out.sort(key=lambda r: (r.core[1], r.core[0]))
    if sum(r.area for r in out) > cfg.whole_above * W * H:
        return whole
    return out
