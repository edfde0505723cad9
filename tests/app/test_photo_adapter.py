"""Every bad photo becomes a sentence that says what to do, never an exception."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import vision
from appui import photo, sample
from tests.app.conftest import ROOT

NO_MODEL = not (ROOT / "models" / "cards.onnx").exists()
CLASSIFIER = ROOT / "models" / "index_classifier.onnx"


def jpeg(w: int = 64, h: int = 48, color: tuple[int, int, int] = (20, 110, 60)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), color).save(buf, format="JPEG")
    return buf.getvalue()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "empty"),
        (b"%PDF-1.4 not a photo at all", "could not be opened as a photo"),
        (jpeg()[:200], "could not be opened as a photo"),  # truncated JPEG
    ],
)
def test_unreadable_files_get_a_message(data: bytes, words: str) -> None:
    result = photo.read(data)
    assert result.error and words in result.error
    assert result.read is None


def test_huge_upload_is_refused_before_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(photo, "MAX_UPLOAD_BYTES", 1000)
    result = photo.read(jpeg(400, 400))
    assert result.error and "MB" in result.error and result.image is None


def test_without_a_model_the_photo_is_shown_and_typing_offered(no_detector: Path) -> None:
    result = photo.read(jpeg())
    assert result.image is not None and result.image.shape == (48, 64, 3)
    assert result.read is None and result.annotated is None
    assert result.error == (
        f"photo reading unavailable: detector model not found: {no_detector} (train it or set CARDS_MODEL). "
        "Type the cards below instead (manual mode)."
    )


@pytest.mark.skipif(NO_MODEL, reason="models/cards.onnx not installed yet")
def test_without_a_classifier_reading_is_unavailable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDS_CLASSIFIER", str(tmp_path / "none.onnx"))
    vision.get_detector.cache_clear()
    result = photo.read(jpeg())
    vision.get_detector.cache_clear()
    assert result.image is not None and result.read is None
    assert result.error and result.error.startswith(
        f"photo reading unavailable: index classifier not found: {tmp_path / 'none.onnx'}")


@pytest.mark.skipif(not CLASSIFIER.exists(), reason="models/index_classifier.onnx not installed yet")
def test_a_model_that_is_not_a_detector_makes_reading_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDS_MODEL", str(CLASSIFIER))  # an ONNX model, but not the index finder
    vision.get_detector.cache_clear()
    result = photo.read(jpeg())
    vision.get_detector.cache_clear()
    assert result.image is not None and result.read is None
    assert result.error and result.error.startswith(f"photo reading unavailable: {CLASSIFIER} has outputs")


def test_sample_files_match() -> None:
    data = sample.photo_bytes()
    assert data is not None and photo.decode(data)[0] is not None
    table = sample.known_table()
    assert table and len(table["players"]) == 4


@pytest.mark.skipif(NO_MODEL, reason="models/cards.onnx not installed yet")
def test_a_photo_with_no_cards_says_how_to_retake_it() -> None:
    result = photo.read(jpeg(640, 480))
    assert result.error and "No cards" in result.error


def test_display_image_is_rgb() -> None:
    red = jpeg(color=(220, 10, 10))
    img, err = photo.decode(red)
    assert err is None and isinstance(img, np.ndarray)
    r, g, b = img[10, 10]
    assert r > 150 and g < 80 and b < 80
