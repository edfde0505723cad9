"""The reader's reads of rendered benchmark photos, kept beside them so that a geometry change is
scored in seconds instead of minutes (``python -m benchmarks.holdout --reuse-reads``).

Reads are keyed by everything that makes them: the bytes of the proposer and namer files, the
detector's settings, and the source of the reading code (`vision/*.py`; the geometry in
`vision/geometry/` reads them and is left out). Change any of these and the reads are made afresh;
nothing stale is reused. A detector built on sessions rather than files (a test's fake) has no key:
its reads are never kept.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable
from pathlib import Path

from vision.detector import Detector, IndexReads

VISION = Path(__file__).resolve().parent.parent / "vision"


def reads_key(det: Detector) -> str | None:
    """A short hash of what a detector's reads depend on; None when it was not built from files."""
    files = [det.proposer.model_path, *det.classifier.model_paths]
    if any(f is None for f in files) or not det.classifier.model_paths:
        return None
    h = hashlib.sha1()
    for f in files:
        h.update(Path(f).read_bytes())
    settings = (det.conf, det.unsure_conf, det.bg_drop, det.skip_sure, det.lone_floor, det.faint_bg,
                det.max_det, det.zoom, det.proposer.conf, det.proposer.iou, det.proposer.scale,
                det.proposer.regions, det.classifier.context, det.classifier.refine_contexts,
                det.classifier.turns)
    h.update(repr(settings).encode())
    for src in sorted(VISION.glob("*.py")):
        h.update(src.name.encode() + src.read_bytes())
    return h.hexdigest()[:12]


class ReadsCache:
    """`IndexReads` by photo name, saved in `folder` under the detector's `reads_key`.

    >>> cache = ReadsCache(None)  # no folder: reads are made every time, kept nowhere
    >>> cache.get("a.jpg", lambda: IndexReads([], [])).sure
    []
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.reads: dict[str, IndexReads] = {}
        if path is not None and path.exists():
            with path.open("rb") as f:
                self.reads = pickle.load(f)
        self.made = 0  # reads made (not reused) since loading

    @classmethod
    def for_detector(cls, folder: Path, det: Detector) -> ReadsCache:
        key = reads_key(det)
        return cls(None if key is None else folder / f"reads-{key}.pkl")

    def get(self, name: str, make: Callable[[], IndexReads]) -> IndexReads:
        """The reads of photo `name`: kept ones, or `make()`'s (kept from now on)."""
        if name not in self.reads:
            self.reads[name] = make()
            self.made += 1
        return self.reads[name]

    def save(self) -> None:
        """Write the reads when any were made and there is a place for them."""
        if self.path is not None and self.made:
            tmp = self.path.with_suffix(".tmp")
            with tmp.open("wb") as f:
                pickle.dump(self.reads, f)
            tmp.replace(self.path)
            self.made = 0
