"""Step 2, photo: camera, upload or the bundled sample; read once, fill the seats, show the boxes.

Reading happens in the widgets' callbacks, before the script draws anything, so the cards read and
the seat count found can be written into the editors' state (Streamlit forbids setting a widget's
value after it is drawn). Each photo is read once: a rerun (any edit) reuses the stored result.
"""

from __future__ import annotations

import hashlib
from typing import Any

import streamlit as st

from appui import photo, sample
from appui.cards import ROWS
from appui.guard import guarded
from appui.state import clear_cards, name_key, set_rows

UPLOAD_TYPES = ["jpg", "jpeg", "png", "heic", "heif", "webp", "bmp", "tif", "tiff"]


def _apply_read(result: photo.PhotoResult) -> None:
    """Fill the editors from a successful read: cards, low-confidence marks, per-seat problems."""
    read = result.read
    seats = list(getattr(read, "seats", []))
    if not seats:
        return
    clear_cards(st.session_state)
    conf: dict[str, list[float]] = {}
    for i, s in enumerate(seats[:5]):
        rows = s.rows()
        set_rows(st.session_state, i, {r: [c.card for c in rows[r]] for r in ROWS})
        for r in ROWS:
            conf[f"{i}:{r}"] = [float(c.confidence) for c in rows[r]]
    st.session_state["confidence"] = conf
    st.session_state["problems"] = [p.to_json() for p in getattr(read, "problems", [])]
    _set_seat_count(len(seats), result)


def _set_seat_count(n: int, result: photo.PhotoResult) -> None:
    """More seats than the table has: grow it. Fewer: keep the table's seats (a seat the reader
    missed is more likely than a player who left) and say which to fill by hand."""
    allowed = 5 if any(k.startswith("opt_five_") and st.session_state.get(k) for k in st.session_state) else 4
    current = int(st.session_state.get("seat_count") or 0)
    if n > allowed or n < 1:
        result.notes.append(
            f"The photo shows {n} seat{'s' if n != 1 else ''}; this table plays 2 to {allowed}. "
            "Check the photo covers every hand, or set the players in the sidebar."
        )
    elif current and n < current:
        result.notes.append(
            f"The photo read found {n} of this table's {current} seats: type the missing "
            "seats' cards below, retake the photo, or set the players in the sidebar."
        )
    elif n >= 2:
        st.session_state["seat_count"] = n


def _apply_sample_truth(result: photo.PhotoResult) -> None:
    """No reader yet: show the sample's known cards, and say so."""
    truth = sample.known_table()
    if not truth:
        return
    clear_cards(st.session_state)
    players = truth["players"]
    for i, p in enumerate(players):
        set_rows(st.session_state, i, p)
    _set_seat_count(len(players), result)
    reason = (result.error or "").split(". Type the cards")[0]
    result.error = None
    result.notes.append(
        f"{reason or 'photo reading unavailable'}. The seats below hold the sample photo's known cards "
        "(not a read): edit one to try a correction."
    )


def load(data: bytes, *, is_sample: bool = False) -> None:
    """Read one photo (callback context) and store the result for the page."""
    digest = hashlib.sha256(data).hexdigest()[:16]
    if st.session_state.get("photo_digest") == digest and st.session_state.get("photo_result") is not None:
        return
    result = photo.read(data, seats=None)
    if result.read is not None and not result.error:
        _apply_read(result)
    elif result.read is not None:
        st.session_state["problems"] = [p.to_json() for p in getattr(result.read, "problems", [])]
    elif is_sample and result.image is not None:
        _apply_sample_truth(result)
    st.session_state["photo_digest"] = digest
    st.session_state["photo_result"] = result


@guarded
def _on_upload(key: str) -> None:
    f = st.session_state.get(key)
    if f is None:
        return
    try:
        data = f.getvalue()
    except Exception as exc:  # noqa: BLE001
        st.session_state["photo_result"] = photo.PhotoResult(error=f"The upload could not be read ({exc}).")
        return
    load(data)


@guarded
def _on_sample() -> None:
    data = sample.photo_bytes()
    if data is None:
        st.session_state["photo_result"] = photo.PhotoResult(
            error="The sample photo (assets/sample.jpg) is missing from this installation."
        )
        st.session_state.pop("photo_digest", None)
        return
    load(data, is_sample=True)


def render() -> None:
    """The photo inputs and, once a photo is in, the photo with its boxes and the reader's notes."""
    st.button("🃏 Try the sample photo 试试示例照片", key="sample", on_click=_on_sample, type="secondary")
    tab_up, tab_cam = st.tabs(["📁 Upload 上传", "📷 Camera 拍照"])
    with tab_up:
        st.file_uploader(
            "Photo of the table, every hand face up in three rows",
            type=None,  # checked by the reader, so a wrong file gets our message, not a silent refusal
            key="upload",
            on_change=_on_upload,
            args=("upload",),
        )
    with tab_cam:
        st.camera_input(
            "Photograph the whole table from above",
            key="camera",
            on_change=_on_upload, args=("camera",),
        )
    result: photo.PhotoResult | None = st.session_state.get("photo_result")
    if result is None:
        return
    if result.error:
        (st.info if result.image is not None and "unavailable" in result.error else st.error)(result.error)
    for note in result.notes:
        st.info(note)
    shown = result.annotated if result.annotated is not None else result.image
    if shown is not None:
        boxed = result.annotated is not None
        caption = "cards boxed by seat and row; dashed = low confidence" if boxed else None
        st.image(shown, caption=caption, width=720)
    _orphans(result)


def _orphans(result: photo.PhotoResult) -> None:
    orphans: list[Any] = list(getattr(result.read, "orphans", []) or [])
    if orphans:
        cards = ", ".join(getattr(c, "card", "?") for c in orphans)
        st.warning(f"Cards seen but not placed at any seat: {cards}. Add them to the right row below.")


def seat_label(i: int) -> str:
    return str(st.session_state.get(name_key(i), f"Seat {i + 1}"))
