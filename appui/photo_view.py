"""Step 1, photo: camera, upload or the bundled sample; read once, fill the seats, show the boxes.

A photo shows the whole table (each seat it finds goes to the table seat the seat turn gives, see
`appui.seats`) or one seat close up (it fills that seat alone, and the seat picker moves on to the
next empty seat). Reading happens in the widgets' callbacks, before the script draws anything, so
the cards read and the seat count found can be written into the editors' state (Streamlit forbids
setting a widget's value after it is drawn); a status box names each stage while it runs. Each
photo is read once: a rerun (any edit) reuses the stored result.
"""

from __future__ import annotations

import hashlib
from typing import Any

import streamlit as st

from appui import photo, photo_pick, sample, seats
from appui.cards import ROW_LABEL, ROWS, pretty
from appui.choices import guesses
from appui.guard import guarded
from appui.state import clear_cards, name_key, row_cards, set_rows
from appui.text import shown_name
from vision.types import ReadCard, SeatRead, TableRead

SCOPE_KEY = "photo_scope"
SEAT_KEY = "photo_seat"


def _notes(cards: list[ReadCard]) -> tuple[list[float], list[list[Any]], list[list[float] | None]]:
    """A row's per-card notes: confidence, the reader's next guesses, the card's box (one box
    round both corner indices when both were found)."""
    conf = [float(c.confidence) for c in cards]
    guessed = [[[g, p] for g, p in guesses(c.card, c.scores)] for c in cards]
    boxes = [_union(c.boxes) for c in cards]
    return conf, guessed, boxes


def _union(boxes: list[Any]) -> list[float] | None:
    if not boxes:
        return None
    corners = list(zip(*boxes, strict=True))
    return [min(corners[0]), min(corners[1]), max(corners[2]), max(corners[3])]


def _fill_seat(table_seat: int, seat_read: SeatRead) -> None:
    """One read seat into one table seat: its rows and the photo's notes on every card."""
    ss = st.session_state
    rows = seat_read.rows()
    set_rows(ss, table_seat, {r: [c.card for c in rows[r]] for r in ROWS})
    for r in ROWS:
        conf, guessed, boxes = _notes(rows[r])
        for key, value in (("confidence", conf), ("guesses", guessed), ("boxes", boxes)):
            ss.setdefault(key, {})[f"{table_seat}:{r}"] = value


def _problems(read: TableRead, where: dict[int, int]) -> list[dict]:
    """The reader's problems, their photo seat replaced by the table seat it was put at."""
    out = []
    for p in read.problems:
        d = p.to_json()
        if isinstance(d.get("seat"), int):
            if d["seat"] not in where:
                continue
            d["seat"] = where[d["seat"]]
        out.append(d)
    return out


def _apply_read(result: photo.PhotoResult) -> None:
    """Fill the editors from a whole-table read: each photo seat at the table seat the turn gives."""
    read = result.read
    found = read.seats[:5] if read is not None else []
    if not found:
        return
    clear_cards(st.session_state)
    _set_seat_count(len(found), result)
    count = max(int(st.session_state.get("seat_count") or len(found)), len(found))
    k = seats.turn(st.session_state, count)
    where = {j: seats.table_seat(j, k, count) for j in range(len(found))}
    for j, s in enumerate(found):
        _fill_seat(where[j], s)
    st.session_state["problems"] = _problems(read, where)
    st.session_state["photo_seats"] = sorted(where.values())
    seats.note_read(st.session_state, [float(s.orientation_deg) for s in found], count)


def _apply_seat_read(result: photo.PhotoResult, target: int) -> None:
    """A close-up of one seat: it fills that seat only; the other seats keep what they have."""
    read = result.read
    found = list(read.seats) if read is not None else []
    if not found:
        return
    if len(found) > 1:
        result.notes.append(
            f"This photo shows {len(found)} hands; the one with most cards went to "
            f"{seat_label(target)}. Photograph one seat's three rows at a time."
        )
    best = max(found, key=lambda s: len(s.cards))
    _fill_seat(target, best)
    others = [p for p in st.session_state.get("problems", []) if p.get("seat") != target]
    st.session_state["problems"] = others + _problems(read, {best.seat: target})
    st.session_state["photo_seats"] = [target]


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


def _read_with_progress(data: bytes, seats_hint: int | None, extra_suit: str | None = None
                        ) -> photo.PhotoResult:
    """The read, with a status box naming each stage while it runs and the time it took after."""
    with st.status(photo.STAGES[0], expanded=False) as status:
        result = photo.read(data, seats=seats_hint, progress=lambda stage: status.update(label=stage),
                            extra_suit=extra_suit)
        status.update(label=f"Read in {result.seconds:.1f} s", state="error" if result.error else "complete")
    return result


def load(data: bytes, *, is_sample: bool = False, seat: int | None = None, extra_suit: str | None = None
         ) -> None:
    """Read one photo (callback context) and store the result for the page.

    `seat`: the photo is a close-up of that table seat, which it fills alone. `extra_suit`: the
    five-player game's added suit (the table's rules), for the reader's deck."""
    digest = (hashlib.sha256(data).hexdigest()[:16] + ("" if seat is None else f"@{seat}")
              + ("" if extra_suit is None else f"+{extra_suit}"))
    if st.session_state.get("photo_digest") == digest and st.session_state.get("photo_result") is not None:
        return
    result = _read_with_progress(data, None if seat is None else 1, extra_suit)
    result.seat = seat
    if result.read is not None and not result.error:
        if seat is None:
            _apply_read(result)
        else:
            _apply_seat_read(result, seat)
            _next_seat(seat)
    elif result.read is not None and seat is None:
        st.session_state["problems"] = [p.to_json() for p in result.read.problems]
    elif is_sample and result.image is not None:
        _apply_sample_truth(result)
    st.session_state["photo_digest"] = digest
    st.session_state["photo_result"] = result


def _next_seat(done: int) -> None:
    """After a seat's photo, the seat picker moves to the next seat still empty (if any)."""
    ss = st.session_state
    count = int(ss.get("seat_count") or 0)
    for step in range(1, count):
        i = (done + step) % count
        if not any(str(ss.get(f"txt_{i}_{r}", "")).strip() for r in ROWS):
            ss[SEAT_KEY] = i
            return


@guarded
def _on_upload(key: str, per_seat: bool = False, extra_suit: str | None = None) -> None:
    f = st.session_state.get(key)
    if f is None:
        return
    try:
        data = f.getvalue()
    except Exception as exc:  # noqa: BLE001
        st.session_state["photo_result"] = photo.PhotoResult(error=f"The upload could not be read ({exc}).")
        return
    load(data, seat=int(st.session_state.get(SEAT_KEY, 0)) if per_seat else None, extra_suit=extra_suit)


@guarded
def ask_close_up(seat: int) -> None:
    """Set the photo inputs to a close-up of `seat` (its box's button, where the reader found its
    indices too small or blurred): the next photo taken or uploaded fills that seat alone."""
    st.session_state[SCOPE_KEY] = "seat"
    st.session_state[SEAT_KEY] = seat


@guarded
def _on_sample() -> None:
    data = sample.photo_bytes()
    if data is None:
        st.session_state["photo_result"] = photo.PhotoResult(
            error="The sample photo (assets/sample.jpg) is missing from this installation."
        )
        st.session_state.pop("photo_digest", None)
        return
    st.session_state[SCOPE_KEY] = "table"
    load(data, is_sample=True)


def render(names: list[str], extra_suit: str | None = None) -> None:
    """The photo inputs and, once a photo is in, the tappable photo and the reader's notes.
    `extra_suit`: the five-player game's added suit, from the table's rules (None: one 52-card deck)."""
    st.button("🃏 Try the sample photo 试试示例照片", key="sample", on_click=_on_sample, type="secondary")
    scope = st.radio(
        "What does the photo show? 照片内容",
        ["table", "seat"],
        format_func={"table": "the whole table 整桌", "seat": "one seat, close up 一家"}.get,
        horizontal=True,
        key=SCOPE_KEY,
    )
    per_seat = scope == "seat"
    if per_seat:
        if not isinstance(st.session_state.get(SEAT_KEY), int) or st.session_state[SEAT_KEY] >= len(names):
            st.session_state[SEAT_KEY] = 0
        st.selectbox("This photo is of 这是谁的牌", list(range(len(names))), format_func=names.__getitem__,
                     key=SEAT_KEY)
    suffix = "_seat" if per_seat else ""
    tab_up, tab_cam = st.tabs(["📁 Upload 上传", "📷 Camera 拍照"])
    with tab_up:
        st.file_uploader(
            "Photo of one seat's 3 rows" if per_seat else "Photo of the table, every hand face up in 3 rows",
            type=None,  # checked by the reader, so a wrong file gets our message, not a silent refusal
            key="upload" + suffix,
            on_change=_on_upload,
            args=("upload" + suffix, per_seat, extra_suit),
        )
    with tab_cam:
        st.camera_input(
            "Photograph the seat's rows from above" if per_seat else "Photograph the whole table from above",
            key="camera" + suffix,
            on_change=_on_upload,
            args=("camera" + suffix, per_seat, extra_suit),
        )
    result: photo.PhotoResult | None = st.session_state.get("photo_result")
    if result is not None:
        _show_result(result)


def _show_result(result: photo.PhotoResult) -> None:
    if result.error:
        (st.info if result.image is not None and "unavailable" in result.error else st.error)(result.error)
    for note in result.notes:
        st.info(note)
    shown = result.annotated if result.annotated is not None else result.image
    if shown is None:
        return
    read = result.read
    height, width = shown.shape[:2]
    size = (width, height)
    if read is not None:
        found = sum(len(s.cards) for s in read.seats)
        whose = "" if result.seat is None else f" of {seat_label(result.seat)}"
        tip = "tap a card on the photo to check it"
        st.caption(f"Read in {result.seconds:.1f} s, {found} cards{whose}: {tip}.")
        size = (read.width or width, read.height or height)
    caption = "cards boxed by seat and row; red = doubtful" if result.annotated is not None else None
    photo_pick.show(shown, size, caption)
    _picked()
    _orphans(result)


def _picked() -> None:
    """Which card the photo (or its chip) picked, and a link down to its seat: on a phone the
    review is a long way below the photo."""
    ss = st.session_state
    sel = ss.get("selected")
    if not (isinstance(sel, list) and len(sel) == 3 and sel[0] in ss.get("photo_seats", [])):
        return
    cards = row_cards(ss, sel[0], sel[1])
    if not (isinstance(sel[2], int) and 0 <= sel[2] < len(cards)):
        return
    where = f"{shown_name(seat_label(sel[0]))}, {ROW_LABEL[sel[1]]}"
    link = f"[tap it below ⬇](#seat-{sel[0]})"
    st.caption(f"Picked {pretty(cards[sel[2]])} ({where}), framed on the photo: {link}")


def _orphans(result: photo.PhotoResult) -> None:
    """Cards read outside every seat, to add where they belong; and reads left out as false ones,
    which a player puts back only where a row lacks that card."""
    read = result.read
    if read is None:
        return
    if read.orphans:
        cards = ", ".join(c.card for c in read.orphans)
        st.warning(f"Cards seen but not placed at any seat: {cards}. Add them to the right row below.")
    if read.left_out:
        cards = ", ".join(c.card for c in read.left_out)
        st.caption(f"Read and left out as false reads (mostly a card already on the table read again): "
                   f"{cards}. Add one only where a row lacks that card.")


def seat_label(i: int) -> str:
    return str(st.session_state.get(name_key(i), f"Seat {i + 1}"))
