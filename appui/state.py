"""Session state: the names of every key the app keeps, and the sync between a row's two editors.

Each row has a text field (`Qh 10♠ td`) and a picker (multiselect). The text is the source of
truth: it can hold a typo the picker cannot, and the 65-card deck allows a card twice in a row.
The picker writes canonical text back; the text writes its valid cards back to the picker. Both
happen in on_change callbacks, which Streamlit runs before the script, so one change re-scores at
once and neither widget is set after it was drawn.

What the photo said about each card sits beside the rows under `"seat:row"` keys, one entry per
card: `confidence`, `guesses` (the reader's next most likely cards) and `boxes` (where it lies in
the photo). A card replaced from its chip keeps its guesses and box (they describe the place, not
the card); a row retyped loses them, since its cards may no longer line up with the photo's.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from appui import engine
from appui.cards import PICKER_OPTIONS, ROWS, as_text
from appui.guard import guarded

MAX_SEATS = 5
PICKER_SET = frozenset(PICKER_OPTIONS)
#: Per-card notes from the photo, each a dict "seat:row" -> one value per card of that row.
CARD_NOTES = ("confidence", "guesses", "boxes")
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
    for key in CARD_NOTES:
        state.setdefault(key, {})
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


@guarded
def set_card(state: MutableMapping[str, Any], seat: int, row: str, k: int, card: str) -> None:
    """A chip's tap: card `k` of the row becomes `card` (k past the end: the row gains it).

    The photo's guesses and box for that place stay, its confidence becomes certain (the player
    chose), and the reader's findings about the card it replaces are dropped."""
    cards = row_cards(state, seat, row)
    old = cards[k] if k < len(cards) else None
    if old is None:
        cards.append(card)
        _note_lists(state, seat, row, len(cards) - 1)
    else:
        cards[k] = card
    _write_row(state, seat, row, cards)
    conf = state.get("confidence", {}).get(f"{seat}:{row}")
    if isinstance(conf, list) and k < len(conf):
        conf[k] = 1.0
    _drop_problems(state, seat, row, old)
    state["selected"] = [seat, row, min(k, len(cards) - 1)]


@guarded
def remove_card(state: MutableMapping[str, Any], seat: int, row: str, k: int) -> None:
    """A chip's "remove": a card read twice or one that is not there."""
    cards = row_cards(state, seat, row)
    if not 0 <= k < len(cards):
        return
    old = cards.pop(k)
    _write_row(state, seat, row, cards)
    for key in CARD_NOTES:
        notes = state.get(key, {}).get(f"{seat}:{row}")
        if isinstance(notes, list) and k < len(notes):
            notes.pop(k)
    _drop_problems(state, seat, row, old)
    state.pop("selected", None)


def select(state: MutableMapping[str, Any], seat: int, row: str, k: int) -> None:
    """The card the player is checking: its chip is marked and its box drawn on the photo."""
    state["selected"] = [seat, row, k]


def row_cards(state: MutableMapping[str, Any], seat: int, row: str) -> list[str]:
    """The row's cards, canonical and in the order its chips show them; a row that does not parse
    (a typo) as its tokens, so an edit never silently drops what was typed."""
    text = row_text(state, seat, row)
    parsed = engine.parse_row(text)
    return parsed.cards if parsed.error is None else text.replace(",", " ").split()


def rotate_seats(state: MutableMapping[str, Any], count: int, shift: int) -> None:
    """Move every seat's cards `shift` places round the table (seat i's go to seat i + shift).

    Names stay where they are: that is the point, the hands move to the right people. The photo's
    notes, the reader's problems and the selected card move with their cards."""
    shift %= max(count, 1)
    if not shift or count < 2:
        return
    moved = {}
    for i in range(count):
        moved[i] = {key: state.get(key) for key in _seat_keys(i)}
    for i in range(count):
        for src, dst in zip(_seat_keys(i), _seat_keys((i + shift) % count), strict=True):
            state[dst] = moved[i][src]
    for key in CARD_NOTES:
        notes = state.get(key)
        if isinstance(notes, dict):
            state[key] = {_shift_place(place, count, shift): v for place, v in notes.items()}
    state["problems"] = [_shift_problem(p, count, shift) for p in state.get("problems", [])]
    shown = state.get("photo_seats")
    if isinstance(shown, list):
        state["photo_seats"] = sorted((i + shift) % count if i < count else i for i in shown)
    sel = state.get("selected")
    if isinstance(sel, list) and sel and sel[0] < count:
        state["selected"] = [(sel[0] + shift) % count, *sel[1:]]


def _seat_keys(seat: int) -> list[str]:
    return [declare_key(seat), *(k(seat, r) for r in ROWS for k in (txt_key, pick_key))]


def _shift_problem(p: dict[str, Any], count: int, shift: int) -> dict[str, Any]:
    seat = p.get("seat")
    return {**p, "seat": (seat + shift) % count} if isinstance(seat, int) and seat < count else p


def _shift_place(place: str, count: int, shift: int) -> str:
    seat, _, row = place.partition(":")
    return f"{(int(seat) + shift) % count}:{row}" if seat.isdigit() and int(seat) < count else place


def _write_row(state: MutableMapping[str, Any], seat: int, row: str, cards: list[str]) -> None:
    state[txt_key(seat, row)] = as_text(cards)
    state[pick_key(seat, row)] = _unique([c for c in cards if c in PICKER_SET])


def _note_lists(state: MutableMapping[str, Any], seat: int, row: str, length: int) -> None:
    """Pad the row's photo notes to `length` cards (a card the player added has none)."""
    blank = {"confidence": 1.0, "guesses": [], "boxes": None}
    for key in CARD_NOTES:
        notes = state.setdefault(key, {}).get(f"{seat}:{row}")
        if isinstance(notes, list):
            notes.extend([blank[key]] * (length + 1 - len(notes)))


def _drop_problems(state: MutableMapping[str, Any], seat: int, row: str, card: str | None) -> None:
    """The reader's findings this edit answers: about the replaced card, the row's length, the
    seat's count. Findings about the row's other cards stay."""
    state["problems"] = [
        p for p in state.get("problems", [])
        if not (p.get("seat") == seat and p.get("row") in (row, None) and p.get("card") in (card, None))
    ]


def clear_cards(state: MutableMapping[str, Any]) -> None:
    """A new round: every row empty, photo notes gone; names and settings stay."""
    for i in range(MAX_SEATS):
        set_rows(state, i, {})
        state[declare_key(i)] = True
    for key in CARD_NOTES:
        state[key] = {}
    state["problems"] = []
    state.pop("selected", None)


def row_text(state: MutableMapping[str, Any], seat: int, row: str) -> str:
    return str(state.get(txt_key(seat, row), ""))


def _unique(cards: list[str]) -> list[str]:
    return list(dict.fromkeys(cards))


def _forget_confidence(state: MutableMapping[str, Any], seat: int, row: str) -> None:
    """The player has edited this row: the photo's notes on its cards and the reader's problems about
    it (and about the seat as a whole, like its card count) no longer describe what is on screen."""
    for key in CARD_NOTES:
        notes = state.get(key)
        if isinstance(notes, dict):
            notes.pop(f"{seat}:{row}", None)
    problems = state.get("problems")
    if isinstance(problems, list):
        state["problems"] = [
            p for p in problems if not (p.get("seat") == seat and p.get("row") in (row, None))
        ]
