"""Step 3, review: each seat's head / middle / tail as a line of card chips, with what is wrong there.

Each chip is the card's editor: tapping it offers the reader's next guesses for that card and the
deck's unseen cards, a tap on one replaces it (the table re-scores at once), and "remove" takes out
a card that is not there. A row short of cards ends in an empty slot offering the unseen cards.
Typing stays one tap away (⌨️: a text field that accepts anything the engine parses, and a picker;
always shown when the cards are entered by hand).
What is wrong is said once per seat, in one line, and on the cards concerned (outlined, the reason
inside the chip and on hover), never as a banner per finding.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from appui import engine
from appui.cards import PICKER_OPTIONS, ROW_LABEL, ROW_SIZE, ROWS, is_red, pretty, row_html
from appui.choices import offers
from appui.findings import SeatFindings
from appui.photo_view import ask_close_up
from appui.state import (
    declare_key,
    on_pick,
    on_text,
    pick_key,
    remove_card,
    select,
    set_card,
    set_rows,
    txt_key,
)
from appui.table import SeatInput
from appui.text import shown_name

#: Unseen cards a chip offers beyond the reader's guesses: all of them while there are few, else
#: the ones sharing the card's rank or suit (a misread usually gets one of the two right).
FEW_UNSEEN = 13
SELECTED_STYLE = "box-shadow: 0 0 0 3px #ff00c8; border-color: #ff00c8;"  # the photo frames it alike


def foul_rows(outcome: engine.Outcome, name: str) -> list[str] | None:
    """The rows the engine says are out of order for this seat; None when it did not foul."""
    return outcome.foul_rows.get(name)


def suggestion(outcome: engine.Outcome, seat: SeatInput, rules: Any) -> dict[str, list[str]] | None:
    """A legal arrangement of this seat's 13 cards: the solver's, else the settle result's."""
    cards = [c for r in ROWS for c in seat.cards[r]]
    found = engine.arrange(cards, rules)
    if found:
        return found
    sugg = outcome.data.get("suggestions")
    if isinstance(sugg, dict) and seat.name in sugg:
        return engine.rows_of(sugg[seat.name])
    return None


def _notes(key: str, seat: int) -> dict[str, list[Any]]:
    """The photo's notes (confidence, guesses, boxes) for one seat's rows."""
    notes = st.session_state.get(key, {})
    if not isinstance(notes, dict):
        return {}
    return {r: list(notes.get(f"{seat}:{r}") or []) for r in ROWS}


def confidence(seat: int) -> dict[str, list[float]]:
    return _notes("confidence", seat)


def render_seat(
    i: int,
    seat: SeatInput,
    outcome: engine.Outcome,
    rules: Any,
    findings: SeatFindings,
    unseen: Sequence[str],
    offer_specials: bool = True,
    always_typing: bool = False,
) -> None:
    """One seat: its name and state, one line of what is wrong, a line of chips per row, 相公, 报到."""
    fouled = foul_rows(outcome, seat.name) if seat.complete else None
    status = "✅" if seat.complete and fouled is None else ("⚠️ 相公" if fouled is not None else "✏️")
    with st.container(border=True, key=f"seat_{i}"):
        st.markdown(f'<span id="seat-{i}"></span>**{shown_name(seat.name)}** &nbsp; {status}',
                    unsafe_allow_html=True)  # the anchor the photo's "picked" line links to
        if findings.line:
            st.caption(f":orange[⚠️ {findings.line}]")
        if findings.close_up:
            st.button("📷 Close-up of this seat 近拍这一家", key=f"close_up_{i}", on_click=ask_close_up,
                      args=(i,), help="Sets the photo above to a close-up of this seat: take or upload it")
        guesses = _notes("guesses", i)
        sel = st.session_state.get("selected")
        for row in ROWS:
            chosen = sel[2] if isinstance(sel, list) and sel[:2] == [i, row] else None
            typing = always_typing or bool(st.session_state.get(typing_key(i, row)))
            _render_row(i, row, seat.cards[row], findings, guesses[row], unseen, chosen, typing,
                        not always_typing, not seat.empty)
        special = engine.special_of(seat.cards, rules) if seat.complete and offer_specials else None
        if special:
            st.checkbox(
                f"报到 Declare {special}: wins its points from every other seat instead of comparing rows",
                key=declare_key(i),
            )
        if fouled is not None:
            _render_foul(i, seat, fouled, outcome, rules)


def _render_row(
    i: int,
    row: str,
    cards: list[str],
    findings: SeatFindings,
    guesses: list[Any],
    unseen: Sequence[str],
    chosen: int | None,
    typing: bool,
    toggle: bool,
    slot: bool,
) -> None:
    """One row: its label, a chip per card, an empty slot while it is short (at a seat that has
    cards: an empty seat is waiting for its photo or its typing), and ⌨️."""
    with st.container(horizontal=True, gap=None, vertical_alignment="center", key=f"row_{i}_{row}"):
        st.markdown(f'<span class="ssc-row">{ROW_LABEL[row]}</span>', unsafe_allow_html=True)
        for k, card in enumerate(cards):
            guessed = guesses[k] if k < len(guesses) and isinstance(guesses[k], list) else []
            _chip(i, row, k, card, findings.marks.get((row, k), []), guessed, unseen, k == chosen)
        if slot and len(cards) < ROW_SIZE[row]:
            _slot(i, row, len(cards), unseen)
        if toggle:
            st.button("⌨️", key=f"edit_{i}_{row}", help="type or pick this row 输入", on_click=_toggle_typing,
                      args=(i, row), type="primary" if typing else "secondary")
    if typing:
        _editor(i, row)


def chip_key(i: int, row: str, k: int, card: str, flagged: bool) -> str:
    """The chip's key names its place and card (a replaced card is a fresh, closed chip) and, for
    the page's outline style, whether it is flagged."""
    return f"chip_{i}_{row}_{k}_{card}" + ("_flag" if flagged else "")


def _label(card: str) -> str:
    text = pretty(card)
    return f":red[{text}]" if is_red(card) else text


def _chip(
    i: int,
    row: str,
    k: int,
    card: str,
    reasons: list[str],
    guessed: list[Any],
    unseen: Sequence[str],
    chosen: bool,
) -> None:
    if chosen:  # marked by style, not by the popover's own arguments: changing those would close it
        key = chip_key(i, row, k, card, bool(reasons))
        st.html(f"<style>.st-key-{key} button {{ {SELECTED_STYLE} }}</style>")
    free = [c for c in unseen if len(unseen) <= FEW_UNSEEN or _akin(c, card)]
    options = offers(card, [(str(g[0]), float(g[1])) for g in guessed], free)
    odds = {str(g[0]): float(g[1]) for g in guessed}
    with st.popover(
        _label(card),
        key=chip_key(i, row, k, card, bool(reasons)),
        help="; ".join(reasons) or None,
        on_change=select,
        args=(st.session_state, i, row, k),
    ):
        for reason in reasons:
            st.caption(f":orange[{reason}]")
        if options:
            st.caption(f"{pretty(card)} is really 其实是:")
        with st.container(horizontal=True, gap="small"):
            for c in options:
                st.button(
                    _label(c) + (f" · {_percent(odds[c])}" if c in odds else ""),
                    key=f"alt_{i}_{row}_{k}_{c}",
                    on_click=set_card,
                    args=(st.session_state, i, row, k, c),
                )
        st.button("✕ not there 去掉", key=f"del_{i}_{row}_{k}", on_click=remove_card,
                  args=(st.session_state, i, row, k), type="tertiary")


def _percent(p: float) -> str:
    return f"{p:.0%}" if p >= 0.01 else "<1%"


def _akin(a: str, b: str) -> bool:
    return len(a) == 2 and len(b) == 2 and (a[0] == b[0] or a[1] == b[1])


def _slot(i: int, row: str, k: int, unseen: Sequence[str]) -> None:
    """The row's first missing card: an empty chip offering every unseen card."""
    with st.popover("＋", key=f"slot_{i}_{row}_{k}", help=f"{ROW_LABEL[row]} needs {ROW_SIZE[row]} cards"):
        if unseen:
            st.caption("The missing card 缺的牌 (not seen elsewhere on the table):")
        else:
            st.caption("Every card of the deck is on the table: type the row (⌨️) to fix it.")
        with st.container(horizontal=True, gap="small"):
            for c in unseen:
                st.button(_label(c), key=f"add_{i}_{row}_{c}", on_click=set_card,
                          args=(st.session_state, i, row, k, c))


def typing_key(i: int, row: str) -> str:
    return f"typing_{i}_{row}"


def _toggle_typing(i: int, row: str) -> None:
    st.session_state[typing_key(i, row)] = not st.session_state.get(typing_key(i, row), False)


def _editor(i: int, row: str) -> None:
    """Typing, one tap away: the row's text field and its picker, drawn under the row while open.

    Not inside a popover: Streamlit does not pass a value set by a callback (a chip's tap) to a
    widget in a closed popover, which would then send its old value back on the next run."""
    st.text_input(
        f"{ROW_LABEL[row]} cards",
        key=txt_key(i, row),
        placeholder="e.g. Qh 10♠ Td" if row == "head" else "e.g. As Ks Qs Js 10s",
        on_change=on_text,
        args=(st.session_state, i, row),
    )
    st.multiselect(
        f"{ROW_LABEL[row]}: pick {ROW_SIZE[row]} cards 选牌",
        PICKER_OPTIONS,
        key=pick_key(i, row),
        format_func=pretty,
        # A reader can put 6 cards in a 5-card row: the picker must still show them so the player
        # can take one out (Streamlit refuses a widget holding more than its max_selections).
        max_selections=max(ROW_SIZE[row], len(st.session_state.get(pick_key(i, row)) or [])),
        placeholder="pick cards 选牌",
        on_change=on_pick,
        args=(st.session_state, i, row),
    )


def _render_foul(i: int, seat: SeatInput, rows: list[str], outcome: engine.Outcome, rules: Any) -> None:
    what = "; ".join(rows) if rows else "its rows are out of order"
    st.error(f"相公 foul: {what}. Rows must go head ≤ middle ≤ tail.")
    legal = suggestion(outcome, seat, rules)
    if legal:
        st.markdown(
            "A legal arrangement of the same cards 建议摆法:<br>"
            + "<br>".join(f"{ROW_LABEL[r]}: {row_html(legal[r])}" for r in ROWS),
            unsafe_allow_html=True,
        )
        st.button(
            "Use this arrangement 采用",
            key=f"use_arr_{i}",
            on_click=set_rows,
            args=(st.session_state, i, legal),
        )


def seat_problems(problems: list[dict], i: int) -> list[dict]:
    return [p for p in problems if p.get("seat") == i]


#: Compact chips: a row of five cards fits one line of a 390 px phone. Flagged chips are outlined.
STYLE = """<style>
[class*="st-key-row_"] { flex-wrap: nowrap; gap: 0.25rem; overflow-x: auto; }
[class*="st-key-row_"] button { padding: 0.1rem 0.3rem; min-height: 2.1rem; min-width: 2.2rem;
  width: auto; justify-content: center; font-weight: 600; }
[class*="st-key-row_"] button > div { gap: 0; }
@media (max-width: 640px) { [class*="st-key-seat_"] { padding: 0.6rem 0.5rem; } }
[class*="st-key-row_"] button p { font-size: 1rem; }
[class*="st-key-row_"] [data-testid="stIconMaterial"] { display: none; }
[class*="st-key-row_"] > [data-testid="stElementContainer"] { flex-shrink: 0; }
.ssc-row { display: inline-block; width: 3.1em; font-size: 0.72em; line-height: 1.1; color: #555; }
[class*="st-key-chip_"][class*="_flag"] button { outline: 2px dashed #ef6c00; outline-offset: 1px; }
</style>"""


def style() -> None:
    st.html(STYLE)
