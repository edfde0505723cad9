"""The app's one door into `vision/`: photo bytes in, a read table and an annotated picture out.

Every failure a player can meet becomes a sentence that says what to do: a file that is not a photo,
a corrupt or enormous one (`vision.ImageReadError`), no model or classifier installed
(`vision.ModelMissingError`) or one that is not the reader's kind (`ModelMismatchError`), a photo
with no cards. Without a model the photo is still shown and the cards can be typed: that is the
"photo reading unavailable" path (the sample photo then shows its known cards).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

import vision
from vision import ImageReadError, ModelMismatchError, ModelMissingError, open_photo
from vision.draw import draw_table
from vision.types import TableRead

#: Uploads above this are refused before decoding (phones produce ~3-12 MB; HEIC less).
MAX_UPLOAD_BYTES = 40 * 1024 * 1024
#: Long side of the picture shown on the page (the reader gets the full photo).
DISPLAY_LONG_SIDE = 1600


# The reader's problems about the whole photo, shown as notes above it (a seat's own problems are
# shown at that seat), each with how to act on it here.
TABLE_NOTES = {
    "grey_photo": ".",
    "added_suit": " (here: the sidebar's rule options, 五人 Five players and its added suit).",
}


@dataclass
class PhotoResult:
    """What the page shows for one photo. `error` set means nothing could be read."""

    image: np.ndarray | None = None  # RGB, for st.image
    annotated: np.ndarray | None = None  # RGB with labelled boxes, when the reader ran
    read: TableRead | None = None
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
        photo = open_photo(data, long_side=DISPLAY_LONG_SIDE)
    except ImageReadError as exc:  # what any damaged or foreign file raises (tests/vision fuzz it)
        return None, (
            f"This file could not be opened as a photo ({_short(exc)}). "
            "Upload a JPEG, PNG or HEIC photo of the table, or type the cards in manual mode."
        )
    return _bgr_to_rgb(photo.image), None


def _short(exc: BaseException) -> str:
    text = str(exc).strip() or exc.__class__.__name__
    return text if len(text) <= 160 else text[:157] + "..."


def read(
    data: bytes, seats: int | None = None, progress: Callable[[str], None] = _no_progress, jokers: int = 0,
    extra_suit: str | None = None,
) -> PhotoResult:
    """Decode, read and annotate one photo, naming each stage to `progress`. A bad photo or a
    missing model is a `PhotoResult.error`, never an exception.

    `jokers`: how many the table plays with (no preset has any), so no read is a joker and a
    misread card is never offered as one the deck does not hold. `extra_suit`: the five-player
    game's added suit, so the reader knows the 65-card deck (two copies of that suit's cards are no
    misread, even on one seat's photo). A photo without colour gets a note saying so."""
    start = time.perf_counter()
    result = _read(data, seats, progress, jokers, extra_suit)
    result.seconds = time.perf_counter() - start
    return result


def _read(data: bytes, seats: int | None, progress: Callable[[str], None], jokers: int,
          extra_suit: str | None = None) -> PhotoResult:
    progress(STAGES[0])
    image, err = decode(data)
    if err:
        return PhotoResult(error=err)
    result = PhotoResult(image=image)
    progress(STAGES[1])
    try:
        table_read = vision.read(data, seats=seats, jokers=jokers, extra_suit=extra_suit)
    except (ModelMissingError, ModelMismatchError) as exc:
        result.error = f"photo reading unavailable: {exc}. Type the cards below instead (manual mode)."
        return result
    except Exception as exc:  # noqa: BLE001 - onnxruntime failing on a broken model or photo: keep the page
        result.error = f"The photo could not be read ({_short(exc)}). Try another photo, or type the cards."
        return result
    result.read = table_read
    result.notes += [p.message[:1].upper() + p.message[1:] + TABLE_NOTES[p.kind]
                     for p in table_read.problems if p.kind in TABLE_NOTES]
    if not any(s.cards for s in table_read.seats):
        result.error = (
            "No cards were found in this photo. Lay each hand face up in three rows (3, 5, 5 cards), "
            "photograph the whole table from above in good light, and try again."
        )
    progress(STAGES[2])
    result.annotated = annotate(image, table_read)
    return result


def annotate(image: np.ndarray, table_read: TableRead) -> np.ndarray:
    """The displayed photo (RGB) with every card boxed and labelled by `vision.draw` (BGR colours)."""
    return _bgr_to_rgb(draw_table(_bgr_to_rgb(image), table_read))
