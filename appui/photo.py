"""The app's one door into `vision/`: photo bytes in, a read table and an annotated picture out.

Every failure becomes a sentence that says what to do: a file that is not a photo, a corrupt or
enormous one, no model yet, a photo with no cards. `vision` is imported lazily so the app still
runs in manual mode while the reader (or its model) is missing: "photo reading unavailable: why".
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

#: Uploads above this are refused before decoding (phones produce ~3-12 MB; HEIC less).
MAX_UPLOAD_BYTES = 40 * 1024 * 1024
#: Long side of the picture shown on the page (the reader gets the full photo).
DISPLAY_LONG_SIDE = 1600
MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "cards.onnx"


@dataclass
class PhotoResult:
    """What the page shows for one photo. `error` set means nothing could be read."""

    image: np.ndarray | None = None  # RGB, for st.image
    annotated: np.ndarray | None = None  # RGB with labelled boxes, when the reader ran
    read: Any = None  # vision.types.TableRead
    error: str | None = None
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0  # how long the read took, decoding to drawing
    seat: int | None = None  # a close-up of this one table seat; None: the whole table


#: The reading stages, in order, as the page names them while it waits.
STAGES = ("Opening the photo 打开照片", "Finding and reading the cards 识牌", "Drawing the boxes 标注")


def _no_progress(stage: str) -> None:
    """The default progress report: none (the command line and tests need no spinner)."""


def _bgr_to_rgb(img: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(img[:, :, ::-1])


def decode(data: bytes) -> tuple[np.ndarray | None, str | None]:
    """The photo as RGB for display (shrunk), or why it cannot be read."""
    if not data:
        return None, "The file is empty. Take the photo again or choose another file."
    if len(data) > MAX_UPLOAD_BYTES:
        mb = len(data) / 1024 / 1024
        return None, (
            f"The file is {mb:.0f} MB, more than the {MAX_UPLOAD_BYTES // 1024 // 1024} MB this app accepts. "
            "Use the phone's normal photo size or a screenshot of the table."
        )
    try:
        imageio = importlib.import_module("vision.imageio")
        photo = imageio.open_photo(data, long_side=DISPLAY_LONG_SIDE)
    except ModuleNotFoundError as exc:
        return None, f"photo reading unavailable: {exc}"
    except Exception as exc:  # noqa: BLE001 - ImageReadError and anything a broken file triggers
        return None, (
            f"This file could not be opened as a photo ({_short(exc)}). "
            "Upload a JPEG, PNG or HEIC photo of the table, or type the cards in manual mode."
        )
    return _bgr_to_rgb(photo.image), None


def _short(exc: BaseException) -> str:
    text = str(exc).strip() or exc.__class__.__name__
    return text if len(text) <= 160 else text[:157] + "..."


def unavailable_reason() -> str | None:
    """None when photos can be read; else why not, for "photo reading unavailable: <reason>"."""
    try:
        vision = importlib.import_module("vision")
    except Exception as exc:  # noqa: BLE001
        return f"the photo reader could not be loaded ({_short(exc)})"
    if not callable(getattr(vision, "read", None)):
        return "the photo reader (vision.read) is not installed yet"
    if not MODEL_PATH.exists():
        return "the card model models/cards.onnx is not installed yet"
    return None


def read(
    data: bytes, seats: int | None = None, progress: Callable[[str], None] = _no_progress, jokers: int = 0
) -> PhotoResult:
    """Decode, read and annotate one photo, naming each stage to `progress`. Never raises.

    `jokers`: how many the table plays with (no preset has any), so a misread card is never
    offered as a joker the deck does not hold. A photo without colour gets a note saying so."""
    start = time.perf_counter()
    result = _read(data, seats, progress, jokers)
    result.seconds = time.perf_counter() - start
    return result


def _read(data: bytes, seats: int | None, progress: Callable[[str], None], jokers: int) -> PhotoResult:
    progress(STAGES[0])
    image, err = decode(data)
    if err:
        return PhotoResult(error=err)
    result = PhotoResult(image=image)
    reason = unavailable_reason()
    if reason:
        result.error = f"photo reading unavailable: {reason}. Type the cards below instead (manual mode)."
        return result
    progress(STAGES[1])
    try:
        vision = importlib.import_module("vision")
        table_read = vision.read(data, seats=seats, jokers=jokers)
    except Exception as exc:  # noqa: BLE001
        result.error = f"The photo could not be read ({_short(exc)}). Try another photo, or type the cards."
        return result
    result.read = table_read
    result.notes += [p.message[:1].upper() + p.message[1:] + "."
                     for p in getattr(table_read, "problems", []) if getattr(p, "kind", "") == "grey_photo"]
    if not any(s.cards for s in getattr(table_read, "seats", [])):
        result.error = (
            "No cards were found in this photo. Lay each hand face up in three rows (3, 5, 5 cards), "
            "photograph the whole table from above in good light, and try again."
        )
    progress(STAGES[2])
    result.annotated = annotate(data, table_read)
    return result


def annotate(data: bytes, table_read: Any) -> np.ndarray | None:
    """The photo with every card boxed and labelled (vision.draw), as RGB; None if drawing fails."""
    try:
        imageio = importlib.import_module("vision.imageio")
        draw = importlib.import_module("vision.draw")
        photo = imageio.open_photo(data, long_side=DISPLAY_LONG_SIDE)  # boxes scale to it
        fn = getattr(draw, "draw_table", None) or getattr(draw, "draw_read", None) or draw.draw
        out = fn(photo.image, table_read)
    except Exception:  # noqa: BLE001 - the cards are still listed below the photo
        return None
    if isinstance(out, np.ndarray) and out.ndim == 3:
        return _bgr_to_rgb(out)
    return None
