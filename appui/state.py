"""Session state: the names of every key the app keeps, and the sync between a row's two editors.

Each row has a text field (`Qh 10♠ td`) and a picker (multiselect). The text is the source of
truth: it can hold a typo the picker cannot, and the 65-card deck allows a card twice in a row.
The picker writes canonical text back; the text writes its valid cards back to the picker. Both
happen in on_change callbacks, which Streamlit runs before the script, so one change re-scores at
once and neither widget is set after it was drawn.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from appui import engine
from appui.cards import ROWS, as_text
from appui.guard import guarded

MAX_SEATS = 5
DEFAULT_NAMES = ("东 East", "南 South", "西 West", "北 North", "中 Centre")


def txt_key(seat: int, row: str) -> str:
    return f"txt_{seat}_{row}"


def pick_key(seat: int, row: str) -> str:
    return f"pick_{seat}_{row}"


def name_key(seat: int) -> str:
    return f"name_{seat}"


def declare_key(seat: int) -> str:
    return f"declare_{seat}"


def default_name(seat: int) -> str:
    return DEFAULT_NAMES[seat] if seat < len(DEFAULT_NAMES) else f"Seat {seat + 1}"


def ensure_defaults(state: MutableMapping[str, Any], saved_names: list[str] | None) -> None:
    """Every run: keep the editors' values alive; first run: empty rows, names from the ledger.

    Streamlit drops a widget's state when a run does not draw it (seat 4 while 3 play, the upload
    box in manual mode); re-assigning the value at the top of the run keeps it, so fewer seats for
    one round or a switch to manual mode loses nobody's cards or name.
    """
    if state.get("_ready"):
        for i in range(MAX_SEATS):
            for key in (name_key(i), declare_key(i), *(k(i, r) for r in ROWS for k in (txt_key, pick_key))):
                if key in state:
                    state[key] = state[key]
        return
    names = list(saved_names or [])
    for i in range(MAX_SEATS):
        state.setdefault(name_key(i), names[i] if i < len(names) and names[i] else default_name(i))
        for row in ROWS:
            state.setdefault(txt_key(i, row), "")
            state.setdefault(pick_key(i, row), [])
        state.setdefault(declare_key(i), True)
    state.setdefault("confidence", {})
    state.setdefault("problems", [])
    state["_ready"] = True


@guarded
def on_text(state: MutableMapping[str, Any], seat: int, row: str) -> None:
    """Text changed: mirror its valid cards into the picker; forget the photo's confidence."""
    parsed = engine.parse_row(state.get(txt_key(seat, row), ""))
    if parsed.error is None:
        state[pick_key(seat, row)] = _unique(parsed.cards)
    _forget_confidence(state, seat, row)


@guarded
def on_pick(state: MutableMapping[str, Any], seat: int, row: str) -> None:
    """Picker changed: its cards, in picked order, become the row's text."""
    state[txt_key(seat, row)] = as_text(state.get(pick_key(seat, row), []))
    _forget_confidence(state, seat, row)


@guarded
def set_rows(state: MutableMapping[str, Any], seat: int, rows: dict[str, list[str] | str]) -> None:
    """Fill one seat from the photo, the sample or a suggested arrangement."""
    for row in ROWS:
        val = rows.get(row, [])
        cards = val.split() if isinstance(val, str) else [str(c) for c in val]
        state[txt_key(seat, row)] = as_text(cards)
        state[pick_key(seat, row)] = _unique(cards)
        _forget_confidence(state, seat, row)


def clear_cards(state: MutableMapping[str, Any]) -> None:
    """A new round: every row empty, photo notes gone; names and settings stay."""
    for i in range(MAX_SEATS):
        set_rows(state, i, {})
        state[declare_key(i)] = True
    state["confidence"] = {}
    state["problems"] = []


def row_text(state: MutableMapping[str, Any], seat: int, row: str) -> str:
    return str(state.get(txt_key(seat, row), ""))


def _unique(cards: list[str]) -> list[str]:
    return list(dict.fromkeys(cards))


def _forget_confidence(state: MutableMapping[str, Any], seat: int, row: str) -> None:
    """The player has edited this row: the photo's confidences and the reader's problems about it
    (and about the seat as a whole, like its card count) no longer describe what is on screen."""
    conf = state.get("confidence")
    if isinstance(conf, dict):
        conf.pop(f"{seat}:{row}", None)
    problems = state.get("problems")
    if isinstance(problems, list):
        state["problems"] = [
            p for p in problems if not (p.get("seat") == seat and p.get("row") in (row, None))
        ]
