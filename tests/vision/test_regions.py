"""The detector reads only the parts of a photo with detail (`vision.regions`, `Detector.regions`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import vision
from datasets.boxes import iou_matrix
from vision.detector import DEFAULT_MODEL, Detector
from vision.regions import Region, RegionConfig, detail_cells, detail_regions, region_keeps

SAMPLE = Path(__file__).resolve().parents[2] / "assets" / "sample.jpg"


def _table(h: int = 960, w: int = 1280, level: int = 90) -> np.ndarray:
    """A softly textured, slowly lit table: noise of +-4 grey levels over a left-to-right ramp."""
    rng = np.random.default_rng(0)
    ramp = np.linspace(-20, 20, w)[None, :, None]
    img = level + ramp + rng.normal(0, 2, (h, w, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def _corner(img: np.ndarray, x: int, y: int) -> None:
    """Paper with an ink glyph on it, as a corner index looks (30 x 40 px)."""
    img[y : y + 40, x : x + 30] = 245
    img[y + 8 : y + 30, x + 8 : x + 14] = 20
    img[y + 8 : y + 14, x + 8 : x + 22] = 20


def _inside(box: tuple[int, int, int, int], rect: tuple[int, int, int, int], margin: int) -> bool:
    return (box[0] - rect[0] >= margin and box[1] - rect[1] >= margin
            and rect[2] - box[2] >= margin and rect[3] - box[3] >= margin)


def test_an_empty_table_has_no_region():
    assert detail_regions(_table()) == []
    assert not detail_cells(_table()).any()


def _keeper(regions: list[Region], box: tuple[int, int, int, int]) -> list[Region]:
    keep = [r for r in regions if region_keeps(r, np.array([box], np.float32), 1280, 960)[0]]
    return keep


def test_each_patch_of_detail_gets_a_window_with_its_margin_on_the_cell_grid():
    img = _table()
    corners = [(100, 450), (600, 60), (1100, 800)]
    for x, y in corners:
        _corner(img, x, y)
    regions = detail_regions(img)
    assert len(regions) == 3
    for x, y in corners:  # kept by exactly one pass, which sees it whole with a cell of context
        box = (x, y, x + 30, y + 40)
        keep = _keeper(regions, box)
        assert len(keep) == 1 and _inside(box, keep[0].window, 32)
    for r in regions:
        for x0, y0, x1, y1 in (r.window, r.core):
            assert x0 % 32 == 0 and y0 % 32 == 0
            assert (x1 % 32 == 0 or x1 == 1280) and (y1 % 32 == 0 or y1 == 960)
        assert _inside(r.core, r.window, 0)
    area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in (r.window for r in regions))
    assert area < 0.2 * 1280 * 960  # three 256 px windows


def test_seats_in_an_l_get_two_windows_and_close_ones_one():
    img = _table()
    for x in range(100, 1100, 60):  # a long row of cards along the bottom ...
        _corner(img, x, 850)
    for y in range(100, 650, 70):  # ... and a column up the left side: one bounding box, mostly empty
        _corner(img, 60, y)
    regions = detail_regions(img)
    assert len(regions) == 2
    area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in (r.window for r in regions))
    assert area < 0.4 * 1280 * 960
    for a in regions:  # cores never overlap, so no index is kept twice
        for b in regions:
            if a is not b:
                assert a.core[2] <= b.core[0] or b.core[2] <= a.core[0] or a.core[3] <= b.core[1] \
                    or b.core[3] <= a.core[1]
    for x in range(100, 1100, 60):
        assert len(_keeper(regions, (x, 850, x + 30, 890))) == 1
    close = _table()
    _corner(close, 300, 300)
    _corner(close, 420, 330)  # their margins overlap: cutting would read that twice
    assert len(detail_regions(close)) == 1


def test_a_box_on_a_core_edge_belongs_to_one_side_and_the_photo_edge_to_the_last():
    left, right = Region((0, 0, 704, 960), (0, 0, 640, 960)), Region((576, 0, 1280, 960), (640, 0, 1280, 960))
    boxes = np.array([[630, 10, 650, 30], [620, 10, 640, 30], [1260, 940, 1280, 960]], np.float32)
    assert region_keeps(left, boxes, 1280, 960).tolist() == [False, True, False]
    assert region_keeps(right, boxes, 1280, 960).tolist() == [True, False, True]


def test_a_busy_photo_or_a_close_up_is_read_whole():
    img = _table()
    rng = np.random.default_rng(1)
    img[:, :, :] = rng.integers(0, 256, (960, 1280, 1), dtype=np.uint8)  # contrast everywhere
    assert [r.window for r in detail_regions(img)] == [(0, 0, 1280, 960)]
    # most of the photo is cards: cutting saves nothing, the whole photo is one region
    close = _table(640, 640)
    for y in range(40, 600, 90):
        for x in range(40, 600, 90):
            _corner(close, x, y)
    assert [r.window for r in detail_regions(close)] == [(0, 0, 640, 640)]


def _card(img: np.ndarray, x: int, y: int) -> None:
    """A whole card face (paper 200 x 280 px with ink): it sets the photo's brightness range."""
    img[y : y + 280, x : x + 200] = 245
    img[y + 100 : y + 180, x + 60 : x + 140] = 10


def test_the_median_texture_sets_the_bar_but_never_above_the_cap():
    rng = np.random.default_rng(2)
    cloth = np.clip(150 + rng.normal(0, 16, (960, 1280, 3)), 0, 255).astype(np.uint8)  # a coarse weave
    _card(cloth, 100, 100)
    assert len(detail_regions(cloth)) == 1  # the card; the weave is under the bar (3 x its median)
    ink = cloth.copy()
    ink[600:622, 900:906] = ink[600:606, 900:914] = 95  # a faint glyph: over the cap (64), under the
    # 3 x median gradient (~87) the cloth alone would set
    assert len(detail_regions(ink)) == 2
    assert len(detail_regions(ink, RegionConfig(detail_cap=255))) == 1  # the cap is what let it through


def test_a_dim_photo_lowers_the_bar_with_its_brightness_range():
    img = _table()
    _card(img, 900, 100)
    corners = [(100, 450), (600, 60), (500, 800)]
    for x, y in corners:
        _corner(img, x, y)
    for dim in (1.0, 0.3, 0.08):  # a lamp-lit evening table: paper at 74 or 20 grey levels
        regions = detail_regions((img * dim).astype(np.uint8))
        for x, y in corners:
            assert len(_keeper(regions, (x, y, x + 30, y + 40))) == 1, dim
    fixed = RegionConfig(full_range=1.0)  # floor and cap as for a bright photo
    dark = (img * 0.08).astype(np.uint8)
    assert not any(_keeper(detail_regions(dark, fixed), (x, y, x + 30, y + 40)) for x, y in corners)


def test_disabled_or_grey_images():
    img = _table()
    assert detail_regions(img, RegionConfig(enabled=False)) == [Region((0, 0, 1280, 960), (0, 0, 1280, 960))]
    grey = _table()[:, :, 0]
    _corner(grey, 200, 200)
    assert len(detail_regions(grey)) == 1


def test_detector_runs_only_on_regions_and_maps_boxes_back():
    det = Detector(DEFAULT_MODEL)
    calls = []
    run = det.proposer.session.run
    det.proposer.session.run = lambda names, feeds: calls.append(feeds["images"].shape) or run(names, feeds)
    boxes, _, _, _ = det.detect_working(np.full((960, 1280, 3), 200, np.uint8))
    assert calls == [] and boxes.shape == (0, 4)  # nothing to read on a blank photo
    img = _table()
    for x, y in ((100, 450), (1100, 800)):
        _corner(img, x, y)
    regions = detail_regions(img)
    det.detect_working(img)
    assert calls == [(1, 3, y1 - y0, x1 - x0) for x0, y0, x1, y1 in (r.window for r in regions)]


@pytest.mark.skipif(not SAMPLE.exists(), reason="sample photo missing")
def test_the_sample_photo_reads_the_same_with_and_without_regions():
    det_on, det_off = Detector(DEFAULT_MODEL), Detector(DEFAULT_MODEL, regions=RegionConfig(enabled=False))
    on, off = det_on.detect(SAMPLE), det_off.detect(SAMPLE)
    assert len(on) > 40 and len(on) == len(off)
    # each read on an index the other reads too (its centre inside a box of the other's): a sideways
    # index may keep a box over its rank alone or over rank and pip (two proposals on it, read about as
    # sure), never one on another index; the namer can name the rank-only crop another suit, so the
    # cards are compared where the player sees them, after the table read
    for mine, theirs in ((on, off), (off, on)):
        boxes = np.array([b.box for b in theirs], np.float64)
        for a in mine:
            cx, cy = (a.box[0] + a.box[2]) / 2, (a.box[1] + a.box[3]) / 2
            inside = (boxes[:, 0] <= cx) & (cx <= boxes[:, 2]) & (boxes[:, 1] <= cy) & (cy <= boxes[:, 3])
            assert inside.any() or iou_matrix(np.array([a.box], np.float64), boxes).max() >= 0.5

    def seats(det: Detector) -> list[dict[str, list[str]]]:
        return [{row: sorted(c.card for c in cards) for row, cards in s.rows().items()}
                for s in vision.read(SAMPLE, jokers=0, model=det).seats]

    seats_on, seats_off = seats(det_on), seats(det_off)
    assert seats_on == seats_off and len(seats_on) == 4
