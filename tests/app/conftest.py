"""Shared fixtures: every app test gets its own ledger file through SHISANSHUI_LEDGER; reads of the
same photo by the real model are made once per session (`cached_reads`)."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import vision

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = json.loads((ROOT / "assets" / "sample.json").read_text(encoding="utf-8"))


@pytest.fixture
def ledger_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "ledger.sqlite3"
    monkeypatch.setenv("SHISANSHUI_LEDGER", str(path))
    return path


_READS: dict[tuple[str, tuple], object] = {}


@pytest.fixture
def cached_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """`vision.read` once per photo per test session (the model takes seconds on a CPU); each call
    gets its own copy, so a test that edits a read does not change the next test's."""
    real = vision.read

    def read(image: object, **kwargs: object) -> object:
        digest = hashlib.sha256(image).hexdigest() if isinstance(image, bytes) else str(id(image))
        key = (digest, tuple(sorted(kwargs.items())))
        if key not in _READS:
            _READS[key] = real(image, **kwargs)
        return copy.deepcopy(_READS[key])

    monkeypatch.setattr(vision, "read", read)


@pytest.fixture
def no_detector(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """No detector model where the reader looks (`$CARDS_MODEL` names a file that is not there);
    the detectors built so far are dropped, so the reader really looks."""
    missing = tmp_path / "cards.onnx"
    monkeypatch.setenv("CARDS_MODEL", str(missing))
    vision.get_detector.cache_clear()
    yield missing
    vision.get_detector.cache_clear()
