"""benchmarks.reads_cache: reads kept beside the photos, reused only while what makes them is the same."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks.reads_cache import ReadsCache, reads_key
from vision.detector import Detector, IndexReads
from vision.types import Detection

DATA = Path(__file__).resolve().parents[1] / "data" / "vision"


def test_reads_are_made_once_kept_and_loaded_again(tmp_path: Path) -> None:
    made: list[str] = []

    def make(name: str) -> IndexReads:
        made.append(name)
        return IndexReads([Detection("As", (0.0, 0.0, 10.0, 20.0), 0.9)], [])

    cache = ReadsCache(tmp_path / "reads-k.pkl")
    first = cache.get("a.jpg", lambda: make("a.jpg"))
    assert cache.get("a.jpg", lambda: make("a.jpg")) is first
    cache.save()
    again = ReadsCache(tmp_path / "reads-k.pkl")
    assert again.get("a.jpg", lambda: make("a.jpg")).sure[0].card == "As"
    assert again.get("b.jpg", lambda: make("b.jpg")).sure[0].box == (0.0, 0.0, 10.0, 20.0)
    assert made == ["a.jpg", "b.jpg"] and (again.made, cache.made) == (1, 0)


def test_the_key_follows_the_models_bytes_and_the_settings(tmp_path: Path) -> None:
    det, cls = tmp_path / "det.onnx", tmp_path / "cls.onnx"
    shutil.copy(DATA / "tiny_det.onnx", det)
    shutil.copy(DATA / "tiny_cls.onnx", cls)
    key = reads_key(Detector(det, classifier=cls))
    assert key is not None and key == reads_key(Detector(det, classifier=cls))
    assert reads_key(Detector(det, classifier=cls, conf=0.5)) != key
    onnx = pytest.importorskip("onnx")
    model = onnx.load(str(cls))
    model.doc_string = "retrained"  # another namer file at the same path
    onnx.save(model, str(cls))
    assert reads_key(Detector(det, classifier=cls)) != key


def test_a_detector_on_sessions_keeps_nothing(tmp_path: Path) -> None:
    from tests.vision.test_detector import Finder

    det = Detector(session=Finder(), classifier=DATA / "tiny_cls.onnx")
    assert reads_key(det) is None
    assert ReadsCache.for_detector(tmp_path, det).path is None


def test_the_reading_sources_follow_imports_from_the_detector(tmp_path: Path) -> None:
    from benchmarks.reads_cache import reading_sources

    pkg = tmp_path / "vision"
    (pkg / "geometry").mkdir(parents=True)
    files = {
        "__init__.py": "from .geometry import read\nfrom .second import look\n",
        "detector.py": "from .classifier import name\nfrom . import zoom\n",
        "classifier.py": "import numpy\n\ndef name():\n    from vision.sessions import open_session\n",
        "sessions.py": "",
        "zoom.py": "from .proposer import nms\n",
        "proposer.py": "from .imageio import open_photo\n",
        "imageio.py": "",
        "second.py": "from .detector import Detector\n",
        "jokers.py": "from .classes import NAMES\n",
        "classes.py": "",
        "geometry/read.py": "",
    }
    for name, text in files.items():
        (pkg / name).write_text(text)
    assert [p.name for p in reading_sources(pkg)] == [
        "classifier.py", "detector.py", "imageio.py", "proposer.py", "sessions.py", "zoom.py"]
    assert [p.name for p in reading_sources(pkg, ("jokers",))] == ["classes.py", "jokers.py"]
