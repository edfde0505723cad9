"""The photo as a way to pick a card: tap a card's box to select it in the review, and see the box of
the card selected there (its chip's popover opened, or a replacement tapped) framed on the photo.

The clicks come from `streamlit-image-coordinates` (a maintained component that reports where the
image was tapped, in displayed pixels). Boxes are kept per card in session state (`boxes`, in the
photo's original pixels), beside the rows they belong to, so a seat turn moves them with the cards.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping, Sequence
from typing import Any

import numpy as np
import streamlit as st
from PIL import Image, ImageDraw

from appui.cards import ROWS
from appui.guard import guarded
from appui.state import select

TAP_KEY = "photo_tap"
#: A tap this far outside a box (in box sizes) still picks its card: fingers are wide, indices small.
TAP_SLACK = 0.6
SELECTED_COLOUR = (255, 0, 200)

try:
    from streamlit_image_coordinates import streamlit_image_coordinates
except ImportError:  # the component is a declared dependency; without it the photo is a plain image
    streamlit_image_coordinates = None


def card_at(
    x: float, y: float, boxes: dict[str, list[Any]], seats: Iterable[int]
) -> tuple[int, str, int] | None:
    """The card whose box holds (or nearly holds) the point (original pixels), among these seats."""
    best: tuple[float, tuple[int, str, int]] | None = None
    for seat in seats:
        for row in ROWS:
            for k, box in enumerate(boxes.get(f"{seat}:{row}") or []):
                if not (isinstance(box, list | tuple) and len(box) == 4):
                    continue
                x1, y1, x2, y2 = (float(v) for v in box)
                side = max(x2 - x1, y2 - y1, 1.0)
                dx = max(x1 - x, 0.0, x - x2) / side
                dy = max(y1 - y, 0.0, y - y2) / side
                far = max(dx, dy)
                if far <= TAP_SLACK and (best is None or far < best[0]):
                    best = (far, (seat, row, k))
    return best[1] if best else None


def selected_box(state: MutableMapping[str, Any]) -> list[float] | None:
    sel = state.get("selected")
    if not (isinstance(sel, list) and len(sel) == 3):
        return None
    boxes = state.get("boxes", {}).get(f"{sel[0]}:{sel[1]}") or []
    k = sel[2]
    return boxes[k] if isinstance(k, int) and 0 <= k < len(boxes) and boxes[k] else None


def framed(image: np.ndarray, size: tuple[int, int], box: Sequence[float] | None) -> np.ndarray:
    """The shown photo with the selected card's box framed (box in original pixels of `size`)."""
    if box is None or not size[0]:
        return image
    pic = Image.fromarray(image)
    k = pic.width / size[0]
    x1, y1, x2, y2 = (float(v) * k for v in box)
    pad = max(4.0, (x2 - x1) * 0.25)
    line = max(3, pic.width // 250)
    frame = (x1 - pad, y1 - pad, x2 + pad, y2 + pad)
    ImageDraw.Draw(pic).rectangle(frame, outline=SELECTED_COLOUR, width=line)
    return np.asarray(pic)


@guarded
def _on_tap() -> None:
    ss = st.session_state
    tap = ss.get(TAP_KEY)
    size = ss.get("photo_size")
    if not (isinstance(tap, dict) and isinstance(size, list | tuple) and tap.get("width")):
        return
    scale = size[0] / float(tap["width"])
    x, y = float(tap["x"]) * scale, float(tap["y"]) * scale
    found = card_at(x, y, ss.get("boxes", {}), ss.get("photo_seats", []))
    if found:
        select(ss, *found)


def show(image: np.ndarray, size: tuple[int, int], caption: str | None) -> None:
    """The photo, tappable; the selected card framed on it."""
    shown = framed(image, size, selected_box(st.session_state))
    st.session_state["photo_size"] = list(size)
    if streamlit_image_coordinates is None:
        st.image(shown, caption=caption, width=720)
        return
    with st.container(key="photo_box", width=720):
        streamlit_image_coordinates(shown, key=TAP_KEY, width="stretch", image_format="JPEG",
                                    jpeg_quality=85, on_click=_on_tap, cursor="pointer")
        if caption:
            st.caption(caption)
