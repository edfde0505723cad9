"""Step 3, review: each seat's head / middle / tail as editable cards, with what is wrong at that seat.

A row shows its cards as coloured chips (low-confidence reads outlined), a text field that accepts
anything the engine parses (`Qh`, `10♠`, `td`) and a picker. Reader problems, typing errors, wrong
row lengths and 相公 are all shown at the seat they concern, where the player will look for them.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from appui import engine
from appui.cards import PICKER_OPTIONS, ROW_LABEL, ROW_SIZE, ROWS, pretty, row_html
from appui.state import declare_key, on_pick, on_text, pick_key, set_rows, txt_key
from appui.table import SeatInput

LOW_CONFIDENCE = 0.6


def foul_rows(outcome: engine.Outcome, name: str) -> list[str] | None:
    """The rows the engine says are out of order for this seat; None when it did not foul."""
    if name in outcome.foul_rows:
        return outcome.foul_rows[name]
    fouls = outcome.data.get("fouls")
    if isinstance(fouls, dict):
        if name in fouls:
            val = fouls[name]
            return [str(v) for v in val] if isinstance(val, list | tuple) else [str(val)]
        return None
    if isinstance(fouls, list):
        for f in fouls:
            if f == name:
                return []
            if isinstance(f, dict) and f.get("player", f.get("name")) == name:
                rows = f.get("rows") or f.get("reasons") or f.get("reason") or []
                return [str(r) for r in rows] if isinstance(rows, list) else [str(rows)]
    return None


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


def _confidence(seat: int, row: str) -> list[float]:
    conf = st.session_state.get("confidence", {})
    return list(conf.get(f"{seat}:{row}", [])) if isinstance(conf, dict) else []


def render_seat(
    i: int,
    seat: SeatInput,
    outcome: engine.Outcome,
    rules: Any,
    problems: list[dict],
    offer_specials: bool = True,
) -> None:
    """One seat's editors and notes: reader problems, typing errors, 相公, a special to declare."""
    fouled = foul_rows(outcome, seat.name) if seat.complete else None
    status = "✅" if seat.complete and fouled is None else ("⚠️ 相公" if fouled is not None else "✏️")
    with st.container(border=True):
        st.markdown(f"**{seat.name}** &nbsp; {status}")
        for p in problems:
            st.warning(f"📷 {p.get('message', p.get('kind', 'problem'))}", icon=None)
        notes = seat.row_notes() if not seat.empty else {}
        for row in ROWS:
            _render_row(i, row, seat.cards[row], notes.get(row))
        special = engine.special_of(seat.cards, rules) if seat.complete and offer_specials else None
        if special:
            st.checkbox(
                f"报到 Declare {special}: wins its points from every other seat instead of comparing rows",
                key=declare_key(i),
            )
        if fouled is not None:
            _render_foul(i, seat, fouled, outcome, rules)


def _render_row(i: int, row: str, cards: list[str], note: str | None) -> None:
    conf = _confidence(i, row)
    low = [c < LOW_CONFIDENCE for c in conf] if len(conf) == len(cards) else None
    chips, text, pick_col = st.columns([2.55, 1.6, 0.95], vertical_alignment="bottom", gap="small")
    chips.markdown(
        f'<div style="font-size:0.8em;color:#555">{ROW_LABEL[row]} · {ROW_SIZE[row]}</div>'
        f'<div style="white-space:nowrap;padding-bottom:4px">{row_html(cards, low)}</div>',
        unsafe_allow_html=True,
    )
    pick = pick_col.popover("选", help="pick the cards from a list 选牌")
    text.text_input(
        f"{ROW_LABEL[row]} cards",
        key=txt_key(i, row),
        placeholder="e.g. Qh 10♠ Td" if row == "head" else "e.g. As Ks Qs Js 10s",
        label_visibility="collapsed",
        on_change=on_text,
        args=(st.session_state, i, row),
    )
    pick.multiselect(
        f"{ROW_LABEL[row]}: pick {ROW_SIZE[row]} cards 选牌",
        PICKER_OPTIONS,
        key=pick_key(i, row),
        format_func=pretty,
        # A reader can put 6 cards in a 5-card row: the picker must still show them so the player
        # can take one out (Streamlit refuses a widget holding more than its max_selections).
        max_selections=max(ROW_SIZE[row], len(st.session_state.get(pick_key(i, row)) or [])),
        placeholder="pick cards 选牌",
        label_visibility="visible",
        on_change=on_pick,
        args=(st.session_state, i, row),
    )
    if note:
        st.caption(f":orange[{ROW_LABEL[row]}: {note}]")
    if low and any(low):
        st.caption(":orange[dashed cards were read with low confidence: check them against the photo]")


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
