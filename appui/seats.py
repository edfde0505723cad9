"""Seats follow the people, not the camera: which seat is nearest the camera, and turning the order.

The reader numbers seats clockwise from the bottom of the photo; the sidebar's names go clockwise
round the table. The turn `k` says the seat nearest the camera is name `k`: photo seat `j` is
table seat `(j + k) mod n`. It is kept in the ledger's settings, so the next round (and a restarted
server) reads with the same turn; changing it moves the cards on screen, edits and all.

A photo taken from another side turns every seat's angle by the same amount. Where the seats are
not evenly spaced round the table (three players at a square table, say) only one turn lines the
new photo's seat angles up with the last round's: that turn is offered with one button.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from typing import Any

import streamlit as st

from appui.guard import flash, guarded
from appui.state import rotate_seats
from appui.text import shown_name
from ledger import Ledger

TURN_KEY = "seat_turn"
NEAREST_KEY = "nearest"
OFFER_KEY = "turn_offer"
ANGLES_KEY = "read_angles"
#: A turn lines the seats up when every seat's angle moved by the same amount within this.
ALIGNED_DEG = 25.0


def turn(state: MutableMapping[str, Any], count: int) -> int:
    value = state.get(TURN_KEY, 0)
    return int(value) % count if isinstance(value, int) and count > 0 else 0


def table_seat(photo_seat: int, k: int, count: int) -> int:
    return (photo_seat + k) % count if count > 0 else photo_seat


def matching_turn(
    previous: Sequence[float], previous_turn: int, angles: Sequence[float], count: int
) -> int | None:
    """The one turn that puts each seat of a new photo where the last round had it, or None.

    `previous` are the last read's seat angles (photo order) read with `previous_turn`; `angles`
    the new read's. None when the counts differ or the layout fits several turns equally (evenly
    spaced seats: nothing in the photo tells the sides apart)."""
    if count < 2 or len(previous) != count or len(angles) != count:
        return None
    placed = {table_seat(j, previous_turn, count): a for j, a in enumerate(previous)}
    fits = [k for k in range(count) if _spread([placed[table_seat(j, k, count)] - a
                                                for j, a in enumerate(angles)]) <= ALIGNED_DEG]
    return fits[0] if len(fits) == 1 else None


def _spread(deltas: Sequence[float]) -> float:
    """How far apart these angle differences are, in degrees (0: one rigid turn of the camera)."""
    ref = deltas[0]
    return max(abs((d - ref + 180.0) % 360.0 - 180.0) for d in deltas)


def note_read(state: MutableMapping[str, Any], angles: Sequence[float], count: int) -> None:
    """A whole-table read was applied: offer the matching turn if it is not the one in use."""
    previous = state.get(ANGLES_KEY)
    k = turn(state, count)
    offer = matching_turn(previous, k, angles, count) if isinstance(previous, list) else None
    state[OFFER_KEY] = offer if offer is not None and offer != k else None
    state[ANGLES_KEY] = [float(a) for a in angles]


@guarded
def _set_turn(ledger: Ledger, count: int, new: int) -> None:
    ss = st.session_state
    old = turn(ss, count)
    rotate_seats(ss, count, new - old)
    ss[TURN_KEY] = new % count
    ss[OFFER_KEY] = None
    try:
        ledger.set_setting(TURN_KEY, ss[TURN_KEY])
    except Exception as exc:  # noqa: BLE001
        flash("warning", f"The seat order could not be saved to the ledger ({exc}); it still applies here.")


@guarded
def _on_nearest(ledger: Ledger, count: int) -> None:
    _set_turn(ledger, count, int(st.session_state.get(NEAREST_KEY, 0)))


def render(ledger: Ledger, names: Sequence[str]) -> None:
    """"Nearest the camera" and the turn button, above the seats; the matching turn when found."""
    ss = st.session_state
    count = len(names)
    if count < 2:
        return
    if TURN_KEY not in ss:
        ss[TURN_KEY] = _saved_turn(ledger)
    k = turn(ss, count)
    ss[NEAREST_KEY] = k
    with st.container(horizontal=True, vertical_alignment="bottom", key="turn_bar"):
        st.selectbox(
            "📷 Nearest the camera 离镜头最近",
            list(range(count)),
            format_func=lambda j: names[j],
            key=NEAREST_KEY,
            on_change=_on_nearest,
            args=(ledger, count),
            width=280,
        )
        st.button("↻ Turn the seats 转座位", key="turn", on_click=_set_turn, args=(ledger, count, k + 1),
                  help="every hand moves one seat on, clockwise; the names stay")
    offer = ss.get(OFFER_KEY)
    if isinstance(offer, int) and 0 <= offer < count and offer != k:
        st.button(
            f"↻ Seat the hands as last round ({shown_name(names[offer])} nearest the camera)",
            key="turn_match",
            on_click=_set_turn,
            args=(ledger, count, offer),
            type="primary",
        )


def _saved_turn(ledger: Ledger) -> int:
    try:
        value = ledger.get_setting(TURN_KEY, 0)
    except Exception:  # noqa: BLE001
        return 0
    return value if isinstance(value, int) and value >= 0 else 0
