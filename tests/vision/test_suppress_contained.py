"""Cut-off copies of an index at tile edges: `suppress_contained` against the plain pairwise rule."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detector import suppress_contained


def reference(boxes: np.ndarray, scores: np.ndarray, tiles: np.ndarray, ratio: float = 0.7) -> list[int]:
    """Best first; a box mostly inside a better kept box of another tile goes."""
    keep: list[int] = []
    area = np.prod(np.clip(boxes[:, 2:] - boxes[:, :2], 0, None), axis=1)
    for i in np.argsort(-scores, kind="stable"):
        inside = False
        for j in keep:
            if tiles[i] == tiles[j]:
                continue
            iw = min(boxes[i, 2], boxes[j, 2]) - max(boxes[i, 0], boxes[j, 0])
            ih = min(boxes[i, 3], boxes[j, 3]) - max(boxes[i, 1], boxes[j, 1])
            if iw > 0 and ih > 0 and iw * ih >= ratio * min(area[i], area[j]):
                inside = True
                break
        if not inside:
            keep.append(int(i))
    return keep


def test_half_copy_at_a_tile_edge_goes_and_same_tile_neighbours_stay() -> None:
    boxes = np.array([[100, 100, 120, 130], [100, 100, 110, 130], [100, 100, 119, 129]], np.float32)
    scores = np.array([0.9, 0.5, 0.4], np.float32)
    tiles = np.array([0, 1, 0])
    # the half copy from tile 1 lies inside the whole index of tile 0; tile 0's own overlap stays
    assert suppress_contained(boxes, scores, tiles).tolist() == [0, 2]


@pytest.mark.parametrize("seed", range(20))
def test_matches_the_pairwise_rule_and_a_limit_gives_its_prefix(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 300
    xy = rng.uniform(0, 400, (n, 2))
    wh = rng.uniform(5, 40, (n, 2))
    boxes = np.column_stack([xy, xy + wh]).astype(np.float32)
    scores = rng.uniform(0, 1, n).astype(np.float32)
    tiles = rng.integers(0, 4, n)
    full = suppress_contained(boxes, scores, tiles)
    assert full.tolist() == reference(boxes, scores, tiles)
    assert 0 < len(full) < n  # the case is not trivial: some boxes go, some stay
    for limit in (1, 50, len(full), n):
        assert suppress_contained(boxes, scores, tiles, limit=limit).tolist() == full[:limit].tolist()
