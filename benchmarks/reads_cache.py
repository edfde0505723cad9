"""The reader's reads of rendered benchmark photos, kept beside them so that a geometry change is
scored in seconds instead of minutes (``python -m benchmarks.holdout --reuse-reads``).

Reads are keyed by everything that makes them: the bytes of the proposer and namer files, the
detector's settings, and the source of the reading code: every `vision` module that
`vision.detector` and `vision.imageio` (the photo's opening) import, followed import by import
(`reading_sources`). What only reads the reads (the geometry, the second look, `vision/__init__.py`)
is left out, so a change there is scored on the kept reads. Change any of these and the reads are
made afresh; nothing stale is reused. A detector built on sessions rather than files (a test's fake)
has no key: its reads are never kept.
"""

from __future__ import annotations

import ast
import hashlib
import pickle
from collections.abc import Callable
from pathlib import Path

from vision.detector import Detector, IndexReads

VISION = Path(__file__).resolve().parent.parent / "vision"
#: the modules whose code makes a photo's reads: the detector, and how the photo is opened for it
READING = ("detector", "imageio")


def _imported(src: Path, root: Path) -> set[str]:
    """The names of the `root` package's top-level modules that the module `src` imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(src.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        parts = (node.module or "").split(".")
        if node.level == 1:
            names.update([parts[0]] if parts[0] else [a.name for a in node.names])
        elif node.level == 0 and parts[0] == root.name and len(parts) > 1:
            names.add(parts[1])
    return names


def reading_sources(root: Path = VISION, start: tuple[str, ...] = READING) -> list[Path]:
    """The source files of `root`'s top-level modules that `start` imports, directly or through one
    another (relative or absolute imports), `start` included; sorted by name.

    >>> names = [p.name for p in reading_sources()]
    >>> "classifier.py" in names, "crops.py" in names, "second_look.py" in names, "__init__.py" in names
    (True, True, False, False)
    """
    seen: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        src = root / f"{name}.py"
        if name in seen or not src.is_file():
            continue
        seen.add(name)
        todo.extend(_imported(src, root) - seen)
    return sorted(root / f"{n}.py" for n in seen)


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
    for src in reading_sources():
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
