"""Same seed, same bytes: whatever the number of worker processes."""

from __future__ import annotations

import filecmp

from datasets.synth.batch import run
from datasets.synth.scene import jpeg_bytes

from .conftest import procedural


def test_same_seed_same_scene():
    a, b = procedural(3, 7, size=480), procedural(3, 7, size=480)
    assert jpeg_bytes(a.image, a.quality) == jpeg_bytes(b.image, b.quality)
    assert a.labels == b.labels and a.meta == b.meta


def test_different_seed_different_scene():
    a, b = procedural(3, 7, size=480), procedural(4, 7, size=480)
    assert jpeg_bytes(a.image, a.quality) != jpeg_bytes(b.image, b.quality)


def test_workers_do_not_change_the_output(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    run(one, 4, seed=11, workers=1, size=320, progress=False)
    run(two, 4, seed=11, workers=2, size=320, progress=False)
    for sub in ("images", "labels", "meta"):
        names = sorted(p.name for p in (one / sub).iterdir())
        assert len(names) == 4
        match, mismatch, errors = filecmp.cmpfiles(one / sub, two / sub, names, shallow=False)
        assert not mismatch and not errors
